"""Claim 31: the DP's correlations on helper threads. `largest_correlation` (accounting/07b_upper_dp) used to run in
the calling thread, with pocketfft spreading each batch's inverse FFTs over the cores; the products of spectra and the
maxima ran on one core. `correlation_pool` now gives the DP helper threads (one fewer than `worker_threads`), and each
thread multiplies, inverts and maximises its share of the members on one core. The maxima are exact, so the values are
the same bits. This script times one quick-setting `account` call per row in fresh processes, alternating the library
(`new`) with the pool switched off (`old`), three runs each, and checks that both certify the same ε.

    cd research/tight_default && python dp_threads.py > dp_threads_out.txt
"""
import json, subprocess, sys

CHILD = r'''
import contextlib, json, sys, time
import must_nbdev.accounting.upper_dp as T
mode, name, sigma, blocks = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
if mode == 'old': T.correlation_pool = lambda: contextlib.nullcontext(None)
from dataclasses import replace
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.triangle_certificate import QUICK_NET
from must_nbdev.accounting.account import account
t0 = time.perf_counter()
r = account(scheme_at(name, 60_000, 256, b=6000), steps=2350, sigma=sigma, delta=1e-5,
            net=replace(QUICK_NET, blocks=blocks))
print(json.dumps(dict(eps=r.upper, gap=r.upper / r.lower, seconds=time.perf_counter() - t0)))
'''
ROWS = [('wor', 2.62, 2), ('wor', 1.1, 5), ('wr', 2.62, 5), ('must-ow', 1.1, 5)]
print('| scheme | σ | blocks | ε (both) | gap | old: seconds | new: seconds | new / old (medians) |')
print('|---|---|---|---|---|---|---|---|')
for name, sigma, blocks in ROWS:
    runs = {'old': [], 'new': []}
    for _ in range(3):
        for mode in ('old', 'new'):
            out = subprocess.run([sys.executable, '-c', CHILD, mode, name, str(sigma), str(blocks)],
                                 capture_output=True, text=True, check=True).stdout
            runs[mode].append(json.loads(out.strip().splitlines()[-1]))
    eps = {r['eps'] for m in runs for r in runs[m]}
    assert len(eps) == 1, eps                              # the same bits, every run, both ways
    t = {m: sorted(r['seconds'] for r in runs[m]) for m in runs}
    print(f"| {name} | {sigma} | {blocks} | {eps.pop():.7g} | {runs['new'][0]['gap']:.4f} | "
          f"{', '.join(f'{x:.2f}' for x in t['old'])} | {', '.join(f'{x:.2f}' for x in t['new'])} | "
          f"{t['new'][1] / t['old'][1]:.2f} |", flush=True)
