"""Variant (iv), PROVABLE with Lemma A only: let the P-mass of label l be charged against the Q- and Z-components of ANY
label l' (a transport plan u_{l,l'}, w_{l,l'}); radius ||mu_l - nu_l'||, ||mu_l - zeta_l'|| <= 2 max(l, l') for every Y.
   bound = e [ sum_l' H_{alpha pi_l'}(sum_l u_ll' pi_l N(2max(l,l')/s)) + H_{T^R}(sum_l a_l pi_l N(2l/s))
             + sum_l' H_{T^Z pi_l'}(sum_l w_ll' pi_l N(2max(l,l')/s)) ],   a_l = 1 - sum_l' u_ll' - sum_l' w_ll' >= 0.
The diagonal plan is the current theorem.  Convex; SLSQP from the matched diagonal split."""
import numpy as np, sys
from scipy import optimize, stats
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.unlabelled import label_groups, unlabelled_profile
from generic import _unl, value, matched_x, best

def tbound(X, alpha, e, r, z, pi, sigma, grad=False):
    L = len(pi); U = X[:L * L].reshape(L, L); W = X[L * L:].reshape(L, L)
    a = 1 - U.sum(1) - W.sum(1)
    ls = np.arange(1, L + 1); TH = 2 * np.maximum(ls[:, None], ls[None, :]) / sigma
    TR, TZ = (alpha - 1) * r / e, (alpha - 1) * z / e
    v, gU, gW = 0.0, np.zeros((L, L)), np.zeros((L, L))
    for lp in range(L):
        vq, g = _unl(alpha * pi[lp], U[:, lp], pi, TH[:, lp]); v += vq; gU[:, lp] = g
        vz, g = _unl(TZ * pi[lp], W[:, lp], pi, TH[:, lp]); v += vz; gW[:, lp] = g
    vr, gr = _unl(TR, np.maximum(a, 0), pi, 2 * ls / sigma); v += vr
    gU -= gr[:, None]; gW -= gr[:, None]
    return (e * v, e * np.r_[gU.ravel(), gW.ravel()]) if grad else e * v

def tbest(alpha, e, r, z, pi, sigma, scale):
    L = len(pi); th = 2 * np.arange(1, L + 1) / sigma
    x0 = matched_x(alpha, e, r, z, pi, th)
    X0 = np.r_[np.diag(x0[:L]).ravel(), np.diag(x0[L:]).ravel()]
    A = np.zeros((L, 2 * L * L))
    for l in range(L): A[l, l * L:(l + 1) * L] = 1; A[l, L * L + l * L: L * L + (l + 1) * L] = 1
    cons = [dict(type='ineq', fun=lambda X: 1 - A @ X, jac=lambda X: -A)]
    fun = lambda X: tuple(np.asarray(o) / scale for o in tbound(X, alpha, e, r, z, pi, sigma, grad=True))
    x1 = np.r_[np.full(L, alpha / (alpha + (alpha - 1) * (r + z) / e)), np.full(L, (alpha - 1) * z / e / (alpha + (alpha - 1) * (r + z) / e))]
    starts = [X0, np.r_[np.outer(x0[:L], pi).ravel(), np.outer(x0[L:], pi).ravel()],
              np.r_[np.diag(x1[:L]).ravel(), np.outer(x1[L:], pi).ravel()], np.r_[np.diag(x0[:L]).ravel(), np.outer(x0[L:], pi).ravel()]]
    bv, bX = np.inf, X0
    for S0 in starts:
        res = optimize.minimize(fun, S0, jac=True, method='SLSQP', bounds=[(0, 1)] * (2 * L * L), constraints=cons,
                                options=dict(maxiter=int(__import__("os").environ.get("TMAXIT", "3000")), ftol=1e-13))
        for X in (res.x, S0):
            X = np.clip(X, 0, 1); over = np.maximum(A @ X, 1)
            X = X / np.r_[np.repeat(over, L), np.repeat(over, L)]
            v = tbound(X, alpha, e, r, z, pi, sigma)
            if v < bv: bv, bX = v, X
    X = bX
    return min(tbound(X, alpha, e, r, z, pi, sigma), tbound(X0, alpha, e, r, z, pi, sigma)), X

if __name__ == '__main__':
    print(f"{'n':>6} {'m':>4} {'b':>5} {'sig':>4} {'eps':>4} {'L':>3} {'attack':>10} {'pkg/A':>8} {'matched/A':>9} {'transport/A':>11} {'(i)Zunl/A':>9}")
    for (n, m, b) in [tuple(int(v) for v in a.split(',')) for a in sys.argv[1:]]:
        sc = scheme_at('must-ow', n, m, b=b); (g,), lost = label_groups(sc)
        for sigma in [float(__import__("os").environ.get("TSIG", "1.1"))]:
            for eps in [float(__import__("os").environ.get("TEPS", "2.0"))]:
                al = np.exp(eps); keep = g.pi >= 1e-9; pi = g.pi[keep]; L = len(pi)
                extra = g.e * g.pi[~keep].sum() + lost            # dropped labels: charged their P-mass
                th = 2 * np.arange(1, L + 1) / sigma
                thf = 2 * np.arange(1, len(g.pi) + 1) / sigma
                A = g.e * _unl(al + (al - 1) * (g.r + g.z) / g.e, np.ones(len(g.pi)), g.pi, thf)[0]
                pk = float(unlabelled_profile(sc, sigma, np.array([al]))[0])
                vm = value(matched_x(al, g.e, g.r, g.z, g.pi, thf), al, g.e, g.r, g.z, g.pi, thf) + lost
                vt, X = tbest(al, g.e, g.r, g.z, pi, sigma, A); vt += extra
                vi, _ = best(al, g.e, g.r, g.z, g.pi, thf, A, zmode='unl'); vi += lost
                print(f"{n:6d} {m:4d} {b:5d} {sigma:4.1f} {eps:4.1f} {L:3d} {A:10.4e} {pk/A:8.5f} {vm/A:9.5f} {vt/A:11.5f} {vi/A:9.5f}", flush=True)
