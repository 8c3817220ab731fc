"""The game over the unlabelled net alone (accounting/08_unlabelled_net), each step also at most the partially unlabelled
pair, against the best attack: argv scheme size [cells [family]], size in {s2, 2.62, 1.1}. The library's triangle certificate
also plays the labelled game beside it, so its value is at most this one."""
import math, sys, time
import numpy as np
from sizes import reference
from must_nbdev.accounting.adaptive import attack_runs
from must_nbdev.accounting.pld import MAX_BINS
from must_nbdev.accounting.upper_dp import upper_game_dp
from must_nbdev.accounting.triangle_certificate import whole_steps
from must_nbdev.accounting.unlabelled_net import CELLS, FAMILIES, unlabelled_members
name, size = sys.argv[1], sys.argv[2]
cells = int(sys.argv[3]) if len(sys.argv) > 3 else CELLS   # (the library's cover before 2026-11-27: a side spacing)
family = sys.argv[4] if len(sys.argv) > 4 else 'z'       # which family of FAMILIES
sc, sigma, k, r = reference(name, size)
print(r, flush=True)
t = time.perf_counter()
mem = unlabelled_members(sc, sigma, r.h, cells)[FAMILIES.index(family)]
print(f'  {len(mem)} members (family {family}, cells {cells}), {time.perf_counter() - t:.0f} s', flush=True)
window = attack_runs(sc, sigma, 'substitute', r.h, MAX_BINS)[0]
e0, span = (1.0, 0) if size == 's2' else (r.lower, math.ceil((r.upper - r.lower) / r.h))
d = upper_game_dp(((1.0, (mem,)),), k, e0, span, r.h, window, MAX_BINS, whole=whole_steps(sc, sigma, r.h, MAX_BINS))
if size == 's2':
    v = float(d['values'][0])
else:
    ok = np.flatnonzero(d['values'] <= 1e-5); v = e0 + ok[0] * r.h if len(ok) else math.inf
print(f'{name} {size}: unlabelled net {v:.6g} (gap {v / r.lower:.4f}; before {r.upper:.6g}, gap {r.upper / r.lower:.4f}); '
      f'{time.perf_counter() - t:.0f} s, err {d["err"]:.2g}', flush=True)
