"Random allocation and shuffled epochs (accounting/13_allocation): soundness against exact values, the real pld-accounting, and the doors."
import math, numpy as np, pytest
from must_nbdev.core.definitions import gaussian_profile
from must_nbdev.core.epochs import make_epoch_scheme
from must_nbdev.accounting.allocation import (allocation_epoch_plds, allocation_bounds, exact_two_step_delta,
    lattice_power, lognormal_lattice, account_epochs, calibrate_epoch_sigma, gaussian_epochs_bound, mixture_epoch_plds,
    compose_bounds)

@pytest.mark.parametrize('sigma', [0.6, 1.0, 3.0])
@pytest.mark.parametrize('eps', [0.0, 0.5, 2.0])
def test_one_step_allocation_brackets_the_gaussian_mechanism(sigma, eps):
    p = allocation_epoch_plds(sigma, 1, bins=1 << 16)
    exact = float(gaussian_profile(eps, 1 / sigma))
    for d in ('remove', 'add'):
        assert p[d, 'attack'].delta(eps) <= exact <= p[d, 'certified'].delta(eps)

@pytest.mark.parametrize('sigma', [0.7, 1.0, 2.0])
@pytest.mark.parametrize('eps', [0.0, 0.4, 1.5])
def test_two_step_allocation_brackets_quadrature_and_adaptive_choices_stay_below(sigma, eps):
    p = allocation_epoch_plds(sigma, 2, bins=1 << 17)
    for d in ('remove', 'add'):
        worst = exact_two_step_delta(sigma, eps, d)
        for f in (lambda w: 0.7, lambda w: 1.0 if w < 0.5 else 0.1, lambda w: abs(math.tanh(w))):
            assert exact_two_step_delta(sigma, eps, d, f) <= worst * (1 + 1e-9)
        assert p[d, 'attack'].delta(eps) <= worst <= p[d, 'certified'].delta(eps)

def test_lattice_round_off_bound_holds_against_exact_integer_convolution():
    g = np.random.default_rng(4).integers(1, 1000, 200).astype(float); g /= g.sum()
    got, err = lattice_power(g, 13, 4000, 'drop')
    ref = g.copy()
    for _ in range(12): ref = np.convolve(ref, g)[:4000]
    assert np.abs(got - ref).sum() <= err

def test_lattice_masses_sum_to_one_with_the_tail():
    for up in (True, False):
        p, beyond, err, _ = lognormal_lattice(-0.3, 0.8, 0.003, 5000, 'up' if up else 'down')
        assert abs(p.sum() + beyond - 1) < 1e-12 + err and (p >= 0).all()

# pld-accounting 2.0's own configurations, recomputed here with the real client (the dev extra installs it)
CONTAINMENT = [(2.0, 100, 1, 1e-5), (1.2, 50, 5, 1e-6), (1.5, 20, 3, 1e-5)]

@pytest.mark.parametrize('sigma,t,E,delta', CONTAINMENT)
def test_containment_against_pld_accounting(sigma, t, E, delta):
    import PLD_accounting as pld           # the real client, never a stand-in
    their_up, their_lo = pld.gaussian_allocation_epsilon_range(delta=delta, sigma=sigma, num_steps=t, num_selected=1,
                                                               num_epochs=E)
    lo, up = allocation_bounds(sigma, t, E, delta=delta, bins=1 << 19)
    assert their_lo <= up <= their_up      # never below their lower bound; at least as tight as their upper bound
    assert lo <= their_up and lo <= up
    assert up / lo - 1 < 0.01              # a bracket within 1% (theirs: 3-5%)

def test_random_allocation_beats_poisson_at_equal_noise():
    from must_nbdev.core.sampling import make_scheme
    from must_nbdev.accounting.account import account
    _, up = allocation_bounds(1.0, 50, 4, delta=1e-5, bins=1 << 18, attack=False)
    poisson = account(make_scheme('poisson', 5000, q=1 / 50), sigma=1.0, steps=200, delta=1e-5, relation='add_remove')
    assert up < poisson.lower

def test_shuffle_attack_is_allocation_at_half_the_noise_when_m_divides_n():
    sh = make_epoch_scheme('shuffle', 1000, 50)
    r = account_epochs(sh, sigma=2.0, epochs=2, delta=1e-5, bins=1 << 17)
    lo, _ = allocation_bounds(1.0, 20, 2, delta=1e-5, bins=1 << 17)
    assert r.attack == pytest.approx(lo, rel=1e-12) and r.attack <= r.certified
    assert r.certified == gaussian_epochs_bound(2.0, 2, delta=1e-5)

def test_shuffle_attack_with_a_short_last_batch_stays_below_the_certificate():
    sh = make_epoch_scheme('shuffle', 1000, 48)                  # 21 batches, the last of 40
    r = account_epochs(sh, sigma=2.0, epochs=2, delta=1e-5, bins=1 << 17)
    full = account_epochs(make_epoch_scheme('shuffle', 1008, 48), sigma=2.0, epochs=2, delta=1e-5, bins=1 << 17)
    assert 0 < r.attack <= r.certified and r.attack <= full.attack * 1.01

