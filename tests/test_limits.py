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


# ---- bad input refused by name (an audit of the public functions) ----
from must_nbdev.companions.limits import epochs_for_free_subsampling, scheme_noise_table, expected_sample_size

def test_per_step_epsilon_refuses_zero_delta_it_divided_by_zero():
    with pytest.raises(ValueError, match=r'delta must be finite and in \(0, 1\), got 0'): per_step_epsilon(1, 10, 0)

def test_per_step_epsilon_refuses_zero_steps_it_divided_by_zero():
    with pytest.raises(ValueError, match='k must be an integer >= 1, got 0'): per_step_epsilon(1, 0, 1e-5)

def test_epochs_for_free_subsampling_refuses_zero_steps_it_divided_by_zero():
    with pytest.raises(ValueError, match='ks must be an integer >= 1, got 0'):
        epochs_for_free_subsampling(1, [100, 0], 1e-5)

def test_epochs_for_free_subsampling_refuses_one_number_and_an_empty_list():
    with pytest.raises(TypeError, match='ks must be a list'): epochs_for_free_subsampling(1, 100, 1e-5)
    with pytest.raises(ValueError, match='ks must not be empty'): epochs_for_free_subsampling(1, [], 1e-5)

def test_scheme_noise_table_refuses_a_string_it_read_letter_by_letter():
    with pytest.raises(TypeError, match='schemes must be a list'): scheme_noise_table(schemes='wor')
    with pytest.raises(ValueError, match='schemes must be one of'): scheme_noise_table(schemes=('wor', 'srs'))
    with pytest.raises(ValueError, match='schemes must not be empty'): scheme_noise_table(schemes=())

def test_expected_sample_size_refuses_a_non_scheme_it_crashed_with_attribute_error():
    with pytest.raises(TypeError, match='scheme must be a Scheme'): expected_sample_size(100)

def test_valid_inputs_unchanged():
    "The checks take an integral float k, and the root still composes back to the total (advanced composition)."
    from must_nbdev.companions.limits import advanced_composition_epsilon
    e = per_step_epsilon(1.0, 10, 1e-5)
    assert per_step_epsilon(1.0, 10.0, 1e-5) == e and abs(float(advanced_composition_epsilon(e, 10, 1e-5)) - 1.0) < 1e-9
    assert [r['k'] for r in epochs_for_free_subsampling(1.0, (100, 1000), 1e-5)] == [100, 1000]


def test_plot_noise_ratio_reads_generators_once():
    "Regression: the check consumed a generator of p values, and the panel that plots them came out empty."
    import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot as plt
    from must_nbdev.companions.limits import plot_noise_ratio
    _, axes = plt.subplots(2, 2)
    plot_noise_ratio(axes, p_values=(p for p in (0.01, 0.1)))
    assert len(axes.ravel()[1].lines) == 2
    plt.close('all')
