"""Block profiles at tiny n, two steps: the one-step net DP's profile composed twice (s = 1, two blocks) against the
full two-step net DP and the best enumerated two-step attack (tests/exact_two_step). The block bound must stay above
the enumerated attack (soundness) and is expected at or above the full DP (it relaxes the game).

    cd research/tight_default && python block_tiny_n.py      (needs tests/ on the path for exact_two_step)"""
import sys, math, time, numpy as np, pathlib
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / 'tests'))
from must_nbdev.core.sampling import make_scheme
from must_nbdev.accounting.triangle_certificate import net_dp
from must_nbdev.accounting.triangle_certificate import QUICK_NET
from must_nbdev.accounting.unlabelled_net import CELLS
from must_nbdev.accounting.profile_pairs import profile_pld
from must_nbdev.accounting.compose import compose_plds
from must_nbdev.accounting.pld import MAX_BINS
from test_tiny_n_theory_gaps import CASES, _lower

H = 0.02
worst = math.inf
for name, n, m, b, sigma, eps in (c for c in CASES if c[4] == 1.0):
    sc = make_scheme(name, n, m=m, b=b)
    h = H                                            # the net's grid: its members cost ~40 s a case on 2 cores
    dp = lambda s, e0, span: np.asarray(net_dp(sc, sigma, s, e0, span, h, QUICK_NET.tol, 1, MAX_BINS, CELLS,
                                                 QUICK_NET.levels)[0]['values'],
                                        float)
    t0 = time.perf_counter(); full = float(dp(2, eps, 0)[0])
    J = math.ceil(8.0 / h)                           # the profile's tail beyond ε = 8 is charged at +∞
    V = dp(1, -J * h, 2 * J)
    U, neg = V[J:], V[:J + 1][::-1]
    a = np.exp(np.arange(J + 1) * h)
    R = np.clip(1 - a * (1 - neg) + 8 * np.finfo(float).eps * a, 0.0, 1.0)
    pair = profile_pld(np.arange(J + 1), U, h, reverse=R)
    block = compose_plds([(pair, 2)]).delta_bounds(eps)[1]
    t1 = time.perf_counter(); low = _lower(name, n, m, b, sigma, eps).value
    worst = min(worst, block / low)
    print(f"{name} n={n} m={m} b={b} σ={sigma:g} ε={eps:g}: enumerated attack {low:.6f} ≤ full net {full:.6f} ≤ "
          f"blocks of one step {block:.6f} ({block / full:.4f}× the full net; tail U={U[-1]:.1e} R={R[-1]:.1e})",
          flush=True)
    assert low <= full <= block * (1 + 1e-9), (low, full, block)
print(f"smallest block / enumerated attack: {worst:.4f}")
