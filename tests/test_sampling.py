"""`must_nbdev.core.sampling`: property tests of the scheme registry and the occurrence pmf, the log-space pmfs against
60-digit mpmath references, and the regressions (silent record loss, unbounded occurrence kernels, late
validation)."""
import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from must_nbdev.core.amplification import amplify
from must_nbdev.core.sampling import scheme_at, make_scheme, multistage, occurrence_pmf, SCHEMES
from must_nbdev.core.samplers import sample_many
from must_nbdev.core.sampling import log_binom_pmf, log_hypergeom_pmf

mp.mp.dps = 60

sizes = st.integers(1, 400)

@settings(max_examples=60, deadline=None)
@given(n=sizes, b=sizes, m=sizes, name=st.sampled_from(['wor', 'wr', 'must-ow', 'must-wo', 'must-ww']))
def test_pmf_is_a_distribution_with_mean_m_over_n(n, b, m, name):
    if name == 'wor': m = min(m, n)
    if name == 'must-ow': b = min(b, n)
    if name == 'must-wo': m = min(m, b)
    sc = scheme_at(name, n, m, b=b)
    o = occurrence_pmf(sc)
    w = o.pmf
    assert not np.isnan(o.log_pmf).any() and (o.log_pmf < np.inf).all()   # -inf only for exactly impossible counts
    if n == 1: assert w[m] == 1                                           # one record: all m draws are it
    assert abs(w.sum() - 1) < 1e-12
    assert abs((np.arange(len(w)) * w).sum() - m / n) < 1e-12 * max(1, m / n)
    assert 0 < o.eta <= 1 and abs(o.eta - (1 - w[0])) < 1e-12

@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 300), b=st.integers(1, 300), m=st.integers(1, 300))
def test_eta_chain_ww_ow_wr_wor(n, b, m):
    b = min(b, n); mw = min(m, n)
    eta = lambda name, **kw: occurrence_pmf(make_scheme(name, n, **kw)).eta
    e_ww, e_ow, e_wr = eta('must-ww', m=m, b=b), eta('must-ow', m=m, b=b), eta('wr', m=m)
    assert e_ww <= e_ow * (1 + 1e-12) and e_ow <= e_wr * (1 + 1e-12)
    assert eta('wr', m=mw) <= eta('wor', m=mw) * (1 + 1e-12)

def test_general_multistage_equals_named_schemes():
    for name, stages in (('must-ow', [('wor', 50), ('wr', 40)]), ('must-ww', [('wr', 50), ('wr', 40)]),
                         ('wr', [('wr', 40)])):
        a = occurrence_pmf(scheme_at(name, 300, 40, b=50)).log_pmf
        b = occurrence_pmf(multistage(300, stages)).log_pmf
        assert np.allclose(a, b, rtol=0, atol=1e-13)

def test_three_stage_mean_and_sampler_agree():
    sc = multistage(60, [('wor', 40), ('wr', 30), ('wor', 20)])
    w = occurrence_pmf(sc).pmf
    assert abs((np.arange(len(w)) * w).sum() - 20 / 60) < 1e-13
    ms = sample_many(sc, 50_000, rng=0)
    assert (ms.sizes == 20).all()
    assert abs(ms.distinct.mean() - 60 * occurrence_pmf(sc).eta) < 5 * ms.distinct.std() / np.sqrt(50_000)

