"""Where the stand-in games rank the label splits, in blocks: the library ranks them at the block's public-label ε at
δ/b (`block_range`'s rank ε); ranked at ε = 0 (what `block_profile.py` does), at half the rank ε, or at the attack's ε
over the blocks (the run's ε shared out), and with the fixed member trim instead of the query-scaled one. Each variant
is the library's `block_pair` (one block's DP at the quick setting, its profile as a pair) composed b times, ε(1e-5) at
the DP-SGD size; every variant is a sound certificate.

    python block_rank.py SCHEME SIGMA BLOCKS      # e.g. wr 2.62 2 (block_rank_out.txt lists the runs)
"""
import sys, time
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting.triangle_certificate import QUICK_NET
from must_nbdev.accounting.net_blocks import block_plan, block_range, block_pair
from must_nbdev.accounting.compose import compose_plds
from must_nbdev.accounting.pld import MAX_BINS
from must_nbdev.accounting.upper_dp import net_trim, NET_TRIM
name, sigma, B = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
sc = scheme_at(name, 60000, 256, b=6000); k, delta = 2350, 1e-5
r = account(sc, sigma=sigma, steps=k, delta=delta)
h = r.h * QUICK_NET.grid
s, b = block_plan(k, B)
rank_eps, read_to, share = block_range(sc, sigma, s, b, h, MAX_BINS, None, delta)
print(f"{name} σ={sigma} s={s} b={b} h={h:.4g} rank_eps={rank_eps:.4f} read_to={read_to:.4f} "
      f"J={max(1, -(-read_to // h)):.0f} share={share:.3g} trim={net_trim(share):.3g}", flush=True)
for label, rank, trim in [('library', rank_eps, net_trim(share)), ('rank@0', 0.0, net_trim(share)),
                          ('rank@half', rank_eps / 2, net_trim(share)), ('trim 1e-14', rank_eps, NET_TRIM),
                          ('rank@attack/b', r.lower / b, net_trim(share))]:   # the run's attack ε shared out
    t0 = time.perf_counter()
    pair = block_pair(sc, sigma, s, h, QUICK_NET, MAX_BINS, read_to, rank, trim)[0]
    up = compose_plds([(pair, b)]).eps_bounds(delta)[1]
    print(f"  {label:14s}: ε ≤ {up:.5f} ({up / r.lower:.4f}× the attack) in {time.perf_counter() - t0:.1f} s",
          flush=True)
