"""Numerical search (NOT a certificate) for sup over |u|,|v|,|u−v| ≤ c of D_α(P_u‖Q_v), P_u = (1−γ)N(0,I)+γN(u,I).
Plane reduction: v = (s, 0), u = r(cos θ, sin θ). Prints max over the domain of (F−1)/(F*−1), F* the displacing value."""
import math, time, json
import numpy as np
from scipy.optimize import minimize
from rdp_wor import _psi_mean, nodes, mironov_F_minus_1

def mec_radius(U, V):
    "Radius of the minimal enclosing circle of the triangles {0, u, v} (rows of U, V in R^2)."
    a, b, e = np.linalg.norm(U, axis=1), np.linalg.norm(V, axis=1), np.linalg.norm(U - V, axis=1)
    sides = np.sort(np.stack([a, b, e], 1), 1)
    area2 = np.abs(U[:, 0] * V[:, 1] - U[:, 1] * V[:, 0])            # twice the area
    obtuse = sides[:, 2] ** 2 >= sides[:, 0] ** 2 + sides[:, 1] ** 2 - 1e-15
    with np.errstate(divide='ignore', invalid='ignore'):
        circ = a * b * e / (2 * area2)
    return np.where(obtuse | (area2 == 0), sides[:, 2] / 2, circ)

def feasible(U, V, c, domain):
    "domain 'ball': u, v, u−v in the ball of radius c; 'data': {0, u, v} fits a disk of radius c/2 (real datasets)."
    if domain == 'ball':
        return (np.linalg.norm(U, axis=1) <= c + 1e-12) & (np.linalg.norm(V, axis=1) <= c + 1e-12) & (np.linalg.norm(U - V, axis=1) <= c + 1e-12)
    return mec_radius(U, V) <= c / 2 + 1e-12

def search(alpha, gamma, c, n_grid=15, h=0.12, domain='data'):
    t0 = time.time()
    ext = 12.0 + alpha * c
    Z, W = nodes(2, [-ext, -ext], [ext, ext], h) if alpha * c < 12 else nodes(2, [-ext, -ext], [ext, ext], h)
    keep = W > 1e-300
    Z, W = Z[keep], W[keep]
    ref = float(_psi_mean(alpha, gamma, np.array([[c, 0.0]]), np.array([[0.0, 0.0]]), Z, W)[0])
    rs = np.linspace(0, c, n_grid); th = np.linspace(0, math.pi, n_grid)
    R, S, T = np.meshgrid(rs, rs, th, indexing='ij')
    U = np.stack([R * np.cos(T), R * np.sin(T)], -1).reshape(-1, 2)
    V = np.stack([S, 0 * S], -1).reshape(-1, 2)
    ok = feasible(U, V, c, domain)
    U, V = U[ok], V[ok]
    vals = np.concatenate([_psi_mean(alpha, gamma, U[i:i + 50], V[i:i + 50], Z, W) for i in range(0, len(U), 50)])
    order = np.argsort(-vals)[:4]
    best = vals[order[0]] / ref; best_at = (U[order[0]].tolist(), V[order[0]].tolist())
    def neg(x):   # x = (r, s, θ) mapped into the domain by clipping, infeasible → penalty
        r, s, t = np.clip(x[0], 0, c), np.clip(x[1], 0, c), x[2]
        u, v = np.array([[r * math.cos(t), r * math.sin(t)]]), np.array([[s, 0.0]])
        if not feasible(u, v, c, domain)[0]: return 0.0
        return -float(_psi_mean(alpha, gamma, u, v, Z, W)[0]) / ref
    for i in order:
        u, v = U[i], V[i]
        x0 = [np.linalg.norm(u), v[0], math.atan2(u[1], u[0])]
        res = minimize(neg, x0, method='Nelder-Mead', options=dict(xatol=1e-5, fatol=1e-12, maxiter=300))
        if -res.fun > best:
            r, s, t = np.clip(res.x[0], 0, c), np.clip(res.x[1], 0, c), res.x[2]
            best, best_at = -res.fun, ([r * math.cos(t), r * math.sin(t)], [s, 0.0])
    # the reverse displacing configuration u = 0, v = c e1
    rev = float(_psi_mean(alpha, gamma, np.array([[0.0, 0.0]]), np.array([[c, 0.0]]), Z, W)[0]) / ref
    ref1 = mironov_F_minus_1(alpha, gamma, c)
    return dict(domain=domain, alpha=alpha, gamma=gamma, c=c, ratio_max=best, at=best_at, reverse_ratio=rev, grid_points=int(ok.sum()),
                quad_check=ref / ref1, seconds=round(time.time() - t0, 1))

if __name__ == '__main__':
    cfgs = [(0.02, 2 / 4.0), (256 / 60000, 2 / 1.1), (256 / 60000, 2 / 2.62), (256 / 60000, 2 / 0.8), (0.5, 2.0), (0.2, 1.0)]
    alphas = {0: [2, 5, 9.5, 20], 1: [1.5, 2.75, 5], 2: [4, 17.5, 30], 3: [1.35, 2, 3], 4: [1.5, 2, 4, 8], 5: [2, 4, 10]}
    for ci, (g, c) in enumerate(cfgs):
        for a in alphas[ci]:
            print(json.dumps(search(a, g, c, n_grid=13)), flush=True)
    # the larger domain |u|, |v|, |u − v| <= c is NOT dominated: the equilateral triangle of side c
    from rdp_wor import nodes
    for g, c, a in [(0.02, 0.5, 2), (0.02, 0.5, 9.5), (0.5, 2.0, 2)]:
        ext = 12 + a * c; Z, W = nodes(2, [-ext, -ext], [ext, ext], 0.12)
        eq = _psi_mean(a, g, np.array([[c / 2, c * math.sqrt(3) / 2]]), np.array([[c, 0.0]]), Z, W)[0]
        ref = _psi_mean(a, g, np.array([[c, 0.0]]), np.array([[0.0, 0.0]]), Z, W)[0]
        print(json.dumps(dict(domain='ball', config='equilateral side c', alpha=a, gamma=g, c=c, ratio=float(eq / ref),
                              renyi_ratio=float(math.log1p(eq) / math.log1p(ref)))), flush=True)
