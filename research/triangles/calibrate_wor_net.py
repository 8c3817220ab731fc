"""WOR's σ for (ε, δ) = (3, 1e-5) after 10 epochs of batch 256 on 60,000 records (2,344 steps), certified by the
triangle net (tol 0.05, members on the grid 4h) instead of the public labels (`calibrate_sigma`: 1.451).
Bisection on σ: a σ is feasible when the net's δ(3) ≤ 1e-5 (each check is one upper DP; minutes)."""
import math, sys, time
from must_nbdev.core.sampling import make_scheme
from must_nbdev.accounting.account import account
from must_nbdev.accounting.triangle_certificate import triangle_delta

sc, k, eps, delta = make_scheme('wor', 60_000, m=256), 2344, 3.0, 1e-5
lo, hi = float(sys.argv[1]), float(sys.argv[2])      # lo infeasible (or unknown), hi feasible
def feasible(sigma):
    t0 = time.perf_counter()
    h = account(sc, sigma=sigma, steps=k, delta=delta, attack=False).h
    c = triangle_delta(sc, sigma=sigma, steps=k, eps=eps, h=h, tol=0.05, coarsen=4)
    a = account(sc, sigma=sigma, steps=k, eps=eps, h=h)
    print(f"σ={sigma:.4f} h={h:.3g}: net δ(3) {c.value:.4e} ({c.members} members), public labels {a.upper:.4e}, "
          f"attack {a.lower:.4e}; {time.perf_counter() - t0:.0f} s", flush=True)
    return c.value <= delta
while hi / lo > 1.005:
    mid = math.sqrt(lo * hi)
    if feasible(mid): hi = mid
    else: lo = mid
print(f"certified by the net: σ = {hi:.4f} (bracket [{lo:.4f}, {hi:.4f}])", flush=True)