@pytest.mark.parametrize('kwargs,msg', [
    (dict(name='must-ow', n=100, m=10, b=101), 'b must be <= n'),
    (dict(name='must-wo', n=100, m=11, b=10), 'm must be <= b'),
    (dict(name='wr', n=0, m=1), 'n must be an integer >= 1'),
    (dict(name='wr', n=10, m=0), 'm must be an integer >= 1'),
    (dict(name='wr', n=10.5, m=1), 'n must be an integer'),
    (dict(name='wr', n=10, m=float('nan')), 'm must be an integer'),
    (dict(name='poisson', n=10, q=0.0), 'q must be finite and in (0, 1]'),
    (dict(name='poisson', n=10, m=11), 'm must be an integer >= 1 and <= 10'),
    (dict(name='poisson', n=10, m=11), "Poisson's expected batch size is m = q·n, rate q ≤ 1: m ≤ n = 10"),
    (dict(name='unknown', n=10, m=1), 'scheme must be one of'),
    (dict(name='wor', n=10, m=1, b=3), 'wor has no stage-I size b'),
])
def test_bad_input_raises_value_error_naming_argument(kwargs, msg):
    name = kwargs.pop('name')
    with pytest.raises(ValueError,
                       match=msg.replace('(', r'\(').replace(')', r'\)').replace('[', r'\[').replace(']', r'\]')):
        make_scheme(name, **kwargs)


# ---------------------------------------------------------------- log-space pmfs against mpmath
@pytest.mark.parametrize('n,p',
                         [(10**9, 1e-9), (10**6, 1e-6), (10**5, 3e-6), (500, 1e-3), (400, 0.2), (10**6, 0.37),
                          (60000, 1 / 3000)])
def test_log_binom_pmf_matches_mpmath(n, p):
    ks = sorted({0, 1, 2, 5, 17, 40, int(n * p), int(n * p) + 3, min(n, 300)})
    for k in ks:
        exact = mp.log(mp.binomial(n, k) * mp.mpf(p) ** k * (1 - mp.mpf(p)) ** (n - k))
        got = float(log_binom_pmf(k, n, p))
        # relative 1e-12 on the pmf itself = absolute 1e-12 on its log while the pmf is above 1e-280
        tol = 1e-12 if exact > mp.log(1e-280) else 1e-7 * abs(float(exact))
        assert abs(got - float(exact)) <= tol, (n, p, k, got, float(exact))


@pytest.mark.parametrize('p', [1.5, -0.1, float('nan'), [0.2, float('nan')]])
def test_log_binom_pmf_refuses_a_rate_outside_0_1_instead_of_nan(p):
    with pytest.raises(ValueError, match=r'p must be a probability in \[0, 1\]'): log_binom_pmf(1, 10, p)


def test_log_binom_pmf_refuses_negative_trials():
    with pytest.raises(ValueError, match='n must be a number of trials >= 0'): log_binom_pmf(0, -1, 0.5)
    assert log_binom_pmf(0, 0, 0.0) == 0.0 and log_binom_pmf(1, 10, 1.0) == -np.inf   # the ends of [0, 1] are fine


@pytest.mark.parametrize('N,K,s', [(500, 3, 400), (500, 40, 400), (10**6, 50, 10**5), (118, 7, 100), (30969, 12, 500)])
def test_log_hypergeom_pmf_matches_mpmath(N, K, s):
    for k in range(0, min(K, s) + 1):
        exact = mp.log(mp.binomial(K, k) * mp.binomial(N - K, s - k) / mp.binomial(N, s))
        got = float(log_hypergeom_pmf(k, N, K, s))
        tol = 1e-11 if exact > mp.log(1e-280) else 1e-7 * abs(float(exact))
        assert abs(got - float(exact)) <= tol, (N, K, s, k)


# ---------------------------------------------------------------- regressions
def test_regression_huge_occurrence_counts_are_refused_quickly():
    with pytest.raises(ValueError, match='smaller m'):
        amplify(make_scheme('must-ww', 10, m=10**6, b=10**6), 'gaussian', 1.0, [1.0])


@pytest.mark.parametrize('call,name', [
    (lambda: make_scheme('wr', 1e300, m=10), 'n'),
    (lambda: make_scheme('wr', 2 ** 63, m=10), 'n'),
    (lambda: make_scheme('poisson', 100, q=0.1, m=5), 'q'),
    (lambda: make_scheme('poisson', 100, q=True), 'q'),
    (lambda: multistage(100, [('wor',)]), 'stage'),
    (lambda: multistage(100, [('poisson', 'abc')]), 'stage 1 rate'),
    (lambda: sample_many(make_scheme('wr', 100, m=10), 2, rng='abc'), 'rng'),
])
def test_regression_bad_input_is_a_value_error_naming_the_argument(call, name):
    with pytest.raises(ValueError, match=name): call()


