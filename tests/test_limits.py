"`must_nbdev.companions.limits` (companion seed 001): the subsampled Laplace noise ratio and advanced composition."
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from must_nbdev.companions.limits import (laplace_noise_ratio, ratio_lower_bound, per_step_epsilon,
                                          advanced_composition_epsilon)


@settings(max_examples=200, deadline=None)
@given(st.floats(1e-6, 30), st.floats(1e-6, 1))
def test_noise_ratio_bounds(eps, p):
    r = float(laplace_noise_ratio(eps, p))
    assert 0 < r <= 1 + 1e-12
    c = eps / p   # eps = c p: the infimum bound holds
    assert r >= float(ratio_lower_bound(c)) - 1e-12


@pytest.mark.parametrize('k', [1, 10, 1000, 10**6])
def test_per_step_epsilon_root(k):
    e = per_step_epsilon(0.5, k, 1e-5)
    assert float(advanced_composition_epsilon(e, k, 1e-5)) == pytest.approx(0.5, rel=1e-10)


def test_bad_parameters():
    with pytest.raises(ValueError, match='p must be'): laplace_noise_ratio(1.0, 0)
