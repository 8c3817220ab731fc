"""`must_nbdev.accounting.pld`: the upper (pessimistic) and lower (optimistic) discrete PLDs of a pair bracket its exact
δ(ε), computed here by numerical integration of the two densities; normalisation; the KL of a piled-up Poisson loss."""
import math
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from scipy import integrate, stats
from must_nbdev.accounting.pairs import output_pair
from must_nbdev.accounting.pld import LIFT, loss_cells, lower_pld, upper_pld
from must_nbdev.core.sampling import make_scheme


def poisson_pair_delta(q, sigma, eps):
    "δ(ε) = ∫ (p − e^ε q)_+ of P = (1−q)N(0,σ²) + qN(1,σ²) against Q = N(0,σ²) (add/remove), by quadrature."
    p = lambda x: (1 - q) * stats.norm.pdf(x, 0, sigma) + q * stats.norm.pdf(x, 1, sigma)
    f = lambda x: max(0.0, p(x) - math.exp(eps) * stats.norm.pdf(x, 0, sigma))
    # P > e^ε Q exactly where x > t: (1−q) + q e^{(2x−1)/2σ²} > e^ε
    t = 0.5 + sigma ** 2 * math.log(max((math.exp(eps) - 1 + q) / q, 1e-300))
    return integrate.quad(f, t, t + 40 * sigma, epsabs=1e-14, epsrel=1e-10, limit=200)[0]


@pytest.mark.parametrize('q,sigma', [(0.1, 1.0), (0.02, 0.7), (0.5, 2.0)])
def test_upper_and_lower_plds_bracket_the_exact_delta(q, sigma):
    P, Q = output_pair(make_scheme('poisson', 10**6, q=q), sigma, 'add_remove')
    h = 1e-3
    c = loss_cells(P, Q, h)
    up, lo = upper_pld(c, h), lower_pld(c, h)
    assert abs(up.masses.sum() + up.inf_mass - 1) < 1e-9 and lo.masses.sum() <= 1 + 1e-12
    for eps in (0.0, 0.1, 0.5, 1.0):
        exact = poisson_pair_delta(q, sigma, eps)
        assert lo.delta(eps) <= exact * (1 + 1e-7) + 1e-13 and exact <= up.delta(eps) * (1 + 1e-7) + 1e-13, (
            eps, lo.delta(eps), exact, up.delta(eps))
        assert up.delta(eps) - lo.delta(eps) <= 0.01 * exact + 1e-12     # a fine grid: a tight bracket


def test_lower_pld_keeps_the_kl_of_a_piled_up_poisson_loss():
    # q = 1e-3: half of P sits just above log(1 − q); the lower PLD must not round that pile down by a grid step
    P, Q = output_pair(make_scheme('poisson', 10**7, q=1e-3), 0.8, 'add_remove')
    c = loss_cells(P, Q, 1e-4)
    kl = float(np.exp(c.lA) @ (c.lA - c.lB))
    lo = lower_pld(c, 1e-4)
    assert 0.999 * kl < float(lo.masses @ lo.losses) <= kl * (1 + 1e-9)


