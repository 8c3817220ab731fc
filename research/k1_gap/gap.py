"""Where does MUST.ow's k=1 gap come from?  Attack, package bound, best split, idealised variants."""
import sys, numpy as np
from scipy import optimize
from common import *

scheme = sys.argv[1] if len(sys.argv) > 1 else 'must-ow'
e, r, z, pi, pl = ow_params(floor=0)
keep = pi >= 1e-20
pi_k = pi[keep]
L = len(pi_k)
th = 2 * np.arange(1, L + 1) / SIGMA


def attack_exact(alpha):
    "displacing pair: x=+1, x' and all others -1. p = P(L=0) N(0) + sum P(L=l) N(2l/s); q = N(0)."
    th_all = 2 * np.arange(1, len(pl) + 1) / SIGMA
    sel = pl > 1e-300
    p0 = 1 - pl.sum()
    root = hs_mix_vs_gauss(alpha - p0, pl[sel], th_all[sel])   # (p0 N0 + mix - alpha N0)_+ = (mix - (alpha-p0)N0)_+
    quad = hs_quad(alpha, np.r_[p0, pl[sel][:12]], np.r_[0, th_all[sel][:12]], [1.0], [0.0])
    return root, quad


def terms(alpha, f, a, b, qmode='lab', zmode='lab'):
    TR, TZ = (alpha - 1) * r / e, (alpha - 1) * z / e
    def lab(gam, frac):
        out = 0.0
        for l in range(L):
            if frac[l] > 1e-300: out += pi_k[l] * frac[l] * dG(gam / frac[l], th[l])
        return out
    tq = lab(alpha, f) if qmode == 'lab' else hs_mix_vs_gauss(alpha, f * pi_k, th)
    tr = hs_mix_vs_gauss(TR, a * pi_k, th)
    tz = lab(TZ, b) if zmode == 'lab' else hs_mix_vs_gauss(TZ, b * pi_k, th)
    return e * tq, e * tr, e * tz


def bound(alpha, f, a, b, **kw): return sum(terms(alpha, f, a, b, **kw))


def proportional(alpha):
    TR, TZ = (alpha - 1) * r / e, (alpha - 1) * z / e
    T = alpha + TR + TZ
    return np.full(L, alpha / T), np.full(L, TR / T), np.full(L, TZ / T)


def _root(gamma, w):
    "root t* of sum w_l exp(th_l t - th_l^2/2) = gamma (None if the mixture is empty)."
    if w.sum() <= 0 or gamma <= 0: return None
    f = lambda t: special.logsumexp(th * t - th ** 2 / 2, b=w) - np.log(gamma)
    if f(-50.0) > 0: return -np.inf
    return optimize.brentq(f, -50.0, 50.0, xtol=1e-14, rtol=1e-15, maxiter=500)


def obj_grad(x, alpha, qmode, zmode):
    "bound and gradient (envelope theorem) in (f, b), a = 1 - f - b."
    f, b = x[:L], x[L:]
    a = 1 - f - b
    TR, TZ = (alpha - 1) * r / e, (alpha - 1) * z / e
    val, gf, gb = 0.0, np.zeros(L), np.zeros(L)
    def lab(gam, frac):
        with np.errstate(divide='ignore', invalid='ignore'):
            fr = np.maximum(frac, 1e-300)
            lg = np.log(gam / fr)
            aa = th / 2 - lg / th
            v = np.where(frac > 1e-300, pi_k * (fr * stats.norm.cdf(aa) - gam * stats.norm.cdf(aa - th)), 0.0)
            g = np.where(frac > 1e-300, pi_k * stats.norm.cdf(aa), pi_k * 1.0)
        return v.sum(), g
    def unl(gam, frac):
        w = np.maximum(frac, 0) * pi_k
        t = _root(gam, w)
        if t is None: return (w.sum(), pi_k.copy()) if gam <= 0 else (0.0, pi_k * stats.norm.sf(50 - th))
        return float((w * stats.norm.sf(t - th)).sum() - gam * stats.norm.sf(t)), pi_k * stats.norm.sf(t - th)
    vq, g_q = lab(alpha, f) if qmode == 'lab' else unl(alpha, f)
    vr, g_r = unl(TR, a)
    vz, g_z = lab(TZ, b) if zmode == 'lab' else unl(TZ, b)
    return vq + vr + vz, g_q - g_r, g_z - g_r


