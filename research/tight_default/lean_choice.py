"""What the lean game (`lean=True`, accounting/09_triangle_certificate "Lean games") plays at Figure S2's size on the
quick setting's grid (4 × the grid `account` picks): the split the stand-in game ranks first, the stand-in δ(ε = 1) of
that split with the labels ≥ 2 symmetrised and displaced, their relative gain, and whether the labels ≥ 2 keep their
nets (gain ≥ `LEAN_GAIN`).

    python research/tight_default/lean_choice.py > research/tight_default/lean_choice_out.txt
"""
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting import triangle_certificate as tc

print('scheme | first split | stand-in δ, labels ≥ 2 symmetrised | displaced | gain | label nets ≥ 2 kept')
for name in ('wr', 'must-ow', 'must-ww'):
    sc = scheme_at(name, 10_000, 200, b=118)
    h = account(sc, sigma=4.0, steps=1000, eps=1.0, attack=False).h * 4
    r = tc._best_ratio(sc, 4.0, 1000, 1.0, h, tc.MAX_BINS)
    first = r if r > 1 else tc.PER_COPY if tc._per_copy_pays(sc, 4.0, 1000, 1.0, h, tc.MAX_BINS) else 1
    sym, disp = (tc._proxy_delta(sc, 4.0, 1000, 1.0, h, first, tc.MAX_BINS, d) for d in (False, True))
    print(f"{name} | {first} | {sym:.6g} | {disp:.6g} | {(sym - disp) / sym:.4f} | "
          f"{tc._label_nets_pay(sc, 4.0, 1000, 1.0, h, first, tc.MAX_BINS)}", flush=True)
