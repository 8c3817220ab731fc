"""The net's DP on a finer grid: triangle_epsilon at h = 0.001 with members on the grid 4h (the same member grid as
h = 0.002 with coarsen 2), to separate the DP grid's share of the gap. argv: scheme sigma h tol coarsen."""
import sys, time
from must_nbdev import account
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.triangle_certificate import triangle_epsilon

name, sigma, h, tol, coarsen = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
sc = scheme_at(name, 60_000, 256, b=6000)
r = account(sc, sigma=sigma, steps=2350, delta=1e-5)
print(f"{name} σ={sigma}: account h={r.h:.4g}: attack {r.lower:.5f}, certified {r.upper:.5f}", flush=True)
c = triangle_epsilon(sc, sigma=sigma, steps=2350, delta=1e-5, h=h, eps_lo=r.lower, eps_hi=r.upper, tol=tol,
                     coarsen=coarsen)
print(f"  net at h={h:g}, tol {tol:g}, coarsen {coarsen}: {c}", flush=True)
