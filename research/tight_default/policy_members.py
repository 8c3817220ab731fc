"""Members refined where the policy plays them: build every member coarsely (few quadrature levels), run the block DP,
rebuild finely only the members that attain the maximum at some state, and repeat until every maximum is a fine member.
Every coarse or fine PLD is an upper PLD, so each round is a certificate; at the last round each state's value is the
largest of the refined fine members, at most the all-fine DP's, so the answer is at least as tight as building every
member finely. How many members does the policy play, and what does the route cost?

    python policy_members.py SCHEME SIGMA BLOCKS COARSE_LEVELS     (WOR only: one label, one net)

At the DP-SGD size (n = 60,000, batch 256, k = 2350, ε(1e-5)), the quick setting's tolerance, grid and lean game."""
import sys, time, math
import numpy as np
from dataclasses import replace
from must_nbdev.core.sampling import make_scheme
from must_nbdev.accounting.account import account
from must_nbdev.accounting import upper_dp as T
from must_nbdev.accounting import triangle_certificate as TC
from must_nbdev.accounting.triangle_certificate import QUICK_NET, net_label_groups, whole_steps
from must_nbdev.accounting.net_blocks import block_plan, block_range
from must_nbdev.accounting.adaptive import attack_runs
from must_nbdev.accounting.profile_pairs import profile_pld
from must_nbdev.accounting.compose import compose_plds
from must_nbdev.accounting.pld import MAX_BINS

name, sigma, blocks, coarse = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
assert name == 'wor'
k, delta = 2350, 1e-5
sc = make_scheme(name, 60_000, m=256)
fast = account(sc, sigma=sigma, steps=k, delta=delta)
H = QUICK_NET.grid * fast.h
s, b = block_plan(k, blocks)
rank_eps, read_to, _ = block_range(sc, sigma, s, b, H, MAX_BINS, delta=delta)   # (rank ε, read ε, δ/b) since 27a4b69
J = max(1, math.ceil(read_to / H))
window = attack_runs(sc, sigma, 'substitute', H, MAX_BINS)[0]
whole = whole_steps(sc, sigma, H, MAX_BINS)

played = {}     # id of the spectra block -> set of rows that attained the maximum somewhere
orig = T.largest_correlation
def recording(FE, S, infs, r, off, n, pool=None):   # (pool: the library's threads, unused here)
    best, rows = np.full(n, -np.inf), max(1, T.CORRELATION_BATCH // (16 * len(FE)))
    arg = np.zeros(n, np.int64)
    for i in range(0, len(S), rows):
        X = T.sfft.irfft(FE * S[i:i + rows], r, axis=1, workers=T.FFT_WORKERS)[:, off:off + n]
        X += infs[i:i + rows, None]
        m = X.max(axis=0); better = m > best
        arg[better] = i + X.argmax(axis=0)[better]; best = np.maximum(best, m)
    if len(S) > 1: played.setdefault(len(S), set()).update(np.unique(arg).tolist())
    return best
T.largest_correlation = recording

def run(groups, null, left):
    d = T.upper_game_dp(groups, s, 0.0, J, H, window, MAX_BINS, null=null, left=left, whole=whole)
    pair = profile_pld(np.arange(J + 1), np.asarray(d['values'], float), H)
    return compose_plds([(pair, b)]).eps_bounds(delta)[1]

t0 = time.perf_counter()
gc, null, left, n = net_label_groups(sc, sigma, H, QUICK_NET.tol, 1, 1, coarse, 0)
t_coarse = time.perf_counter() - t0
t0 = time.perf_counter()
gf, *_ = net_label_groups(sc, sigma, H, QUICK_NET.tol, 1, 1, QUICK_NET.levels, 0)
t_fine = time.perf_counter() - t0
(pi, (lab, coarse_m)), = gc
(_, (_, fine_m)), = gf
print(f"{name} σ={sigma}: {n} members; all coarse (levels {coarse}) {t_coarse:.1f} s, all fine (levels "
      f"{QUICK_NET.levels}) {t_fine:.1f} s; {b} blocks of {s}; fast {fast.upper:.5f}, attack {fast.lower:.5f}", flush=True)
t0 = time.perf_counter(); e_fine = run(gf, null, left); t_dp = time.perf_counter() - t0
print(f"  all fine: ε {e_fine:.5f} ({e_fine / fast.lower:.4f}x), DP {t_dp:.1f} s", flush=True)
played.clear()
e_coarse = run(gc, null, left)
print(f"  all coarse: ε {e_coarse:.5f} ({e_coarse / fast.lower:.4f}x)", flush=True)
refined = set()
for round_ in range(1, 8):
    new = set().union(*played.values()) - refined if played else set()
    print(f"  round {round_}: {len(new)} members newly at a maximum ({len(refined)} refined before)", flush=True)
    if not new: break
    refined |= new
    mixed = tuple(fine_m[i] if i in refined else coarse_m[i] for i in range(len(coarse_m)))
    played.clear()
    e = run(((pi, (lab, mixed)),), null, left)
    print(f"    {len(refined)} fine, the rest coarse: ε {e:.5f} ({e / fast.lower:.4f}x; all fine {e_fine:.5f})",
          flush=True)
    played = {key: {i for i in v if i not in refined} for key, v in played.items()}
