"""A certified upper bound on WOR's worst-case δ(ε) under adaptive composition, from a Loewner net of triangles
(README §1-2). Three pieces, each an upper bound by construction:

1. `cover(...)`: cells of the four families of maximal triangles (I: three vertices on the unit circle; II: two
   antipodal, the third free in the disc, in the role of y, x or x'). On a cell the Gram entries are bounded by
   interval arithmetic (squares of affine functions, cosines on intervals), and the member
   G* = [[A1 + s, m], [m, B1 + t]] with s t >= w^2 (m, w: centre and half-width of the off-diagonal range) dominates
   every Gram of the cell in Loewner order. A cell is split while its member's chi-square proxy exceeds the
   displacing pair's by more than `tol` (a heuristic for tightness only; soundness does not depend on it).
2. `upper_pld(G, ...)`: the planar pair of a member cut into regions (o1-cells x o2-intervals between loss levels),
   exact Gaussian masses, interval bounds on the loss in each region, then the library's connect-the-dots split
   (`upper_pld`): a pair that dominates the member. Mass outside the o1 range and above the top level goes to +inf.
3. `upper_dp(...)`: the backward DP V_t(l) = max_members E[V_{t+1}(l + L)] on a window, V = 1 above it and
   V(lo) below it (V is nondecreasing in l), FFT round-off added, not subtracted.
"""
import math, sys, time, json
import numpy as np
from types import SimpleNamespace
from scipy.special import ndtr, log_ndtr
from scipy import fft as sfft
from must_nbdev import make_scheme, account
from must_nbdev.accounting.pairs import GaussianMixture
from must_nbdev.accounting.pld import loss_cells, upper_pld, lower_pld, MAX_BINS
from must_nbdev.accounting.adaptive import adaptive_dp, dp_plan
from must_nbdev.accounting.compose import UNIT_ROUNDOFF

# ---------------------------------------------------------------- 1. the net
def _sq(lo, hi):
    "Exact range of x^2 for x in [lo, hi]."
    c = [lo * lo, hi * hi]
    return (0.0 if lo <= 0 <= hi else min(c)), max(c)

def _cos(lo, hi):
    "Exact range of cos on [lo, hi]."
    k0, k1 = math.ceil(lo / math.pi), math.floor(hi / math.pi)       # multiples of pi inside
    vals = [math.cos(lo), math.cos(hi)] + [(-1.0) ** k for k in range(k0, k1 + 1)]
    return min(vals), max(vals)

def gram_box(fam, lo, hi):
    "Ranges (G11, G22, G12) over the parameter cell [lo, hi] of a family, or None if the cell misses the disc."
    if fam != 'I':
        p1, p2 = (lo[0], hi[0]), (lo[1], hi[1])
        near = _sq(*p1)[0] + _sq(*p2)[0]
        if near > 1: return None                                     # the cell lies outside the unit disc
        s2 = _sq(*p2)
        plus = _sq(p1[0] + 1, p1[1] + 1); minus = _sq(1 - p1[1], 1 - p1[0])
        r_plus, r_minus = (plus[0] + s2[0], plus[1] + s2[1]), (minus[0] + s2[0], minus[1] + s2[1])
        two = (2 * (p1[0] + 1), 2 * (p1[1] + 1))
        if fam == 'xp': return (4.0, 4.0), r_plus, two              # y = -e1, x = e1, x' = p
        if fam == 'x': return r_plus, (4.0, 4.0), two                # y = -e1, x = p, x' = e1
        n2 = (_sq(*p1)[0] + s2[0] - 1, _sq(*p1)[1] + s2[1] - 1)      # y = p, x = e1, x' = -e1
        return r_minus, r_plus, n2
    # I: y = -e1, x = circ(alpha), x' = circ(beta); G11 = 2 + 2cos a, G22 = 2 + 2cos b, G12 = cos(a-b) + cos a + cos b + 1
    ca, cb, cd = _cos(lo[0], hi[0]), _cos(lo[1], hi[1]), _cos(lo[0] - hi[1], hi[0] - lo[1])
    return (2 + 2 * ca[0], 2 + 2 * ca[1]), (2 + 2 * cb[0], 2 + 2 * cb[1]), (cd[0] + ca[0] + cb[0] + 1,
                                                                         cd[1] + ca[1] + cb[1] + 1)

def proxy(G, sigma):
    "First-order chi-square of the pair (small q): e^{G11/s^2} + e^{G22/s^2} - 2 e^{G12/s^2}."
    s2 = sigma * sigma
    return math.exp(G[0][0] / s2) + math.exp(G[1][1] / s2) - 2 * math.exp(G[0][1] / s2)

