"""The pieces of the triangle-net certificate (accounting.triangles): the net covers every triangle in the unit disc,
every member lies above its cell, a member's discrete PLD dominates it (checked against 2-D quadrature), and small σ
fails closed. The upper DP is tests/test_upper_dp.py's, the assembled certificate tests/test_triangle_certificate.py's."""
import itertools, math
import mpmath as mp
import numpy as np
import pytest
from scipy import integrate
from must_nbdev.accounting.triangles import (FAMILIES, GRAM_MARGIN, NET_TOL, gram_box, member_gram, planar_upper_pld,
                                            triangle_net, _prune)

Q4, S4, H4 = 0.02, 4.0, 6.238e-4            # Figure S2's rate and noise, on the grid `account` picks there

def _gram(y, x, xp):
    a, b = np.asarray(x) - y, np.asarray(xp) - y
    return np.array([[a @ a, a @ b], [a @ b, b @ b]])

def _covered(net, G):
    D = net - G
    return bool(np.any((D[:, 0, 0] >= 0) & (D[:, 1, 1] >= 0) & (D[:, 0, 0] * D[:, 1, 1] >= D[:, 0, 1] ** 2)))

def _circle(t): return np.array([math.cos(t), math.sin(t)])

def _hard_triangles(rng, n):
    "Triangles on the families' boundaries, where a wrong cell bound would leave a hole: inscribed, or with a diameter."
    out = []
    for _ in range(n):
        t = rng.uniform(-math.pi, math.pi, 3)
        out.append([_circle(t[0]), _circle(t[1]), _circle(t[2])])                    # all three on the circle
        d, p = _circle(t[0]), rng.normal(size=2); p = p / max(1.0, np.hypot(*p))
        tri = [d, -d, p]; rng.shuffle(tri); out.append(tri)                         # a diameter, the third free
        out.append([d, -d, d])                                                      # the displacing pair itself
    return out

@pytest.mark.parametrize('sigma,tol', [(4.0, NET_TOL), (1.1, 0.1), (2.62, 0.05)])
def test_the_net_covers_every_triangle_in_the_disc(sigma, tol):
    rng, net = np.random.default_rng(int(sigma * 100)), triangle_net(sigma, tol=tol)
    tris = _hard_triangles(rng, 300)
    for _ in range(900):
        pts = [rng.normal(size=2) * rng.uniform(0.2, 2) for _ in range(3)]
        tris.append([p / max(1.0, np.hypot(*p)) for p in pts])
    holes = [t for t in tris if not _covered(net, _gram(*t))]
    assert not holes, f"{len(holes)} of {len(tris)} triangles have no member above them, e.g. {holes[0]}"

def test_members_dominate_their_cells():
    rng = np.random.default_rng(3)
    e1 = np.array([1.0, 0.0])
    where = {'I': lambda p: (-e1, _circle(p[0]), _circle(p[1])), 'xp': lambda p: (-e1, e1, p),
             'x': lambda p: (-e1, p, e1), 'y': lambda p: (p, e1, -e1)}
    for fam, (lo, hi) in FAMILIES.items():
        for _ in range(300):
            c, w = rng.uniform(lo, hi), rng.uniform(0, 0.2, 2) * (np.array(hi) - lo)
            a, b = np.maximum(c - w, lo), np.minimum(c + w, hi)
            box = gram_box(fam, tuple(a), tuple(b))
            if box is None:
                assert min(np.hypot(*p) for p in rng.uniform(a, b, (50, 2))) > 1 - 1e-12; continue
            G = member_gram(box, 4.0)
            for p in rng.uniform(a, b, (10, 2)):
                if fam != 'I' and p @ p > 1: continue
                assert np.linalg.eigvalsh(G - _gram(*where[fam](p))).min() >= 0.99 * GRAM_MARGIN

