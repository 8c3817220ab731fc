"""Threshold-matched split: f_l = alpha/Lam_l(t*), b_l = T^Z/Lam_l(t*), a_l = rest; tight iff a_l >= 0 for all l."""
import sys, numpy as np
from common import *
from gap import e, r, z, pi_k, th, L, attack_exact, bound, best, proportional

def matched(alpha, e=e, r=r, z=z, pi=pi_k, th=th):
    TR, TZ = (alpha - 1) * r / e, (alpha - 1) * z / e
    T = alpha + TR + TZ
    f = lambda t: special.logsumexp(th * t - th ** 2 / 2, b=pi) - np.log(T)
    ts = optimize.brentq(f, -50, 50, xtol=1e-15)
    Lam = np.exp(th * ts - th ** 2 / 2)
    fl, bl = np.minimum(1, alpha / Lam), np.minimum(1, TZ / Lam)
    bl = np.minimum(bl, 1 - fl)
    return ts, Lam, fl, 1 - fl - bl, bl, T

if __name__ == '__main__':
    from must_nbdev.core.sampling import scheme_at
    from must_nbdev.accounting.unlabelled import unlabelled_profile
    sc = scheme_at('must-ow', N, M, b=B)
    print(f"{'eps':>5} {'t*':>7} {'Lam1':>10} {'alpha+TZ':>10} {'T':>10} {'cond':>5} {'attack':>12} {'matched/A':>12} {'best/A':>10} {'package/A':>10}")
    for eps in [0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 10.0]:
        al = np.exp(eps)
        A, _ = attack_exact(al)
        ts, Lam, f, a, b, T = matched(al)
        vm = bound(al, f, a, b)
        vb, _ = best(al, A)
        pk = float(unlabelled_profile(sc, SIGMA, np.array([al]))[0])
        cond = Lam.min() >= al + (al - 1) * z / e
        print(f"{eps:5.2f} {ts:7.3f} {Lam[0]:10.4g} {al+(al-1)*z/e:10.4g} {T:10.4g} {str(cond):>5} {A:12.5e} {vm/A:12.9f} {vb/A:10.7f} {pk/A:10.6f}")
