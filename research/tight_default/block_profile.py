"""Block profiles: the triangle net's DP run once for s steps gives the s-step game's δ_s(ε) at every ε at once (the
DP commutes with shifts of the loss), profile_pld turns that profile into one pair that dominates every s-step adaptive
block, and the run is k/s such blocks composed (adaptive composition of dominating pairs). Sound for every s; how
tight against the full DP (s = k), and how fast?

    python block_profile.py SCHEME SIGMA [S ...]     (the DP-SGD size: n = 60,000, batch 256, b = 6000, k = 2350)

Each s divides k. `sym`: the reverse orientation taken equal to the forward one (the game is symmetric under x <-> x');
`both`: the reverse read off the same DP at negative ε, H_{1/α}(Q||P) = (H_α(P||Q) − 1 + α)/α, no symmetry assumed."""
import sys, time, math, numpy as np
from must_nbdev.core.sampling import make_scheme
from must_nbdev.accounting.account import account
from must_nbdev.accounting.triangle_certificate import QUICK_NET, net_dp
from must_nbdev.accounting.unlabelled_net import CELLS
from must_nbdev.accounting.profile_pairs import profile_pld
from must_nbdev.accounting.compose import compose_plds
from must_nbdev.accounting.pld import MAX_BINS

name, sigma = sys.argv[1], float(sys.argv[2])
k, delta = 2350, 1e-5
sc = make_scheme(name, 60_000, m=256) if name in ('wor', 'wr') else make_scheme(name, 60_000, m=256, b=6000)
t0 = time.perf_counter()
r = account(sc, sigma=sigma, steps=k, delta=delta, net=QUICK_NET)
t_net = time.perf_counter() - t0
fast = account(sc, sigma=sigma, steps=k, delta=delta)
print(f"{name} σ={sigma}: account(net=QUICK_NET) ε={r.upper:.5f} ({r.certificate}, {r.upper / r.lower:.4f}× the attack "
      f"{r.lower:.5f}) in {t_net:.1f} s; fast certificate {fast.upper:.5f} ({fast.upper / fast.lower:.4f}×); "
      f"h={r.h:.4g}", flush=True)
H = QUICK_NET.grid * r.h
dp = lambda s, e0, span: np.asarray(net_dp(sc, sigma, s, e0, span, H, QUICK_NET.tol, QUICK_NET.coarsen, MAX_BINS,
                                            CELLS, QUICK_NET.levels, QUICK_NET.lean)[0]['values'], float)

def block_pair(s, both):
    "The s-step block's dominating pair and the ε range its profile was read on (grown until its tail is negligible)."
    E, need = r.lower, 1e-2 * delta * s / k        # the tail at +∞ adds at most k/s · need to the run's δ
    while True:
        J = math.ceil(E / H)
        if not both:
            U = dp(s, 0.0, J); R = None
        else:
            V = dp(s, -J * H, 2 * J)                   # δ_s at −JH .. JH
            U, neg = V[J:], V[:J + 1][::-1]            # ε = jH and ε = −jH, j = 0..J
            a = np.exp(np.arange(J + 1) * H)
            R = np.clip(1 - a * (1 - neg) + 8 * np.finfo(float).eps * a, 0.0, 1.0)   # rounded up
        # the forward tail decides; the reverse one, read through 1 − e^{jH}(1 − δ_s(−jH)), carries the DP's round-off
        # charges times e^{jH} and never falls that far: it stays an upper bound wherever it is read
        if U[-1] <= need or E > 50: return profile_pld(np.arange(J + 1), U, H, reverse=R), E
        E *= 1.25

for s in [int(a) for a in sys.argv[3:]] or [47, 94, 235, 470, 1175]:
    assert k % s == 0
    for both in (False, True):
        t0 = time.perf_counter()
        pld, E = block_pair(s, both)
        t_dp = time.perf_counter() - t0
        lo, up = compose_plds([(pld, k // s)]).eps_bounds(delta)
        print(f"s={s:5d} blocks={k // s:4d} {'both' if both else 'sym '}: ε ≤ {up:.5f} = {up / r.upper:.4f}× the full "
              f"net, {up / r.lower:.4f}× the attack; block DP {t_dp:.1f} s (profile read to ε = {E:.3g})", flush=True)
