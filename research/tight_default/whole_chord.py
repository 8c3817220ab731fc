"""Claim 30: how much of the whole run's ε(δ) is the grid's rounding. `triangle_epsilon` answers the first grid point
eps_lo + jh whose certified δ is at most δ, so up to one step h above where the certified curve crosses δ. The
worst-case δ is convex in α = e^ε (a supremum of hockey-stick curves, each convex in α: the argument
accounting/09b_net_blocks uses for a block's profile), so between grid points j and j + 1 it lies below the chord of
the DP's certified values there, and the chord's crossing of δ is a certified ε too. This script runs the whole run's
quick net at the DP-SGD size as `benchmarks/tight_default.py` does, keeps the DP's values, and prints both answers.

    python research/tight_default/whole_chord.py SCHEME SIGMA
"""
import json, math, sys, time
import numpy as np
import must_nbdev.accounting.triangle_certificate as tc
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account

name, sigma = sys.argv[1], float(sys.argv[2])
library, seen = tc.net_dp, []
def keep(*a, **k):
    out = library(*a, **k); seen.append((a[3], a[5], np.asarray(out[0]['values'], float))); return out
tc.net_dp = keep
t0 = time.perf_counter()
r = account(scheme_at(name, 60_000, 256, b=6000), sigma=sigma, steps=2350, delta=1e-5, net=True, **tc.QUICK_NET.keywords())
e0, h, U = seen[-1]
j = int(np.flatnonzero(U <= 1e-5)[0])                       # the library's answer: e0 + j h
a0, a1 = math.exp(e0 + (j - 1) * h), math.exp(e0 + j * h)    # the chord in α between j − 1 and j
alpha = a0 + (U[j - 1] - 1e-5) / (U[j - 1] - U[j]) * (a1 - a0)
chord = math.log(alpha)
print(json.dumps(dict(scheme=name, sigma=sigma, grid=e0 + j * h, net=r.certificates['triangle net'], chord=chord,
                      h=h, attack=r.lower, gap_grid=round((e0 + j * h) / r.lower, 5), gap_chord=round(chord / r.lower, 5),
                      seconds=round(time.perf_counter() - t0, 1))), flush=True)
