"""Claim 53: the upper DP skips the outputs that read only V = 1 (accounting/07b_upper_dp, landed) against the DP that
correlated every output.

One quick-setting `account` call in five blocks in a fresh interpreter per run, alternating the two libraries twice per
setting: *every output* is the library before the change (a checkout of OLD, put first on PYTHONPATH), *skipped* the
library of this checkout. The script wraps `upper_game_dp` from outside (the library is not edited) and prints ε with
every digit, the call's seconds, the DP's seconds and, for the new library, the least and the largest share of the
members' outputs that a DP call correlated (`computed`). DP-SGD size: n = 60,000, batch 256, b = 6000, 2350 steps, ε at δ = 1e-5;
Figure S2: n = 10,000, m = 200, b = 118, σ = 4, 1,000 steps, δ at ε = 1.

    git worktree add /tmp/old 90e5831^
    python research/tight_default/saturated_outputs.py /tmp/old > research/tight_default/saturated_outputs_out.txt
"""
import json, os, subprocess, sys

RUN = r'''
import json, sys, time
from dataclasses import replace
import scipy.stats   # the package imports it at its first pmf: an import, not the query
import must_nbdev.accounting.triangle_certificate as tc
from must_nbdev.accounting.account import account
from must_nbdev.core.sampling import scheme_at
spent, shares, inner = [0.0], [], tc.upper_game_dp
def timed(*a, **kw):
    t = time.perf_counter(); r = inner(*a, **kw); spent[0] += time.perf_counter() - t
    if 'computed' in r: shares.append(r['computed'])
    return r
tc.upper_game_dp = timed
name, sigma, size = sys.argv[1], float(sys.argv[2]), sys.argv[3]
options = replace(tc.QUICK_NET, blocks=5).keywords()
t0 = time.perf_counter()
if size == 'dpsgd':
    r = account(scheme_at(name, 60000, 256, b=6000), sigma=sigma, steps=2350, delta=1e-5, net=True, **options)
    value = r.upper
else:
    r = account(scheme_at(name, 10000, 200, b=118), sigma=sigma, steps=1000, eps=1.0, net=True, **options)
    value = r.upper
seconds = time.perf_counter() - t0
print(json.dumps(dict(value=repr(value), seconds=round(seconds, 2), dp=round(spent[0], 2),
                      computed=f'{min(shares):.2f}-{max(shares):.2f}' if shares else None)))
'''

def run(library:str, name:str, sigma:float, size:str) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [library, os.environ.get('PYTHONPATH')])))
    out = subprocess.run([sys.executable, '-c', RUN, name, str(sigma), size], env=env, cwd='/tmp', check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])

if __name__ == '__main__':
    old = os.path.abspath(sys.argv[1])
    new = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    commit = lambda d: subprocess.run(['git', '-C', d, 'rev-parse', '--short', 'HEAD'], capture_output=True,
                                      text=True).stdout.strip()
    print(f"every output: library at {commit(old)}; skipped: library at {commit(new)}; {os.cpu_count()} cores")
    print('| size | scheme | σ | run | every output: value, call s, DP s | skipped: value, call s, DP s, '
          'share correlated, least-most over the DP calls |')
    print('|---|---|---|---|---|---|')
    settings = [('dpsgd', n, s) for n, s in (('wor', 1.1), ('wr', 2.62), ('must-ow', 2.62), ('must-ow', 1.1),
                                             ('must-ww', 1.1))] + [('s2', n, 4.0) for n in ('must-ow', 'must-ww')]
    for size, name, sigma in settings:
        for i in range(2):
            a, b = run(old, name, sigma, size), run(new, name, sigma, size)
            print(f"| {size} | {name} | {sigma} | {i + 1} | {a['value']}, {a['seconds']}, {a['dp']} | "
                  f"{b['value']}, {b['seconds']}, {b['dp']}, {b['computed']} |", flush=True)