def _exact_gram(fam, p):
    "A point's Gram matrix at 40 digits (mpmath), for the family's vertices at parameter p."
    import mpmath as mp
    mp.mp.dps = 40
    one, z = mp.mpf(1), mp.mpf(0)
    circ = lambda t: (mp.cos(mp.mpf(t)), mp.sin(mp.mpf(t)))
    P = (mp.mpf(p[0]), mp.mpf(p[1]))
    y, x, xp = {'I': lambda: ((-one, z), circ(p[0]), circ(p[1])), 'xp': lambda: ((-one, z), (one, z), P),
                'x': lambda: ((-one, z), P, (one, z)), 'y': lambda: (P, (one, z), (-one, z))}[fam]()
    a, b = (x[0] - y[0], x[1] - y[1]), (xp[0] - y[0], xp[1] - y[1])
    return [[a[0] ** 2 + a[1] ** 2, a[0] * b[0] + a[1] * b[1]], [a[0] * b[0] + a[1] * b[1], b[0] ** 2 + b[1] ** 2]]

def test_members_dominate_their_cells_exactly_with_the_round_off_margin():
    # 07's "Rounding, paid by one margin": member − Gram ⪰ (μ − μ/16) I, with the Gram in 40-digit arithmetic, at cell
    # corners and edges (where a float box that is not rounded outward would leave a hole), for every family
    import mpmath as mp
    rng = np.random.default_rng(11)
    need = mp.mpf(GRAM_MARGIN) * 15 / 16
    for fam, (lo, hi) in FAMILIES.items():
        for _ in range(60):
            c, w = rng.uniform(lo, hi), rng.uniform(0, 0.2, 2) * (np.array(hi) - lo)
            a, b = np.maximum(c - w, lo), np.minimum(c + w, hi)
            box = gram_box(fam, tuple(a), tuple(b))
            if box is None: continue
            G = member_gram(box, 2.62)
            for p in [a, b, (a[0], b[1]), (b[0], a[1]), *rng.uniform(a, b, (4, 2))]:
                if fam != 'I' and p[0] ** 2 + p[1] ** 2 > 1: continue
                E = _exact_gram(fam, p)
                D = [[mp.mpf(G[i][j]) - E[i][j] - (need if i == j else 0) for j in range(2)] for i in range(2)]
                assert D[0][0] >= 0 and D[1][1] >= 0 and D[0][0] * D[1][1] >= D[0][1] ** 2, (fam, a, b, p)

def test_pruning_keeps_a_member_above_every_dropped_one_exactly():
    # 07's pruning: a member is dropped only when a kept one + μ/2 I lies above it, checked in rational arithmetic on
    # members that differ at the margin's scale (where a plain float test would drop members that poke out by an ulp)
    from fractions import Fraction
    rng = np.random.default_rng(5)
    half = Fraction(GRAM_MARGIN) / 2
    for _ in range(40):
        base = rng.uniform(0, 4, (2, 2)); base = base @ base.T / 4
        members = [base + GRAM_MARGIN * rng.uniform(-1, 1) * np.array([[1, r], [r, 1 - r]])
                   for r in rng.uniform(-1, 1, 12)] + [base + rng.uniform(-1, 1) * 1e-16 * np.ones((2, 2))]
        kept = _prune(members)
        for G in members:
            ok = False
            for K in kept:
                D = [[Fraction(K[i][j]) - Fraction(G[i][j]) + (half if i == j else 0) for j in range(2)] for i in range(2)]
                ok |= D[0][0] >= 0 and D[1][1] >= 0 and D[0][0] * D[1][1] >= D[0][1] ** 2
            assert ok, G

def _exact_hs(G, eps, q=Q4, s=S4):
    b1 = math.sqrt(G[1][1]); a1 = G[0][1] / b1; a2 = math.sqrt(max(G[0][0] - a1 * a1, 0.0))
    phi = lambda o1, o2, m1, m2: math.exp(-((o1 - m1) ** 2 + (o2 - m2) ** 2) / (2 * s * s)) / (2 * math.pi * s * s)
    f = lambda o2, o1: max((1 - q) * phi(o1, o2, 0, 0) + q * phi(o1, o2, a1, a2)
                           - math.exp(eps) * ((1 - q) * phi(o1, o2, 0, 0) + q * phi(o1, o2, b1, 0)), 0.0)
    return integrate.dblquad(f, -9 * s, 9 * s + 2, -9 * s, 9 * s + 2, epsabs=1e-11)[0]

