"""`must_nbdev.companions.randomized_response` (companion seed 002): subsampled RR exactly, from first principles and
against the subsampling theorem."""
import math
from fractions import Fraction
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from must_nbdev.companions.randomized_response import (exact_epsilon, rr_truth_probability, subsampled_rr_epsilon,
                                                       subsampled_rr_parameter, subsampling_theorem_epsilon)


@settings(max_examples=200, deadline=None)
@given(st.floats(1e-4, 20), st.floats(1e-4, 1))
def test_subsampled_rr_below_theorem(eps, p):
    assert float(subsampled_rr_epsilon(eps, p)) <= float(subsampling_theorem_epsilon(eps, p)) * (1 + 1e-12) + 1e-15


@pytest.mark.parametrize('eps,p', [(0.1, 0.5), (1.0, 0.01), (3.0, 0.3), (8.0, 0.9)])
def test_subsampled_rr_from_first_principles(eps, p):
    "In the batch (prob. p) RR_ε reports x w.p. e^ε/(1+e^ε), else a fair coin: ε = log(P/(1−P)), P = pt + (1−p)/2."
    t = math.exp(eps) / (1 + math.exp(eps))
    P = p * t + (1 - p) / 2
    assert float(subsampled_rr_epsilon(eps, p)) == pytest.approx(math.log(P / (1 - P)), rel=1e-12)
    assert float(exact_epsilon(float(rr_truth_probability('rr', eps)))) == pytest.approx(eps, rel=1e-12)


def test_subsampled_rr_double_prime_parameter_is_exact_in_fractions():
    "RR″ subsampled at rate p is RR″ at ε̃ = 2pε/(2 + ε(1 − p)), exactly."
    for eps, p in ((Fraction(1), Fraction(1, 2)), (Fraction(7, 3), Fraction(1, 10)),
                   (Fraction(1, 100), Fraction(9, 10))):
        assert subsampled_rr_parameter(eps, p) == 2 * p * eps / (2 + eps * (1 - p))


def test_bad_parameters():
    with pytest.raises(ValueError, match='eps must be'): subsampled_rr_epsilon(-1.0, 0.5)
