"""Can the members skip fine loss levels where the o1 cells hold almost no mass? `planar_upper_pld` lays the same
fine ladder of loss levels (step h/levels) in every chunk of 64 o1 cells, the 40 far-tail cells on each side included.
Any levels give an upper PLD (a region's mass goes to the two atoms at its loss range's ends), so a coarser ladder in
light chunks is sound and trades tightness for time. This replays the library's function with two changes: the 40
tail cells on each side form their own chunks, and a chunk whose P-mass is below THRESH keeps every STRIDE-th level.

    python member_tail_ladder.py SIGMA BLOCKS THRESH STRIDE     (one fresh process per setting; THRESH 0: the library)

It replays the library before LIGHT_CHUNK landed (7bec371); on a later library its assert stops it.

SIGMA a number: the DP-SGD size (n = 60,000, batch 256, b = 6000, k = 2350, ε(1e-5)); SIGMA 's2': Figure S2's
(n = 10,000, m = 200, b = 118, σ = 4, k = 1000, δ(ε = 1)). WOR, the quick setting cut into BLOCKS blocks."""
import inspect, sys, time
from dataclasses import replace
import numpy as np
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting import triangles as T
from must_nbdev.accounting import triangle_certificate as TC
from must_nbdev.accounting.triangle_certificate import QUICK_NET

size, blocks, thresh, stride = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
src = inspect.getsource(T.planar_upper_pld)
loop = "    for c in range(0, len(mid), 64):\n        sl = slice(c, c + 64)\n"
lev = "        lev = np.sort(np.concatenate([coarse, lad[(lad >= lo_c) & (lad <= hi_c)]]))\n"
assert loop in src and lev in src
src = src.replace(loop, "    for c0, c1 in _chunks(len(mid)):\n        sl = slice(c0, c1)\n")
src = src.replace(lev, "        step = lad if float(((1 - q) * m1[0.0][sl] + q * m1[a1][sl]).sum()) >= THRESH else lad[::STRIDE]\n"
                       "        lev = np.sort(np.concatenate([coarse, step[(step >= lo_c) & (step <= hi_c)]]))\n")
def _chunks(n, tail=40):
    "The 40 tail cells on each side alone, the bulk in chunks of 64 (THRESH 0: the library's chunks of 64)."
    if thresh == 0: return [(c, min(c + 64, n)) for c in range(0, n, 64)]
    cuts = [0, tail] + list(range(tail + 64, n - tail, 64)) + [n - tail, n]
    return list(zip(cuts[:-1], cuts[1:]))
ns = dict(vars(T), _chunks=_chunks, THRESH=thresh, STRIDE=stride)
exec(src, ns)
regions, split = [0], T._split_regions
def counting(Lmin, *a, **kw):
    regions[0] += len(Lmin); return split(Lmin, *a, **kw)
ns['_split_regions'] = counting
TC.planar_upper_pld = ns['planar_upper_pld']
spent, inner = [0.0], TC._member_plds
def timed(*a, **kw):
    t0 = time.perf_counter(); out = inner(*a, **kw); spent[0] += time.perf_counter() - t0; return out
TC._member_plds = timed
if size == 's2': sc, sigma, query = scheme_at('wor', 10_000, 200, b=118), 4.0, dict(steps=1000, eps=1.0)
else: sc, sigma, query = scheme_at('wor', 60_000, 256, b=6000), float(size), dict(steps=2350, delta=1e-5)
t0 = time.perf_counter()
r = account(sc, sigma=sigma, **query, net=replace(QUICK_NET, blocks=blocks))
print(f"wor {'Fig S2 δ(1)' if size == 's2' else 'DP-SGD ε(1e-5)'} sigma={sigma} blocks={blocks} THRESH={thresh:g} STRIDE={stride}: value={r.upper:.6g} attack={r.lower:.5f} "
      f"gap={r.upper / r.lower:.5f} seconds={time.perf_counter() - t0:.1f} members_s={spent[0]:.1f} "
      f"regions={regions[0]:,}", flush=True)