@pytest.mark.parametrize('G', [[[3.1, -0.4], [-0.4, 1.7]], [[0.5, 0.2], [0.2, 3.9]], [[4.0, 1.9], [1.9, 1.0]]])
def test_planar_upper_pld_dominates_the_member(G):
    G = np.array(G); p = planar_upper_pld(G, q=Q4, sigma=S4, h=H4)
    assert abs(p.masses.sum() + p.inf_mass - 1) < 1e-9 and p.inf_mass < 1e-20
    assert p.masses @ np.exp(-p.losses) <= 1 + 1e-9                       # the Q-mass is not inflated past 1
    for j in (0, 8, 16):
        ex, up = _exact_hs(G, j * H4), p.delta(j * H4)
        assert ex * (1 - 1e-6) <= up <= ex * 1.01 + 1e-12, (j, ex, up)

def test_collinear_member_matches_the_one_dimensional_pair():
    # b → 0: the member is the displacing pair, whose δ has a 1-D quadrature
    from scipy.stats import norm
    p = planar_upper_pld(np.array([[4.0, 0.0], [0.0, 0.0]]), q=Q4, sigma=S4, h=H4)
    for eps in (0.0, 10 * H4):
        L = lambda o: np.log1p(-Q4 + Q4 * np.exp((2 * o - 2) / S4 ** 2))
        f = lambda o: ((1 - Q4) * norm.pdf(o, 0, S4) + Q4 * norm.pdf(o, 2, S4)) * max(0, -math.expm1(eps - L(o)))
        ex = integrate.quad(f, -40, 45, limit=400, epsabs=1e-15)[0]
        assert ex * (1 - 1e-6) <= p.delta(eps) <= ex * 1.005, (eps, ex, p.delta(eps))

def test_small_sigma_fails_closed_and_cache_is_read_only():
    # review 2026-11-25: σ ≤ 0.7 overflowed in the χ² proxy; the cached arrays could be modified by a caller
    assert len(triangle_net(0.7, tol=0.2)) > 0
    with pytest.raises(ValueError, match='tol'):
        triangle_net(0.3)
    with pytest.raises(ValueError):
        triangle_net(4.0)[0, 0, 0] = 1.0

def test_cell_masses_with_one_ndtr_per_point_are_the_two_tail_bits():
    "Regression: one ndtr per point (each point's smaller tail) gives the same bits as Φ(x) and Φ(−x) at every point."
    from scipy import special
    from must_nbdev.accounting.triangles import _cell_masses
    rng = np.random.default_rng(7)
    for trial in range(300):
        x = rng.normal(0, rng.choice([1e-3, 1.0, 6.0, 40.0]), size=(int(rng.integers(1, 4)), int(rng.integers(2, 40))))
        if trial % 2: x = np.sort(x, axis=-1)                              # sorted edges, and unsorted points too
        if trial % 5 == 0: x[..., 0], x[..., -1] = -np.inf, np.inf
        up, down = special.ndtr(x), special.ndtr(-x)
        two = np.where(x[..., :-1] > 0, down[..., :-1] - down[..., 1:], up[..., 1:] - up[..., :-1])
        assert np.array_equal(_cell_masses(x), two), trial

def test_the_vectorised_log_mix_is_as_accurate_as_logaddexp():
    "`_log_mix` (numpy's vectorised exp and log1p) is within a few units of the result's scale of the exact log-mixture, as np.logaddexp is, and keeps ±∞."
    import mpmath as mp
    from must_nbdev.accounting.triangles import _log_mix
    rng = np.random.default_rng(3)
    for q, s2, c in ((256 / 60000, 1.21, 0.8), (0.5, 0.09, 3.0), (1e-6, 16.0, 0.0)):
        l1q, lq = math.log1p(-q), math.log(q)
        u = np.concatenate([rng.uniform(-2000, 2000, 300), rng.uniform(-30, 30, 300) * s2, [np.inf, -np.inf]])
        got, numpy_s = _log_mix(l1q, lq, u, s2, c), np.logaddexp(l1q, lq + u / s2 - c)
        assert np.array_equal(got[-2:], numpy_s[-2:]) and np.isfinite(got[:-2]).all()
        with mp.workdps(40):
            for x, g, n in zip(u[:-2], got[:-2], numpy_s[:-2]):
                w = mp.mpf(lq) + mp.mpf(x) / mp.mpf(s2) - mp.mpf(c)     # the same argument, exactly
                exact = mp.log(mp.exp(mp.mpf(l1q)) + mp.exp(w))
                scale = max(abs(float(w)), abs(l1q), abs(float(exact)))   # the terms' scale: where the sum cancels
                assert abs(float(mp.mpf(g) - exact)) <= 8 * 2.0 ** -53 * scale, (q, x)
                assert abs(float(mp.mpf(n) - exact)) <= 8 * 2.0 ** -53 * scale   # (numpy's own, for scale)

