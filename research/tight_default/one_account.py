"""One `account(..., net=True, **options)` call at the DP-SGD size (n = 60,000, batch 256, b = 6,000, 2,350 steps,
eps(1e-5), attack budget 10 x ADAPTIVE_WORK_BUDGET), printed as one JSON line.

    python research/tight_default/one_account.py wr 1.1 '{"net_tol": 0.02, "net_coarsen": 4}' > research/tight_default/wr_fine_out.jsonl
"""
import json, resource, sys, time
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting.adaptive import ADAPTIVE_WORK_BUDGET
name, sigma = sys.argv[1], float(sys.argv[2]); kw = json.loads(sys.argv[3])
sc, t0 = scheme_at(name, 60000, 256, b=6000), time.perf_counter()
r = account(sc, sigma=sigma, steps=2350, delta=1e-5, attack_budget=10 * ADAPTIVE_WORK_BUDGET, net=True, **kw)
print(json.dumps(dict(scheme=name, sigma=sigma, options=kw, certified=r.upper, attack=r.lower, certificate=r.certificate,
                      gap=r.upper / r.lower, seconds=round(time.perf_counter() - t0, 1),
                      peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)), flush=True)