def test_regression_integral_float_sizes_are_normalised():
    sc = make_scheme('wr', 100, m=10.0)
    assert (sc.label == 'WR' and isinstance(sc.stages[0].size, int)
            and sample_many(sc, 3, rng=0).sizes.tolist() == [10] * 3)



def test_make_scheme_refuses_a_rate_it_would_ignore():
    "make_scheme('wor', 10, m=2, q=0.2) ignored q (and must account --q with --scheme wor)."
    with pytest.raises(ValueError, match="q is Poisson's rate"): make_scheme('wor', 10, m=2, q=0.2)
    with pytest.raises(ValueError, match="q is Poisson's rate"): make_scheme('must-ow', 10, m=2, b=4, q=0.2)

def test_numeric_strings_are_not_numbers():
    "check_real read '2' as 2.0 (sigma='2' worked) while check_int refused '10'."
    from must_nbdev.core.definitions import check_real, check_reals
    for bad in ('2', b'2', ['1', 2.0]):
        with pytest.raises(ValueError, match='not a string'): check_reals(bad, 'x')
    with pytest.raises(ValueError, match='sigma must be a real number, not a string'): check_real('2', 'sigma')
    assert check_real(np.float32(2), 'x') == 2.0 and check_reals([1, 2.5], 'x').tolist() == [1.0, 2.5]

def test_a_non_scheme_is_a_type_error_naming_how_to_build_one():
    "amplify, occurrence_pmf, expected_distinct, resolve_steps, sample_many, row_cost raised AttributeError on 'wor'."
    from must_nbdev.core.sampling import expected_distinct, resolve_steps, scheme_fits
    from must_nbdev.core.samplers import row_cost
    from must_nbdev.core.epochs import epoch_batches
    for call in (lambda: amplify('wor', 'gaussian', 1.0, 1.0), lambda: occurrence_pmf('wor'),
                 lambda: expected_distinct('wor'), lambda: resolve_steps('wor', 3), lambda: sample_many('wor', 3),
                 lambda: row_cost('wor')):
        with pytest.raises(TypeError, match='scheme must be a Scheme'): call()
    with pytest.raises(TypeError, match='EpochScheme'): epoch_batches('wor')
    with pytest.raises(ValueError, match='scheme must be one of'): scheme_fits('foo', 10, 2)   # was False
    assert scheme_fits('must-wo', 10, 5, 4) is False and scheme_fits('wor', 10, 5) is True


