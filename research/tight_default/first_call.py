"""The first net call of a process against the later ones (the same query, the net's caches cleared): WOR at the
DP-SGD size, quick setting, in BLOCKS blocks. Run it as is, and with glibc's malloc thresholds set in the
environment to the ceilings glibc reaches by itself after large frees:

    python first_call.py SIGMA BLOCKS [CALLS]
    MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=67108864 python first_call.py SIGMA BLOCKS [CALLS]
"""
"""The first net call of a process against the later ones (the same query, the net's caches cleared): WOR at the
DP-SGD size, quick setting, in BLOCKS blocks. Run it as is, and with glibc's malloc thresholds set in the
environment to the ceilings glibc reaches by itself after large frees:

    python first_call.py SIGMA BLOCKS [CALLS]
    MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=67108864 python first_call.py SIGMA BLOCKS [CALLS]
"""
import sys, time
from dataclasses import replace
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting import triangle_certificate as TC
from must_nbdev.accounting.triangle_certificate import QUICK_NET
sigma, blocks = float(sys.argv[1]), int(sys.argv[2])
spent = [0.0]; inner = TC._member_plds
def timed(*a, **kw):
    t0 = time.perf_counter(); out = inner(*a, **kw); spent[0] += time.perf_counter() - t0; return out
TC._member_plds = timed
sc = scheme_at('wor', 60000, 256, b=6000)
account(scheme_at('wor', 6000, 256, b=600), sigma=sigma, steps=10, delta=1e-5)
for i in range(int(sys.argv[3]) if len(sys.argv) > 3 else 3):
    TC.net_label_groups.cache_clear(); spent[0] = 0.0; t0 = time.perf_counter()
    r = account(sc, sigma=sigma, steps=2350, delta=1e-5, net=replace(QUICK_NET, blocks=blocks))
    print(f"call {i + 1}: eps={r.upper:.7g} call {time.perf_counter() - t0:.2f} s, members {spent[0]:.2f} s", flush=True)
