"""Brute force for tiny n (NOT a proof): exhaustive enumeration of every WOR sample (m of n) on optimised datasets in
1-D and 2-D (clip C = 1), exact output mixtures, D_α(P_D‖P_D') by quadrature, compared with the RDP certificate
(sampled-Gaussian RDP at q = m/n, noise σ/2).  Datasets: x (in D), x' (in D'), others y_1..y_{n−1}, all in the unit ball."""
import itertools, json, math, time
import numpy as np
from scipy.optimize import minimize
from rdp_wor import wor_rdp_per_step

def _sums(n, m, pts):
    "Sums over every m-subset of the n points (rows of pts): D uses pts[0] = x and the others pts[2:], D' uses pts[1]."
    D = np.vstack([pts[0], pts[2:]]); Dp = np.vstack([pts[1], pts[2:]])
    subs = np.array(list(itertools.combinations(range(n), m)))
    return D[subs].sum(1), Dp[subs].sum(1)

def renyi_datasets(alpha, sigma, n, m, pts, h=None):
    "D_α(P_D ‖ P_D') of WOR(m of n)∘N(0, σ² I) for the dataset points `pts` ((n+1, d): x, x', others)."
    SP, SQ = _sums(n, m, pts)
    d = pts.shape[1]; h = h or 0.04 * sigma
    lo = np.minimum(SP.min(0), SQ.min(0)) - 11 * sigma - 2 * alpha
    hi = np.maximum(SP.max(0), SQ.max(0)) + 11 * sigma + 2 * alpha
    axes = [np.arange(lo[i], hi[i] + h / 2, h) for i in range(d)]
    Z = np.stack(np.meshgrid(*axes, indexing='ij'), -1).reshape(-1, d)
    def logmix(S):
        L = -((Z[:, None, :] - S[None]) ** 2).sum(-1) / (2 * sigma ** 2)
        mx = L.max(1, keepdims=True)
        return (mx[:, 0] + np.log(np.exp(L - mx).mean(1))) - d * math.log(sigma * math.sqrt(2 * math.pi))
    lp, lq = logmix(SP), logmix(SQ)
    lg = alpha * lp + (1 - alpha) * lq
    mx = lg.max()
    return (math.log(np.exp(lg - mx).sum() * h ** d) + mx) / (alpha - 1)

def to_points(theta, n, d):
    "Unconstrained parameters → n+1 points in the closed unit ball of R^d."
    X = theta.reshape(n + 1, d)
    r = np.linalg.norm(X, axis=1, keepdims=True)
    return X * (np.tanh(r) / np.maximum(r, 1e-12))

def optimise(alpha, sigma, n, m, d, restarts=6, seed=0):
    rng = np.random.default_rng(seed)
    bound = float(wor_rdp_per_step(n, m, sigma, [alpha])[0])
    best, best_pts = -np.inf, None
    starts = [np.vstack([[3.0] + [0] * (d - 1), [-3.0] + [0] * (d - 1)] + [[-3.0] + [0] * (d - 1)] * (n - 1)).ravel()]  # displacing
    starts += [rng.normal(0, 1.5, (n + 1) * d) for _ in range(restarts)]
    for x0 in starts:
        f = lambda th: -renyi_datasets(alpha, sigma, n, m, to_points(th, n, d), h=(0.08 if d == 1 else 0.2) * sigma)
        res = minimize(f, x0, method='Nelder-Mead', options=dict(maxiter=400 * (n + 1) * d if d == 1 else 1500, xatol=1e-4, fatol=1e-10))
        val = renyi_datasets(alpha, sigma, n, m, to_points(res.x, n, d))       # re-evaluated on the fine grid
        if val > best: best, best_pts = val, to_points(res.x, n, d)
    return dict(n=n, m=m, d=d, sigma=sigma, alpha=alpha, best=best, bound=bound, ratio=best / bound,
                points=np.round(best_pts, 4).tolist())

if __name__ == '__main__':
    cases = [(3, 1, 1.0, 2), (3, 2, 1.0, 4), (4, 2, 1.0, 2), (4, 2, 1.0, 6), (4, 1, 2.0, 8), (4, 2, 0.7, 3),
             (5, 2, 1.5, 4), (4, 3, 1.0, 3)]
    for d in (1, 2):
        for n, m, s, a in cases:
            if d == 2 and n > 4: continue
            t = time.time(); r = optimise(a, s, n, m, d, restarts=4 if d == 1 else 2)
            r['seconds'] = round(time.time() - t, 1); print(json.dumps(r), flush=True)