def test_cell_mass_errors_cover_the_mpmath_masses():
    "`_cell_masses(with_error=True)`: each mass is within its bound of the exact mass between the unrounded points."
    from must_nbdev.accounting.triangles import _cell_masses
    rng, worst = np.random.default_rng(5), 0.0
    with mp.workdps(40):
        for trial in range(120):
            mu, sigma = float(rng.choice([0.0, 0.37, -2.1])), float(rng.choice([1.0, 1.1, 4.0]))
            centre, width = rng.choice([0.0, 3.0, -8.0, 15.0, 30.0]), float(rng.choice([1e-7, 1e-3, 0.5]))
            e = np.sort(mu + sigma * (centre + width * np.cumsum(rng.random(int(rng.integers(2, 30))))) * rng.choice([-1, 1]))
            if trial % 4 == 0: e = np.concatenate([[-np.inf], e, [np.inf]])
            m, err = _cell_masses((e - mu) / sigma, with_error=True)
            z = [mp.mpf(float(x)) if np.isfinite(x) else x * mp.inf for x in e]
            exact = [mp.ncdf((z[i + 1] - mu) / sigma) - mp.ncdf((z[i] - mu) / sigma) if z[i] < mu else
                     mp.ncdf(-(z[i] - mu) / sigma) - mp.ncdf(-(z[i + 1] - mu) / sigma) for i in range(len(m))]
            for a, b, x in zip(m, err, exact):
                assert abs(mp.mpf(float(a)) - x) <= b, (trial, a, b, float(x))
                if b > 0: worst = max(worst, float(abs(mp.mpf(float(a)) - x) / b))
    assert 1e-3 < worst < 1, worst          # the bound holds, and is not vacuous


def test_region_masses_bound_the_products_of_masses_off_by_their_bounds():
    """`_region_masses`: with every normal mass off by its full bound (each corner of the box, errors inflated so each
    term of the bound matters), the exact P- and Q-masses lie within p_err, q_err (+ MASS_ROUNDING·u of the mass)."""
    from fractions import Fraction as Fr
    from must_nbdev.accounting.triangles import _region_masses, MASS_ROUNDING
    rng, u = np.random.default_rng(3), 2.0 ** -53
    q, R, C = 0.3, 4, 5
    rows = [rng.uniform(0.01, 0.5, (R, 1)) for _ in range(3)]          # x0, xa, xb
    errs = [x * rng.uniform(0.01, 0.2, (R, 1)) for x in rows]         # r0, ra, rb: inflated
    w0, wa = rng.uniform(0.01, 0.5, (R, C)), rng.uniform(0.01, 0.5, (R, C))
    d0, da = w0 * rng.uniform(0.01, 0.2, (R, C)), wa * rng.uniform(0.01, 0.2, (R, C))
    args = (rows[0], errs[0], rows[1], errs[1], rows[2], errs[2])
    pm, qm, p_err, q_err = _region_masses(q, *args, w0.copy(), d0.copy(), wa.copy(), da.copy())
    fq = Fr(q)
    for i in range(R):
        for j in range(C):
            for signs in itertools.product((-1, 1), repeat=5):
                x0, xa, xb = (Fr(float(x[i, 0])) + s * Fr(float(e[i, 0])) for x, e, s in zip(rows, errs, signs[:3]))
                v0 = Fr(float(w0[i, j])) + signs[3] * Fr(float(d0[i, j]))
                va = Fr(float(wa[i, j])) + signs[4] * Fr(float(da[i, j]))
                P, Q = (1 - fq) * x0 * v0 + fq * xa * va, ((1 - fq) * x0 + fq * xb) * v0
                assert abs(P - Fr(float(pm[i, j]))) <= Fr(float(p_err[i, j])) + MASS_ROUNDING * u * Fr(float(pm[i, j]))
                assert abs(Q - Fr(float(qm[i, j]))) <= Fr(float(q_err[i, j])) + MASS_ROUNDING * u * Fr(float(qm[i, j]))
    # the corners bind: the bound is within a few percent of the farthest corner (so no term can be dropped)
    x0, xa, xb = (x + e for x, e in zip(rows, errs))
    far = (1 - q) * x0 * (w0 + d0) + q * xa * (wa + da) - pm
    assert np.all(far >= 0.97 * p_err)


