"""The hybrid game: at every step and state the smaller of the labelled game's value (Lemma 5, count public, no
symmetrisation) and the partially unlabelled pair's (count hidden, symmetrised). Both bound the real step, so their
minimum does too. argv: scheme size tol coarsen [only], e.g. `must-ow s2 0.2 1` or `must-ww 2.62 0.05 2 hybrid`
(`only`: run that variant alone)."""
import sys, time, math
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting.pld import MAX_BINS
from must_nbdev.accounting.adaptive import attack_runs
from must_nbdev.accounting.upper_dp import upper_game_dp
from must_nbdev.accounting.triangle_certificate import net_label_groups, whole_steps

name, size, tol, coarsen = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
only = sys.argv[5] if len(sys.argv) > 5 else None
n, m, b, sigma, k, q = {'s2': (10_000, 200, 118, 4.0, 1000, ('eps', 1.0)),
                        '2.62': (60_000, 256, 6000, 2.62, 2350, ('delta', 1e-5)),
                        '1.1': (60_000, 256, 6000, 1.1, 2350, ('delta', 1e-5))}[size]
sc = scheme_at(name, n, m, b=b)
t0 = time.perf_counter()
r = account(sc, sigma=sigma, steps=k, **{q[0]: q[1]})
h = r.h
pu = whole_steps(sc, sigma, h, MAX_BINS)[0]                 # the partially unlabelled pair, as the library
groups, null, left, members = net_label_groups(sc, sigma, h, tol, coarsen)
window = attack_runs(sc, sigma, 'substitute', h, MAX_BINS)[0]
print(f"{name} {size}: h={h:.4g}, {r}; {members} members; {time.perf_counter() - t0:.0f} s", flush=True)
if q[0] == 'eps': e0, span = q[1], 0
else: e0, span = r.lower, math.ceil((r.upper - r.lower) / h)
for label, kw in (('partially unlabelled alone', dict(groups=(), whole=(pu,))),
                  ('labelled game alone', dict(groups=groups, null=null, left=left)),
                  ('hybrid', dict(groups=groups, null=null, left=left, whole=(pu,)))):
    if only and only not in label: continue
    t1 = time.perf_counter()
    g = kw.pop('groups')
    d = upper_game_dp(g, k, e0, span, h, window, MAX_BINS, **kw)
    v = d['values']
    if q[0] == 'eps': out = f"δ({e0:g}) = {v[0]:.5g} (gap {v[0] / r.lower:.4f})"
    else:
        ok = [j for j in range(len(v)) if v[j] <= q[1]]
        e = e0 + ok[0] * h if ok else math.inf
        out = f"ε({q[1]:g}) = {e:.5g} (gap {e / r.lower:.4f})"
    print(f"  {label}: {out}; {time.perf_counter() - t1:.0f} s", flush=True)
