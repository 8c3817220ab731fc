"""Does the triangle net as `net=True` ships it (`TightOptions()`: tol 0.02, two levels per grid step, every label's
net, the whole DP, no grid coarsening) stay above the best enumerated real two-step adaptive attack at tiny n?
The tests check coarser nets (tol 0.5-1), the quick setting and the fast certificates there; this is the default net,
whose members at tiny n and large rates take minutes (so it is not a test). For every case of
tests/test_tiny_n_theory_gaps.py (WOR (3, 2), WR (3, 2), MUST.ow (4, 3, 2) and (5, 2, 3), MUST.ww (4, 2, 2); σ = 1, 2;
ε = 0, 0.5): the enumerated lower bound `_lower` (1-D first and second steps on 11 points, plus the off-line 2-D first
step where the audit found one: exact_two_step) against `triangle_bound(..., steps=2, h=0.01, options=TightOptions())`.

    cd research/tight_default && python default_net_tiny_n.py > default_net_tiny_n_out.txt   # about 15 minutes
"""
import sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / 'tests'))   # the enumeration is test support
from must_nbdev.core.sampling import make_scheme
from must_nbdev.accounting.net_blocks import triangle_bound
from must_nbdev.accounting.triangle_certificate import TightOptions
from test_tiny_n_theory_gaps import CASES, _lower

H = 0.01
for name, n, m, b, sigma, eps in CASES:
    sc = make_scheme(name, n, m=m, b=b)
    t = time.perf_counter(); low = _lower(name, n, m, b, sigma, eps).value; tl = time.perf_counter() - t
    t = time.perf_counter()
    c = triangle_bound(sc, sigma=sigma, steps=2, eps=eps, h=H, options=TightOptions())
    tc = time.perf_counter() - t
    print(f"{name} n={n} m={m} b={b} σ={sigma} ε={eps}: lower {low:.6f} net {c:.6f} ratio {c/low:.5f} "
          f"({tl:.1f} s enum, {tc:.1f} s net)", 'OK' if low <= c else 'VIOLATION', flush=True)
