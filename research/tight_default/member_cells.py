"""How many cells along o1 does a member lay, with the fine band at 7σ (cells 4× finer within 5σ) and at 5σ (within
2σ)? A sample of every twentieth member of WOR's quick net at the DP-SGD size, on the quick grid (4h).

    python member_cells.py
"""
import numpy as np
from must_nbdev.accounting import triangles as T
from must_nbdev import make_scheme, account
q=256/60000
for sigma in (2.62, 1.1):
    h = 4*account(make_scheme('wor',60000,m=256), sigma=sigma, steps=2350, delta=1e-5, attack=False).h
    net = T.triangle_net(sigma, tol=0.04)
    for zb, zc in ((7,5),(5,2)):
        T.Z_BULK, T.Z_CORE = zb, zc
        ns=[]; orig=T._o1_edges
        def spy(*a, **k):
            e=orig(*a, **k); ns.append(len(e)); return e
        T._o1_edges=spy
        for G in net[::max(1,len(net)//20)]: T.planar_upper_pld(G, q=q, sigma=sigma, h=h, per_h=1.0)
        T._o1_edges=orig
        print(f'sigma={sigma} h={h:.4g} Z_BULK={zb} Z_CORE={zc} members={len(net)} edges min/median/max', min(ns),
              int(np.median(ns)), max(ns))