def member(box, sigma):
    "A Gram matrix above every Gram of the box (Loewner order), the one of least proxy among a few splits s t = w^2."
    (A0, A1), (B0, B1), (C0, C1) = box
    m, w = (C0 + C1) / 2, (C1 - C0) / 2
    if w <= 0: return np.array([[A1, m], [m, B1 + 1e-12]])
    r0 = math.exp((B1 - A1) / (2 * sigma * sigma))
    best = None
    for f in (1 / 8, 1 / 4, 1 / 2, 1, 2, 4, 8):
        r = r0 * f
        G = np.array([[A1 + w * r, m], [m, B1 + w / r]])
        v = proxy(G, sigma)
        if best is None or v < best[0]: best = (v, G)
    return best[1]

FAMILIES = {'I': ((0.0, -math.pi), (math.pi, math.pi)),             # alpha in [0, pi] by reflection
            'xp': ((-1.0, 0.0), (1.0, 1.0)), 'x': ((-1.0, 0.0), (1.0, 1.0)), 'y': ((-1.0, 0.0), (1.0, 1.0))}

def cover(sigma, tol, depth=14, start=4, log=None):
    "Leaves (family, lo, hi, member Gram) of an adaptive cover of the four families; every feasible triangle's Gram is below a member's."
    ref = math.exp(4 / sigma ** 2) - 1                              # proxy of the displacing pair, G = diag(4, 0)
    leaves = []
    for fam, (lo, hi) in FAMILIES.items():
        w0, w1 = (hi[0] - lo[0]) / start, (hi[1] - lo[1]) / start
        cells = [((lo[0] + i * w0, lo[1] + j * w1), (lo[0] + (i + 1) * w0, lo[1] + (j + 1) * w1), 0)
                 for i in range(start) for j in range(start)]
        while cells:
            a, b, d = cells.pop()
            box = gram_box(fam, a, b)
            if box is None: continue
            G = member(box, sigma)
            if proxy(G, sigma) <= ref * (1 + tol) or d >= depth:
                leaves.append((fam, a, b, G)); continue
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            cells += [((u0, v0), (u1, v1), d + 1) for u0, u1 in ((a[0], mid[0]), (mid[0], b[0]))
                      for v0, v1 in ((a[1], mid[1]), (mid[1], b[1]))]
    return leaves

def prune(grams, tol=0.0):
    "Drop members whose Gram lies below another member's (Loewner order): the other dominates them."
    G = np.array(grams); n = len(G); keep = np.ones(n, bool)
    order = np.argsort(-(G[:, 0, 0] + G[:, 1, 1]))
    kept = []
    for i in order:
        D = G[kept] - G[i]                                            # G_j - G_i for kept j
        if len(kept):
            tr, det = D[:, 0, 0] + D[:, 1, 1], D[:, 0, 0] * D[:, 1, 1] - D[:, 0, 1] ** 2
            if np.any((D[:, 0, 0] >= -tol) & (D[:, 1, 1] >= -tol) & (det >= -tol)): keep[i] = False; continue
        kept.append(i)
    return G[keep]

# ---------------------------------------------------------------- 2. upper PLD of a planar pair
def _mass(lo, hi):
    "Standard normal mass of [lo, hi] (arrays), accurate in both tails."
    neg = lo > 0
    return np.where(neg, ndtr(-lo) - ndtr(-hi), ndtr(hi) - ndtr(lo))