def _exact_upper_construction(Lmin, Lmax, P, Q, h, light):
    "In 40 digits: two atoms at Lmin, Lmax with the exact masses (connect the dots), each split onto the grid."
    out = {}
    def put(j, v): out[j] = out.get(j, 0) + v
    for lo, hi, p, q in zip(Lmin, Lmax, P, Q):
        lo, hi = mp.mpf(float(lo)), mp.mpf(float(hi))
        if p < light: put(int(mp.ceil(hi / h)), p); continue
        W = hi - lo
        al = (mp.e ** (-(mp.log(p / q) - lo)) - mp.e ** (-W)) / (1 - mp.e ** (-W)) if W > 0 else mp.mpf(1)
        for x, w in ((lo, p * al), (hi, p * (1 - al))):
            g = int(mp.floor(x / h)); t = (mp.e ** (-(x - g * h)) - mp.e ** (-h)) / (1 - mp.e ** (-h))
            put(g, w * t); put(g + 1, w * (1 - t))
    return out


@pytest.mark.parametrize('seed', range(4))
def test_split_regions_dominates_the_exact_construction_at_every_loss(seed):
    """`_split_regions` with masses off by up to rA, rB relatively: at every loss, at least the exact construction's mass
    at or above it (narrow regions, atoms within an ulp of a grid point, masses known to 1e-16 ... 0.6, light ones)."""
    from must_nbdev.accounting.triangles import _split_regions, LIGHT
    rng, u = np.random.default_rng(seed), 2.0 ** -53
    n, h = 150, float(rng.choice([1e-3, 6.238e-4, 0.05]))
    Lmin = rng.normal(0, 2, n); W = rng.choice([0.0, 1e-12, 1e-9, h / 3, 2 * h], n) * rng.random(n)
    Lmin[::7] = np.round(Lmin[::7] / h) * h * (1 + rng.choice([-u, 0, u], len(Lmin[::7])))   # on a grid point, ± an ulp
    Lmax = Lmin + W
    Lmax[3::7] = np.round(Lmax[3::7] / h) * h * (1 + rng.choice([-2 * u, 0, 2 * u], len(Lmax[3::7])))
    Lmax = np.maximum(Lmax, Lmin)
    with mp.workdps(40):
        lp = rng.uniform(-40, 0, n); lp[::11] = math.log(LIGHT) - 2.0                 # light regions too
        P = [mp.e ** mp.mpf(x) for x in lp]
        ell = [mp.mpf(float(a)) + (mp.mpf(float(b)) - mp.mpf(float(a))) * mp.mpf(rng.random()) for a, b in zip(Lmin, Lmax)]
        Q = [p * mp.e ** (-l) for p, l in zip(P, ell)]
        rA, rB = rng.choice([2 * u, 1e-14, 1e-10, 0.3, 0.6], n), rng.choice([2 * u, 1e-14, 1e-10, 0.3], n)
        # the computed masses: off from the exact ones by up to their bounds, either way
        pm = np.array([float(p * (1 + mp.mpf(float(r)) * mp.mpf(rng.uniform(-1, 1)))) for p, r in zip(P, rA)])
        qm = np.array([float(q * (1 + mp.mpf(float(r)) * mp.mpf(rng.uniform(-1, 1)))) for q, r in zip(Q, rB)])
        # the bounds on the float masses' distance (relative to themselves, with a hair for the float rounding above)
        rA, rB = rA * 1.7 + 4 * u, rB * 1.7 + 4 * u
        got = _split_regions(Lmin, Lmax, pm, qm, 0.0, h, rA * pm, rB * qm)
        ref = _exact_upper_construction(Lmin, Lmax, P, Q, h, LIGHT)
        top = max(max(ref), got.j0 + len(got.masses) - 1)
        cum_ref, cum_got = mp.mpf(0), mp.mpf(0)
        for j in range(top, min(min(ref), got.j0) - 1, -1):
            cum_ref += ref.get(j, 0)
            if got.j0 <= j < got.j0 + len(got.masses): cum_got += mp.mpf(float(got.masses[j - got.j0]))
            assert cum_got >= cum_ref, (j, float(cum_ref - cum_got))


