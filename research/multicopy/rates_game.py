"""The labelled game with rates per label (07, "Rates per label") at a forced ratio r: η_l = η/r for l ≥ 2, against the
ratio `_best_ratio` picks from the public labels. argv: scheme size tol coarsen r [r ...], size in {s2, 2.62, 1.1}."""
import sys, time
from must_nbdev import account
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting import triangle_certificate as triangles

SIZES = {'s2': (10_000, 200, 118, 4.0, 1000, dict(eps=1.0)), '2.62': (60_000, 256, 6000, 2.62, 2350, dict(delta=1e-5)),
         '1.1': (60_000, 256, 6000, 1.1, 2350, dict(delta=1e-5))}
name, size, tol, coarsen = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
n, m, b, sigma, k, q = SIZES[size]
sc = scheme_at(name, n, m, b=b)
r = account(sc, sigma=sigma, steps=k, **q)
print(f"{name} {size}: h={r.h:.4g}, certified {r.upper:.6g} ({r.certificate}), attack {r.lower:.6g}", flush=True)
best = triangles._best_ratio
for ratio in [int(x) for x in sys.argv[5:]]:
    triangles._best_ratio = lambda *a, _r=ratio: _r
    t = time.perf_counter()
    kw = dict(sigma=sigma, steps=k, h=r.h, tol=tol, coarsen=coarsen)
    c = (triangles.triangle_delta(sc, eps=q['eps'], **kw) if 'eps' in q else
         triangles.triangle_epsilon(sc, delta=q['delta'], eps_lo=r.lower, eps_hi=r.upper, **kw))
    print(f"  ratio {ratio}: {c.value:.6g} (gap {c.value / r.lower:.4f}), {c.members} members, "
          f"{time.perf_counter() - t:.0f} s", flush=True)
triangles._best_ratio = best
