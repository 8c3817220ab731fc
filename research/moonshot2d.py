"""Moonshot test in the plane (NOT a proof): components (y, a, b) on the boundary ∂K (Blackwell domination is preserved
by the contractions of Lemma A3b, so ∂K suffices), hockey-stick curves by a 2-D Riemann sum on one grid shared with
the displacing family (discretisation biases cancel to first order)."""
import json, math, time
import numpy as np
from moonshot import EPS, margin

def run(gamma, sigma, n_ang=16, n_r=4, h=0.05):
    t0 = time.time(); L = 8 + 2 / sigma
    ax = np.arange(-L, L + h / 2, h); Z = np.stack(np.meshgrid(ax, ax, indexing='ij'), -1).reshape(-1, 2)
    lphi = lambda mu: -0.5 * ((Z - mu) ** 2).sum(1)
    def pair(y, a, b):
        y, a, b = (np.asarray(w, float) / sigma for w in (y, a, b))
        lp = np.logaddexp(math.log1p(-gamma) + lphi(y), math.log(gamma) + lphi(a))
        lq = np.logaddexp(math.log1p(-gamma) + lphi(y), math.log(gamma) + lphi(b))
        return np.exp(lp) * h * h / (2 * math.pi), np.exp(lq) * h * h / (2 * math.pi)
    def hockey(p, q): return np.array([np.maximum(p - math.exp(e) * q, 0).sum() for e in EPS])
    Ps, Qs = pair([-1, 0], [1, 0], [-1, 0]); A, B = hockey(Ps, Qs), hockey(Qs, Ps)
    th = np.linspace(0, 2 * np.pi, n_ang, endpoint=False); circ = lambda t: [math.cos(t), math.sin(t)]
    confs = [(circ(0), circ(t1), circ(t2)) for t1 in th for t2 in th if abs(t1 - t2) > 1e-9]
    disk = [[0.0, 0.0]] + [[r * math.cos(t), r * math.sin(t)] for r in np.linspace(0, 1, n_r + 1)[1:] for t in th]
    confs += [(w, [1, 0], [-1, 0]) for w in disk] + [([-1, 0], [1, 0], w) for w in disk] + [([-1, 0], w, [1, 0]) for w in disk]
    worst = (math.inf, None)
    for y, a, b in confs:
        H = hockey(*pair(y, a, b)); lam, s = margin(H, A, B)
        if s < worst[0]: worst = (s, dict(y=np.round(y, 3).tolist(), a=np.round(a, 3).tolist(), b=np.round(b, 3).tolist(), lam=lam, slack=s))
    return dict(test='components on dK, 2-D', gamma=gamma, sigma=sigma, configs=len(confs), seconds=round(time.time() - t0, 1), **worst[1])

if __name__ == '__main__':
    for g, s in [(0.02, 4.0), (256 / 60000, 1.1), (0.25, 2.0)]:
        print(json.dumps(run(g, s)), flush=True)
