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