def upper_pld(G, q, sigma, h, z=11.0, bulk=7.0, core=5.0, per_h=2.0, n_tail=40):
    """An upper (dominating) DiscretePLD of P = (1-q)N(0) + qN(a), Q = (1-q)N(0) + qN(b) in the plane, sigma^2 I,
    with Gram(a, b) = G: b on the first axis, a = (a1, a2), a2 >= 0. Fine cells (loss step h/per_h) where the mass
    is (within `bulk` sigmas), coarse ones in the tails, everything beyond z sigmas at +inf."""
    G11, G12, G22 = float(G[0][0]), float(G[0][1]), float(G[1][1])
    b1 = math.sqrt(max(G22, 1e-18)); a1 = G12 / b1; a2 = math.sqrt(max(G11 - a1 * a1, 0.0))
    if a2 < 1e-9: a2 = 1e-9                                           # a fattened member still dominates (Loewner)
    s2 = sigma * sigma
    ca, cb = (a1 * a1 + a2 * a2) / (2 * s2), b1 * b1 / (2 * s2)
    l1q, lq = math.log1p(-q), math.log(q)
    F = lambda u: np.logaddexp(l1q, lq + u / s2 - ca)                # P/N(0) as a function of u = a . o
    Gq = lambda v: np.logaddexp(l1q, lq + v / s2 - cb)               # Q/N(0) as a function of v = b1 o1
    # o1 cells: fine in the bulk (each moves F(a1 o1) and Gq(b1 o1) by <= h/per_h), coarse tails, +inf beyond z
    lo_b, hi_b = min(0, a1, b1) - bulk * sigma, max(0, a1, b1) + bulk * sigma
    lo_z, hi_z = min(0, a1, b1) - z * sigma, max(0, a1, b1) + z * sigma
    # cells per unit o1: the loss variation there over h/per_h, a quarter of that beyond `core` sigmas of every mean
    xs = np.linspace(lo_b, hi_b, 20001)
    slope = np.abs(np.diff(F(a1 * xs))) + np.abs(np.diff(Gq(b1 * xs)))
    xm = (xs[:-1] + xs[1:]) / 2
    far = (xm < min(0, a1, b1) - core * sigma) | (xm > max(0, a1, b1) + core * sigma)
    dens = np.maximum(slope * per_h / h * np.where(far, 0.25, 1.0), np.diff(xs) * 8 / sigma)
    cum = np.concatenate([[0.0], np.cumsum(dens)])
    n_fine = int(min(max(200, math.ceil(cum[-1])), 20000))
    fine_edges = np.interp(np.linspace(0, cum[-1], n_fine + 1), cum, xs)
    e = np.concatenate([np.linspace(lo_z, lo_b, n_tail + 1)[:-1], fine_edges, np.linspace(hi_b, hi_z, n_tail + 1)[1:]])
    n1 = len(e) - 1; e0, e1, mid = e[:-1], e[1:], (e[:-1] + e[1:]) / 2
    m1 = {mu: _mass((e0 - mu) / sigma, (e1 - mu) / sigma) for mu in {0.0, a1, b1}}
    tail1 = (1 - q) * float(ndtr((lo_z) / sigma) + ndtr(-(hi_z) / sigma)) \
        + q * float(ndtr((lo_z - a1) / sigma) + ndtr(-(hi_z - a1) / sigma))   # P-mass outside the o1 range -> +inf
    # loss levels: fine over the bulk's loss range, coarse beyond it; L(mid, o2) = level solved for o2
    Gm = Gq(b1 * mid)
    fine = np.abs(mid) <= max(abs(lo_b), abs(hi_b))
    Lb0 = float(np.min(F(a1 * mid[fine] - a2 * bulk * sigma) - Gm[fine]))
    Lb1 = float(np.max(F(a1 * mid[fine] + a2 * (a2 + bulk * sigma)) - Gm[fine]))
    Ltop = float(np.max(F(a1 * mid + a2 * (a2 + z * sigma)) - Gm)); Lbot = float(np.min(l1q - Gm))
    hp = h / per_h
    lev_f = np.arange(math.floor(Lb0 / hp), math.ceil(Lb1 / hp) + 1) * hp
    lev = np.concatenate([np.linspace(min(Lbot, lev_f[0] - hp), lev_f[0], n_tail + 1)[:-1], lev_f,
                          np.linspace(lev_f[-1], max(Ltop, lev_f[-1] + hp), n_tail + 1)[1:]])
    lA, lB, Lmn, Lmx = [], [], [], []
    top_mass = 0.0
    coarse = (lev < lev_f[0] - hp / 2) | (lev > lev_f[-1] + hp / 2)
    for c0 in range(0, n1, 64):
        sl = slice(c0, min(c0 + 64, n1))
        # only the fine levels that this chunk's bulk reaches (the others cut no mass worth a fine level)
        xa0, xa1 = np.minimum(a1 * e0[sl], a1 * e1[sl]), np.maximum(a1 * e0[sl], a1 * e1[sl])
        vb0, vb1 = np.minimum(b1 * e0[sl], b1 * e1[sl]), np.maximum(b1 * e0[sl], b1 * e1[sl])
        c_lo = float(np.min(F(xa0 - a2 * bulk * sigma) - Gq(vb1))) - hp
        c_hi = float(np.max(F(xa1 + a2 * (a2 + bulk * sigma)) - Gq(vb0))) + hp
        lv = lev[coarse | ((lev >= c_lo) & (lev <= c_hi))]
        zz = lv[None, :] + Gm[sl, None]
        with np.errstate(invalid='ignore', divide='ignore', over='ignore'):
            u = ca + np.log((np.exp(zz) - (1 - q)) / q)
        o2 = np.where(np.isnan(u), -np.inf, (s2 * u - a1 * mid[sl, None]) / a2)
        n = o2.shape[0]
        bnd = np.concatenate([np.full((n, 1), -np.inf), o2], 1)       # region j: [bnd_j, up_j], the last open above
        up = np.concatenate([o2, np.full((n, 1), np.inf)], 1)
        w0 = _mass(bnd / sigma, up / sigma); wa = _mass((bnd - a2) / sigma, (up - a2) / sigma)
        pm = (1 - q) * m1[0.0][sl, None] * w0 + q * m1[a1][sl, None] * wa
        qm = ((1 - q) * m1[0.0][sl, None] + q * m1[b1][sl, None]) * w0
        x0, x1 = e0[sl, None], e1[sl, None]
        with np.errstate(invalid='ignore'):
            umax = np.maximum(a1 * x0, a1 * x1) + a2 * up; umin = np.minimum(a1 * x0, a1 * x1) + a2 * bnd
            vmax, vmin = np.maximum(b1 * x0, b1 * x1), np.minimum(b1 * x0, b1 * x1)
            Lmax = F(umax) - Gq(vmin); Lmin = F(umin) - Gq(vmax)
        top = ~np.isfinite(Lmax)
        top_mass += float(pm[top].sum())
        keep = (pm > 0) & ~top
        with np.errstate(divide='ignore'):
            lA.append(np.log(pm[keep])); lB.append(np.log(qm[keep]))
        Lmn.append(Lmin[keep]); Lmx.append(Lmax[keep])
    lA, lB, Lmn, Lmx = (np.concatenate(v) for v in (lA, lB, Lmn, Lmx))
    return split_regions(Lmn, Lmx, lA, lB, tail1 + top_mass, h)

