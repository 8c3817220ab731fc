"""Adaptive Loewner net for one family near A at Fig S2 (exploration): the free vertex x' anywhere in the disc, y = -e1,
x = e1. Quadtree cells in the x' plane; a cell's member is its centre's Gram plus a diagonal slack D >= G - G(centre)
on the cell's feasible samples (+10%), the slack's split tau chosen from a few; a cell is split while its member,
added alone to the two orientations, raises the adaptive DP's δ by more than tol."""
from common import *
from common import _dp
from net import gram, A_tri as A_opt, gram_opt
import json

def member(lo, hi, tau_f, sub=9):
    xs = [np.array([u, v]) for u in np.linspace(lo[0], hi[0], sub) for v in np.linspace(lo[1], hi[1], sub)]
    xs = [p for p in xs if p @ p <= 1 + 1e-12]
    if not xs: return None
    y, x = np.array([-1., 0.]), np.array([1., 0.])
    c = np.mean(xs, axis=0); Gc = gram(y, x, c)
    E = np.array([gram(y, x, p) for p in xs]) - Gc; e11, e22, e12 = E[:, 0, 0], E[:, 1, 1], E[:, 0, 1]
    tau = max(tau_f * np.abs(e12).max(), 1e-7)
    d1 = max(e11.max(), 0) + tau; d2 = max(np.max(e22 + e12 ** 2 / (d1 - e11)), 0) + 1e-9
    return Gc + np.diag([d1 * 1.1, d2 * 1.1])

if __name__ == '__main__':
    tol, depth = float(sys.argv[1]), int(sys.argv[2])
    q, s, k, e0 = 0.02, 4.0, 1000, 1.0
    h = account(make_scheme('wor', 10_000, m=200), sigma=s, steps=k, eps=e0, attack=False).h
    base = [A_opt(q, s, h), A_opt(q, s, h, True)]
    v0 = _dp(tuple(base), k, e0, 0, h, MAX_BINS)['values'][0]
    cells = [((-1 + i * 0.5, -1 + j * 0.5), (-0.5 + i * 0.5, -0.5 + j * 0.5), 0) for i in range(4) for j in range(4)]
    leaves, tests, t0, worst = [], 0, time.time(), 1.0
    while cells:
        lo, hi, d = cells.pop()
        best = None
        for tf in (0.5, 2.0):
            G = member(lo, hi, tf)
            if G is None: break
            o = gram_opt(G, q, s, h, f"{np.round(lo, 4).tolist()}..{np.round(hi, 4).tolist()}")
            v = _dp(tuple(base + [o]), k, e0, 0, h, MAX_BINS)['values'][0] / v0; tests += 1
            if best is None or v < best[1]: best = (o, v)
        if best is None: continue
        if best[1] <= 1 + tol or d >= depth:
            leaves.append(best[0]); worst = max(worst, best[1])
        else:
            m = ((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2)
            cells += [((a0, b0), (a1, b1), d + 1) for a0, a1 in ((lo[0], m[0]), (m[0], hi[0]))
                      for b0, b1 in ((lo[1], m[1]), (m[1], hi[1]))]
    v = _dp(tuple(base + leaves), k, e0, 0, h, MAX_BINS)['values'][0] / v0
    print(json.dumps(dict(tol=tol, depth=depth, v0=v0, members=len(leaves), worst_alone=worst, together=v,
                          tests=tests, seconds=round(time.time() - t0))), flush=True)
