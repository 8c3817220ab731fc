"""Supplement to sanity (b) of three_step.py: for the displacing pair at k = 1 and k = 2 the exact continuum value is
known (k = 1: exact_two_step.delta_1d_exact; k = 2: test_adaptive._displacing_pair_two_step_delta, the best adaptive
policy over the pair). For the package's ADAPTIVE attack (backward DP over a loss grid) `attack_interval` is degenerate
(lo == hi == .attack): it is one discretised value, not a bracket of the pair's true value. This shows
   package attack ≤ our cells value ≤ exact      (or where not),
i.e. the ≤ 1e-6 excesses of our pair value over `.attack` in three_step_out.txt are the package attack's own grid loss.
Run (from research/tight_default/three_step): nice -n 10 python pair_closed_form.py > pair_closed_form_out.txt
"""
import sys; sys.path.insert(0, str(__import__('pathlib').Path(__file__).resolve().parents[3] / 'tests'))
import numpy as np
import three_step as T, exact_two_step as E
from test_adaptive import _displacing_pair_two_step_delta

bad = 0
for name, n, m, b in T.CASES:
    occ = np.zeros(m + 1)
    for bt, p in E.batches(name, n, m, b): occ[bt.count(0)] += p
    for s in T.SIGMAS:
        for e in T.EPSS:
            row = []
            for k in (1, 2):
                exact = (max(E.delta_1d_exact(name, n, m, b, s, c, e)[0] for c in T.PAIR) if k == 1
                         else _displacing_pair_two_step_delta(occ, s, e))
                cells = T.k_step_1d(name, n, m, b, s, e, T.PAIR, k, null=False)[0]
                r, _ = T.acc(name, n, m, b, s, k, e)
                ok = cells <= exact + 1e-12; bad += not ok
                row.append(f"k={k}: attack {r.attack:.9f} {'≤' if r.attack <= cells else '>'} cells {cells:.9f} "
                           f"{'≤' if ok else '> !!'} exact {exact:.9f} (exact−attack {exact - r.attack:.1e})")
            print(f"{name:8s} σ={s:g} ε={e:g}: " + " | ".join(row), flush=True)
print(f"cells above the exact value: {bad}")
