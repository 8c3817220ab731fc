"Random allocation and shuffled epochs (accounting/13_allocation): soundness against exact values, the real pld-accounting, and the doors."
import math, numpy as np, pytest
from must_nbdev.core.definitions import gaussian_profile
from must_nbdev.core.epochs import make_epoch_scheme
from must_nbdev.accounting.allocation import (allocation_epoch_plds, allocation_bounds, exact_two_step_delta,
    lognormal_lattice, mixture_epoch_plds, compose_bounds)
from _helpers import counted_transforms

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

@pytest.mark.parametrize('sigma,eps_list', [(0.6, (10.0, 12.0)), (1.0, (6.0, 7.0)), (3.0, (2.0, 2.3))])
def test_one_step_certificate_holds_near_its_round_off_floor(sigma, eps_list):
    "At t = 1 the certificate charges almost nothing at +∞ (one term's CDF error): it must still lie above the exact δ, to 1e-14."
    mp = pytest.importorskip('mpmath')
    mp.mp.dps = 40
    p = allocation_epoch_plds(sigma, 1, bins=1 << 16)
    assert p['remove', 'certified'].inf_mass < 1e-11
    for eps in eps_list:
        th, e = mp.mpf(1) / sigma, mp.mpf(eps)
        exact = float(mp.ncdf(-e / th + th / 2) - mp.exp(e) * mp.ncdf(-e / th - th / 2))
        assert 1e-15 < exact < 1e-7
        for d in ('remove', 'add'): assert p[d, 'certified'].delta(eps) >= exact, (sigma, eps, d)

@pytest.mark.parametrize('sigma,bins,h', [(2.0, 1 << 18, 1e-5), (2.0, 1 << 16, 1e-5), (1.0, 1 << 18, 1e-5), (3.0, 1 << 16, 3e-6)])
@pytest.mark.parametrize('rounding', ['directed', 'nearest'])
def test_regression_float_cumsum_near_one_put_one_step_survival_below_the_gaussian(sigma, bins, h, rounding):
    """Taking the charge from the lowest losses by differencing a float cumsum near 1 rounded every high-loss mass to a
    multiple of 2^-53, which overstated the CDF by up to 1e-13, more than one term's CDF charge at t = 1 (5e-14): the
    survival fell below the exact Gaussian's by up to 5e-14 at loss steps of 1e-5. At every grid loss the certificate's
    survival (mass above it and at +∞) must lie at or above the exact one, and the attack's at or below it."""
    from scipy import special
    from must_nbdev.accounting.allocation import forget_epoch_plds
    plds = mixture_epoch_plds(sigma, 1, 0.0, 1.0, bins=bins, h=h, rounding=rounding)
    forget_epoch_plds()
    mu = 1 / sigma                                                  # t = 1: the loss is N(μ²/2, μ²) in both directions
    for (d, kind), pld in plds.items():
        m = pld.masses.astype(np.longdouble)
        above = np.concatenate([np.cumsum(m[::-1])[::-1][1:], [0.0]]) + np.longdouble(pld.inf_mass)
        x = (pld.j0 + np.arange(len(m))) * h
        exact = special.ndtr(-(x - mu * mu / 2) / mu).astype(np.longdouble)
        gap = above - exact
        if kind == 'certified': assert float(gap.min()) >= -1e-18, (d, float(gap.min()))
        else: assert float(gap.max()) <= 1e-15, (d, float(gap.max()))

@pytest.mark.parametrize('sigma,eps_list', [(0.7, (5.0, 6.0, 7.0)), (1.0, (4.0, 5.0)), (2.0, (2.5,))])
def test_two_step_certificate_holds_at_small_delta(sigma, eps_list):
    "Two steps, against quadrature, where δ is 1e-7 to 1e-12: the range the CDF charges opened (it was at +∞ there)."
    p = allocation_epoch_plds(sigma, 2, bins=1 << 17)
    for eps in eps_list:
        for d in ('remove', 'add'):
            exact = exact_two_step_delta(sigma, eps, d)
            if exact > 1e-13: assert p[d, 'attack'].delta(eps) <= exact <= p[d, 'certified'].delta(eps), (sigma, eps, d)

def test_lattice_masses_sum_to_one_with_the_tail():
    for up in (True, False):
        p, beyond, err, *_ = lognormal_lattice(-0.3, 0.8, 0.003, 5000, 'up' if up else 'down')
        assert abs(p.sum() + beyond - 1) < 1e-12 + err and (p >= 0).all()

