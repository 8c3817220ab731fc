"""Does a net for label 2 help WR at σ = 1.1? The library gives label l a net only when σ/l ≥ LABEL_NET_SIGMA (1):
at σ = 1.1 label 2 (noise 0.55) keeps its symmetrised pair. Here label 2 also gets a net, at its own tol.
argv: scheme size tol1 tol2 coarsen, e.g. `wr 1.1 0.05 0.5 4`. Sound: it is the library's game with one more
alternative for label 2 (a label's value is the smaller over its alternatives)."""
import sys, time, math
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting.dominating import dominating_labels
from must_nbdev.accounting.pld import MAX_BINS, CAP_MASS
from must_nbdev.accounting.adaptive import attack_runs
from must_nbdev.accounting.triangles import planar_upper_pld, triangle_net
from must_nbdev.accounting.upper_dp import upper_game_dp
from must_nbdev.accounting.triangle_certificate import label_pld, whole_steps, LABEL_NET_MASS
from must_nbdev.accounting.members import on_grid

name, size, tol1, tol2, coarsen = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
n, m, b, sigma, k = {'2.62': (60_000, 256, 6000, 2.62, 2350), '1.1': (60_000, 256, 6000, 1.1, 2350)}[size]
sc = scheme_at(name, n, m, b=b)
t0 = time.perf_counter()
r = account(sc, sigma=sigma, steps=k, delta=1e-5)
h = r.h
eta, labels, left = dominating_labels(sc, sigma, 'substitute')
groups, null, members = [], 0.0, 0
for pi, theta in labels:
    if pi <= 0: continue
    if theta == 0: null += pi; continue
    if pi < CAP_MASS: left += pi; continue
    l = round(theta * sigma / 2); c = coarsen * l * l
    alts = [(label_pld(eta, theta, h),)]
    if pi >= LABEL_NET_MASS and l <= 2:
        net = triangle_net(sigma / l, tol=tol1 if l == 1 else tol2)
        alts.append(tuple(on_grid(planar_upper_pld(G, q=eta, sigma=sigma / l, h=c * h), c) for G in net))
        members += len(net)
        print(f"  label {l}: π = {pi:.4g}, noise {sigma / l:.3g}, {len(net)} members; {time.perf_counter() - t0:.0f} s",
              flush=True)
    groups.append((pi, tuple(alts)))
print(f"{name} {size}: h={h:.4g}, {r}; {members} members; {time.perf_counter() - t0:.0f} s", flush=True)
window = attack_runs(sc, sigma, 'substitute', h, MAX_BINS)[0]
e0, span = r.lower, math.ceil((r.upper - r.lower) / h)
t1 = time.perf_counter()
d = upper_game_dp(tuple(groups), k, e0, span, h, window, MAX_BINS, null=null, left=left,
              whole=whole_steps(sc, sigma, h, MAX_BINS))
v = d['values']; ok = [j for j in range(len(v)) if v[j] <= 1e-5]
e = e0 + ok[0] * h if ok else math.inf
print(f"  hybrid, label 2 with a net (tol {tol2}): ε(1e-05) = {e:.5g} (gap {e / r.lower:.4f}); "
      f"{time.perf_counter() - t1:.0f} s", flush=True)
