"""Triangle options for the adaptive DP (WOR, substitution): the pair P = (1-q)N(y) + qN(x), Q = (1-q)N(y) + qN(x')
in the plane, sigma^2 I. The plane is cut into o1-cells times o2-intervals between loss levels (the loss is monotone in
o2 once b lies on the first axis); the cell masses are exact Gaussian products, so the quantised pair is a
post-processing of the triangle (a dominated pair, right for attacks), merged onto the grid by the library's
`lower_pld`. Exploration code, not certified round-off."""
import math
from types import SimpleNamespace
import numpy as np
from scipy.special import ndtr
from must_nbdev.accounting.pld import lower_pld

def _frame(a, b):
    "Rotate/reflect so that b = (|b|, 0) and a = (a1, a2) with a2 >= 0."
    a, b = np.asarray(a, float), np.asarray(b, float)
    nb = float(np.hypot(*b))
    if nb == 0: raise ValueError("b = 0: use the 1-D pair")
    e1 = b / nb; e2 = np.array([-e1[1], e1[0]])
    a1, a2 = float(a @ e1), float(a @ e2)
    return a1, abs(a2), nb

def tri_cells(a, b, q, sigma, hp, n1=3000, width=11.0):
    "Regions (o1-cell x o2-interval between loss levels j*hp at the cell's midpoint): log P- and Q-masses."
    a1, a2, b1 = _frame(a, b)
    s2 = sigma * sigma
    ca, cb = (a1 * a1 + a2 * a2) / (2 * s2), b1 * b1 / (2 * s2)
    l1q, lq = math.log1p(-q), math.log(q)
    G = lambda v: np.logaddexp(l1q, lq + v - cb)
    F = lambda u: np.logaddexp(l1q, lq + u - ca)
    lo1, hi1 = min(0, a1, b1) - width * sigma, max(0, a1, b1) + width * sigma
    edges = np.linspace(lo1, hi1, n1 + 1); mid = (edges[:-1] + edges[1:]) / 2
    Gv = G(b1 * mid / s2)
    o2lo, o2hi = min(0, a2) - width * sigma, max(0, a2) + width * sigma
    Lmin = float(np.min(l1q - Gv)); Lmax = float(np.max(F((np.abs(a1) * np.abs(mid) + a2 * o2hi) / s2) - Gv))
    ell = np.arange(math.floor(Lmin / hp), math.ceil(Lmax / hp) + 1) * hp
    P = [(1 - q, 0.0, 0.0), (q, a1, a2)]; Q = [(1 - q, 0.0, 0.0), (q, b1, 0.0)]
    cell = lambda m1: ndtr((edges[1:] - m1) / sigma) - ndtr((edges[:-1] - m1) / sigma)
    p1 = [w * cell(m1) for w, m1, _ in P]; q1 = [w * cell(m1) for w, m1, _ in Q]
    lA, lB = [], []
    for c0 in range(0, n1, 200):
        sl = slice(c0, c0 + 200)
        z = ell[None, :] + Gv[sl, None]
        with np.errstate(invalid='ignore', divide='ignore'):
            u = ca + np.log((np.exp(z) - (1 - q)) / q)
        o2 = np.where(np.isnan(u), -np.inf, (s2 * u - a1 * mid[sl, None]) / a2)
        o2 = np.clip(o2, -np.inf, np.inf)
        bnd = np.concatenate([np.full((o2.shape[0], 1), -np.inf), o2, np.full((o2.shape[0], 1), np.inf)], 1)
        pm = sum(pp[sl, None] * np.diff(ndtr((bnd - m2) / sigma), axis=1) for pp, (w, m1, m2) in zip(p1, P))
        qm = sum(qq[sl, None] * np.diff(ndtr((bnd - m2) / sigma), axis=1) for qq, (w, m1, m2) in zip(q1, Q))
        keep = (pm > 1e-300) & (qm > 1e-300)
        lA.append(np.log(pm[keep])); lB.append(np.log(qm[keep]))
    lA, lB = np.concatenate(lA), np.concatenate(lB)
    return SimpleNamespace(lA=lA, lB_safe=lB, s_hi=np.inf, s_lo=np.inf)

def tri_pld(a, b, q, sigma, h, swap=False, **kw):
    "Lower PLD (a dominated discrete pair) of the triangle with offsets a = x - y, b = x' - y; swap: (Q, P)."
    if swap: a, b = b, a
    return lower_pld(tri_cells(a, b, q, sigma, h / 2, **kw), h)
