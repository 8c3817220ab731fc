"""Can the triangle net's DP skip members between steps? WOR at the DP-SGD size (60,000 records, batch 256, 2,350 steps),
σ = 2.62, quick setting, δ at the quick net's ε: the captured DP replayed with every member's correlation at every step,
and two questions asked of it (tight_default/README, claim 17).

1. Lipschitz in time. A member's value moves between steps s and t by at most its distance to the step's leader times
   the change of the values it reads: c_i^t − c_ℓ^t ≤ c_i^s − c_ℓ^s + ‖K_i − K_ℓ‖₁ · max|E_t − E_s| over its window.
   A member whose gap to the leader at s exceeds that (plus a charged slack) could be skipped at t, soundly.
   Reported: members that pass the test one step after a full step, per slack.
2. Stationarity of the policy. The argmax member at each loss (where the value lies in (1e-9, 1 − 1e-9)): the share of
   points where it changes from one step to the next, the distinct argmax members a step, and what reusing the
   previous step's argmax would lose (a lower bound: the route needs a proof, not this measurement).

    cd research/tight_default && python time_pruning.py > time_pruning_out.txt      # about 3 minutes
"""
import math, time
import numpy as np, scipy.fft as sfft
from scipy.ndimage import maximum_filter1d
import must_nbdev.accounting.triangle_certificate as TC
from must_nbdev.accounting.upper_dp import dp_plan, upper_kernels, fft_round_off, UNIT_ROUNDOFF, upper_game_dp
from must_nbdev.accounting.account import account
from must_nbdev.accounting.triangle_certificate import QUICK_NET, triangle_delta
from must_nbdev.core.sampling import scheme_at

SLACKS = (0.0, 4e-12, 4e-10)   # per step: 0, about 1e-3·δ/k, about 0.1·δ/k at δ = 1e-5
out = dict(prune={s: [] for s in SLACKS}, change=[], distinct=[], loss=[], active=[])

