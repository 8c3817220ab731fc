"""Estimate of a Loewner-net certificate for WOR (exploration; PLDs of the members are lower quadratures, the cell
bounds are sampled): every feasible triangle is dominated by a member G_cell = G(centre) + D with D >= G(t) - G(centre)
on the cell; the adaptive DP over the members is then an upper bound on every adaptive adversary."""
from common import *
from common import loss_cells, lower_pld, adaptive_dp
import itertools, json

def gram(y, x, xp):
    a, b = x - y, xp - y
    return np.array([[a @ a, a @ b], [a @ b, b @ b]])

def circ(t): return np.array([math.cos(t), math.sin(t)])

# families of maximal triangles: I) inscribed, y at angle pi, x at alpha, x' at beta
#                                II) a diameter (1, -1) and a third vertex w in the disc, w in role y, x or x'
def fam_I(p): return gram(circ(math.pi), circ(p[0]), circ(p[1]))
def fam_II(role):
    def f(p):
        w = np.array(p)
        if w @ w > 1: w = w / math.sqrt(w @ w)          # cells poke out of the disc: project (still feasible)
        e, m = np.array([1., 0.]), np.array([-1., 0.])
        return gram(*{'y': (w, e, m), 'x': (m, w, e), 'xp': (m, e, w)}[role])
    return f

def member(f, lo, hi, sub=7):
    "Centre Gram + diagonal slack D with D >= G(t) - G(centre) at sub x sub samples of the cell."
    c = (np.asarray(lo) + hi) / 2; Gc = f(c)
    E = np.array([f(np.array([s, t])) - Gc for s in np.linspace(lo[0], hi[0], sub) for t in np.linspace(lo[1], hi[1], sub)])
    e11, e22, e12 = E[:, 0, 0], E[:, 1, 1], E[:, 0, 1]
    tau = max(0.25 * np.abs(e12).max(), 1e-6)
    d1 = max(e11.max(), 0) + tau
    d2 = max(np.max(e22 + e12 ** 2 / (d1 - e11)), 0) + 1e-9
    # sampling slack (prototype): 10% extra
    return Gc + np.diag([d1 * 1.1, d2 * 1.1])

def gram_opt(G, q, s, h, label):
    G11, G12, G22 = G[0, 0], G[0, 1], G[1, 1]
    a = np.array([math.sqrt(G11), 0.]); b = np.array([G12 / math.sqrt(G11), math.sqrt(max(G22 - G12 ** 2 / G11, 0))])
    return (tri_pld(a, b, q, s, h, n1=1500), label)

def A_opt(q, s, h, swap=False):
    A = GaussianMixture(np.log([1 - q, q]), np.array([0., 2.]), s); B = GaussianMixture(np.zeros(1), np.zeros(1), s)
    if swap: A, B = B, A
    return (lower_pld(loss_cells(A, B, h, max_cells=4 * MAX_BINS, width=1.0), h), f"A{' reversed' if swap else ''}")

def A_tri(q, s, h, swap=False):
    """The displacing pair through the same planar quadrature as the triangles (b = 1e-6 e2), so that comparisons share
    one discretisation (the library's 1-D lower PLD of A is 0.1-0.2% lower at Fig S2)."""
    return (tri_pld(np.array([2., 0.]), np.array([0., 1e-6]), q, s, h, swap=swap), f"A{' reversed' if swap else ''} (planar)")

def run(q, s, k, e0, h, tol=1e-3, depth=5, log=print):
    base = [A_opt(q, s, h), A_opt(q, s, h, True)]
    v0 = adaptive_dp(tuple(base), k, e0, 0, h, MAX_BINS)['values'][0]
    n = 6
    cells = [(fam_I, (i * 2 * math.pi / n - math.pi, j * 2 * math.pi / n - math.pi), ((i + 1) * 2 * math.pi / n - math.pi, (j + 1) * 2 * math.pi / n - math.pi), 0)
             for i in range(n) for j in range(n)]
    for role in ('y', 'x', 'xp'):
        f = fam_II(role)
        cells += [(f, (-1 + i * 0.5, -1 + j * 0.5), (-0.5 + i * 0.5, -0.5 + j * 0.5), 0) for i in range(4) for j in range(4)]
    final, tested, t0 = [], 0, time.time()
    while cells:
        f, lo, hi, d = cells.pop()
        G = member(f, np.array(lo, float), np.array(hi, float))
        o = gram_opt(G, q, s, h, f"{f.__name__ if hasattr(f,'__name__') else 'II'} {np.round(lo,3).tolist()} {np.round(hi,3).tolist()}")
        v = adaptive_dp(tuple(base + [o]), k, e0, 0, h, MAX_BINS)['values'][0]; tested += 1
        if v <= v0 * (1 + tol) or d >= depth:
            final.append((o, v / v0, d))
        else:
            mid = ((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2)
            for a0, a1 in ((lo[0], mid[0]), (mid[0], hi[0])):
                for b0, b1 in ((lo[1], mid[1]), (mid[1], hi[1])):
                    cells.append((f, (a0, b0), (a1, b1), d + 1))
        if tested % 50 == 0: log(f"  tested {tested}, queue {len(cells)}, final {len(final)}, {time.time()-t0:.0f}s")
    worst = sorted(final, key=lambda z: -z[1])[:8]
    vall = adaptive_dp(tuple(base + [o for o, _, _ in final]), k, e0, 0, h, MAX_BINS)['values'][0]
    return dict(v0=v0, v_net=vall, members=len(final), tested=tested, seconds=time.time() - t0,
                worst=[(o[1], r, d) for o, r, d in worst])

if __name__ == '__main__':
    q, s, k, e0 = 0.02, 4.0, 1000, 1.0
    h = account(make_scheme('wor', 10_000, m=200), sigma=s, steps=k, eps=e0, attack=False).h
    k = int(sys.argv[1]) if len(sys.argv) > 1 else k
    r = run(q, s, k, e0, h, depth=int(sys.argv[2]) if len(sys.argv) > 2 else 5)
    print(json.dumps(r, default=str, indent=1))
