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


# ---- bad input refused by name (an audit of the public functions) ----
from must_nbdev.companions.randomized_response import (keep_probability, rr_double_prime_parameter,
                                                       shuffling_scaling_table)

def test_keep_probability_refuses_t_above_one_it_returned_nine():
    with pytest.raises(ValueError, match=r't must be finite and in \[0\.5, 1\], got 5'): keep_probability(5)
    with pytest.raises(ValueError, match='t must be'): keep_probability(0.2)
    with pytest.raises(ValueError, match=r't must be in \[1/2, 1\]'): keep_probability(Fraction(1, 4))

def test_keep_probability_refuses_nan_it_passed_through():
    with pytest.raises(ValueError, match='t must be finite'): keep_probability(float('nan'))

def test_keep_probability_valid_inputs_keep_their_type():
    assert keep_probability(Fraction(3, 4)) == Fraction(1, 2) and isinstance(keep_probability(0.75), float)
    assert np.array_equal(keep_probability(np.array([0.5, 1.0])), [0.0, 1.0])

def test_exact_epsilon_refuses_a_string_it_read_as_a_number():
    with pytest.raises(ValueError, match='t must be a real number, not a string'): exact_epsilon('0.7')

def test_rr_double_prime_parameter_refuses_keep_one_it_divided_by_zero():
    with pytest.raises(ValueError, match=r'keep must be finite and in \[0, 1\)'): rr_double_prime_parameter(1)
    with pytest.raises(ValueError, match='keep must be'): rr_double_prime_parameter(1.5)     # gave eps = -6
    with pytest.raises(ValueError, match='keep must be'): rr_double_prime_parameter(float('nan'))
    with pytest.raises(ValueError, match=r'keep must be in \[0, 1\)'): rr_double_prime_parameter(Fraction(1))
    assert rr_double_prime_parameter(Fraction(1, 2)) == 2

def test_shuffling_scaling_table_refuses_zero_users_it_divided_by_zero():
    with pytest.raises(ValueError, match='ns must be an integer >= 1, got 0'): shuffling_scaling_table(ns=(0,))
    with pytest.raises(ValueError, match='ns must be an integer >= 1'): shuffling_scaling_table(ns=(2.5,))
    with pytest.raises(TypeError, match='ns must be a list'): shuffling_scaling_table(ns=1000)

def test_shuffling_scaling_table_refuses_nan_constant_it_passed_through():
    with pytest.raises(ValueError, match=r'C must be finite and in \(0, inf\), got nan'):
        shuffling_scaling_table(C=float('nan'))
    with pytest.raises(ValueError, match='C must be'): shuffling_scaling_table(C=0)    # divided by zero
    with pytest.raises(ValueError, match='C must be'): shuffling_scaling_table(C=-1)   # a negative epsilon


def test_subsampled_rr_parameter_names_a_float_eps_too_large_for_floats():
    "Regression: at ε ≈ 1e17 (p = 1) the keep probability rounds to 1; the call returned inf, then blamed 'keep'."
    from fractions import Fraction
    from must_nbdev.companions.randomized_response import subsampled_rr_parameter
    with pytest.raises(ValueError, match=r'eps=1e\+17 is too large for float arithmetic'): subsampled_rr_parameter(1e17, 1.0)
    assert subsampled_rr_parameter(Fraction(10**17), Fraction(1)) == 10**17      # exact where asked

def test_the_figure_names_its_bad_rates_before_drawing():
    from must_nbdev.companions.randomized_response import plot_subsampled_rr
    with pytest.raises(ValueError, match='ps'): plot_subsampled_rr(ps=(0.5, 1.5))
    with pytest.raises(TypeError, match='ps'): plot_subsampled_rr(ps='0.5')
