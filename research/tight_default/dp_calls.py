"""Where the five-block quick net's DP spends its seconds: its correlations by batch size, against the DP's whole
time, at the DP-SGD size (σ from the command line), one `account(net=QUICK_NET with net_blocks=5)` per scheme.

    cd research/tight_default && python dp_calls.py wr 2.62 wor 1.1 > dp_calls_out.txt

Each call runs in a fresh child process (imports excluded from nothing: the wall time is the whole call). The
library is wrapped, not changed: `upper_dp.largest_correlation` (one call = the batched inverse FFTs of one
alternative's members at one step, and their maximum) and `upper_game_dp` (one DP) are timed.
"""
import subprocess, sys

CHILD = r'''
import collections, sys, time
from dataclasses import replace
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting.triangle_certificate import QUICK_NET
from must_nbdev.accounting import upper_dp, triangle_certificate
name, sigma = sys.argv[1], float(sys.argv[2])
calls, secs, dp = collections.Counter(), collections.Counter(), [0.0, 0]
correlation, game = upper_dp.largest_correlation, upper_dp.upper_game_dp
def timed_correlation(FE, S, infs, r, off, n, pool=None):
    t = time.perf_counter(); out = correlation(FE, S, infs, r, off, n, pool)
    key = '1 row' if len(S) == 1 else '2-64 rows' if len(S) <= 64 else f'{len(S)} rows'
    calls[key] += 1; secs[key] += time.perf_counter() - t
    return out
def timed_game(*a, **kw):
    t = time.perf_counter(); out = game(*a, **kw); dp[0] += time.perf_counter() - t; dp[1] += 1
    return out
upper_dp.largest_correlation, triangle_certificate.upper_game_dp = timed_correlation, timed_game
sc = scheme_at(name, 60_000, 256, b=6000)
t0 = time.perf_counter()
r = account(sc, sigma=sigma, steps=2350, delta=1e-5, net=replace(QUICK_NET, blocks=5))
wall = time.perf_counter() - t0
print(f"{name} σ = {sigma}: certified {r.upper:.5g}, attack {r.lower:.5g} ({r.upper / r.lower:.4f}x), {wall:.2f} s wall;"
      f" DP {dp[0]:.2f} s in {dp[1]} calls of upper_game_dp (stand-in games included)")
for key in sorted(calls, key=lambda k: -secs[k]):
    print(f"  correlations of {key}: {calls[key]} calls, {secs[key]:.2f} s, {1e3 * secs[key] / calls[key]:.3f} ms each")
'''

if __name__ == '__main__':
    args = sys.argv[1:] or ['wr', '2.62', 'wor', '1.1']
    for name, sigma in zip(args[::2], args[1::2]):
        out = subprocess.run([sys.executable, '-c', CHILD, name, sigma], capture_output=True, text=True)
        print(out.stdout if out.returncode == 0 else f"{name} {sigma}: failed: {out.stderr.strip()[-500:]}", flush=True)
