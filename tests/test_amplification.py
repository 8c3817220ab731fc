"""`must_nbdev.core.amplification`: ε′ and δ′ of Theorem 4 against closed forms computed here (binomial occurrence law
of WR, Bernoulli of Poisson/WOR, the Laplace and Gaussian profiles written out), Definition 5's PA types, the
regressions (overflow past ε ≈ 709, δ′ above 1) and the amplify fuzz test."""
import math
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from scipy import stats
from must_nbdev.core.amplification import PA_TYPES, amplify, amplified_epsilon, base_epsilon, pa_type
from must_nbdev.core.sampling import make_scheme, occurrence_pmf
from _helpers import FUZZ_SCHEME, fuzz_scheme, run_cli, strict_json

# ---------------------------------------------------------------- closed forms
def laplace_delta(eps, theta):
    "Laplace mechanism with sensitivity/scale θ: δ(ε) = max(0, 1 − e^{(ε−θ)/2})."
    return max(0.0, -math.expm1((eps - theta) / 2))

def gaussian_delta(eps, theta):
    "Gaussian mechanism with sensitivity/σ θ: δ(ε) = Φ(θ/2 − ε/θ) − e^ε Φ(−θ/2 − ε/θ)."
    return stats.norm.cdf(theta / 2 - eps / theta) - math.exp(eps) * stats.norm.cdf(-theta / 2 - eps / theta)

EPS = [0.0, 0.3, 1.0, 2.5]

def test_poisson_gaussian_is_rate_times_base_delta():
    "Poisson draws a record at most once: ε′ = log(1 + q(e^ε − 1)) and δ′ = q δ(ε)."
    q, theta = 0.03, 1.3
    a = amplify(make_scheme('poisson', 1000, q=q), 'gaussian', theta, EPS)
    assert a.eta == pytest.approx(q, rel=1e-12)
    np.testing.assert_allclose(a.eps_prime, [math.log(1 + q * (math.exp(e) - 1)) for e in EPS], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(a.delta_prime, [q * gaussian_delta(e, theta) for e in EPS], rtol=1e-9)


def test_wr_laplace_is_a_binomial_mixture_of_group_profiles():
    "WR(m) of n: the copies of a record are Binomial(m, 1/n); white-box group privacy of l copies is Laplace at lθ."
    n, m, theta = 50, 30, 0.7
    a = amplify(make_scheme('wr', n, m=m), 'laplace', theta, EPS)
    l = np.arange(1, m + 1); w = stats.binom.pmf(l, m, 1 / n)
    assert a.eta == pytest.approx(1 - (1 - 1 / n) ** m, rel=1e-12)
    np.testing.assert_allclose(a.delta_prime,
                               [sum(wi * laplace_delta(e, li * theta) for wi, li in zip(w, l)) for e in EPS], rtol=1e-9)
    np.testing.assert_allclose(a.delta, [laplace_delta(e, theta) for e in EPS], rtol=1e-12)


@pytest.mark.parametrize('eta', [1e-4, 0.02, 0.5, 1.0])
def test_base_epsilon_inverts_amplified_epsilon(eta):
    eps = np.array([0.0, 1e-6, 0.1, 1.0, 10.0, 40.0, 800.0])
    back = base_epsilon(amplified_epsilon(eps, eta), eta)
    np.testing.assert_allclose(back, eps, rtol=1e-9, atol=1e-12)
    assert np.all(amplified_epsilon(eps, eta) <= eps * (1 + 1e-15))      # sampling never costs privacy


def test_pa_types_follow_definition_5():
    eps, delta = 1.0, 0.1
    cases = {(0.5, 0.05): 'strong', (1.0, 0.05): 'strong', (0.5, 0.2): 'weak-I', (1.5, 0.05): 'weak-II',
             (1.5, 0.2): 'dilution', (1.0, 0.1): 'none'}
    got = pa_type(eps, delta, np.array([k[0] for k in cases]), np.array([k[1] for k in cases]))
    assert list(got) == list(cases.values()) and set(cases.values()) <= set(PA_TYPES)


# ---------------------------------------------------------------- regressions
def test_regression_large_eps_stays_finite_and_json_is_strict():
    a = amplify(make_scheme('wor', 100, m=5), 'gaussian', 1, [709, 710, 1e5])
    assert np.all(np.isfinite(a.eps_prime)) and np.all(a.eps_prime < a.eps) and 'dilution' not in set(a.pa_type)
    b = amplify(make_scheme('wor', 100, m=5), 'laplace', 1, [709, 800], analysis='black')
    assert np.all(np.isfinite(b.delta_prime)) and 'weak-II' not in set(b.pa_type)
    rc, out, err = run_cli('amplify', '--scheme', 'wor', '--n', '100', '--m', '5', '--mechanism', 'gaussian', '--theta',
                           '1', '--eps', '709', '--eps', '710', '--json')
    assert rc == 0 and all(math.isfinite(r['eps_prime']) for r in strict_json(out))


def test_regression_delta_prime_never_above_one():
    worst = max(float(amplify(make_scheme('wr', n, m=m), 'laplace', 1.0, 0.0, analysis=an).delta_prime.max())
                for n in (2, 3, 5) for m in (1, 30, 69, 200) for an in ('white', 'black'))
    assert worst <= 1.0


@pytest.mark.parametrize('call,name', [
    (lambda: amplify(make_scheme('wor', 100, m=5), 'gaussian', True, [1.0]), 'theta'),
    (lambda: amplify(make_scheme('wor', 100, m=5), 'gaussian', 1, [[1, 2], [3, 4]]), 'eps'),
])
def test_regression_bad_input_is_a_value_error_naming_the_argument(call, name):
    with pytest.raises(ValueError, match=name): call()


# ---------------------------------------------------------------- fuzz
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=FUZZ_SCHEME, n=st.integers(1, 10**6), m=st.integers(1, 300), b=st.integers(1, 300),
       mech=st.sampled_from(['laplace', 'gaussian']), theta=st.floats(1e-3, 50), eps=st.floats(0, 1e4),
       analysis=st.sampled_from(['white', 'black']))