# ---------------------------------------------------------------- review of the core checks: reproducers
def test_regression_scheme_constructor_normalises_integral_floats():
    "Scheme('x', 'x', 10.0, (Stage('wr', 3.0),)) kept the floats: the public constructor now stores ints."
    from must_nbdev.core.sampling import Scheme, Stage
    sc = Scheme('x', 'x', 10.0, (Stage('wr', 3.0),))
    assert type(sc.n) is int and type(sc.stages[0].size) is int and sc == Scheme('x', 'x', 10, (Stage('wr', 3),))
    assert hash(sc) == hash(Scheme('x', 'x', 10, [Stage('wr', 3)]))          # a list of stages is stored as a tuple
    assert occurrence_pmf(sc).pmf.sum() == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize('call,err,msg', [
    (lambda S, St: S('x', 'x', 2 ** 60, (St('wr', 3),)), ValueError,
     r'n must be an integer >= 1 and <= 9007199254740992'),
    (lambda S, St: S('x', 'x', 10, (St('wr', 3),), 'bogus'), ValueError,
     'relation must be one of substitute, add_remove'),
    (lambda S, St: S('x', 'x', 10, (St('poisson', 5, 0.1),)), ValueError, 'a poisson stage .* has no size'),
    (lambda S, St: S('x', 'x', 10, (St('poisson', rate=1.5, param='q'),)), ValueError,
     r'q must be finite and in \(0, 1\]'),
    (lambda S, St: S('x', 'x', 10, (St('poisson'),)), ValueError, r'rate must be finite and in \(0, 1\], got None'),
    (lambda S, St: S('x', 'x', 10, (St('wor', 5, 0.1),)), ValueError, 'a wor stage draws size items; it has no rate'),
    (lambda S, St: S('x', 'x', 10, (St('wr'),)), ValueError, 'size must be an integer >= 1'),
    (lambda S, St: S('x', 'x', 10, (St('wr', 2.5, param='m'),)), ValueError, 'm must be an integer >= 1'),
    (lambda S, St: S('x', 'x', 10, (St('bogus', 2),)), ValueError, 'stage method must be one of wor, wr, poisson'),
    (lambda S, St: S('x', 'x', 10, (('wr', 3),)), TypeError, 'stages must hold Stage objects'),
    (lambda S, St: S('x', 'x', 10, ()), ValueError, 'stages must contain at least one stage'),
    (lambda S, St: S('x', 5, 10, (St('wr', 3),)), TypeError, 'label must be a non-empty str, got 5'),
    (lambda S, St: S('x', '', 10, (St('wr', 3),)), ValueError, "label must be a non-empty str, got ''"),
])
def test_regression_scheme_constructor_refuses_invalid_fields(call, err, msg):
    "n = 2**60 above MAX_N, relation='bogus' and a Poisson stage with a size were accepted by Scheme(...)."
    from must_nbdev.core.sampling import Scheme, Stage
    with pytest.raises(err, match=msg): call(Scheme, Stage)


def test_regression_relations_are_one_list_with_the_accountants():
    from must_nbdev.core.sampling import RELATIONS
    from must_nbdev.accounting.pairs import RELATIONS as ACCOUNTED
    assert ACCOUNTED is RELATIONS and {s.relation for s in SCHEMES.values()} <= set(RELATIONS)


def test_regression_multistage_label_is_a_non_empty_str_or_none():
    "multistage(..., label=5) was accepted and label='' silently became the default label."
    with pytest.raises(TypeError, match='label must be a non-empty str, got 5'):
        multistage(100, [('wor', 10)], label=5)
    with pytest.raises(ValueError, match="label must be a non-empty str, got ''"):
        multistage(100, [('wor', 10)], label='')
    assert multistage(100, [('wor', 10)]).label == 'MUST[wor10]'
    assert multistage(100, [('wor', 10)], label='mine').label == 'mine'


@pytest.mark.parametrize('stages', ['wor', {'wor': 5}, 5, [5], ['wor']])
def test_regression_multistage_refuses_what_is_no_list_of_stages_with_a_type_error(stages):
    "multistage(n, 'wor') raised ValueError ('each stage must be a pair'): a wrong type is a TypeError."
    with pytest.raises(TypeError, match='stages must be a list of'):
        multistage(100, stages)
    assert multistage(100, iter([('wor', 50), ('wr', 10)])).label == 'MUST[wor50->wr10]'   # a generator, read once


@pytest.mark.parametrize('args,name', [(('wor', '100', 10), 'n'), (('wor', 100, True), 'm'), (('wor', 100, 2.5), 'm'),
                                       (('wor', 100, -1), 'm'), (('must-wo', 100, 10, 'x'), 'b')])
def test_scheme_fits_refuses_what_is_no_size(args, name):
    "Regression: scheme_fits('wor', '100', 10), m=True and m=2.5 returned False, as if they were misfits."
    from must_nbdev.core.sampling import scheme_fits
    with pytest.raises(ValueError, match=f'{name} must be an integer'): scheme_fits(*args)


