"""The quick setting's tolerance: what `net_tol` buys at Figure S2 and at the DP-SGD size, next to the other options
(`QUICK_NET`: net_tol 0.04, net_grid 4, net_levels 1, net_lean when claim 32 ran; since claim 34 net_tol 0.02 with
net_copies_tol 0.08; accounting/08b_net_options).

    cd research/tight_default && python quick_tol.py > quick_tol_out.txt
    python quick_tol.py wr:tol=0.02 wor@2.62:tol=0.02,blocks=5    # chosen runs: SCHEME[@SIGMA]:option=value,...
    python quick_tol.py wr@2.62:tol=0.005,copies_tol=0.02,blocks=5     # options: TightOptions' fields

SCHEME alone is Figure S2's size (n = 10,000, batch 200, b = 118, σ = 4, 1,000 steps, δ(ε = 1)); SCHEME@SIGMA the
DP-SGD size (n = 60,000, batch 256, b = 6,000, 2,350 steps, ε(δ = 1e-5)). Each run is one `account(net=options)` in a
fresh child process, the options `QUICK_NET` with the named ones changed; seconds: the call, imports excluded; peak:
the child's largest RSS. The runs go one after the other on 2 cores.
"""
import json, subprocess, sys

CHILD = r'''
import json, resource, sys, time
from dataclasses import replace
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting.triangle_certificate import QUICK_NET
name, changes = sys.argv[1], json.loads(sys.argv[2])
options = replace(QUICK_NET, **changes)
name, _, sigma = name.partition('@')
t0 = time.perf_counter()
if sigma: r = account(scheme_at(name, 60_000, 256, b=6000), sigma=float(sigma), steps=2350, delta=1e-5, net=options)
else: r = account(scheme_at(name, 10_000, 200, b=118), sigma=4.0, steps=1000, eps=1.0, net=options)
print(json.dumps(dict(certified=r.upper, attack=r.lower, certificate=r.certificate,
                      seconds=round(time.perf_counter() - t0, 1),
                      peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)))
'''

def parse(arg:str) -> tuple:
    "'wr@2.62:grid=2,tol=0.02' -> ('wr@2.62', {'grid': 2, 'tol': 0.02})"
    name, _, rest = arg.partition(':')
    typed = dict(grid=int, blocks=int, coarsen=int, cells=int, tol=float, levels=float, lean=lambda s: s == 'True',
                 copies_tol=float)
    return name, {k: typed[k](v) for k, v in (kv.split('=') for kv in rest.split(',') if kv)}

RUNS = (['wor:', 'wor:tol=0.02', 'wor:tol=0.01']
        + ['wr:' + o for o in ('', 'tol=0.02', 'tol=0.01', 'tol=0.005', 'grid=2', 'grid=1', 'levels=2', 'lean=False',
                               'cells=28', 'tol=0.02,blocks=2', 'tol=0.01,blocks=5')]
        + ['must-ow:', 'must-ow:tol=0.02', 'must-ow:grid=2', 'must-ww:', 'must-ww:tol=0.02']
        + ['wor@2.62:blocks=5', 'wor@2.62:tol=0.03,blocks=5', 'wor@2.62:tol=0.02,blocks=5', 'wor@2.62:tol=0.02,blocks=2',
           'wor@2.62:', 'wor@2.62:tol=0.02', 'wor@1.1:blocks=5', 'wor@1.1:tol=0.03,blocks=5', 'wor@1.1:tol=0.02,blocks=5',
           'wr@2.62:tol=0.02,blocks=5', 'wr@1.1:tol=0.02,blocks=5', 'must-ow@2.62:tol=0.02,blocks=5',
           'must-ww@1.1:tol=0.02,blocks=5'])

if __name__ == '__main__':
    for arg in sys.argv[1:] or RUNS:
        name, changes = parse(arg)
        out = subprocess.run([sys.executable, '-c', CHILD, name, json.dumps(changes)], capture_output=True, text=True)
        if out.returncode: print(f"{arg}: failed: {out.stderr.strip().splitlines()[-1]}", flush=True); continue
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{name:12s} {','.join(f'{k}={v}' for k, v in changes.items()) or 'QUICK_NET':20s} {r['certified']:.5g} "
              f"({r['certified'] / r['attack']:.3f}x the attack {r['attack']:.5g}; {r['certificate']}) "
              f"{r['seconds']:.1f} s, {r['peak_mb']} MB", flush=True)
