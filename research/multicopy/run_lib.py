"""Library runs (argv: scheme size tol [coarsen [eps_hi]], size in {s2, 2.62, 1.1}) of the labelled game (accounting/09_triangle_certificate) at Fig S2 and the DP-SGD sizes: net vs attack."""
import sys, time
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting.triangle_certificate import triangle_delta, triangle_epsilon
name, size, tol = sys.argv[1], sys.argv[2], float(sys.argv[3])
coarsen = int(sys.argv[4]) if len(sys.argv) > 4 else 1              # members on the grid coarsen·h
eps_hi = float(sys.argv[5]) if len(sys.argv) > 5 else None         # top of the ε search (default: account's bound)
if size == 's2':
    sc = scheme_at(name, 10_000, 200, b=118)
    r = account(sc, sigma=4.0, steps=1000, eps=1.0, attack_budget=1.4e10)
    t = time.perf_counter()
    c = triangle_delta(sc, sigma=4.0, steps=1000, eps=1.0, h=r.h, tol=tol, coarsen=coarsen)
else:
    sigma = float(size)
    sc = scheme_at(name, 60_000, 256, b=6000)
    r = account(sc, sigma=sigma, steps=2350, delta=1e-5, attack_budget=1.4e10)
    t = time.perf_counter()
    c = triangle_epsilon(sc, sigma=sigma, steps=2350, delta=1e-5, h=r.h, eps_lo=r.lower,
                         eps_hi=r.upper if eps_hi is None else eps_hi, tol=tol, coarsen=coarsen)
print(r)
print(f"{name} {size} tol {tol} coarsen {coarsen}: net {c.value:.5g} gap {c.value / r.lower:.4f} (certified before {r.upper:.5g}, gap "
      f"{r.upper / r.lower:.4f}); {c.members} members, per copy {c.per_copy}, {c.seconds:.0f} s, err {c.err_charged:.2g}", flush=True)
