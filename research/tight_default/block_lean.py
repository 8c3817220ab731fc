"""Is WR's non-monotone block count (claim 26: two blocks 1.062×, three 1.058× at σ = 2.62) the lean game's? One
quick-setting `account` for WR at the DP-SGD size in B blocks, with the lean game (QUICK_NET) and without it, each in a
fresh process; certified ε over the attack's, and seconds.

    python block_lean.py > block_lean_out.txt        # B = 2, 3, 5 at σ = 2.62, lean and not
"""
import json, subprocess, sys

CALL = r'''
import json, sys, time
from dataclasses import replace
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting.triangle_certificate import QUICK_NET
blocks, lean, sigma = int(sys.argv[1]), sys.argv[2] == 'lean', float(sys.argv[3])
o = replace(QUICK_NET, blocks=blocks, lean=lean)
t0 = time.perf_counter()
r = account(scheme_at('wr', 60_000, 256), sigma=sigma, steps=2350, delta=1e-5, net=True, **o.keywords())
print(json.dumps(dict(blocks=blocks, lean=lean, sigma=sigma, certified=r.upper, attack=r.lower,
                      ratio=r.upper / r.lower, certificate=r.certificate, seconds=time.perf_counter() - t0)))
'''

for sigma in (2.62,):
    for blocks in (2, 3, 5):
        for lean in ('lean', 'full'):
            out = subprocess.run([sys.executable, '-c', CALL, str(blocks), lean, str(sigma)], check=True,
                                 capture_output=True, text=True).stdout.strip().splitlines()[-1]
            r = json.loads(out)
            print(f"WR σ={sigma} blocks={blocks} {lean}: ε ≤ {r['certified']:.5f} ({r['certificate']}), "
                  f"{r['ratio']:.4f}× the attack {r['attack']:.5f}, {r['seconds']:.1f} s", flush=True)
