"""cProfile of one `account(..., net=True, **QUICK_NET.keywords())` call at the DP-SGD size (attack included):
where the quick setting's time goes for WR and MUST.

    python research/tight_default/profile_quick.py wr 2.62 > research/tight_default/profile_quick_wr_out.txt
"""
import cProfile, pstats, time, sys
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting.adaptive import ADAPTIVE_WORK_BUDGET
from must_nbdev.accounting.triangle_certificate import QUICK_NET
name=sys.argv[1]; sigma=float(sys.argv[2])
pr=cProfile.Profile(); t0=time.perf_counter(); pr.enable()
r = account(scheme_at(name, 60000, 256, b=6000), sigma=sigma, steps=2350, delta=1e-5,
            attack_budget=10 * ADAPTIVE_WORK_BUDGET, net=True, **QUICK_NET.keywords())
pr.disable(); print(r.upper, r.lower, time.perf_counter()-t0)
s=pstats.Stats(pr); s.sort_stats('cumulative').print_stats(45)
