"""Adaptive Loewner net over one family of maximal triangles at Fig S2 (exploration; see README §3).
Families: 'xp', 'x', 'y' (two antipodal vertices, the named one free in the disc) and 'I' (all three on the circle:
y at angle pi, x at alpha, x' at beta). A cell's member is its centre's Gram plus a diagonal slack D >= G - G(centre)
on the cell's feasible samples (+10%); a cell is split while its member, added alone to the two orientations, raises
the adaptive DP's δ by more than tol. Writes the leaves' Grams to cover_<family>.npy."""
from common import *
from common import adaptive_dp
from net import gram, A_tri, gram_opt
import json

E1, M1 = np.array([1., 0.]), np.array([-1., 0.])
def circ(t): return np.array([math.cos(t), math.sin(t)])
def vertices(fam, p):
    "(y, x, x') of the family at parameter p (None outside the feasible set)."
    if fam == 'I': return circ(math.pi), circ(p[0]), circ(p[1])
    if p @ p > 1 + 1e-12: return None
    return {'xp': (M1, E1, p), 'x': (M1, p, E1), 'y': (p, E1, M1)}[fam]

def member(fam, lo, hi, tau_f, sub=9):
    pts = [np.array([u, v]) for u in np.linspace(lo[0], hi[0], sub) for v in np.linspace(lo[1], hi[1], sub)]
    Gs = [gram(*vv) for vv in (vertices(fam, p) for p in pts) if vv is not None]
    if not Gs: return None
    Gs = np.array(Gs); c = vertices(fam, (np.asarray(lo) + hi) / 2)
    Gc = gram(*c) if c is not None else Gs.mean(0)
    E = Gs - Gc; e11, e22, e12 = E[:, 0, 0], E[:, 1, 1], E[:, 0, 1]
    tau = max(tau_f * np.abs(e12).max(), 1e-7)
    d1 = max(e11.max(), 0) + tau; d2 = max(np.max(e22 + e12 ** 2 / (d1 - e11)), 0) + 1e-9
    D = np.diag([d1 * 1.1, d2 * 1.1])
    if Gc[0, 0] + D[0, 0] <= 1e-9: D[0, 0] = 1e-6          # keep the member's a nonzero
    return Gc + D

if __name__ == '__main__':
    fam, tol, depth = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    q, s, k, e0 = 0.02, 4.0, 1000, 1.0
    h = account(make_scheme('wor', 10_000, m=200), sigma=s, steps=k, eps=e0, attack=False).h
    base = [A_tri(q, s, h), A_tri(q, s, h, True)]
    v0 = adaptive_dp(tuple(base), k, e0, 0, h, MAX_BINS)['values'][0]
    if fam == 'I':
        n = 8; w = 2 * math.pi / n
        cells = [((-math.pi + i * w, -math.pi + j * w), (-math.pi + (i + 1) * w, -math.pi + (j + 1) * w), 0)
                 for i in range(n) for j in range(n)]
    else:
        cells = [((-1 + i * 0.5, -1 + j * 0.5), (-0.5 + i * 0.5, -0.5 + j * 0.5), 0) for i in range(4) for j in range(4)]
    leaves, grams, tests, t0, worst = [], [], 0, time.time(), 1.0
    while cells:
        lo, hi, d = cells.pop()
        best = None
        for tf in (0.5, 2.0):
            G = member(fam, lo, hi, tf)
            if G is None: break
            o = gram_opt(G, q, s, h, f"{fam} {np.round(lo, 4).tolist()}..{np.round(hi, 4).tolist()}")
            v = adaptive_dp(tuple(base + [o]), k, e0, 0, h, MAX_BINS)['values'][0] / v0; tests += 1
            if best is None or v < best[1]: best = (o, v, G)
        if best is None: continue
        if tests % 40 < 2: print(f'  tests {tests}, queue {len(cells)}, leaves {len(leaves)}, {time.time() - t0:.0f}s', flush=True)
        if best[1] <= 1 + tol or d >= depth:
            leaves.append(best[0]); grams.append(best[2]); worst = max(worst, best[1])
        else:
            m = ((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2)
            cells += [((a0, b0), (a1, b1), d + 1) for a0, a1 in ((lo[0], m[0]), (m[0], hi[0]))
                      for b0, b1 in ((lo[1], m[1]), (m[1], hi[1]))]
    np.save(f"cover_{fam}.npy", np.array(grams))
    v = adaptive_dp(tuple(base + leaves), k, e0, 0, h, MAX_BINS)['values'][0] / v0
    print(json.dumps(dict(family=fam, tol=tol, depth=depth, v0=v0, members=len(leaves), worst_alone=worst,
                          together=v, tests=tests, seconds=round(time.time() - t0))), flush=True)
