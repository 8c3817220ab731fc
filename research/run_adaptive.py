"Task B numbers: adaptive-orientation attack vs today's fixed-mix attack and certified upper bound (account)."
import json, sys, time
import must_nbdev
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from adaptive_attack import adaptive_orientation_delta, adaptive_orientation_epsilon
which = sys.argv[1] if len(sys.argv) > 1 else 'S2'
if which == 'S2':
    for name in ('wor', 'wr', 'must-ow', 'must-ww'):
        sc = scheme_at(name, 10_000, 200, b=118)
        t = time.time(); r = account(sc, sigma=4.0, steps=1000, eps=1.0, relation='substitute'); ta = time.time() - t
        v, info = adaptive_orientation_delta(sc, 4.0, 1000, 1.0, h=r['h'], return_info=True)
        print(json.dumps(dict(scheme=name, case='FigS2 delta(eps=1)', fixed_mix=r['delta_lower'], adaptive=v,
                              gain=v / r['delta_lower'] - 1, certified_upper=r['delta_upper'], account_seconds=round(ta, 2),
                              adaptive_seconds=round(info['seconds'], 2), h=r['h'], bins=info['bins'],
                              ok=bool(r['delta_lower'] <= v <= r['delta_upper']))), flush=True)
else:
    names = sys.argv[2:] or ['wor']
    for name in names:
        for s in (1.1, 2.62):
            sc = scheme_at(name, 60_000, 256, b=6000)
            e, info = adaptive_orientation_epsilon(sc, s, 2350, 1e-5, return_info=True)
            print(json.dumps(dict(scheme=name, case=f'DP-SGD n=60000 m=256 sigma={s} k=2350 eps(1e-5)', adaptive=e,
                                  **{k: v for k, v in info.items()}), default=float), flush=True)
