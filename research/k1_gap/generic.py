"""Theorem value for one group (e,r,z,pi) with: package splits, matched split, optimised split; variants with Q / Z unlabelled."""
import numpy as np
from scipy import special, optimize, stats
from common import dG

def _root(gam, w, th):
    if w.sum() <= 0 or gam <= 0: return None
    f = lambda t: special.logsumexp(th * t - th**2 / 2, b=w) - np.log(gam)
    if f(-80.0) > 0: return -np.inf
    return optimize.brentq(f, -80.0, 80.0, xtol=1e-14, rtol=1e-15, maxiter=500)

def _lab(gam, frac, pi, th):
    fr = np.maximum(frac, 1e-300)
    with np.errstate(divide='ignore', invalid='ignore', over='ignore'):
        aa = th / 2 - np.log(gam / fr) / th
        v = np.where(frac > 1e-300, pi * (fr * stats.norm.cdf(aa) - gam * stats.norm.cdf(aa - th)), 0.0)
        g = np.where(frac > 1e-300, pi * stats.norm.cdf(aa), pi)
    if gam <= 0: return (pi * frac).sum(), pi.copy()
    return v.sum(), g

def _unl(gam, frac, pi, th):
    w = np.maximum(frac, 0) * pi
    if gam <= 0: return w.sum(), pi.copy()
    t = _root(gam, w, th)
    if t is None: return 0.0, pi * stats.norm.sf(80 - th)
    if t == -np.inf: return w.sum() - gam, pi.copy()
    return float((w * stats.norm.sf(t - th)).sum() - gam * stats.norm.sf(t)), pi * stats.norm.sf(t - th)

def value(x, alpha, e, r, z, pi, th, qmode='lab', zmode='lab', grad=False):
    L = len(pi); f, b = x[:L], x[L:]; a = np.maximum(1 - f - b, 0)
    TR, TZ = (alpha - 1) * r / e, (alpha - 1) * z / e
    vq, gq = (_lab if qmode == 'lab' else _unl)(alpha, f, pi, th)
    vr, gr = _unl(TR, a, pi, th)
    vz, gz = (_lab if zmode == 'lab' else _unl)(TZ, b, pi, th)
    v = e * (vq + vr + vz)
    return (v, e * np.r_[gq - gr, gz - gr]) if grad else v

def matched_x(alpha, e, r, z, pi, th, T=None):
    TR, TZ = (alpha - 1) * r / e, (alpha - 1) * z / e
    T = alpha + TR + TZ if T is None else T
    ts = _root(T, pi, th)
    with np.errstate(over='ignore', divide='ignore', invalid='ignore'):
        Lam = np.exp(np.minimum(th * ts - th**2 / 2, 700))
        f = np.where(Lam > 0, np.minimum(1, alpha / Lam), 1.0)
        b = np.where(Lam > 0, np.minimum(np.nan_to_num(TZ / Lam), 1 - f), 0.0)
    return np.r_[f, b]

def best(alpha, e, r, z, pi, th, scale, qmode='lab', zmode='lab', extra_starts=()):
    L = len(pi); TR, TZ = (alpha - 1) * r / e, (alpha - 1) * z / e; T = alpha + TR + TZ
    fun = lambda x: tuple(np.asarray(o) / scale for o in value(x, alpha, e, r, z, pi, th, qmode, zmode, grad=True))
    cons = [dict(type='ineq', fun=lambda x: 1 - x[:L] - x[L:], jac=lambda x: -np.c_[np.eye(L), np.eye(L)])]
    starts = [matched_x(alpha, e, r, z, pi, th), np.r_[np.full(L, alpha / T), np.full(L, TZ / T)], *extra_starts]
    bv, bx = np.inf, None
    for x0 in starts:
        v0 = value(x0, alpha, e, r, z, pi, th, qmode, zmode)
        if v0 < bv: bv, bx = v0, x0
        res = optimize.minimize(fun, x0, jac=True, method='SLSQP', bounds=[(0, 1)] * (2 * L), constraints=cons,
                                options=dict(maxiter=2000, ftol=1e-15))
        x = np.clip(res.x, 0, 1); x[L:] = np.minimum(x[L:], 1 - x[:L])
        v = value(x, alpha, e, r, z, pi, th, qmode, zmode)
        if v < bv: bv, bx = v, x
    return bv, bx