@pytest.mark.parametrize('mode', ['up', 'down', 'nearest'])
@pytest.mark.parametrize('mu,s,h', [(-0.3, 0.8, 0.003), (-0.78, 1.25, 0.02), (0.5, 1.0, 0.01)])
def test_lattice_cdf_bound_holds_against_mpmath(mode, mu, s, h):
    """Every partial sum of a term's cells, from below and (with the mass beyond) from above, is within the CDF bound
    of the exact one at 40 digits: the certificate charges that bound, not the ℓ1 error, so it must hold."""
    mp = pytest.importorskip('mpmath')
    mp.mp.dps = 40
    N = 3000
    p, beyond, err, _, cdf_err = lognormal_lattice(mu, s, h, N, mode)
    shift = {'up': 0.0, 'down': 1.0, 'nearest': 0.5}[mode]        # pmf[k] holds Y below (k + shift)·h
    def below(y): return mp.mpf(0) if y <= 0 else mp.ncdf((mp.log(y) - mu) / s)
    exact = [below(mp.mpf(h) * (k + shift)) for k in range(N)]    # the exact P(Y < the top of pmf[k])
    run, worst = mp.mpf(0), mp.mpf(0)
    total = mp.fsum([mp.mpf(float(x)) for x in p]) + mp.mpf(beyond)
    for k in range(N):
        run += mp.mpf(float(p[k]))
        worst = max(worst, abs(run - exact[k]), abs((total - run) - (1 - exact[k])))
    assert float(worst) <= cdf_err, (float(worst), cdf_err)
    assert cdf_err < 1e-13 and cdf_err < err                       # a bound that is worth charging

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

@pytest.mark.parametrize('a', [0.2, 0.4, 0.5])
@pytest.mark.parametrize('sigma,bins', [(0.5, 1 << 10), (1.0, 1 << 14)])
def test_regression_the_attack_tail_overstated_delta_for_a_ratio_a_plus_bS(a, sigma, bins):
    """The attack's tail beyond the lattice used the one-tilted-term law, which is the P-law only when a = 0: for the ratio
    a + bS (shuffled epochs with a short last batch) its δ rose above the true one, 1.25x at a = 0.2 and 2x at a = 0.5.
    One term: P = aQ + (1 − a)P', so δ(ε) = (1 − a)·E(Y − c)_+ with c = (e^ε − a)/(1 − a), Y log-normal of mean 1."""
    from scipy.special import ndtr
    att = mixture_epoch_plds(sigma, 1, a, 1 - a, bins=bins, certified=False)['remove', 'attack']
    s = 1 / sigma
    for eps in (0.5, 1.5, 3.0, 4.5, 6.0):
        c = (math.exp(eps) - a) / (1 - a)
        z = (math.log(c) + s * s / 2) / s
        exact = (1 - a) * (ndtr(s - z) - c * ndtr(-z))
        assert att.delta(eps) <= exact * (1 + 1e-9) + 1e-300, (a, sigma, eps, att.delta(eps), exact)

def test_mixture_certificate_refuses_a_non_allocation_ratio():
    with pytest.raises(ValueError, match='random allocation'): mixture_epoch_plds(1.0, 5, 0.1, 0.18)

@pytest.mark.parametrize('E', [2, 3, 7])
def test_several_one_step_epochs_bracket_the_composed_gaussian(E):
    "E epochs of one step are E Gaussian mechanisms: exactly μ-GDP with μ = √E/σ, so both bounds bracket it."
    for eps in (0.2, 1.0, 3.0):
        lo, up = allocation_bounds(1.5, 1, E, eps=eps, bins=1 << 17)
        exact = float(gaussian_profile(eps, math.sqrt(E) / 1.5))
        assert lo <= exact <= up and up - lo < 0.02 * exact + 1e-12, (E, eps, lo, exact, up)

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

@pytest.mark.parametrize('sigma', [0.3, 0.5, 0.7])
@pytest.mark.parametrize('bins', [1 << 10, 1 << 12])
def test_the_attack_tail_beyond_a_short_lattice_stays_below_the_truth(sigma, bins):
    "A short lattice puts much of the tilted term beyond it: the attack keeps it below the truth, one and two steps."
    for E in (1, 3):
        for eps in (0.5, 1.0, 3.0):
            lo, up = allocation_bounds(sigma, 1, E, eps=eps, bins=bins)
            exact = float(gaussian_profile(eps, math.sqrt(E) / sigma))
            assert lo <= exact <= up, (E, eps, lo, exact, up)
    p = allocation_epoch_plds(sigma, 2, bins=bins)
    for eps in (0.0, 1.0):
        assert p['remove', 'attack'].delta(eps) <= exact_two_step_delta(sigma, eps, 'remove')

def test_attack_overflow_at_the_top_point_was_loose_at_the_practitioners_size():
    "σ 0.685, 235 steps, 10 epochs: the tail beyond the lattice, kept below the truth, lifts the attack above 2.93."
    lo, up = allocation_bounds(0.685, 235, 10, delta=1e-5, bins=1 << 19)
    assert 2.93 < lo < up < 3.0 and up / lo < 1.025