def test_fuzz_amplify_valid_inputs(name, n, m, b, mech, theta, eps, analysis):
    a = amplify(fuzz_scheme(name, n, m, b), mech, theta, [eps], analysis=analysis)
    assert np.all(np.isfinite(a.eps_prime)) and 0 <= a.eps_prime[0] <= eps * (1 + 1e-12) + 1e-300
    assert 0 <= a.delta_prime[0] <= 1 and 0 <= a.delta[0] <= 1 and a.pa_type[0] in PA_TYPES
    occ = occurrence_pmf(a.scheme); assert abs(occ.pmf.sum() - 1) < 1e-9 and 0 <= occ.eta <= 1


@pytest.mark.parametrize('args,msg', [
    ((float('nan'), 0.1, 0.5, 0.1), r'eps must be finite and in \[0, inf\), got nan'),
    ((1.0, 1.5, 0.5, 0.1), r'delta must be finite and in \[0, 1\], got 1.5'),
    ((1.0, 0.1, -0.5, 0.1), r'eps_prime must be finite and in \[0, inf\), got -0.5'),
    ((1.0, 0.1, 0.5, float('nan')), r'delta_prime must be finite and in \[0, 1\], got nan'),
    (([1.0, -1.0], 0.1, 0.5, 0.1), r'eps must be finite and in \[0, inf\), got -1.0'),
])
def test_regression_pa_type_refuses_nan_and_out_of_range_arguments(args, msg):
    "pa_type(nan, 0.1, 0.5, 0.1) returned 'strong'."
    with pytest.raises(ValueError, match=msg): pa_type(*args)


def test_pa_type_names_arguments_that_do_not_broadcast():
    "Regression: pa_type with lengths 2 and 3 raised numpy's 'shape mismatch ... arg 0' without naming an argument."
    with pytest.raises(ValueError, match=r'must broadcast to one shape, got shapes \(2,\), \(1,\), \(3,\) and \(1,\)'):
        pa_type([1, 2], [1e-5], [1, 2, 3], [1e-5])
