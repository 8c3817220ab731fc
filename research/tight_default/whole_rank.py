"""Claim 29: where the whole run's stand-in games should rank the label splits. `triangle_epsilon` ranks them at
(steps, the attack's ε), the lower end of its search; claim 28 found that the blocks rank best low, at the best
certificate's block ε. This script runs the whole run's quick net at the DP-SGD size, ε(1e-5), as
`benchmarks/tight_default.py` calls it (`account(..., net=QUICK_NET)`), with net_dp's ranking forced to (steps, r)
for each r given (`attack`: the library's).

    python research/tight_default/whole_rank.py SCHEME SIGMA [r ...]
"""
import json, sys, time
import must_nbdev.accounting.triangle_certificate as tc
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account

name, sigma, ranks = sys.argv[1], float(sys.argv[2]), sys.argv[3:] or ['attack', '0']
library = tc.net_dp
options = dict(net=True, **tc.QUICK_NET.keywords())
for r in ranks:
    if r == 'attack': tc.net_dp = library
    else: tc.net_dp = lambda *a, r=float(r), **k: library(*a[:12], (a[2], r), **k)   # (steps, r); the trim as given
    t0 = time.perf_counter()
    res = account(scheme_at(name, 60_000, 256, b=6000), sigma=sigma, steps=2350, delta=1e-5, **options)
    print(json.dumps(dict(scheme=name, sigma=sigma, rank=r, upper=res.upper, attack=res.lower,
                          gap=round(res.upper / res.lower, 4), seconds=round(time.perf_counter() - t0, 1))), flush=True)