def test_an_epoch_asked_again_reuses_its_plds_which_no_caller_can_change():
    "An accountant asked after every epoch rebuilt the same 2^21-point lattices each time (seconds per call)."
    from must_nbdev.accounting.allocation import mixture_epoch_plds
    first = allocation_epoch_plds(1.3, 7, bins=1 << 12)
    again = allocation_epoch_plds(1.3, 7, bins=1 << 12)
    assert all(again[key].masses is first[key].masses for key in first)       # kept: the same arrays ...
    with pytest.raises(ValueError, match='read-only'): first['remove', 'certified'].masses[0] = 1.0
    first['remove', 'certified'].inf_mass = 1.0                                  # ... in each caller's own objects
    fresh = allocation_epoch_plds(1.3, 7, bins=1 << 12)['remove', 'certified']
    assert fresh.inf_mass == again['remove', 'certified'].inf_mass < 1
    other = allocation_epoch_plds(1.3, 7, bins=1 << 12, attack=False)                # other options: their own
    assert set(other) == {('remove', 'certified'), ('add', 'certified')}
    assert all(np.array_equal(other[key].masses, first[key].masses) for key in other)
    with pytest.raises(TypeError, match='certified'): mixture_epoch_plds(1.0, 3, 0.0, 1.0, certified='no')

def test_the_kept_epoch_plds_stay_within_their_memory_budget(monkeypatch):
    "16 entries at small σ or a fine h could hold more than 1 GB: the cache counts bytes, and 0 keeps none."
    from must_nbdev.accounting import allocation
    monkeypatch.setattr(allocation, 'EPOCH_PLD_CACHE_MB', 0)
    first, again = (allocation_epoch_plds(1.7123, 5, bins=1 << 12) for _ in range(2))   # σ asked nowhere else
    assert all(again[key].masses is not first[key].masses for key in first)
    assert all(np.array_equal(again[key].masses, first[key].masses) for key in first)
    assert not allocation._KEPT and allocation._KEPT_BYTES == 0
    one = sum(p.masses.nbytes for p in first.values())                  # a budget that holds one entry: the newest
    monkeypatch.setattr(allocation, 'EPOCH_PLD_CACHE_MB', 1.5 * one / 2 ** 20)
    for sigma in (1.7123, 1.7124, 1.7123):
        allocation_epoch_plds(sigma, 5, bins=1 << 12)
        (key, plds), = allocation._KEPT.items()                          # the newest alone, its bytes counted
        assert key[:2] == (sigma, 5) and allocation._KEPT_BYTES == sum(p.masses.nbytes for _, p in plds)
    monkeypatch.setattr(allocation, 'EPOCH_PLD_CACHE_MB', -1)
    with pytest.raises(ValueError, match='EPOCH_PLD_CACHE_MB'): allocation_epoch_plds(1.7125, 5, bins=1 << 12)

def test_an_epoch_takes_eight_transforms_not_thirty_nine():
    "Binary powering took 39 transforms of 2^22 points per epoch (7 s at σ = 1, t = 50); one Fourier power per sum takes 8."
    from must_nbdev.accounting import allocation
    with counted_transforms() as calls:
        allocation.mixture_epoch_plds(1.0123, 50, 0.0, 1 / 50, bins=1 << 14)
    assert len(calls) == 8 and all(M <= 3 * (1 << 14) for _, M in calls), calls   # 3 lattices at 2^14 points

def test_the_overflow_ladder_stays_above_a_fine_attack_where_it_matters(monkeypatch):
    """The other terms all inside the lattice with their sum beyond it went to +∞ (7e-6 an epoch at MNIST's size and
    σ = 0.5, so two epochs were certified without amplification: 15.5 against the attack's 5.3). Chernoff's survival now
    places it on a ladder of finite losses. Where that lowers the certificate, it must stay above a finer lattice's
    attack."""
    from must_nbdev.accounting import allocation as al
    ladder = al._overflow_ladder
    lowered = 0
    for sigma, t in ((0.4, 20), (0.5, 3), (0.5, 8)):
        fine = al.allocation_epoch_plds(sigma, t, bins=1 << 16, certified=False)
        for bins in (1 << 9, 1 << 12):
            al.forget_epoch_plds()
            monkeypatch.setattr(al, '_overflow_ladder', lambda *args: (np.zeros(0), np.zeros(0)))
            at_infinity = al.allocation_epoch_plds(sigma, t, bins=bins, attack=False)
            monkeypatch.setattr(al, '_overflow_ladder', ladder)
            al.forget_epoch_plds()
            coarse = al.allocation_epoch_plds(sigma, t, bins=bins, attack=False)
            for eps in np.linspace(1, 10, 10):
                cert = al.compose_bounds(coarse, 1, eps, None)['certified']
                att = al.compose_bounds(fine, 1, eps, None)['attack']
                assert att <= cert <= al.compose_bounds(at_infinity, 1, eps, None)['certified'], (sigma, t, bins, eps)
                lowered += cert < 0.999 * al.compose_bounds(at_infinity, 1, eps, None)['certified']
    assert lowered >= 10, lowered                                           # the ladder mattered, often
    mnist = al.allocation_epoch_plds(0.5, 235, bins=1 << 16, attack=False)   # MNIST's epoch at σ = 0.5
    assert mnist['remove', 'certified'].inf_mass < 1e-7                      # was 7e-6
