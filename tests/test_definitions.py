"""`must_nbdev.core.definitions`: the privacy profiles in log space against 60-digit mpmath references, group privacy,
the analytic Gaussian's θ, and the θ = 0 regression."""
import mpmath as mp
import numpy as np
import pytest
from must_nbdev.core.definitions import analytic_gaussian_theta, gaussian_profile, laplace_profile, group_profile

mp.mp.dps = 60

def _rel(a, b): return abs(a - b) / abs(b)

def _gauss_exact(eps, theta):
    eps, theta = mp.mpf(eps), mp.mpf(theta)
    return mp.ncdf(theta / 2 - eps / theta) - mp.e ** eps * mp.ncdf(-theta / 2 - eps / theta)

@pytest.mark.parametrize('eps,theta',
                         [(4.5, .25), (0.05, .25), (1, 1), (3, .25), (0.5, 100), (2, 0.1), (0, 0.3), (10, 2),
                          (1e-3, 1e-2), (30, 5)])
def test_gaussian_profile_matches_mpmath(eps, theta):
    exact = _gauss_exact(eps, theta)
    got = float(gaussian_profile(eps, theta))
    assert got >= 0 and _rel(got, float(exact)) < 1e-10

def test_profiles_have_no_nan_or_inf_on_a_wide_grid():
    E, T = np.meshgrid(np.r_[0, np.logspace(-6, 3, 60)], np.logspace(-4, 3, 60))
    for f in (gaussian_profile, laplace_profile):
        v = f(E, T)
        assert np.isfinite(v).all() and (v >= 0).all() and (v <= 1).all()
    assert np.all(np.diff(gaussian_profile(E, T), axis=1) <= 1e-15)   # non-increasing in ε

def test_group_profile_white_box_is_theta_scaling():
    assert group_profile('laplace', 1.0, 0.25, 3) == pytest.approx(float(laplace_profile(1.0, 0.75)), rel=1e-15)

def test_analytic_gaussian_theta_inverts_the_profile():
    for eps, delta in ((0.1, 1e-5), (1.0, 1 / 30969), (3.0, 1e-9)):
        assert abs(float(gaussian_profile(eps, analytic_gaussian_theta(eps, delta))) / delta - 1) < 1e-9

def test_regression_gaussian_profile_at_zero_sensitivity_is_zero_not_nan():
    "θ = 0 means identical output laws: δ(ε) = 0 for every ε ≥ 0 (was 0/0 = NaN at ε = 0), and continuous as θ → 0."
    np.testing.assert_array_equal(gaussian_profile([0.0, 0.5, 5.0], 0.0), 0.0)
    assert group_profile('gaussian', 0.0, 0.0, 3) == 0.0
    small = gaussian_profile(0.0, 1e-6)
    assert 0 < small < 1e-6 and np.isfinite(small)          # δ(0) = 2Φ(θ/2) − 1 ≈ θ/√(2π)


# ---------------------------------------------------------------- review of the core checks: reproducers
def test_regression_none_is_reported_as_none_not_nan():
    "account(..., sigma=None) said 'sigma must be finite and in (0, inf], got nan': np.asarray(None, float) is NaN."
    from must_nbdev.core.definitions import check_real, check_reals
    from must_nbdev.core.sampling import make_scheme
    from must_nbdev.accounting.account import account
    with pytest.raises(ValueError, match=r'sigma must be finite and in \[1e-06, 1e\+100\], got None'):
        account(make_scheme('wor', 100, m=10), sigma=None, steps=2, eps=1)
    with pytest.raises(ValueError, match=r'sigma must be finite and in \(0, inf\), got None'):
        check_real(None, 'sigma', 0, lo_open=True)
    with pytest.raises(ValueError, match=r'eps must be finite and in \[0, inf\), got None'):
        check_reals([0.5, None], 'eps', 0)
    with pytest.raises(ValueError, match='eps must be finite'): check_reals(np.array([0.5, np.nan]), 'eps', 0)
    assert check_reals(np.arange(3), 'k', 0).tolist() == [0.0, 1.0, 2.0]          # numeric arrays: the fast path
    with pytest.raises(ValueError, match='not a boolean'): check_reals(np.array([True, False]), 'x')


def test_regression_check_choice_refuses_an_unhashable_value_by_name():
    "make_scheme(['wor'], 100, m=10) raised TypeError: unhashable type: 'list'."
    from must_nbdev.core.definitions import check_choice
    from must_nbdev.core.sampling import make_scheme
    with pytest.raises(ValueError,
                       match=r"scheme must be one of poisson, wor, wr, must-ow, must-wo, must-ww; got \['wor'\]"):
        make_scheme(['wor'], 100, m=10)
    with pytest.raises(ValueError, match='mechanism must be one of laplace, gaussian'):
        check_choice({'a': 1}, 'mechanism', {'laplace': 1, 'gaussian': 2})
    with pytest.raises(ValueError, match='analysis must be one of white, black'):
        check_choice(np.array(['white', 'black']), 'analysis', ('white', 'black'))


