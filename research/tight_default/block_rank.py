"""Where the stand-in games rank the label splits, in blocks: the library ranks them at the block's public-label ε at
δ/b (`block_range`'s rank ε); ranked at ε = 0 (net_dp's default, what `block_profile.py` does) or at half the rank
ε, at the attack's ε over the blocks (the run's ε shared out), and with the fixed member trim instead of the
query-scaled one. One block's DP at the quick setting, its profile
as a pair composed b times, ε(1e-5) at the DP-SGD size; every variant is a sound certificate.

    python block_rank.py SCHEME SIGMA BLOCKS      # e.g. wr 2.62 2 (block_rank_out.txt: wr 2.62 2/3/5, wr 1.1 5,
                                                  #  must-ow 2.62 5/2)
"""
import sys, time, math, numpy as np
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting.triangle_certificate import QUICK_NET, net_dp
from must_nbdev.accounting.unlabelled_net import CELLS
from must_nbdev.accounting.net_blocks import block_plan, block_range, DENSE_KNOTS
from must_nbdev.accounting.profile_pairs import profile_pld, profile_knots
from must_nbdev.accounting.compose import compose_plds
from must_nbdev.accounting.pld import MAX_BINS
from must_nbdev.accounting.triangles import net_trim, NET_TRIM
name, sigma, B = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
sc = scheme_at(name, 60000, 256, b=6000); k, delta = 2350, 1e-5
r = account(sc, sigma=sigma, steps=k, delta=delta)
o = QUICK_NET; h = r.h * o.grid
s, b = block_plan(k, B)
rank_eps, read_to, share = block_range(sc, sigma, s, b, h, MAX_BINS, None, delta)
J = max(1, math.ceil(read_to / h))
print(f"{name} σ={sigma} s={s} b={b} h={h:.4g} rank_eps={rank_eps:.4f} read_to={read_to:.4f} J={J} share={share:.3g} trim={net_trim(share):.3g}", flush=True)
for label, rank, trim in [('library', (s, rank_eps), net_trim(share)), ('rank@0', None, net_trim(share)),
                          ('rank@half', (s, rank_eps / 2), net_trim(share)), ('trim 1e-14', (s, rank_eps), NET_TRIM),
                          ('rank@attack/b', (s, r.lower / b), net_trim(share))]:   # the run's attack ε shared out
    t0 = time.perf_counter()
    d = net_dp(sc, sigma, s, 0.0, J, h, o.tol, o.coarsen, MAX_BINS, o.cells, o.levels, o.lean, rank, trim)[0]
    U = np.asarray(d['values'], float)
    js = np.arange(J + 1) if J <= DENSE_KNOTS else profile_knots(J)
    up = compose_plds([(profile_pld(js, U[js], h), b)]).eps_bounds(delta)[1]
    print(f"  {label:14s}: ε ≤ {up:.5f} ({up / r.lower:.4f}× the attack) in {time.perf_counter() - t0:.1f} s", flush=True)
