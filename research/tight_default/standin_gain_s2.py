"""`standin_gain.py`'s comparison at Fig S2 (n = 10,000, batch 200, b = 118, σ = 4, 1,000 steps, δ at ε = 1, the
stand-in on the grid PROXY_COARSEN·h): what a label-2 net could buy per split for WR, MUST.ow and MUST.ww.

    python research/tight_default/standin_gain_s2.py > research/tight_default/standin_gain_s2_out.txt
"""
from must_nbdev.core.sampling import scheme_at
from standin_gain import account, proxy, tc      # the stand-in game with chosen labels at their displacing pair
for name, splits in (('wr', (1, 4)), ('must-ow', (1, tc.PER_COPY)), ('must-ww', (1, tc.PER_COPY))):
    sc = scheme_at(name, 10000, 200, b=118); h = account(sc, sigma=4.0, steps=1000, eps=1.0).h
    for sp in splits:
        d1 = proxy(sc, 4.0, 1000, 1.0, h, sp, {1}); d12 = proxy(sc, 4.0, 1000, 1.0, h, sp, {1, 2})
        print(name, 'S2', sp, d1, d12, (d1 - d12) / d1, flush=True)
