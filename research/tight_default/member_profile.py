"""Where does a member's time go now (the 5σ band, claim 20)? Every member of WOR's quick net at the DP-SGD size is
built one after another on one thread under cProfile, on the quick grid (4h) with one level per grid step; prints the
members' count and seconds, the regions per member (quantiles), and the functions with the most own time.

    python member_profile.py SIGMA
"""
import cProfile, pstats, sys, time
import numpy as np
from must_nbdev import make_scheme, account
from must_nbdev.accounting import triangles as T

sigma = float(sys.argv[1])
q = 256 / 60_000
h = 4 * account(make_scheme('wor', 60_000, m=256), sigma=sigma, steps=2350, delta=1e-5, attack=False).h
net = T.triangle_net(sigma, tol=0.04)
regions, split = [], T._split_regions
def counting(Lmin, *a, **kw):
    regions[-1] += len(Lmin); return split(Lmin, *a, **kw)
T._split_regions = counting
prof = cProfile.Profile()
t0 = time.perf_counter()
for G in net:
    regions.append(0)
    prof.enable(); T.planar_upper_pld(G, q=q, sigma=sigma, h=h, per_h=1.0); prof.disable()
print(f"sigma={sigma} h={h:.4g}: {len(net)} members in {time.perf_counter() - t0:.1f} s on one thread (profiled); "
      f"regions per member: quantiles 0/0.5/0.9/1 = {np.quantile(regions, [0, 0.5, 0.9, 1]).astype(int).tolist()}, "
      f"{sum(regions):,} in all")
pstats.Stats(prof).sort_stats('tottime').print_stats(12)