def replay(groups, k, e0, span, h, window, max_bins, *, null=0.0, left=0.0, whole=(), more=()):
    "upper_game_dp's recursion, every member computed, with the two measurements on the net's alternative."
    members = sum(len(p) for _, alts in groups for p in alts)
    if members < 20: return upper_game_dp(groups, k, e0, span, h, window, max_bins, null=null, left=left,
                                          whole=whole, more=more)               # the stand-in games: as they are
    P = dp_plan(window, k, e0, span, h); lo, hi = P['lo'], P['hi']
    G, splits = [], ((groups, null, left),) + tuple(more)
    for d, (grs, _, _) in enumerate(splits):
        for pi, alts in grs:
            K, infs, a, b = upper_kernels(tuple(p for alt in alts for p in alt), k)
            G.append((pi, K, infs, a, b, np.cumsum([0] + [len(alt) for alt in alts]),
                      float(np.max(K.sum(axis=1) + infs)), d))
    for p in whole:
        K, infs, a, b = upper_kernels((p,), k)
        G.append((1.0, K, infs, a, b, np.array([0, 1]), float(K.sum() + infs[0]), -1))
    u = float(UNIT_ROUNDOFF['double']); s = np.arange(lo[k], hi[k] + 1) * h
    V = np.minimum(np.maximum(-np.expm1(e0 - s) + 4 * u * (1 + abs(e0) + np.abs(s)), 0.0), 1.0)
    prev = {}
    for t in range(k - 1, -1, -1):
        read = lambda idx: np.where(idx > hi[t + 1], 1.0, V[np.clip(idx - lo[t + 1], 0, len(V) - 1)])
        n_out, steps = hi[t] - lo[t] + 1, []
        here = read(np.arange(lo[t], hi[t] + 1))
        total, err = [nu * here + lf for _, nu, lf in splits], [0.0] * len(splits)
        for g, (pi, K, infs, a, b, cuts, l1, d) in enumerate(G):
            E = read(np.arange(lo[t] + a, hi[t] + b + 1)); r = sfft.next_fast_len(len(E), real=True)
            X = sfft.irfft(sfft.rfft(E, r) * sfft.rfft(K[:, ::-1], r, axis=1), r, axis=1)[:, b - a:b - a + n_out]
            X += infs[:, None]; e = fft_round_off(u, r, math.sqrt(float(E @ E)), l1)
            value = np.full(n_out, np.inf)
            for c0, c1 in zip(cuts[:-1], cuts[1:]):
                Xa = X[c0:c1]; best = Xa.max(axis=0); np.minimum(value, best, out=value)
                if c1 - c0 < 20: continue
                am, xs = Xa.argmax(axis=0), np.arange(lo[t], hi[t] + 1)
                p = prev.get((g, c0))
                if p is not None and p['lo'] <= lo[t] and hi[t] <= p['hi']:
                    o = lo[t] - p['lo']
                    Es = p['E'][o:o + len(E)]; w = b - a + 1
                    D = maximum_filter1d(np.abs(E - Es), w, origin=-(w // 2))[:n_out]
                    for sl in SLACKS:    # skippable: gap + slack ≥ ‖K_i − K_ℓ(x)‖₁ D(x) at every x
                        ok = np.all(p['gap'][:, o:o + n_out] + sl >= p['N'][:, o:o + n_out] * D[None, :], axis=1)
                        out['prune'][sl].append(int(ok.sum()))
                    act = (best > 1e-9) & (best < 1 - 1e-9)
                    stale = p['am'][o:o + n_out]
                    out['change'].append(float(np.mean(am[act] != stale[act])) if act.any() else 0.0)
                    out['distinct'].append(len(np.unique(am[act])) if act.any() else 0)
                    out['active'].append(int(act.sum()))
                    out['loss'].append(float(np.max((best - Xa[stale, np.arange(n_out)])[act])) if act.any() else 0.0)
                Kk = K[c0:c1]; N = np.zeros_like(Xa)
                for l in np.unique(am): N[:, am == l] = (np.abs(Kk - Kk[l]).sum(axis=1) * (1 + 1e-9))[:, None]
                prev[(g, c0)] = dict(lo=lo[t], hi=hi[t], E=E.copy(), gap=best[None, :] - Xa - 2 * e, N=N, am=am)
            if d < 0: steps.append((value + e, e)); continue
            total[d] += pi * value; err[d] += pi * e
        V = np.min([tt + ee for tt, ee in zip(total, err)], axis=0) if groups else np.full(n_out, np.inf)
        for value, _ in steps: np.minimum(V, value, out=V)
        V = np.minimum(V, 1.0)
    j = -np.arange(span + 1) - lo[0]
    return dict(values=np.where(j >= len(V), 1.0, V[np.clip(j, 0, len(V) - 1)]), err=0.0, bins=0)

if __name__ == '__main__':
    t0 = time.perf_counter()
    sc = scheme_at('wor', 60_000, 256, b=6000)
    r = account(sc, sigma=2.62, steps=2350, delta=1e-5, net=True, **QUICK_NET.keywords())
    h = r.h * QUICK_NET.grid
    lib = triangle_delta(sc, sigma=2.62, steps=2350, eps=r.upper, h=h, tol=QUICK_NET.tol, levels=QUICK_NET.levels,
                         lean=QUICK_NET.lean).value
    TC.upper_game_dp = replay
    TC.net_label_groups.cache_clear()
    mine = triangle_delta(sc, sigma=2.62, steps=2350, eps=r.upper, h=h, tol=QUICK_NET.tol, levels=QUICK_NET.levels,
                          lean=QUICK_NET.lean)
    print(f"WOR, 60,000/256, 2,350 steps, σ = 2.62, quick setting: ε {r.upper:.6f} (attack {r.lower:.6f}), grid {h:.6g}")
    print(f"δ at that ε: library {lib:.8g}, replay {mine.value:.8g}; {mine.members} members; {len(out['change'])} steps "
          f"measured one step after a full one")
    q = lambda a: ', '.join(f'{v:.3g}' for v in np.quantile(a, [0.1, 0.5, 0.9, 1.0]))
    for sl in SLACKS:
        print(f"1. skippable members a step (slack {sl:g} per step): quantiles 10/50/90/100%: {q(out['prune'][sl])}")
    print(f"2. argmax changed at a share of the active points: {q(out['change'])}")
    print(f"   distinct argmax members a step: {q(out['distinct'])}; active points: {q(out['active'])}")
    print(f"   loss from the previous step's argmax (max over points): {q(out['loss'])}")
    print(f"{time.perf_counter() - t0:.0f} s")