def test_regression_max_bins_from_a_caller_is_checked_against_the_memory_budget():
    # regression: account(poisson, 0.05, 10, delta=1e-5, max_bins=10**30) allocated until MemoryError
    from must_nbdev import account, make_scheme
    from must_nbdev.accounting.pld import check_max_bins, BYTES_PER_BIN
    from must_nbdev.core.definitions import MEMORY_BUDGET
    with pytest.raises(ValueError, match='memory budget'):
        account(make_scheme('poisson', 10_000, q=0.01), sigma=0.05, steps=10, delta=1e-5, max_bins=10**30)
    assert check_max_bins(MEMORY_BUDGET // BYTES_PER_BIN) == MEMORY_BUDGET // BYTES_PER_BIN
    with pytest.raises(ValueError, match='max_bins'):
        check_max_bins(MEMORY_BUDGET // BYTES_PER_BIN + 1)
    with pytest.raises(ValueError, match='max_bins'):
        check_max_bins(1 << 20, budget=(1 << 20) * BYTES_PER_BIN - 1)


def test_one_budget_set_for_the_whole_package():
    "Issue 27: set_memory_budget moves every check at once; max_bins=None means what the budget allows, not unbounded."
    from must_nbdev import PrivacyAccountant, account, make_scheme
    from must_nbdev.accounting.pld import BYTES_PER_BIN
    from must_nbdev.accounting.compose import compose_many
    from must_nbdev.accounting.dominating import scheme_gaussian_pld
    from must_nbdev.core.definitions import set_memory_budget
    from must_nbdev.accounting.pld import budget_max_bins
    old = set_memory_budget(1 << 24)                                    # 16 MiB: 26,214 bins
    try:
        assert budget_max_bins() == (1 << 24) // BYTES_PER_BIN            # the one helper both callers use
        assert PrivacyAccountant(max_bins=None).max_bins == (1 << 24) // BYTES_PER_BIN
        with pytest.raises(ValueError, match='memory budget'):
            account(make_scheme('wor', 1000, m=10), sigma=1.0, steps=10, delta=1e-5, max_bins=1 << 21)
        mech = scheme_gaussian_pld(make_scheme('wor', 1000, m=10), 1.0, h=1e-2, max_bins=1 << 14)
        with pytest.raises(ValueError, match='max_bins'):
            compose_many([[(mech.upper[0], 10**6)]], max_bins=None)    # None: capped by the budget, refused here
    finally: set_memory_budget(old)
    assert PrivacyAccountant(max_bins=None).max_bins == old // BYTES_PER_BIN


def _cumulative_from_top(j0, masses, inf, top):
    "Mass at grid index ≥ j (j = top, top − 1, ..., up to the PLD's lowest), the mass at +∞ included."
    m = np.zeros(top + 1 - min(j0, top) + 1)
    for j, x in zip(range(j0, j0 + len(masses)), masses):
        m[top - j if j <= top else 0] += x
    return np.cumsum(m) + inf


def _mp_mass(A, a, b):
    "A mixture's mass on [a, b), every tail kept (call inside mp.workdps)."
    import mpmath as mp
    cell = lambda x, y: mp.ncdf(y) - mp.ncdf(x) if x < 0 else mp.ncdf(-x) - mp.ncdf(-y)
    return mp.fsum(mp.e ** mp.mpf(w) * cell((a - m) / A.sigma, (b - m) / A.sigma) for w, m in zip(A.logw, A.mu))


def _mp_loss(P, Q, x):
    "The privacy loss log(dP/dQ) at x (call inside mp.workdps)."
    import mpmath as mp
    dens = lambda A: mp.fsum(mp.e ** mp.mpf(w) * mp.npdf(x, m, A.sigma) for w, m in zip(A.logw, A.mu))
    return mp.log(dens(P) / dens(Q))


def _mp_lower_share(P, Q, t, L, i, lo, hi, h):
    """Cell i's exact P-mass and the share of it at the lower point lo·h of the package's bracket [lo·h, hi·h]: the
    losses below lo·h (at most LIFT steps) are raised to it, so that sliver's Q-mass counts as its P-mass e^{−lo h}."""
    import mpmath as mp
    p, qq, H = _mp_mass(P, t[i], t[i + 1]), _mp_mass(Q, t[i], t[i + 1]), (hi - lo) * h
    if min(L[i], L[i + 1]) < lo * h:
        low_end = i if L[i] < L[i + 1] else i + 1
        ts = mp.findroot(lambda x: _mp_loss(P, Q, x) - lo * h, (t[i], t[i + 1]), solver='anderson')
        a_, b_ = sorted((t[low_end], ts))
        qq -= _mp_mass(Q, a_, b_) - mp.e ** (-lo * h) * _mp_mass(P, a_, b_)
    return p, (qq / p * mp.e ** (lo * h) - mp.e ** (-H)) / (1 - mp.e ** (-H))


@pytest.mark.parametrize('q,sigma,h', [(0.3, 1.0, 0.01), (0.02, 0.7, 0.002)])
def test_upper_pld_lies_above_its_exact_construction_at_every_loss(q, sigma, h):
    "The round-off charges: at every loss x, the computed upper PLD has at least the exact construction's mass at ≥ x."
    import mpmath as mp
    P, Q = output_pair(make_scheme('poisson', 10**6, q=q), sigma, 'add_remove')
    c = loss_cells(P, Q, h)
    up = upper_pld(c, h)
    with mp.workdps(40):
        t = [mp.mpf(x) for x in c.t]
        L = [_mp_loss(P, Q, x) for x in t]
        exact, inf = {}, mp.mpf(0)
        for i in range(len(t) - 1):
            lmin, lmax = min(L[i], L[i + 1]), max(L[i], L[i + 1])
            if lmax > c.s_hi: inf += _mp_mass(P, t[i], t[i + 1]); continue   # as the package: above the band at +∞
            if lmin < -c.s_lo:
                j = int(mp.ceil(lmax / h)); exact[j] = exact.get(j, 0) + _mp_mass(P, t[i], t[i + 1]); continue
            # the package's brackets: the lower point up to LIFT steps above the lowest loss, whose losses are raised
            lo = int(mp.floor(lmin / h + LIFT)); hi = max(int(mp.ceil(lmax / h)), lo + 1)
            p, a = _mp_lower_share(P, Q, t, L, i, lo, hi, h)
            exact[lo] = exact.get(lo, 0) + p * a; exact[hi] = exact.get(hi, 0) + p * (1 - a)
        assert all(0 <= v for v in exact.values())
        top = max(max(exact), up.j0 + len(up.masses) - 1)
        ref = np.zeros(top + 1 - min(exact) + 1)
        for j, v in exact.items(): ref[top - j] += float(v)
        ref = np.cumsum(ref) + float(inf)
    got = _cumulative_from_top(up.j0, up.masses, up.inf_mass, top)[:len(ref)]
    # the line's own tails (mass beyond the cuts, ≤ 1e-18 here) are left out of the exact side
    assert np.all(got >= ref - 1e-300), np.max(ref - got)
    assert np.all(got <= ref * (1 + 1e-6) + 1e-15)                 # and not far above


def _one_cell(c, i):
    "Cell i of the line `c` alone, without the line's tails and their σ-free charge: `upper_pld` of it is its split."
    import dataclasses
    k, e = slice(i, i + 1), slice(i, i + 2)
    return dataclasses.replace(c, lA=c.lA[k], lB=c.lB[k], lB_safe=c.lB_safe[k], L0=c.L0[k], L1=c.L1[k], tail_lo=0.0,
                               tail_hi=0.0, dropped=0.0, inf_cap=0.0, lA_err=c.lA_err[k], lB_err=c.lB_err[k], L_err=c.L_err[e], t=c.t[e])


@pytest.mark.parametrize('reverse', [False, True])
def test_upper_pld_dominates_every_cell_at_the_dp_sgd_size(reverse):
    """Cell by cell, where the split's round-off is largest (h = 1e-3, the DP-SGD rate q = 256/60000, σ = 1.1), in both
    directions, and the line's tails: each cell's two grid points hold at least its exact P-mass, the top one at least
    the exact construction's share on the same bracket, and that bracket holds the cell's exact losses.
    Dropping the split's slack or the masses' raise fails here (measured: the split errs by up to 5e-11 of a cell)."""
    import mpmath as mp
    h = 1e-3
    P, Q = output_pair(make_scheme('poisson', 60_000, q=256 / 60_000), 1.1, 'add_remove')
    if reverse: P, Q = Q, P
    c = loss_cells(P, Q, h)
    assert (c.L_hi < c.L_lo) == reverse
    with mp.workdps(40):
        t = [mp.mpf(x) for x in c.t]
        L = [_mp_loss(P, Q, x) for x in t]
        n_split = 0
        for i in range(len(c.lA)):
            up, p = upper_pld(_one_cell(c, i), h), _mp_mass(P, t[i], t[i + 1])
            got = [mp.mpf(float(x)) for x in up.masses]
            assert mp.fsum(got) + up.inf_mass >= p, i                  # the cell's whole P-mass, raised
            lmin, lmax = min(L[i], L[i + 1]), max(L[i], L[i + 1])
            if up.inf_mass > 0: assert lmax > c.s_hi - 1e-9; continue   # above the band: at +∞
            js = up.j0 + np.flatnonzero(up.masses)
            lo, hi = int(js[0]), int(js[-1])
            assert hi * h >= lmax, i                                    # the top point: above every exact loss
            if lo == hi: assert lmin < -c.s_lo; continue               # below the band: whole at the top of its losses
            assert lo * h <= lmin + LIFT * h, i                          # the lower point: at most LIFT steps above
            share = _mp_lower_share(P, Q, t, L, i, lo, hi, h)[1]
            assert got[hi - up.j0] >= p * (1 - share), i                # the top point: at least the exact share
            n_split += 1
        assert n_split > 1000
        # the line's own tails: at the lowest loss's grid point (the low tail) and at +∞ (the high one)
        whole = upper_pld(c, h)
        low, high = _mp_mass(P, -mp.inf, t[0]), _mp_mass(P, t[-1], mp.inf)
        if reverse: low, high = high, low
        assert whole.inf_mass >= high and mp.fsum(mp.mpf(float(x)) for x in whole.masses) >= low


def test_regression_upper_pld_of_cells_all_above_the_band_is_a_float_pld():
    "numpy's bincount of no weights gives integers: a line whose every cell lies above the band crashed `upper_pld`."
    P, Q = output_pair(make_scheme('poisson', 10**6, q=0.3), 1.0, 'add_remove')
    c = loss_cells(P, Q, 0.01)
    i = int(np.flatnonzero(np.minimum(c.L0, c.L1) > c.s_hi)[0])
    up = upper_pld(_one_cell(c, i), 0.01)
    assert up.masses.dtype == np.float64 and up.inf_mass >= math.exp(c.lA[i])


def test_regression_upper_pld_refuses_cells_without_their_round_off_bounds():
    P, Q = output_pair(make_scheme('poisson', 10**6, q=0.1), 1.0, 'add_remove')
    c = loss_cells(P, Q, 0.01)
    import dataclasses
    with pytest.raises(ValueError, match='round-off'):
        upper_pld(dataclasses.replace(c, lA_err=None), 0.01)


def test_a_discrete_pld_refuses_nan_or_infinite_masses():
    "A NaN in a PLD once composed into a finite, wrong δ (2.3e-11 for 0.0189): a DiscretePLD now refuses it."
    from must_nbdev.accounting.pld import DiscretePLD
    for masses, inf, name in (([0.5, np.nan, 0.5], 0.0, 'masses'), ([0.5, np.inf], 0.0, 'masses'),
                              ([1.0], np.nan, 'inf_mass'), ([1.0], np.inf, 'inf_mass')):
        with pytest.raises(ValueError, match=f"DiscretePLD: {name} must be finite, got NaN or ±inf"):
            DiscretePLD(0.1, 0, np.array(masses), inf)
    assert DiscretePLD(0.1, 0, np.array([0.25, 0.75]), 0.0).delta(0.0) == pytest.approx(0.75 * -math.expm1(-0.1))


def test_merge_cells_returns_the_excess_of_a_group_closed_by_an_infinite_deficit():
    "A group whose next atom lies more than 700 below it closes with its excess X: its loss is in (jh, (j+1)h)."
    from must_nbdev.accounting.pld import merge_cells
    h, ell, p = 0.1, np.array([800.35, 0.25, 0.2]), np.array([1e-300, 0.5, 0.5])
    js, ms, xs = merge_cells(ell, p, h)
    assert js[0] == 8003 and ms[0] == p[0] and xs[0] == pytest.approx(p[0] * -math.expm1(8003 * h - ell[0]))
    # its second-law mass is exactly (M − X) e^{−jh}
    assert (ms[0] - xs[0]) * math.exp(-js[0] * h) == pytest.approx(p[0] * math.exp(-ell[0]), rel=1e-12)
    assert ms.sum() == pytest.approx(p.sum(), rel=1e-15)


def test_regression_lower_pld_of_a_pile_with_far_mass_keeps_delta_and_stays_below():
    "The attack pair of MUST.ow with m > b: the lower PLD held mass 1 + 2e-6 and δ(0.5) = 2e-6 for a truth of 1.1e-3."
    from must_nbdev.accounting.attack import attack_pairs
    A, B, _ = attack_pairs(make_scheme('must-ow', 3572, m=42, b=4), 0.947001409783937, 'substitute')[0]
    for h in (0.015, 0.05):
        c = loss_cells(A, B, h, width=1.0)
        lo, up = lower_pld(c, h), upper_pld(c, h)
        assert lo.masses.sum() <= 1 + 1e-12
        assert lo.delta(0.5) >= 0.999 * up.delta(0.5)
        for eps in (-50.0, -1.0, 0.0, 0.5, 5.0, 500.0):
            assert lo.delta(eps) <= up.delta(eps) * (1 + 1e-12), (h, eps)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(['wor', 'wr', 'must-ow', 'must-wo', 'must-ww']), n=st.integers(5, 5000),
       m=st.integers(1, 60), b=st.integers(1, 60), sigma=st.sampled_from([0.3, 0.6, 0.95, 2.0]),
       h=st.sampled_from([0.005, 0.02, 0.1]))
def test_lower_pld_of_real_pairs_is_a_sub_probability_below_the_upper_one(name, n, m, b, sigma, h):
    "Attack pairs of random fixed-size schemes, shifts up to ~200σ: the lower PLD never rises above the upper one."
    from must_nbdev.accounting.attack import attack_pairs
    from _helpers import fuzz_scheme
    sc = fuzz_scheme(name, n, m, b)
    for A, B, _ in attack_pairs(sc, sigma, 'substitute'):
        for X, Y in ((A, B), (B, A)):
            try: c = loss_cells(X, Y, h, max_cells=1 << 22, width=1.0)
            except ValueError: continue                 # a grid too large for this h: not this test's subject
            lo, up = lower_pld(c, h), upper_pld(c, h)
            assert np.all(np.isfinite(lo.masses)) and lo.masses.sum() <= 1 + 1e-12
            for eps in (-30.0, -1.0, 0.0, 1.0, 10.0):
                assert lo.delta(eps) <= up.delta(eps) * (1 + 1e-12) + 1e-300, (sc.label, eps)


def test_lower_pld_of_a_pair_whose_second_law_is_negligible_where_the_first_has_mass():
    "Every B-mass below Q_FLOOR: each atom rounded down (merge_cells has nothing to merge); and P = N(60) against a Q of 0.1% there."
    from must_nbdev.accounting.pairs import GaussianMixture
    from must_nbdev.accounting.pld import _merge_swapped
    A = GaussianMixture(np.zeros(1), np.array([60.0]), 1.0)
    ell, p, lq = np.array([-700.0, -650.0]), np.array([0.6, 0.4]), np.array([-700.0, -660.0])
    js, ms = _merge_swapped(ell, p, lq, 0.1)                  # every atom far: each rounded down, none merged
    assert list(js) == [-7000, -6500] and list(ms) == [0.6, 0.4]
    c = loss_cells(A, GaussianMixture(np.log([0.999, 0.001]), np.array([0.0, 60.0]), 1.0), 0.01)
    lo, up = lower_pld(c, 0.01), upper_pld(c, 0.01)
    assert lo.masses.sum() <= 1 + 1e-12 and lo.delta(0.0) <= up.delta(0.0) * (1 + 1e-12)


def test_upper_pld_charges_cells_whose_mass_is_below_the_least_normal_double():
    "A cell of log P-mass −800 (exp gives 0) or −720 (a subnormal) goes to +∞ charged 2^-1021, never dropped."
    import dataclasses
    P, Q = output_pair(make_scheme('poisson', 10**6, q=0.1), 1.0, 'add_remove')
    c = loss_cells(P, Q, 1e-2)
    tiny = np.finfo(float).tiny
    for log_mass in (-800.0, -720.0):
        gone = dataclasses.replace(c, lA=np.full_like(c.lA, log_mass), tail_lo=0.0, tail_hi=0.0, dropped=0.0)
        up = upper_pld(gone, 1e-2)
        assert up.masses.sum() == 0 and up.inf_mass >= 2 * tiny * len(c.lA)   # it was 0: the cells were dropped
