"""`must_nbdev.companions.accuracy_gains` (companion seed 004): the median's smooth sensitivity against its definition,
the sample budget of SRS, and the occurrence variance."""
import math
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from must_nbdev.companions.accuracy_gains import (median_smooth_sensitivity, sample_budget, amplified_by_srs,
                                                  mean_noise_ratio, sampling_rate, make_population, occurrence_variance)
from must_nbdev.core.sampling import scheme_at

def ss_by_definition(x, beta, lower, upper):
    n = len(x); c = (n + 1) // 2
    y = lambda i: lower if i < 1 else (upper if i > n else x[i - 1])
    return max(math.exp(-k * beta) * max(y(c + t) - y(c + t - k - 1) for t in range(k + 2)) for k in range(n + 1))

@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 50), min_size=1, max_size=41), st.floats(1e-3, 10))
def test_smooth_sensitivity_matches_definition(vals, beta):
    x = np.sort(np.array(vals[: len(vals) - (1 - len(vals) % 2)], float))
    got = median_smooth_sensitivity(x, beta, 0.0, 50.0)[0]
    assert got == pytest.approx(ss_by_definition(x, beta, 0.0, 50.0), rel=1e-9, abs=1e-12)

def test_smooth_sensitivity_batch_equals_rowwise():
    rng = np.random.default_rng(3)
    X = np.sort(rng.random((30, 51)), axis=1); betas = rng.uniform(0.01, 2, 30)
    batch = median_smooth_sensitivity(X, betas, 0, 1)
    assert np.allclose(batch, [median_smooth_sensitivity(x, b, 0, 1)[0] for x, b in zip(X, betas)], rtol=0, atol=0)

@settings(max_examples=200, deadline=None)
@given(st.floats(1e-6, 20), st.floats(1e-6, 1))
def test_srs_budget_inverts_theorem_and_mean_never_gains(eps, rate):
    en, dn = sample_budget(eps, 1e-6, rate)
    assert float(amplified_by_srs(en, dn, rate)[0]) == pytest.approx(eps, rel=1e-9)
    assert float(mean_noise_ratio(eps, rate)) <= 1 + 1e-12

def test_bad_parameters():
    with pytest.raises(ValueError, match='n must be'): sampling_rate(11, 10)
    with pytest.raises(ValueError, match='N must be odd'): make_population('bimodal', N=10)

def test_occurrence_variance_wr_is_binomial():
    s = scheme_at('wr', 500, 80)
    assert occurrence_variance(s) == pytest.approx(80 * (1 / 500) * (1 - 1 / 500), rel=1e-12)


# ---- bad input refused by name (an audit of the public functions) ----
from must_nbdev.companions.accuracy_gains import (rate_for_variance_bound, eps_where_ratio_reaches, must_stage_one_size,
                                                  mean_gain_table, median_study, median_mse_by_rate, odd_size,
                                                  mean_release_variance, plot_study_violins)

def test_rate_for_variance_bound_refuses_q_out_of_reach_it_raised_brentq_sign_error():
    with pytest.raises(ValueError, match=r'q must be <= 0\.585171 at eps=50') as e: rate_for_variance_bound(0.9, 50)
    assert 'different signs' not in str(e.value)
    assert rate_for_variance_bound(0.585, 50) < 1e-11   # just inside: still solved

def test_eps_where_ratio_reaches_refuses_tol_out_of_reach_it_raised_brentq_sign_error():
    with pytest.raises(ValueError, match=r'tol must be <= 0\.74302 at rate=0\.5') as e:
        eps_where_ratio_reaches(0.5, 0.9)
    assert 'different signs' not in str(e.value)

def test_median_smooth_sensitivity_refuses_nan_it_returned_nan():
    with pytest.raises(ValueError, match='sorted_values must be finite'):
        median_smooth_sensitivity([1.0, np.nan, 3.0], 0.1, 0, 10)
    with pytest.raises(ValueError, match='upper must be finite'):
        median_smooth_sensitivity([1.0, 2.0, 3.0], 0.1, 0, np.inf)
    with pytest.raises(ValueError, match='lower must be a real number'):
        median_smooth_sensitivity([1.0, 2.0, 3.0], 0.1, '0', 9)

@pytest.mark.parametrize('seed', [True, 2.5, -1])
def test_make_population_refuses_a_bool_or_fraction_seed_it_accepted_or_crashed_on(seed):
    with pytest.raises(ValueError, match='seed must be an integer >= 0'): make_population('bimodal', N=101, seed=seed)