def _two_atoms(lo, hi, ell):
    "P-weight at `lo` of the two-atom pair at losses lo <= hi whose Q/P ratio is e^{-ell} (ell in [lo, hi])."
    H = hi - lo
    with np.errstate(invalid='ignore', divide='ignore', over='ignore'):
        a = (np.exp(-(ell - lo)) - np.exp(-H)) / -np.expm1(-H)
    return np.where(H > 0, np.clip(a, 0.0, 1.0), 1.0)

LIGHT = 1e-24   # P-mass of a region below which its loss is simply rounded up

def split_regions(Lmin, Lmax, lA, lB, inf_mass, h):
    """Dominating DiscretePLD of regions (loss in [Lmin, Lmax], log P- and Q-masses lA, lB): each region first to two
    atoms at Lmin and Lmax (connect the dots), then each atom to the two grid points around it (again), so a region
    that pokes a hair across a grid point costs a hair, not a step."""
    p = np.exp(lA)
    light = p < LIGHT                                     # negligible regions: the whole mass at the rounded-up top
    j_light = np.ceil(Lmax[light] / h).astype(np.int64); p_light = p[light]
    Lmin, Lmax, lA, lB, p = Lmin[~light], Lmax[~light], lA[~light], lB[~light], p[~light]
    ell = np.clip(lA - lB, Lmin, Lmax)
    al = _two_atoms(Lmin, Lmax, ell)
    xs, ps = np.concatenate([Lmin, Lmax]), np.concatenate([p * al, p * (1 - al)])
    g0 = np.floor(xs / h); g0 = np.where(g0 * h > xs, g0 - 1, g0)            # g0 h <= x < (g0 + 1) h
    be = _two_atoms(g0 * h, (g0 + 1) * h, xs)
    j = g0.astype(np.int64); j0 = int(min(j.min(), j_light.min(initial=j.min())))
    n = int(max(j.max() + 1, j_light.max(initial=j.max()))) - j0 + 1
    m = (np.bincount(j - j0, ps * be, minlength=n) + np.bincount(j + 1 - j0, ps * (1 - be), minlength=n)
         + np.bincount(j_light - j0, p_light, minlength=n))
    from must_nbdev.accounting.pld import DiscretePLD
    return DiscretePLD(h, j0, m, float(inf_mass))

def disp_upper(q, sigma, h, swap=False):
    "The library's upper PLD of the displacing pair (1-D), or of its reverse."
    A = GaussianMixture(np.log([1 - q, q]), np.array([0., 2.]), sigma); B = GaussianMixture(np.zeros(1), np.zeros(1), sigma)
    if swap: A, B = B, A
    return upper_pld(loss_cells(A, B, h, max_cells=4 * MAX_BINS), h)