def test_log_binom_pmf_refuses_nan_successes_and_fractional_trials_it_passed_on():
    "Regression: log_binom_pmf(nan, 10, .5) returned NaN, n = 2.5 was taken, and 'a' gave numpy's conversion error."
    with pytest.raises(ValueError, match='k must be finite whole numbers, got nan'): log_binom_pmf(np.nan, 10, 0.5)
    with pytest.raises(ValueError, match='n must be finite whole numbers, got 2.5'): log_binom_pmf(1, 2.5, 0.5)
    with pytest.raises(TypeError, match='p must be a number or an array of numbers'): log_binom_pmf(1, 10, 'a')
    assert log_binom_pmf(11, 10, 0.5) == -np.inf and log_binom_pmf(-1, 10, 0.5) == -np.inf   # outside 0..n: no mass


def test_log_hypergeom_pmf_names_its_own_arguments_not_the_binomials():
    "Regression: log_hypergeom_pmf(1, 10, 11, 3) blamed the binomial's n, and s='x' gave numpy's conversion error."
    with pytest.raises(ValueError, match=r'K must be in \[0, N\]'): log_hypergeom_pmf(1, 10, 11, 3)
    with pytest.raises(ValueError, match=r's must be in \[0, N\]'): log_hypergeom_pmf(1, 10, 3, -1)
    with pytest.raises(ValueError, match='N must be a population size >= 1'): log_hypergeom_pmf(0, 0, 0, 0)
    with pytest.raises(TypeError, match="s must be a number"): log_hypergeom_pmf(1, 10, 5, 'x')
    got = log_hypergeom_pmf(np.arange(3), 10, np.array([0, 5, 10]), 3)        # arrays of counts still broadcast
    assert got[0] == 0.0 and got[2] == -np.inf and np.isfinite(got[1])


def test_scheme_at_checks_an_ignored_stage_one_size():
    "Regression: scheme_at('wor', 100, 10, b='x') ignored an invalid b without checking it."
    with pytest.raises(ValueError, match='b must be an integer'): scheme_at('wor', 100, 10, b='x')
    assert scheme_at('wor', 100, 10, b=50) == make_scheme('wor', 100, m=10)      # a valid b stays ignored


def test_log_binom_pmf_refuses_text_bools_and_infinite_counts():
    "Regression: '3' and True were read as numbers, and an infinite n or N returned NaN."
    for k, n, p, name in (('3', 10, 0.5, 'k'), (3, '10', 0.5, 'n'), (True, 10, 0.5, 'k'), (3, 10, '0.5', 'p')):
        with pytest.raises(TypeError, match=f'{name} must be a number or an array of numbers'): log_binom_pmf(k, n, p)
    with pytest.raises(ValueError, match='n must be finite whole numbers, got inf'): log_binom_pmf(5, np.inf, 0.5)
    with pytest.raises(ValueError, match='N must be finite whole numbers, got inf'): log_hypergeom_pmf(1, np.inf, 3, 3)
    assert np.isfinite(log_binom_pmf(3, 10**20, 1e-19))                      # an integer beyond int64 is a number

def test_regression_poisson_by_rate_printed_n_9007199254740992():
    "The CLI builds Poisson by its rate alone at n = MAX_N: its JSON `scheme` and the net's refusal printed that n."
    import contextlib, io, json
    from must_nbdev.core.sampling import MAX_N
    from must_nbdev.cli import main
    assert str(make_scheme('poisson', MAX_N, q=0.01)) == 'Poisson(q=0.01)'
    assert str(make_scheme('poisson', 1000, q=0.01)) == 'Poisson(n=1000: poisson(q=0.01))'    # a size given: shown
    for extra in (['--json'], ['--net']):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(['account', '--scheme', 'poisson', '--q', '0.01', '--sigma', '1', '--k', '10', '--delta', '1e-5',
                       *extra])
        text = out.getvalue() + err.getvalue()
        assert str(MAX_N) not in text and 'Poisson(q=0.01)' in text, text
        if extra == ['--json']: assert rc == 0 and json.loads(out.getvalue())['scheme'] == 'Poisson(q=0.01)'
        else: assert rc == 2 and len(err.getvalue().splitlines()) == 1