@pytest.mark.parametrize('b_factor', [2.5, True, 0])
def test_b_factor_refuses_a_fraction_or_bool_it_multiplied_silently(b_factor):
    with pytest.raises(ValueError, match='b_factor must be an integer >= 1'):
        must_stage_one_size('must-ow', 100, 10, b_factor)
    with pytest.raises(ValueError, match='b_factor must be an integer >= 1'):
        mean_gain_table([0.1, 0.5, 0.9], b_factor=b_factor)
    pop = make_population('bimodal', N=101)
    with pytest.raises(ValueError, match='b_factor must be an integer >= 1'):
        median_study(pop, (0, 1), sizes=(11,), T=5, scheme='must-ow', b_factor=b_factor)

def test_mean_gain_table_refuses_a_string_of_schemes_it_read_letter_by_letter():
    with pytest.raises(TypeError, match='schemes must be a list'): mean_gain_table([0.1, 0.5, 0.9], schemes='wor')
    with pytest.raises(ValueError, match='population must be a list of >= 2 values'): mean_gain_table([0.5])

def test_median_study_refuses_bad_sizes_bounds_and_population_by_name():
    pop = make_population('bimodal', N=101)
    with pytest.raises(ValueError, match='sizes must be odd'): median_study(pop, (0, 1), sizes=(10,), T=5)
    with pytest.raises(TypeError, match='sizes must be a list'): median_study(pop, (0, 1), sizes=11, T=5)
    with pytest.raises(ValueError, match='bounds must be'): median_study(pop, (0, 1, 2), sizes=(11,), T=5)
    with pytest.raises(ValueError, match='pop_sorted must be an ascending list'):
        median_study(pop[::-1], (0, 1), sizes=(11,), T=5)
    with pytest.raises(ValueError, match='scheme must be one of'):
        median_study(pop, (0, 1), sizes=(11,), T=5, scheme='srs')

def test_median_mse_by_rate_refuses_a_non_bool_show_progress_it_accepted():
    pop = make_population('bimodal', N=101)
    with pytest.raises(TypeError, match='show_progress must be True or False'):
        median_mse_by_rate(pop, (0, 1), (0.5,), (1.0,), T=5, show_progress='no')
    with pytest.raises(TypeError, match='rates must be a list'): median_mse_by_rate(pop, (0, 1), 0.5, (1.0,), T=5)

def test_odd_size_stays_within_the_population_it_returned_n_plus_one():
    assert odd_size(1.0, 100) == 99 and odd_size(1.0, 101) == 101 and odd_size(0.5, 1001) == 501
    with pytest.raises(ValueError, match='N must be an integer >= 1'): odd_size(0.5, 0)

def test_mean_release_variance_refuses_a_non_scheme_it_crashed_with_attribute_error():
    with pytest.raises(TypeError, match='scheme must be a Scheme'): mean_release_variance(None, 1.0, 1.0, 1.0)

def test_plot_study_violins_refuses_an_empty_study_and_a_scalar_key():
    with pytest.raises(ValueError, match='study must not be empty'): plot_study_violins([], 'ss_ratio', 'x')
    with pytest.raises(ValueError, match='key must be one of'): plot_study_violins([{}], 'eps', 'x')


def test_generators_are_read_once_not_spent_by_their_checks():
    "Regression: the checks consumed a generator of rates (or ε, or study rows), and the study then ran on nothing."
    from must_nbdev.companions.accuracy_gains import make_population, median_mse_by_rate, mean_gain_table
    pop = make_population('lognormal', N=1001, seed=0)
    bounds = (float(pop[0]), float(pop[-1]))
    listed = median_mse_by_rate(pop, bounds, rates=[0.1, 0.5], eps_values=(1.0,), T=20, rng=1)
    made = median_mse_by_rate(pop, bounds, rates=(r for r in (0.1, 0.5)), eps_values=(1.0,), T=20, rng=1)
    assert len(listed) == 2 and made == listed
    gains = lambda eps: mean_gain_table(pop, eps_values=eps, rates=[0.1, 0.3], schemes=['wor'])
    assert gains(e for e in (0.5, 1.0)) == gains([0.5, 1.0]) and len(gains([0.5, 1.0])) == 4

def test_the_figures_name_their_bad_arguments_before_drawing():
    "The plots passed their lists on unchecked: a bad ε was blamed on `eps` inside sample_budget, after the axes were made."
    from must_nbdev.companions import accuracy_gains as ag
    for plot in (ag.plot_sample_budget, ag.plot_variance_bound):
        with pytest.raises(ValueError, match='eps_values'): plot(eps_values=(0.5, -1.0))
        with pytest.raises(TypeError, match='eps_values'): plot(eps_values=0.5)
    with pytest.raises(ValueError, match='tols'): ag.plot_mean_ratio_tolerance(tols=(0.01, 1.0))
    with pytest.raises(ValueError, match='rates'): ag.plot_mean_ratio_tolerance(rates=(0.1, 0.0))
    with pytest.raises(TypeError, match='rows'): ag.plot_mse_by_rate([{'eps': 1.0, 'rate': 0.1}], 'title')
    with pytest.raises(ValueError, match='rows'): ag.plot_mse_by_rate([], 'title')