def disp_lower(q, sigma, h, swap=False):
    A = GaussianMixture(np.log([1 - q, q]), np.array([0., 2.]), sigma); B = GaussianMixture(np.zeros(1), np.zeros(1), sigma)
    if swap: A, B = B, A
    return lower_pld(loss_cells(A, B, h, max_cells=4 * MAX_BINS, width=1.0), h)

# ---------------------------------------------------------------- 3. upper DP
TRIM = 1e-14

def upper_kernels(plds, k):
    "Masses on a common support [a, b]; low tails (mass <= TRIM/k) moved up to the cut, high tails to +inf."
    rows, infs = [], []
    for p in plds:
        m = p.masses.copy(); c = np.cumsum(m); top = c[-1] - c + m
        i0 = int(np.searchsorted(c, TRIM / k, side='right'))
        heavy = np.flatnonzero(top > TRIM / k); i1 = int(heavy[-1]) if len(heavy) else i0
        i1 = max(i1, i0)
        low = float(m[:i0].sum()); high = float(m[i1 + 1:].sum())
        mm = m[i0:i1 + 1].copy(); mm[0] += low
        rows.append((p.j0 + i0, mm)); infs.append(p.inf_mass + high)
    a = min(j for j, _ in rows); b = max(j + len(mm) - 1 for j, mm in rows)
    K = np.zeros((len(plds), b - a + 1))
    for o, (j, mm) in enumerate(rows): K[o, j - a:j - a + len(mm)] = mm
    return K, np.array(infs), a, b

def upper_dp(plds, k, e0, h, window_opts, slack=1e-11, span=0):
    """Upper bound on V_0(0) = sup over adaptive choices among the options (dominating PLDs) of delta(e0).
    Windows [lo_t, hi_t] from the library's plan over `window_opts` (any window is valid: V = 1 above it, V(lo) below)."""
    P = dp_plan(tuple(window_opts), k, e0, span, h)
    lo, hi = P['lo'], P['hi']
    K, infs, a, b = upper_kernels(plds, k)
    K = K * (1 + slack); l1 = K.sum(1) + infs
    u = float(UNIT_ROUNDOFF['double'])
    s = np.arange(lo[k], hi[k] + 1) * h
    V = np.minimum(np.maximum(-np.expm1(e0 - s) + 4 * u * (1 + abs(e0) + np.abs(s)), 0.0), 1.0)   # rounded up
    err_total = 0.0; spectra = {}
    for t in range(k - 1, -1, -1):
        # extended V_{t+1} over indices [lo_t + a, hi_t + b]
        i_lo, i_hi = lo[t] + a, hi[t] + b
        idx = np.arange(i_lo, i_hi + 1)
        E = np.where(idx > hi[t + 1], 1.0, V[np.clip(idx - lo[t + 1], 0, len(V) - 1)])
        nE, w = len(E), b - a + 1
        r = sfft.next_fast_len(nE, real=True)
        if r not in spectra: spectra[r] = [sfft.rfft(row[::-1], r) for row in K]
        FE = sfft.rfft(E, r)
        n_out = hi[t] - lo[t] + 1
        ys = np.empty((len(K), n_out))
        for o, S in enumerate(spectra[r]):
            conv = sfft.irfft(FE * S, r)
            ys[o] = conv[w - 1:w - 1 + n_out] + infs[o]
        err = 8 * (10 * u * math.log2(r)) * math.sqrt(float(E @ E)) * l1 + 4 * u * l1
        ys += err[:, None]
        err_total += float(err.max())
        V = np.minimum(ys.max(0), 1.0)
    idx = -np.arange(span + 1) - lo[0]                                # V_0 at -span..0: delta(e0 + j h), j = 0..span
    vals = np.where(idx >= len(V), 1.0, V[np.clip(idx, 0, len(V) - 1)])
    return (float(vals[0]), err_total) if span == 0 else (vals, err_total)

if __name__ == '__main__':
    q, s, k, e0 = 0.02, 4.0, 1000, 1.0
    h = account(make_scheme('wor', 10_000, m=200), sigma=s, steps=k, eps=e0, attack=False).h
    low = [(disp_lower(q, s, h), 'A'), (disp_lower(q, s, h, True), 'A reversed')]
    t = time.time(); v_low = adaptive_dp(tuple(low), k, e0, 0, h, MAX_BINS)['values'][0]; print('lower two-orientation', v_low, time.time() - t)
    up2 = [disp_upper(q, s, h), disp_upper(q, s, h, True)]
    t = time.time(); v_up2 = upper_dp(up2, k, e0, h, low); print('upper two-orientation (1-D)', v_up2, time.time() - t)
