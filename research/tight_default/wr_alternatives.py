"""What each class of alternative in WR's net DP buys: the five-block quick net (`QUICK_NET`, net_blocks=5) at the
DP-SGD size with the unlabelled nets' families and/or the whole-step pairs left out of the DP's minimum.

    cd research/tight_default && python wr_alternatives.py > wr_alternatives_out.txt

Leaving an alternative out of a minimum of upper bounds can only raise the value: every variant is still a sound
certificate, and the rise is what that alternative buys. Each row is one `account(net=...)` in a fresh child process
(imports excluded); the variants wrap `unlabelled_members` or `whole_steps` of accounting/09 from the child (the
library is not edited). Columns: certified ε, its ratio to the attack, seconds, peak RSS.
"""
import json, subprocess, sys

CHILD = r'''
import json, resource, sys, time
from dataclasses import replace
import must_nbdev.accounting.triangle_certificate as tc
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
name, sigma, variant = sys.argv[1], float(sys.argv[2]), sys.argv[3]
if 'no-families' in variant: tc.unlabelled_members = lambda *a, **k: []
if 'no-whole' in variant: tc.whole_steps = lambda *a, **k: ()
t0 = time.perf_counter()
r = account(scheme_at(name, 60_000, 256, b=6000), sigma=sigma, steps=2350, delta=1e-5,
            net=replace(tc.QUICK_NET, blocks=5))
print(json.dumps(dict(upper=r.upper, lower=r.lower, certificate=r.certificate, seconds=time.perf_counter() - t0,
                      peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)))
'''

RUNS = [(name, sigma, v) for name, sigma in (('wr', '2.62'), ('wr', '1.1'))
        for v in ('full', 'no-families', 'no-whole', 'no-families,no-whole')]

if __name__ == '__main__':
    for name, sigma, variant in RUNS:
        out = subprocess.run([sys.executable, '-c', CHILD, name, sigma, variant], capture_output=True, text=True)
        if out.returncode: print(f"{name} {sigma} {variant}: failed: {out.stderr.strip()[-300:]}", flush=True); continue
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{name} σ = {sigma:5s} {variant:22s} {r['upper']:.5g} ({r['upper'] / r['lower']:.4f}x the attack "
              f"{r['lower']:.5g}; {r['certificate']}) {r['seconds']:.1f} s, {r['peak_mb']} MB", flush=True)
