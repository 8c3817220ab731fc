"""Label 1's net and the nets of l >= 2 copies at different tolerances, at the quick setting (`QUICK_NET` of commit
cc6d43b: net_tol 0.04, net_grid 4, net_levels 1, net_lean), one fresh-process `account(net=options)` per row.

    cd research/tight_default && python label_tol.py wr:one=0.02,rest=0.04 must-ow@2.62:blocks=5,one=0.02,rest=0.08

SCHEME alone is Figure S2's size (n = 10,000, batch 200, b = 118, σ = 4, 1,000 steps, δ(ε = 1)); SCHEME@SIGMA the
DP-SGD size (n = 60,000, batch 256, b = 6,000, 2,350 steps, ε(δ = 1e-5)). `one` is label 1's tolerance, `rest` that of
labels l >= 2 (both 0.04 unless named); the other options change `QUICK_NET`'s. The script wraps `triangle_net` in
the child to pick the tolerance from σ/l (the library then had one tolerance for every label); `labels` lists the
labels that got a net and their tolerance. The library's `copies_tol` (`TightOptions`, accounting/09) now does the
same. Seconds: the call, imports excluded; peak: the child's largest RSS; the runs go one after the other on 2 cores.
"""
import json, subprocess, sys
CHILD = r'''
import json, resource, sys, time
from dataclasses import replace
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
import must_nbdev.accounting.triangle_certificate as tc
from must_nbdev.accounting.triangle_certificate import QUICK_NET
name, changes, one, rest = sys.argv[1], json.loads(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
options = replace(QUICK_NET, **changes)
name, _, sigma = name.partition('@')
s = float(sigma) if sigma else 4.0
orig, used = tc.triangle_net, {}
def net(sig, tol):
    l = round(s / sig); t = one if l == 1 else rest
    used[l] = t
    return orig(sig, tol=t)
tc.triangle_net = net
t0 = time.perf_counter()
if sigma: r = account(scheme_at(name, 60_000, 256, b=6000), sigma=s, steps=2350, delta=1e-5, net=options)
else: r = account(scheme_at(name, 10_000, 200, b=118), sigma=4.0, steps=1000, eps=1.0, net=options)
print(json.dumps(dict(certified=r.upper, attack=r.lower, certificate=r.certificate, used=sorted(used.items()),
                      seconds=round(time.perf_counter() - t0, 1),
                      peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)))
'''
def parse(arg):
    name, _, rest = arg.partition(':')
    typed = dict(grid=int, blocks=int, tol=float, one=float, rest=float)
    d = {k: typed[k](v) for k, v in (kv.split('=') for kv in rest.split(',') if kv)}
    one, rst = d.pop('one', 0.04), d.pop('rest', 0.04)
    return name, d, one, rst
for arg in sys.argv[1:]:
    name, changes, one, rest = parse(arg)
    out = subprocess.run([sys.executable, '-c', CHILD, name, json.dumps(changes), str(one), str(rest)], capture_output=True, text=True)
    if out.returncode: print(f"{arg}: failed: {out.stderr.strip().splitlines()[-1]}", flush=True); continue
    r = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"{arg:40s} {r['certified']:.5g} ({r['certified'] / r['attack']:.4f}x the attack {r['attack']:.5g}; {r['certificate']}) "
          f"{r['seconds']:.1f} s, {r['peak_mb']} MB, labels {r['used']}", flush=True)
