"""The triangle net after two bit-identical speed-ups (the DP's inverse FFTs in batches, the members' PLDs on a thread
per core): WOR at the DP-SGD size, each run in a fresh child process, one after the other.

    python research/tight_default/speedups.py > research/tight_default/speedups_out.txt

Prints, per run: the certified ε, the attack's ε, the gap, wall seconds and the child's peak RSS. Runs: `account` with
`net_tol=0.04, net_grid=4` (σ = 2.62), `account` with the net's defaults (σ = 2.62), and `calibrate_sigma` for
(3, 1e-5) with `net_tol=0.04, net_grid=4`, which `research/tight_default/README.md` compares with the same runs before;
then that calibration again with `net_levels=1` (one cell and loss level per grid step in the members:
`member_cost.py`).
"""
import json, subprocess, sys

CHILD = r'''
import json, resource, sys, time
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting.calibrate import calibrate_sigma
from must_nbdev.accounting.adaptive import ADAPTIVE_WORK_BUDGET
kind, sigma, kw = sys.argv[1], float(sys.argv[2]), json.loads(sys.argv[3])
sc, t0 = scheme_at('wor', 60000, 256, b=6000), time.perf_counter()
if kind == 'account':
    r = account(sc, sigma=sigma, steps=2350, delta=1e-5, attack_budget=10 * ADAPTIVE_WORK_BUDGET, net=True, **kw)
    out = dict(sigma=sigma, certified=r.upper, attack=r.lower, certificate=r.certificate)
else:
    c = calibrate_sigma(sc, steps=2350, eps=3.0, delta=1e-5, net=True, **kw)
    out = dict(sigma=c.sigma, certified=c.eps_upper, attack=c.eps_lower, calls=c.calls)
out.update(kind=kind, options=kw, seconds=round(time.perf_counter() - t0, 1),
           peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
print(json.dumps(out))
'''

RUNS = [('account', 2.62, dict(net_tol=0.04, net_grid=4)), ('account', 2.62, {}),
        ('calibrate', 0.0, dict(net_tol=0.04, net_grid=4)),
        ('calibrate', 0.0, dict(net_tol=0.04, net_grid=4, net_levels=1))]

if __name__ == '__main__':
    print('| run | options | σ | certified ε | attack ε | gap | seconds | peak MB |\n|---|---|---|---|---|---|---|---|')
    for kind, sigma, kw in RUNS:
        line = subprocess.run([sys.executable, '-c', CHILD, kind, str(sigma), json.dumps(kw)], check=True,
                              capture_output=True, text=True).stdout.strip().splitlines()[-1]
        o = json.loads(line)
        print(f"| {kind} | {kw or 'defaults'} | {o['sigma']:.5g} | {o['certified']:.4f} | {o['attack']:.4f} | "
              f"{o['certified'] / o['attack']:.3f} | {o['seconds']} | {o['peak_mb']} |", flush=True)
