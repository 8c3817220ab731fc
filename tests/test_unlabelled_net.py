"""The unlabelled net (accounting.unlabelled_net): Lemma G's radii are sound against every batch of tiny MUST.ow and
MUST.ww on real 1-D datasets (both orientations), Lemma T and the cover hold on random triangles, the game over the
members stays above the best enumerated real two-step attack at tiny n (exact_two_step; Figure S2 at full size:
09_triangle_certificate), and the triangle certificate plays the members where they exist."""
import math
import numpy as np
import pytest
from must_nbdev.core.sampling import make_scheme, scheme_at
from must_nbdev.accounting.adaptive import attack_runs
from must_nbdev.accounting.pld import MAX_BINS
from must_nbdev.accounting.upper_dp import upper_game_dp
from must_nbdev.accounting.triangle_certificate import triangle_delta, whole_steps
from must_nbdev.accounting.unlabelled import hs_mixture, group_bound, label_groups
from must_nbdev.accounting.unlabelled_net import (CELLS, MAX_CELLS, largest_side, member_profile, side_grid,
                                                  triangle_cover, unlabelled_members)
from test_triangle_certificate import _batches, _hs, _mix


def _bound(groups, lost, sigma, alpha, x, xp, others, family, scale=1.0):
    "lost + E_w Σ_j member_profile at the step's own radii, w the family's other record, uniform: (forward, reverse)."
    a = max(abs(x - xp), 1e-6)
    out = []
    for far in (x, xp):                                            # the forward orientation, then the reverse
        tot = lost
        for w in others:
            side = max(scale * abs(far - w), 1e-6)
            for g in groups:
                u = side if family == 'z' and g.z_records == 1 else 2.0
                tot = tot + member_profile(g, sigma, alpha, a=a, u=u, v=side if family == 'y' else 2.0) / len(others)
        out.append(tot)
    return out

@pytest.mark.parametrize('name,n,m,b,family', [('must-ow', 4, 3, 2, 'z'), ('must-ow', 5, 2, 3, 'z'),
                                                ('must-ww', 4, 2, 2, 'z'), ('must-ow', 4, 3, 2, 'y'),
                                                ('must-ww', 4, 2, 2, 'y'), ('wr', 3, 3, None, 'y')])
def test_lemma_g_radii_dominate_every_real_one_step_pair_at_tiny_n(name, n, m, b, family):
    # every batch enumerated, real 1-D datasets (D' replaces record 0): H_α(M(D)‖M(D')) and H_α(M(D')‖M(D)) stay below
    # the theorem at the step's own radii (a = |x − x'|, and |x − w|, |x' − w| for the family's other record w: z, or
    # the first displaced y_1), averaged over w; the displacing pair comes close, and the bound with that side halved is
    # beaten (it is not valid)
    sc, sigma, t = make_scheme(name, n, m=m, b=b), 1.0, np.linspace(-14, 14 + 2 * m, 24_001)
    groups, lost = label_groups(sc)
    alpha = np.exp(np.array([0.0, 0.5, 1.5]))
    batches, rng = _batches(name, n, m, b), np.random.default_rng(11)
    datasets = [np.r_[1.0, -np.ones(n - 1)], np.r_[-1.0, np.ones(n - 1)]] + [rng.uniform(-1, 1, n) for _ in range(40)]
    worst, worst_halved, displacing = 0.0, 0.0, 0.0
    for i, g in enumerate(datasets):
        gp = g.copy(); gp[0] = -g[0] if i < 2 or rng.random() < 0.5 else rng.uniform(-1, 1)
        P = _mix([sum(g[k] for k in bt) for bt, _ in batches], [p for _, p in batches], t, sigma)
        Q = _mix([sum(gp[k] for k in bt) for bt, _ in batches], [p for _, p in batches], t, sigma)
        fwd, rev = _bound(groups, lost, sigma, alpha, g[0], gp[0], g[1:], family)
        hfwd, hrev = _bound(groups, lost, sigma, alpha, g[0], gp[0], g[1:], family, scale=0.5)
        for j, al in enumerate(alpha):
            for way, h, B, Bh in ((0, _hs(P, Q, al, t), fwd[j], hfwd[j]), (1, _hs(Q, P, al, t), rev[j], hrev[j])):
                if h <= 0: continue
                worst, worst_halved = max(worst, h / max(B, 1e-300)), max(worst_halved, h / max(Bh, 1e-300))
                if i == 0 and way == 0: displacing = max(displacing, h / B)
    assert worst <= 1 + 1e-6, worst                                 # sound on every dataset tried
    assert displacing > 0.8 and worst_halved > 1.02, (displacing, worst_halved)   # near-tight; a wrong radius caught