def best(alpha, scale, qmode='lab', zmode='lab'):
    f0, a0, b0 = proportional(alpha)
    s = e / scale
    fun = lambda x: tuple(v * s for v in (lambda o: (o[0], np.r_[o[1], o[2]]))(obj_grad(x, alpha, qmode, zmode)))
    cons = [dict(type='ineq', fun=lambda x: 1 - x[:L] - x[L:], jac=lambda x: -np.c_[np.eye(L), np.eye(L)])]
    bestv, bestx = np.inf, None
    for x0 in (np.r_[f0, b0], np.r_[f0 * 0.5, b0 * 0.5], np.r_[np.minimum(1, 3 * f0), b0], np.r_[f0, np.zeros(L)]):
        res = optimize.minimize(fun, x0, jac=True, method='SLSQP', bounds=[(0, 1)] * (2 * L), constraints=cons,
                                options=dict(maxiter=1000, ftol=1e-14))
        x = np.clip(res.x, 0, 1)
        v = bound(alpha, x[:L], np.maximum(1 - x[:L] - x[L:], 0), x[L:], qmode=qmode, zmode=zmode)
        if v < bestv: bestv, bestx = v, x
    return bestv, (bestx[:L], np.maximum(1 - bestx[:L] - bestx[L:], 0), bestx[L:])


if __name__ == '__main__':
    from must_nbdev.core.sampling import scheme_at
    from must_nbdev.accounting.unlabelled import label_groups, group_bound, unlabelled_profile
    sc = scheme_at('must-ow', N, M, b=B)
    g, lost = label_groups(sc)
    print(f"e={e:.6g} r={r:.6g} z={z:.6g} (package: {g[0].e:.6g} {g[0].r:.6g} {g[0].z:.6g}); L={L}; pi[:4]={pi_k[:4]}")
    assert np.allclose(pi_k, g[0].pi, rtol=1e-9)
    for eps in (2.0, 0.5):
        alpha = np.exp(eps)
        A, Aq = attack_exact(alpha)
        pkg = float(unlabelled_profile(sc, SIGMA, np.array([alpha]))[0])
        gb = float(group_bound(g[0], SIGMA, np.array([alpha]))[0]) + lost
        prop = bound(alpha, *proportional(alpha))
        tq, tr, tz = terms(alpha, *proportional(alpha))
        Aunl = e * hs_mix_vs_gauss(alpha + (alpha - 1) * (r + z) / e, pi_k, th)
        print(f"\n=== eps={eps}  alpha={alpha:.4f}  T^R={(alpha-1)*r/e:.2f} T^Z={(alpha-1)*z/e:.2f}")
        print(f"attack (root)={A:.10e} (quad)={Aq:.10e} (group form)={Aunl:.10e}")
        rows = [('package unlabelled_profile', pkg), ('package group_bound (16 splits)', gb), ('theorem, proportional split', prop)]
        print(f"  proportional split pieces: Q={tq:.4e} R={tr:.4e} Z={tz:.4e}")
        vb, (f, a, b) = best(alpha, A)
        rows.append(('theorem, best split (optimised)', vb))
        print('  best split f[:3]', f[:3], 'a[:3]', a[:3], 'b[:3]', b[:3])
        print('  best-split pieces', terms(alpha, f, a, b))
        v1, s1 = best(alpha, A, zmode='unl'); rows.append(('(i) Z unlabelled (Lemma-A form), best split', v1))
        print('  (i) split f[:3]', s1[0][:3], 'b[:3]', s1[2][:3])
        rows.append(('(i) Z unlabelled, proportional', bound(alpha, *proportional(alpha), zmode='unl')))
        v3, s3 = best(alpha, A, qmode='unl'); rows.append(('(iii) Q unlabelled, Z labelled, best split', v3))
        rows.append(('(ii) Q,Z unlabelled, proportional (= no split)', bound(alpha, *proportional(alpha), qmode='unl', zmode='unl')))
        lab = e * sum(pi_k * dG(alpha + (alpha - 1) * (r + z) / e, th))
        rows.append(('public-label pair (every label charged)', lab))
        for name, v in rows: print(f"  {name:48s} {v:.8e}  ratio {v/A:.5f}")