def test_the_losses_round_off_is_paid_outward(monkeypatch):
    "Widening each region's losses by LOSS_ROUNDING·u·(M_F + M_G) only raises δ(ε), and by a hair; without it δ moves both ways."
    from must_nbdev.accounting import triangles
    def delta(p, eps):
        return float(np.sum(p.masses * np.maximum(0.0, -np.expm1(eps - p.losses)))) + p.inf_mass
    cases = [(G, 256 / 60000, 1.1, 0.008) for G in triangle_net(1.1, tol=0.02)[::97]]
    cases += [(G, 0.3, 0.7, 0.02) for G in triangle_net(0.7, tol=0.1)[::31]]
    widened = [planar_upper_pld(G, q=q, sigma=s, h=h) for G, q, s, h in cases]
    monkeypatch.setattr(triangles, 'LOSS_ROUNDING', 0)
    plain = [planar_upper_pld(G, q=q, sigma=s, h=h) for G, q, s, h in cases]
    moved = 0
    for w, p in zip(widened, plain):
        for eps in (0.0, 0.3, 1.0, 2.0):
            dw, dp = delta(w, eps), delta(p, eps)
            assert dw >= dp * (1 - 1e-15), (eps, dw, dp)   # (the two sums' own order)
            assert dw <= dp * (1 + 1e-9) + 1e-300
            moved += dw != dp
    assert moved                                               # the widening is there

def test_members_skip_the_empty_regions_below_the_loss_infimum_and_keep_every_other_bit(monkeypatch):
    "Levels below a chunk's loss infimum bound regions of mass 0: dropping them leaves every mass as it was, fewer regions."
    from must_nbdev.accounting import triangles
    class KeepingEveryLevel:   # numpy, except that no level looks empty: the member as it was before the drop
        def __getattr__(self, name): return getattr(np, name)
        def isneginf(self, a): return np.zeros(np.shape(a), bool)
    seen = []
    def counting(*args): seen[-1] += args[-4].size; return region_masses(*args)
    region_masses = triangles._region_masses
    monkeypatch.setattr(triangles, '_region_masses', counting)
    cases = [(G, 256 / 60000, 2.62, 0.02) for G in triangle_net(2.62, tol=0.02)[::61]]
    cases += [(G, Q4, S4, 0.01) for G in triangle_net(S4)[::83]]
    for G, q, s, h in cases:
        seen.append(0); skipping = planar_upper_pld(G, q=q, sigma=s, h=h, per_h=1.0)
        with monkeypatch.context() as m:
            m.setattr(triangles, 'np', KeepingEveryLevel())
            seen.append(0); keeping = planar_upper_pld(G, q=q, sigma=s, h=h, per_h=1.0)
        assert skipping.j0 == keeping.j0 and np.array_equal(skipping.masses, keeping.masses)
        # the empty regions' error bounds (subnormal) and the sum's rounding factor went to +∞: now a hair less
        assert keeping.inf_mass * (1 - 1e-12) <= skipping.inf_mass <= keeping.inf_mass
        assert seen[-2] < 0.9 * seen[-1], seen[-2:]                  # a tenth or more of the regions were empty

def test_the_old_import_path_still_serves_the_upper_dp_with_a_warning():
    "The upper DP moved to accounting.upper_dp: its names are served from accounting.triangles until 0.5, with a warning."
    import warnings
    import must_nbdev.accounting.triangles as old
    import must_nbdev.accounting.upper_dp as new
    for name in old.MOVED:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter('always')
            assert getattr(old, name) is getattr(new, name), name
        assert any('moved to must_nbdev.accounting.upper_dp' in str(w.message) for w in seen), name
    with pytest.raises(AttributeError, match='no attribute'):
        old.no_such_name