def test_mixture_certificate_refuses_a_non_allocation_ratio():
    with pytest.raises(ValueError, match='random allocation'): mixture_epoch_plds(1.0, 5, 0.1, 0.18)

def test_account_epochs_fields_and_errors():
    ra = make_epoch_scheme('allocation', 2000, 100)
    r = account_epochs(ra, sigma=1.5, steps=60, eps=1.0, bins=1 << 17)
    assert r.query == 'delta' and r.epochs == 3 and r.tight and r.bracket == (r.attack, r.certified)
    assert 0 < r.attack <= r.certified and r.delta == r.certified
    with pytest.raises(ValueError, match='exactly one of epochs'): account_epochs(ra, sigma=1.0, delta=1e-5)
    with pytest.raises(ValueError, match='sigma'): account_epochs(ra, sigma=0.0, epochs=1, delta=1e-5)
    with pytest.raises(TypeError, match='EpochScheme'): account_epochs('allocation', sigma=1.0, epochs=1, delta=1e-5)

def test_calibrated_sigma_meets_the_target():
    ra = make_epoch_scheme('allocation', 2000, 100)
    s = calibrate_epoch_sigma(ra, epochs=2, eps=1.5, delta=1e-5, bins=1 << 16, tol=1e-2)
    assert account_epochs(ra, sigma=s, epochs=2, delta=1e-5, bins=1 << 16).certified <= 1.5
    assert account_epochs(ra, sigma=s / 1.02, epochs=2, delta=1e-5, bins=1 << 16).certified > 1.5

@pytest.mark.parametrize('E', [2, 3, 7])
def test_several_one_step_epochs_bracket_the_composed_gaussian(E):
    "E epochs of one step are E Gaussian mechanisms: exactly μ-GDP with μ = √E/σ, so both bounds bracket it."
    for eps in (0.2, 1.0, 3.0):
        lo, up = allocation_bounds(1.5, 1, E, eps=eps, bins=1 << 17)
        exact = float(gaussian_profile(eps, math.sqrt(E) / 1.5))
        assert lo <= exact <= up and up - lo < 0.02 * exact + 1e-12, (E, eps, lo, exact, up)

def test_must_epochs_reports_the_numbers_of_account_epochs_and_refuses_bad_input():
    import contextlib, io, json
    from must_nbdev.cli import main
    def run(*argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err): rc = main(list(argv))
        return rc, out.getvalue(), err.getvalue()
    sc = make_epoch_scheme('allocation', 1200, 60)
    ref = account_epochs(sc, sigma=1.3, epochs=2, delta=1e-5)
    rc, out, _ = run('epochs', '--scheme', 'allocation', '--n', '1200', '--m', '60', '--epochs', '2', '--sigma', '1.3',
                     '--delta', '1e-5', '--json')
    got = json.loads(out)
    assert rc == 0 and got['certified'] == ref.certified and got['attack'] == ref.attack and got['steps'] == 40
    rc, out, _ = run('epochs', '--scheme', 'shuffle', '--n', '1200', '--m', '60', '--epochs', '2', '--solve', 'sigma',
                     '--eps', '2', '--delta', '1e-5', '--json')
    got = json.loads(out)
    assert rc == 0 and got['sigma_attack'] < got['sigma'] and got['eps'] <= 2.0
    for bad in (['--sigma', '1', '--relation', 'add_remove', '--delta', '1e-5'],       # shuffle: substitution only
                ['--sigma', '1'], ['--sigma', '1', '--eps', '1', '--delta', '1e-5'], ['--solve', 'sigma', '--eps', '1']):
        rc, out, err = run('epochs', '--scheme', 'shuffle', '--n', '1200', '--m', '60', '--epochs', '2', *bad)
        assert rc == 2 and out == '' and len(err.strip().splitlines()) == 1, (bad, err)

@pytest.mark.parametrize('sigma,t,E', [(0.9, 150, 2), (1.5, 400, 1), (3.0, 80, 4)])
def test_nearest_rounding_stays_inside_the_directed_bracket(sigma, t, E):
    "Nearest rounding (mean error plus Hoeffding) and directed rounding bound the same truth: their brackets overlap."
    d = compose_bounds(mixture_epoch_plds(sigma, t, 0.0, 1 / t, bins=1 << 19, rounding='directed'), E, delta=1e-5)
    n = compose_bounds(mixture_epoch_plds(sigma, t, 0.0, 1 / t, bins=1 << 17, rounding='nearest'), E, delta=1e-5)
    assert n['certified'] >= d['attack'] and n['attack'] <= d['certified']
    assert d['attack'] <= d['certified'] and n['attack'] <= n['certified']

def test_nearest_rounding_narrows_the_bracket_at_many_steps():
    for rounding in ('directed', 'nearest'):
        r = compose_bounds(mixture_epoch_plds(1.0, 1000, 0.0, 1e-3, bins=1 << 18, rounding=rounding), 3, delta=1e-5)
        if rounding == 'directed': wide = r['certified'] / r['attack']
    assert r['certified'] / r['attack'] - 1 < (wide - 1) / 2
