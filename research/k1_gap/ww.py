"""MUST.ow / MUST.ww at k=1: package bound vs the theorem with threshold-matched splits (and, for ww, matched group shares).
Evaluated with the PACKAGE's own round-off-safe pieces (hs_gauss, hs_mixture), read-only import."""
import numpy as np
from scipy import special, optimize, stats
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting.unlabelled import label_groups, unlabelled_profile, hs_gauss, hs_mixture
N, M, B, SIGMA = 60000, 256, 6000, 1.1

def root(T, pi, th):
    return optimize.brentq(lambda t: special.logsumexp(th * t - th**2 / 2, b=pi) - np.log(T), -60, 60, xtol=1e-15)

def group_value(g, alpha, ts, th):
    "theorem for one group with the split matched to threshold t* (labels that cannot match: a_l = 0)."
    TR, TZ = (alpha - 1) * g.r / g.e, (alpha - 1) * g.z / g.e
    Lam = np.exp(th * ts - th**2 / 2)
    f = np.minimum(1, alpha / Lam); b = np.minimum(TZ / Lam, 1 - f); a = np.maximum(1 - f - b, 0)
    with np.errstate(divide='ignore', invalid='ignore'):
        lab = lambda gam, fr: np.where(fr > 0, g.pi * fr * hs_gauss(gam / np.where(fr > 0, fr, 1), th), 0).sum()
    mix = hs_mixture(np.array([TR]), (a * g.pi)[None, :], th)[0] if g.r > 0 else (a * g.pi).sum()
    return g.e * (lab(alpha, f) + mix + lab(TZ, b))

def displacing_attack(groups, alpha):
    "exact H of sum_j e_j P_j - alpha*sum e_j N0 - (alpha-1)*sum (r_j+z_j) N0 with P_j = sum_l pi_jl N(2l/s)."
    Lmax = max(len(g.pi) for g in groups); w = np.zeros(Lmax)
    for g in groups: w[:len(g.pi)] += g.e * g.pi
    th = 2 * np.arange(1, Lmax + 1) / SIGMA; E = sum(g.e for g in groups); Rz = sum(g.r + g.z for g in groups)
    gam = alpha * E + (alpha - 1) * Rz
    t = root(gam, w, th)
    return (w * stats.norm.sf(t - th)).sum() - gam * stats.norm.sf(t), t

for name in ('must-ow', 'must-ww'):
    sc = scheme_at(name, N, M, b=B); groups, lost = label_groups(sc)
    print(f"\n{sc.label}: {len(groups)} group(s), lost={lost:.2e}")
    print(f"{'eps':>5} {'attack':>12} {'acct.lower/A':>12} {'package/A':>10} {'matched(pkg shares)/A':>22} {'matched+shares/A':>17}")
    for eps in (0.5, 1.0, 2.0, 3.0, 4.0):
        al = np.exp(eps)
        A, ts = displacing_attack(groups, al)
        low = account(sc, sigma=SIGMA, steps=1, eps=eps, attack_budget=0).lower
        pk = float(unlabelled_profile(sc, SIGMA, np.array([al]))[0])
        v1 = lost
        for g in groups:
            th = 2 * np.arange(1, len(g.pi) + 1) / SIGMA
            v1 += group_value(g, al, root(al + (al - 1) * (g.r + g.z) / g.e, g.pi, th), th)
        v2 = lost
        if name == 'must-ww':     # re-share the J=0 mass p0 so that every group has the global threshold t*
            from must_nbdev.accounting.unlabelled import GROUP_FLOOR
            p0 = float(stats.binom.pmf(0, B, 1 / N)); new = []; ok = True
            for j, g in enumerate(groups, start=1):
                th = 2 * np.arange(1, len(g.pi) + 1) / SIGMA
                rho = (1 - j / B) ** M; pj = g.e / (1 - rho)
                need = g.e * ((g.pi * np.exp(th * ts - th**2 / 2)).sum() - al) / (al - 1) - pj * rho   # = p0 * s_j
                ok &= need >= 0
                new.append((g, need, rho, pj, th))
            tot = sum(x[1] for x in new)
            for g, need, rho, pj, th in new:
                sj = need / tot                 # renormalised (tot = p0 up to the lost groups)
                r_, z_ = (p0 * sj + pj) * rho, p0 * sj * (1 - rho)
                from must_nbdev.accounting.unlabelled import LabelGroup
                g2 = LabelGroup(g.e, r_, z_, g.pi)
                v2 += group_value(g2, al, root(al + (al - 1) * (r_ + z_) / g.e, g.pi, th), th)
            extra = f" (shares>=0: {ok}, sum need/p0={tot/p0:.12f})"
        else: v2, extra = v1, ""
        print(f"{eps:5.2f} {A:12.6e} {low/A:12.8f} {pk/A:10.6f} {v1/A:22.9f} {v2/A:17.9f}{extra}")
