"""The certified δ over σ where the answer is the floor: 25 values of σ (geometric from 3 to 14) for eight
configurations of the fast certificates, every rise of δ with σ printed. Claim: 10_account's paragraph on the floor
(MUST.ww n=3,000, m=27, b=24, 60 steps, δ(4) rose in five of 25 steps of σ before the cut moments; WOR n=3,478, m=9,
124 steps, δ(5.948) rose with σ before the labels' constant tails) and that neither rises at the commit after.

Run: `python sweep.py > sweep_<commit>.txt` with the package at that commit importable (about a minute)."""
import time
import numpy as np
from must_nbdev.accounting.account import account
from must_nbdev.core.sampling import make_scheme

CASES = [('wor', 3478, dict(m=9), 124, 5.948), ('wr', 100000, dict(m=15), 797, 0.7329),
         ('wor', 1000, dict(m=10), 50, 3.0), ('poisson', 1000, dict(m=10), 50, 3.0),
         ('must-ow', 3000, dict(m=27, b=24), 60, 4.0), ('wr', 2000, dict(m=20), 200, 4.0),
         ('must-ww', 3000, dict(m=27, b=24), 60, 4.0), ('wor', 500, dict(m=50), 20, 2.0)]
SIGMAS = np.round(np.geomspace(3.0, 14.0, 25), 4)

rises = 0
for name, n, kw, k, eps in CASES:
    scheme, prev, t0, row = make_scheme(name, n, **kw), None, time.time(), []
    for s in SIGMAS:
        r = account(scheme, sigma=float(s), steps=k, eps=eps)
        row.append(r.delta)
        if prev is not None and r.delta > prev[1]:
            rises += 1
            print(f"  RISES {name} n={n} {kw} k={k} eps={eps}: sigma {prev[0]} -> {s}: {prev[1]:.4g} -> {r.delta:.4g} "
                  f"(floor {r.delta_floor:.3g}, {r.certificate})")
        prev = (s, r.delta)
    print(name, n, kw, k, eps, f"{time.time() - t0:.1f}s", 'δ at every 4th σ:', ' '.join(f"{d:.2g}" for d in row[::4]))
print('rises', rises)
