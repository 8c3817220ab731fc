"""One step (k = 1) at Fig S2's sizes (n = 10,000, m = 200, b = 118) with σ = 1.1: does the unlabelled net
(accounting/08_unlabelled_net) lower the partially unlabelled certificate? argv: scheme ε. Each family's game at one
step, each step also at most the partially unlabelled pair (as in unlabelled_net.py)."""
import math, sys, time
import numpy as np
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting.adaptive import attack_runs
from must_nbdev.accounting.pld import MAX_BINS
from must_nbdev.accounting.upper_dp import upper_game_dp
from must_nbdev.accounting.triangle_certificate import whole_steps
from must_nbdev.accounting.unlabelled_net import FAMILIES, unlabelled_members
name, eps = sys.argv[1], float(sys.argv[2])
sc = scheme_at(name, 10_000, 200, b=118)
r = account(sc, sigma=1.1, steps=1, eps=eps)
print(r, r.certificates, flush=True)
t = time.perf_counter()
mems = unlabelled_members(sc, 1.1, r.h)
print([len(m) for m in mems], f'{time.perf_counter()-t:.0f}s', flush=True)
window = attack_runs(sc, 1.1, 'substitute', r.h, MAX_BINS)[0]
for fam, mem in zip(FAMILIES, mems):
    if not len(mem): continue
    alone = float(upper_game_dp(((1.0, (mem,)),), 1, eps, 0, r.h, window, MAX_BINS)['values'][0])
    d = upper_game_dp(((1.0, (mem,)),), 1, eps, 0, r.h, window, MAX_BINS, whole=whole_steps(sc, 1.1, r.h, MAX_BINS))
    v = float(d['values'][0])
    print(f'{name} eps {eps} family {fam}: members alone {alone:.6g} (gap {alone / r.lower:.4f}), with the pair {v:.6g} '
          f'(gap {v / r.lower:.4f}; the pair alone {r.upper / r.lower:.4f}) {time.perf_counter()-t:.0f}s', flush=True)
