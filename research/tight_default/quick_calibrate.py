"""A tight `calibrate_sigma` with the quick setting (`QUICK_NET`, lean since 7ac9e18) for (ε, δ) = (3, 1e-5) at the
DP-SGD size (n = 60,000, batch 256, b = 6,000, 2,350 steps), one scheme per fresh child process: σ, the certified ε
and the attack's at that σ, the number of accountant calls, wall seconds and peak RSS. The fast certificates'
σ are benchmarks/PRACTITIONER.md's (WOR 1.451, WR and MUST.wo 1.487).

    python research/tight_default/quick_calibrate.py wr > research/tight_default/quick_calibrate_out.txt
"""
import json, subprocess, sys

CHILD = r'''
import json, resource, sys, time
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.calibrate import calibrate_sigma
from must_nbdev.accounting.triangle_certificate import QUICK_NET
t0 = time.perf_counter()
c = calibrate_sigma(scheme_at(sys.argv[1], 60000, 256, b=6000), steps=2350, eps=3.0, delta=1e-5, net=True,
                    **QUICK_NET.keywords())
print(json.dumps(dict(sigma=c.sigma, certified=c.eps_upper, attack=c.eps_lower, calls=c.calls,
                      seconds=round(time.perf_counter() - t0, 1),
                      peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)))
'''

if __name__ == '__main__':
    print('| scheme | σ | certified ε | attack ε | gap | calls | seconds | peak MB |\n|---|---|---|---|---|---|---|---|')
    for name in sys.argv[1:] or ['wr']:
        line = subprocess.run([sys.executable, '-c', CHILD, name], check=True, capture_output=True,
                              text=True).stdout.strip().splitlines()[-1]
        o = json.loads(line)
        print(f"| {name} | {o['sigma']:.5g} | {o['certified']:.4f} | {o['attack']:.4f} | "
              f"{o['certified'] / o['attack']:.3f} | {o['calls']} | {o['seconds']} | {o['peak_mb']} |", flush=True)
