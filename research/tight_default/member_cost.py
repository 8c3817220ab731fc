"""How much of the members' cost buys tightness? The members' 2-D quadrature (`planar_upper_pld`, accounting/07_triangles)
moves the loss by at most h/PER_H per cell and per level; PER_H = 2 in the library. Any PER_H gives an upper PLD (every
region's loss is bounded by its Lmin, Lmax and its mass is split upward), so it trades tightness for time only.

    python research/tight_default/member_cost.py > research/tight_default/member_cost_out.txt

WOR at the DP-SGD size (n = 60,000, batch 256, b = 6,000, 2,350 steps, ε(1e-5)), `net_tol=0.04, net_grid=4`, at
σ = 2.62 and at σ = 1.4233 (the first net query of the tight calibration for (3, 1e-5)); PER_H in {2, 1, 0.5}, passed
as `account`'s `net_levels`. Each run in a fresh process, one after the other; the attack is `account`'s default.
(The first run of this study, before `net_levels` existed, set `triangles.PER_H` on the module and gave the same ε.)
"""
import json, subprocess, sys

CHILD = r'''
import json, resource, sys, time
import must_nbdev.accounting.triangles as TR
import must_nbdev.accounting.triangle_certificate as TC
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
sigma, per_h = float(sys.argv[1]), float(sys.argv[2])
levels = dict(net_levels=per_h)
spent = [0.0]
build = TC._member_plds
def timed(*a, **k):
    t = time.perf_counter(); out = build(*a, **k); spent[0] += time.perf_counter() - t; return out
TC._member_plds = timed
t0 = time.perf_counter()
r = account(scheme_at('wor', 60000, 256, b=6000), sigma=sigma, steps=2350, delta=1e-5, net=True, net_tol=0.04,
            net_grid=4, **levels)
print(json.dumps(dict(sigma=sigma, per_h=per_h, certified=r.upper, attack=r.lower, certificate=r.certificate,
                      seconds=round(time.perf_counter() - t0, 1), members_seconds=round(spent[0], 1),
                      peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)))
'''

if __name__ == '__main__':
    print('| σ | PER_H | certified ε | attack ε | gap | certificate | seconds | members s | peak MB |')
    print('|---|---|---|---|---|---|---|---|---|')
    for sigma in (2.62, 1.4233):
        for per_h in (2.0, 1.0, 0.5):
            out = subprocess.run([sys.executable, '-c', CHILD, str(sigma), str(per_h)], check=True,
                                 capture_output=True, text=True).stdout.strip().splitlines()[-1]
            o = json.loads(out)
            print(f"| {sigma} | {per_h:g} | {o['certified']:.4f} | {o['attack']:.4f} | "
                  f"{o['certified'] / o['attack']:.4f} | {o['certificate']} | {o['seconds']} | "
                  f"{o['members_seconds']} | {o['peak_mb']} |", flush=True)