def test_lemma_t_and_the_cover_on_random_triangles():
    rng = np.random.default_rng(3)
    N = 300_000
    rad = np.sqrt(rng.random((3, N))); rad[:, :N // 3] = 1.0        # a third on the circle
    ang = rng.random((3, N)) * 2 * np.pi
    x, xp, z = np.stack([rad * np.cos(ang), rad * np.sin(ang)], axis=-1)
    sides = np.stack([np.linalg.norm(x - xp, axis=1), np.linalg.norm(x - z, axis=1), np.linalg.norm(xp - z, axis=1)], 1)
    assert np.max(sides[:, 0] - largest_side(sides[:, 1], sides[:, 2])) < 1e-9
    assert largest_side(2.0, 0.0) == 2.0 and largest_side(2.0, 2.0) == pytest.approx(0.0, abs=1e-12)
    assert largest_side(math.sqrt(2), math.sqrt(2)) == pytest.approx(2.0)
    assert largest_side(0.3, 0.4) == pytest.approx(0.7)              # collinear, inside the disc
    for cells in (1, 5, 8, CELLS):
        net = triangle_cover(cells)
        covered = np.zeros(N, bool)
        for mem in net: covered |= (sides <= mem).all(axis=1)
        assert covered.all() and (net > 0).all() and (net <= 2).all()
    assert len(triangle_cover(8)) < len(triangle_cover(CELLS))
    assert triangle_cover(1).tolist() == [[2.0, 2.0, 2.0]]                    # one cell: the full radii

def test_side_grid_is_the_chords_of_equal_central_angles():
    for cells in (1, 2, 7, CELLS, MAX_CELLS):
        g = side_grid(cells)
        assert len(g) == cells + 1 and g[0] == 0.0 and g[-1] == 2.0 and np.all(np.diff(g) > 0)
        np.testing.assert_allclose(np.diff(2 * np.arcsin(g / 2)), math.pi / cells, rtol=1e-9)   # equal angles
    assert np.all(np.diff(side_grid(CELLS)[1:]) < np.diff(side_grid(CELLS)[:-1]))   # cells narrow towards 2
    assert set(np.round(side_grid(4), 12)) <= set(np.round(side_grid(8), 12))       # 8 cells refine 4
    for bad in (0, 1.5, MAX_CELLS + 1):
        with pytest.raises(ValueError, match='cells'): side_grid(bad)

def test_member_profile_at_full_radii_is_the_theorem_and_falls_with_the_radii():
    sc = scheme_at('must-ow', 10_000, 200, b=118)
    (g,), _ = label_groups(sc)
    al = np.exp(np.linspace(0.01, 3, 12))
    full = member_profile(g, 4.0, al, a=2.0, u=2.0)
    theorem = group_bound(g, 4.0, al)
    assert np.all(full <= theorem * (1 + 1e-9)) and np.all(full >= 0.99 * theorem)
    prev = full
    for u in (1.5, 1.0, 0.5, 0.1):
        cur = member_profile(g, 4.0, al, a=2.0, u=u)
        assert np.all(cur <= prev * (1 + 1e-9)); prev = cur
    assert np.all(member_profile(g, 4.0, al, a=1.0, u=2.0) <= full * (1 + 1e-9))

def test_regression_overflowing_knots_are_charged_the_group_mass_not_a_crash():
    "WR with r/e ~ 4e4 at knots up to e^700: (α − 1) r/e overflowed and unlabelled_members raised FloatingPointError."
    (g,), _ = label_groups(make_scheme('wr', 2_000_000, m=50))
    al = np.exp(np.array([1.0, 600.0, 700.0]))
    with np.errstate(over='ignore'):
        assert not np.isfinite((al[-1] - 1) * g.r / g.e)           # the case the fix is for
    prof = member_profile(g, 0.2, al, a=2.0, v=0.5)
    assert np.all(np.isfinite(prof)) and prof[-1] == g.e            # the P-mass bounds the group's share
    np.testing.assert_allclose(prof[:2], member_profile(g, 0.2, al[:2], a=2.0, v=0.5))   # the other knots unchanged
    assert largest_side(1.9, 1.9) <= 2.0 and np.all(largest_side(np.linspace(1.4, 2, 200), 1.5) <= 2.0)
    cert = triangle_delta(make_scheme('wr', 2_000_000, m=50), sigma=0.2, steps=2, eps=1.0, h=0.05)
    assert cert.unlabelled_members > 0 and 0 < cert.value <= 1


def test_the_all_to_r_plan_caps_a_member_whose_displaced_record_sits_on_the_record():
    "Every label against R alone is a valid plan: where y_1 sits on the record (v small) it is nearly free."
    (g,), _ = label_groups(scheme_at('must-ow', 60_000, 256, b=6000))
    al = np.exp(np.array([0.01, 0.05, 0.2, 1.0]))
    ls = np.arange(1, len(g.pi) + 1)
    for v in (0.1, 0.7, 1.5):
        TR = (al - 1) * g.r / g.e
        all_to_r = g.e * hs_mixture(TR, np.tile(g.pi, (len(al), 1)), np.tile((v + 2 * (ls - 1)) / 2.62, (len(al), 1)))
        assert np.all(member_profile(g, 2.62, al, a=2.0, v=v) <= all_to_r * (1 + 1e-9) + 1e-300)
    small, full = member_profile(g, 2.62, al, a=2.0, v=0.1), member_profile(g, 2.62, al, a=2.0, v=2.0)
    assert np.all(small[1:] < 1e-3 * full[1:])                      # before the plan: 8.5e-2 at ε = 0.05


def test_members_are_below_the_pair_and_only_where_they_help():
    s2 = scheme_at('must-ow', 10_000, 200, b=118)
    whole = whole_steps(s2, 4.0, 0.002, MAX_BINS)[0]
    for mem in unlabelled_members(s2, 4.0, 0.002, 4):            # the z family, then the y family
        assert len(mem) == len(triangle_cover(4))
        for eps in (-1.0, -0.3, 0.0, 0.3, 1.0):
            assert all(p.delta(eps) <= whole.delta(eps) * (1 + 1e-9) + 1e-15 for p in mem)
        assert all(abs(p.masses.sum() + p.inf_mass - 1) < 1e-9 and not p.masses.flags.writeable for p in mem)
    for name in ('wr', 'must-wo'):                                  # no Z part: the y family only
        z, y = unlabelled_members(scheme_at(name, 10_000, 200, b=400), 4.0, 0.002, 4)
        assert z == () and len(y) == len(triangle_cover(4))
    assert unlabelled_members(scheme_at('wor', 10_000, 200), 4.0, 0.002) == ((), ())   # one label: the net is exact
    assert all(len(f) > 0 for f in unlabelled_members(scheme_at('must-ww', 10_000, 200, b=118), 4.0, 0.002, 4))

def test_members_compute_each_sides_parts_once_and_are_the_per_member_sums(monkeypatch):
    "Regression: a group's plans once, each side's parts once per radius (MUST.ww's 10 groups), the members' bits unchanged."
    import must_nbdev.accounting.unlabelled_net as U
    from must_nbdev.accounting.dominating import scheme_gaussian_pld
    from must_nbdev.accounting.profile_pairs import profile_knots, profile_pld
    sc, sigma, h, cells = scheme_at('must-ww', 10_000, 200, b=118), 4.0, 0.002, 4
    made = []
    class Counting(U.GroupShare):
        def compute_pieces(self, side, radius):
            made.append((id(self), side, radius)); return super().compute_pieces(side, radius)
    monkeypatch.setattr(U, 'GroupShare', Counting)
    families = U.unlabelled_members.__wrapped__(sc, sigma, h, cells)
    groups, lost = label_groups(sc)
    cover = triangle_cover(cells)
    sides = set(cover[:, 1]) | set(cover[:, 2]) | {2.0}
    assert len(made) == len(set(made)) <= len(groups) * (len(set(cover[:, 0])) + 2 * len(sides))
    keys = {key for a, s, t in cover for key in ((a, s), (a, t))}   # each family's distinct (a, free side)
    assert len(made) < len(U.FAMILIES) * len(keys) * len(groups)   # fewer parts than whole shares (3 parts each)
    js = profile_knots(-scheme_gaussian_pld(sc, sigma, 'substitute', h, MAX_BINS, 'worst').upper[0].j0)
    alpha = np.exp(js * h)
    def bound(family, a, side):                         # the members as the sum over groups, member by member
        tot = lost
        for g in groups:
            u = side if family == 'z' and g.z_records == 1 else 2.0
            with np.errstate(over='ignore', invalid='ignore'):
                tot = tot + member_profile(g, sigma, alpha, a=a, u=u, v=side if family == 'y' else 2.0)
        return np.minimum(tot * (1 + 1e-12), 1.0)
    for family, members in zip(U.FAMILIES, families):
        assert len(members) == len(cover) > 0
        for (a, s, t), p in zip(cover, members):
            q = profile_pld(js, bound(family, a, s), h, reverse=bound(family, a, t))
            assert p.j0 == q.j0 and p.inf_mass == q.inf_mass and np.array_equal(p.masses, q.masses)

def test_group_share_is_the_one_pass_matched_plan_up_to_the_order_of_its_sums():
    "A share read from its parts equals the matched plan and diagonal plans summed in one pass, to 1e-14 relative."
    from must_nbdev.accounting.unlabelled import charged_mass, matched_split
    from must_nbdev.accounting.unlabelled_net import GroupShare, _diagonal_plans
    def one_pass(g, sigma, alpha, a, u, v):             # every piece of the matched plan in one sum, then the plans
        pi, L, ls = g.pi, len(g.pi), np.arange(1, len(g.pi) + 1)
        TR, TZ = (alpha - 1) * g.r / g.e, (alpha - 1) * g.z / g.e
        own, fed, rest = matched_split(alpha, TR, TZ, pi, 2 * ls / sigma)
        rho, gam = np.array([a, u]), np.stack([alpha, TZ], axis=1)
        alone = own > 0
        if fed is not None: alone[fed[:3]] = False
        i, l, k = np.nonzero(alone)
        cost = np.bincount(i, charged_mass(gam[i, k], own[i, l, k], (l + 1) * rho[k] / sigma, pi[l]), minlength=len(alpha))
        if fed is not None:
            i, l, k, frac = fed
            j = l[:, None] + np.arange(L)
            W = np.where(j < L, np.take_along_axis(frac, np.minimum(j, L - 1), axis=1) * pi[np.minimum(j, L - 1)], 0.0)
            W[:, 0] += own[i, l, k] * pi[l]
            th = ((l + 1)[:, None] * rho[k][:, None] + 2 * np.minimum(np.arange(L), L - 1 - l[:, None])) / sigma
            cost += np.bincount(i, hs_mixture(gam[i, k] * pi[l], W, th), minlength=len(alpha))
        to_r = (v + 2 * (ls - 1)) / sigma
        best = cost + np.where(rest.any(axis=1), hs_mixture(TR, rest * pi, to_r), 0.0)
        for fq, fz in _diagonal_plans(alpha, TZ, alpha + TR + TZ):
            c = (charged_mass(alpha[:, None], fq[:, None], ls * a / sigma, pi).sum(axis=1)
                 + charged_mass(TZ[:, None], fz[:, None], ls * u / sigma, pi).sum(axis=1))
            fr = np.maximum(1 - fq - fz, 0.0)[:, None] * pi
            best = np.minimum(best, c + np.where(fr.sum(axis=1) > 0, hs_mixture(TR, fr, to_r), 0.0))
        return g.e * best
    for name, sigma, n, m, b in (('must-ww', 4.0, 10_000, 200, 118), ('must-ow', 1.1, 60_000, 256, 6000)):
        alpha = np.exp(np.linspace(0, 12, 200))
        for g in label_groups(scheme_at(name, n, m, b=b))[0][:3]:
            share = GroupShare(g, sigma, alpha)
            for a, u, v in ((2.0, 2.0, 2.0), (1.0, 0.3, 2.0), (0.5, 2.0, 0.7), (0.2, 1.5, 0.1)):
                np.testing.assert_allclose(share(a, u, v), one_pass(g, sigma, alpha, a, u, v), rtol=1e-14, atol=0)

TWO_STEPS = dict(sigma=2.0, eps=0.5, h=0.01)     # the tiny-n two-step games: noise, ε and grid

def _best_two_step_attack(name, n, m, b) -> float:
    """δ(ε) of the best real two-step adaptive attack found on a tiny scheme (`TWO_STEPS`), every batch enumerated,
    over collinear and off-line configurations: a lower bound on the true optimum (exact_two_step)."""
    from exact_two_step import best_attack
    return best_attack(name, n, m, b, TWO_STEPS['sigma'], TWO_STEPS['eps'])

@pytest.mark.parametrize('name,n,m,b', [('must-ow', 4, 3, 2), ('must-ww', 4, 2, 2), ('wr', 3, 2, None)])
def test_unlabelled_net_alone_stays_above_the_best_enumerated_two_step_attack_at_tiny_n(name, n, m, b):
    sigma, eps, h = TWO_STEPS.values()
    best, sc = _best_two_step_attack(name, n, m, b), make_scheme(name, n, m=m, b=b)
    window = attack_runs(sc, sigma, 'substitute', h, MAX_BINS)[0]
    games = [upper_game_dp(((1.0, (fam,)),), 2, eps, 0, h, window, MAX_BINS)['values'][0]
             for fam in unlabelled_members(sc, sigma, h) if fam]
    assert games and all(best <= game for game in games), (best, games)
    c = triangle_delta(sc, sigma=sigma, steps=2, eps=eps, h=h, tol=1.0)
    assert c.unlabelled_members > 0 and best <= c.value <= min(games) * (1 + 1e-9)

@pytest.mark.parametrize('name,n,m,b', [('must-ow', 4, 3, 2), ('wr', 3, 2, None)])
def test_a_finer_cover_is_never_looser_and_stays_above_the_best_enumerated_two_step_attack(name, n, m, b):
    # the cover with 8 cells per side refines that with 4 (each fine member lies below a coarse one in all three radii),
    # so the certificate can only fall with more cells, and it stays above the best real two-step attack
    sigma, eps, h = TWO_STEPS.values()
    best, sc = _best_two_step_attack(name, n, m, b), make_scheme(name, n, m=m, b=b)
    coarse, fine = (triangle_delta(sc, sigma=sigma, steps=2, eps=eps, h=h, tol=1.0, cells=c) for c in (4, 8))
    assert (coarse.cells, fine.cells) == (4, 8) and fine.unlabelled_members > coarse.unlabelled_members
    assert best <= fine.value <= coarse.value * (1 + 1e-9), (best, fine.value, coarse.value)
    for bad in (0, 2.5, MAX_CELLS + 1):
        with pytest.raises(ValueError, match='cells'): triangle_delta(sc, sigma=sigma, steps=2, eps=eps, h=h, cells=bad)

# the Fig S2 MUST.ow target (attack ≤ certificate ≤ 1.45 × attack, below 0.9 × the partially unlabelled pair)
# is asserted at full size in 09_triangle_certificate's `#| slow` cell, which the docs build executes

def test_bad_arguments_name_the_argument():
    sc = scheme_at('must-ow', 10_000, 200, b=118)
    (g,), _ = label_groups(sc)
    for kw, word in ((dict(a=0.0, u=1.0), 'a'), (dict(a=2.5, u=1.0), 'a'), (dict(a=1.0, u=-1.0), 'u')):
        with pytest.raises(ValueError, match=word): member_profile(g, 4.0, np.array([2.0]), **kw)
    with pytest.raises(ValueError, match='cells'): triangle_cover(0)
    with pytest.raises(ValueError, match='sigma'): unlabelled_members(sc, -1.0, 0.002)
    with pytest.raises(ValueError, match='h'): unlabelled_members(sc, 4.0, 2.0)
    assert unlabelled_members(scheme_at('poisson', 10_000, 200), 4.0, 0.002) == ((), ())
    with pytest.raises(ValueError, match='v'): member_profile(g, 4.0, np.array([2.0]), a=1.0, v=3.0)
