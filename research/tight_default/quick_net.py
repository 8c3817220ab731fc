"""The triangle net's quick setting, `QUICK_NET` (accounting/09_triangle_certificate: `net_tol=0.04, net_grid=4,
net_levels=1`), at the DP-SGD size: the numbers that `account`'s `tighter` hint (`QUICK_NET_MEASURED`) quotes.

    python research/tight_default/quick_net.py > research/tight_default/quick_net_out.txt
    python research/tight_default/quick_net.py must-ww:2.62 wr:1.1 > research/tight_default/quick_net_more_out.txt
    python research/tight_default/quick_net.py wor:2.62 wor:1.1 wr:2.62 wr:1.1 must-wo:2.62 must-ow:2.62 must-ow:1.1 must-ww:2.62 must-ww:1.1 > research/tight_default/quick_net_lean_out.txt
    python research/tight_default/quick_net.py s2 wor:4 wr:4 must-ow:4 must-ww:4 > research/tight_default/quick_net_s2_out.txt
    python research/tight_default/quick_net.py s2 full wr:4 must-ow:4 must-ww:4 >> research/tight_default/quick_net_s2_out.txt

n = 60,000, batch 256, b = 6,000, 2,350 steps, ε(δ = 1e-5), substitution, the attack with
`attack_budget = 10 × ADAPTIVE_WORK_BUDGET` (as `benchmarks/triangle_net.py`). Each run is one `account(net=True,
**QUICK_NET.keywords())` call in a fresh child process, one after the other; the seconds include the attack and the
default certificates, the peak is the child's largest RSS. `QUICK_NET` is lean since commit 7ac9e18 (the first two
outputs above ran before). Options: `s2` runs Figure S2's size instead (n = 10,000, batch 200, b = 118, 1,000 steps,
δ(ε = 1)); `full` plays `QUICK_NET` without `lean` (what it was before 7ac9e18).
"""
import json, subprocess, sys

CHILD = r'''
import json, resource, sys, time
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting.adaptive import ADAPTIVE_WORK_BUDGET
from must_nbdev.accounting.triangle_certificate import QUICK_NET
name, sigma, s2, full = sys.argv[1], float(sys.argv[2]), sys.argv[3] == 's2', sys.argv[4] == 'full'
size, query = (((10000, 200, 118), dict(steps=1000, eps=1.0)) if s2 else
               ((60000, 256, 6000), dict(steps=2350, delta=1e-5)))
options = dict(QUICK_NET.keywords(), net_lean=not full)
t0 = time.perf_counter()
r = account(scheme_at(name, *size[:2], b=size[2]), sigma=sigma, **query,
            attack_budget=10 * ADAPTIVE_WORK_BUDGET, net=True, **options)
print(json.dumps(dict(certified=r.upper, attack=r.lower, certificate=r.certificate, default=min(
    v for k, v in r.certificates.items() if k != 'triangle net'), seconds=round(time.perf_counter() - t0, 1),
    peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)))
'''

RUNS = [('wor', 2.62), ('wor', 1.1), ('wr', 2.62), ('must-ow', 2.62)]

if __name__ == '__main__':
    s2, full = 's2' in sys.argv[1:], 'full' in sys.argv[1:]
    q = 'δ(ε = 1)' if s2 else 'ε'
    print(f"| scheme | σ | default {q} | quick net {q}{' (not lean)' * full} | attack {q} | gap, default | "
          "gap, quick net | seconds | peak MB |")
    print('|---|---|---|---|---|---|---|---|---|')
    runs = [(a.split(':')[0], float(a.split(':')[1])) for a in sys.argv[1:] if ':' in a] or RUNS   # scheme:σ
    for name, sigma in runs:
        line = subprocess.run([sys.executable, '-c', CHILD, name, str(sigma), 's2' * s2 or '-', 'full' * full or '-'],
                              check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
        o = json.loads(line)
        print(f"| {name} | {sigma} | {o['default']:.4g} | {o['certified']:.4g} | {o['attack']:.4g} | "
              f"{o['default'] / o['attack']:.3f} | {o['certified'] / o['attack']:.3f} | {o['seconds']} | "
              f"{o['peak_mb']} |", flush=True)