@pytest.mark.parametrize('call,msg', [
    (lambda: gaussian_profile(1, -1), r'theta must be finite and in \[0, inf\), got -1.0'),
    (lambda: gaussian_profile(float('nan'), 1), r'eps must be finite and in \[0, inf\), got nan'),
    (lambda: gaussian_profile([0.5, -0.1], 1), r'eps must be finite and in \[0, inf\), got -0.1'),
    (lambda: laplace_profile(1, float('inf')), r'theta must be finite'),
    (lambda: group_profile('gaussian', 1, 1, 2.5), r'j must be an integer >= 1 \(a group size\), got 2.5'),
    (lambda: group_profile('gaussian', 1, 1, -1, 'black'), r'j must be an integer >= 1 \(a group size\), got -1'),
    (lambda: group_profile('gaussian', 1, -1, 2, 'black'), r'theta must be finite and in \[0, inf\)'),
    (lambda: group_profile('laplace', 1, 1, [1, 2, 0]), r'j must be an integer >= 1'),
])
def test_regression_profiles_refuse_what_their_signature_excludes(call, msg):
    "gaussian_profile(1, -1) was 0, gaussian_profile(nan, 1) NaN, group_profile(.., j=2.5) a value, j=-1 black NaN."
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter('error')                              # no RuntimeWarning on the way to the error
        with pytest.raises(ValueError, match=msg): call()


def test_regression_profiles_keep_their_values_for_valid_vectorised_input():
    "The checks change no number: arrays of ε and integer-valued j (as amplified_delta passes them) still broadcast."
    from must_nbdev.core.definitions import vadhan_group_factor
    E, J = np.meshgrid(np.linspace(0, 6, 13), np.arange(1, 6))
    for analysis in ('white', 'black'):
        v = group_profile('gaussian', E, 0.5, J, analysis)
        assert v.shape == E.shape and np.isfinite(v).all()
    assert group_profile('gaussian', 1.0, 0.5, 3.0) == float(gaussian_profile(1.0, 1.5))   # 3.0 is an integer
    assert float(vadhan_group_factor(0.0, 4)) == 4.0


def test_regression_delta_from_pld_needs_one_weight_per_nonempty_loss():
    "delta_from_pld(1, []) raised ZeroDivisionError; delta_from_pld(1, [1, 2], [0.5]) broadcast the one weight."
    from must_nbdev.core.definitions import delta_from_pld
    with pytest.raises(ValueError, match='losses must not be empty'): delta_from_pld(1, [])
    with pytest.raises(ValueError, match=r'weights must have one entry per loss \(2\)'):
        delta_from_pld(1, [1, 2], [0.5])
    with pytest.raises(ValueError, match='weights must sum to at most 1'): delta_from_pld(1, [1, 2], [0.9, 0.9])
    with pytest.raises(ValueError, match='losses must be a flat list'): delta_from_pld(1, [[1, 2], [3, 4]])
    with pytest.raises(ValueError, match='eps must be finite'): delta_from_pld(-1, [1, 2])
    got = delta_from_pld([0.0, 1.0], [2.0, 3.0], [0.25, 0.75])
    want = [0.25 * -np.expm1(-2.0) + 0.75 * -np.expm1(-3.0), 0.25 * -np.expm1(-1.0) + 0.75 * -np.expm1(-2.0)]
    np.testing.assert_allclose(got, want, rtol=1e-15)
    assert delta_from_pld(0.5, 1.5) == pytest.approx(-np.expm1(-1.0), rel=1e-15)   # one atom, given as a scalar


def test_regression_delta_from_pld_takes_atoms_at_infinite_loss():
    from must_nbdev.core.definitions import delta_from_pld
    assert delta_from_pld(1.0, [0.5, np.inf], [0.9, 0.1]) == pytest.approx(0.1, abs=1e-15)
    with pytest.raises(ValueError, match='not NaN'): delta_from_pld(1.0, [0.5, np.nan])


def test_regression_hockey_stick_refuses_what_is_no_pmf():
    from must_nbdev.core.definitions import hockey_stick
    p = np.array([0.7, 0.3])
    for bad, match in (((p, [0.2, 0.3, 0.5], 1.0), 'one support'), ((p, [0.5, np.nan], 1.0), 'q must be'),
                       ((p, p, -0.5), 'eps must be'), ((p, [1.5, -0.5], 0.0), 'q must be')):
        with pytest.raises(ValueError, match=match): hockey_stick(*bad)
    assert hockey_stick(p, p, 0.0) == 0.0


def test_regression_gaussian_privacy_loss_checks_theta_and_takes_infinite_outputs():
    from must_nbdev.core.definitions import gaussian_privacy_loss
    assert list(gaussian_privacy_loss([-np.inf, 1.0, np.inf], 0.0)) == [0.0, 0.0, 0.0]   # never 0·inf = NaN
    assert gaussian_privacy_loss(np.inf, 2.0) == np.inf and gaussian_privacy_loss(1.0, 2.0) == 0.0
    with pytest.raises(ValueError, match='theta must be'): gaussian_privacy_loss(1.0, np.nan)


def test_check_tuples_names_the_argument_and_the_entry():
    "The shared check of pairs, rows and phases: entries of one length, never unpacked into an error."
    from must_nbdev.core.definitions import check_tuples
    assert check_tuples([(1, 2), [3, 4]], 'parts', 2, '(pld, k) pairs') == [(1, 2), (3, 4)]
    for bad in ([(1, 2, 3)], ['ab'], [5], [{1: 2, 3: 4}]):
        with pytest.raises(TypeError, match=r'parts must be a list of \(pld, k\) pairs, got the entry'):
            check_tuples(bad, 'parts', 2, '(pld, k) pairs')
    with pytest.raises(TypeError, match='phases must be a list of'): check_tuples(None, 'phases', 3, 'phases')
