"""Claim 39: a coarser grid for the steps far from the run's end, in the quick setting's block DP.

    cd research/tight_default && python coarse_early.py wr 2.62 wor 1.1 > coarse_early_out.txt

The issue's routes list "a coarser grid far from the end of the run". In the backward DP the terminal
(1 − e^{ε−ℓ})₊ has its kink at the end of the run; after many steps the values are smooth, so the first steps of
the run (processed last) might not need the fine grid. `two_grid_dp` is `upper_game_dp` (accounting/07b_upper_dp)
with steps t < `switch` on the grid c·h:
- the coarse grid's points are fine points (every c-th), so V_switch is read there exactly;
- each member's upper PLD is put on the coarse grid as the members are put on theirs (`_split_regions`): an atom
  between two coarse points is split between them with its P-mass and Q-mass kept, a spread that the chord argument
  of 07b covers (moving atoms up instead adds up to h of loss a step: measured first, δ grew 1000-fold over 235
  steps);
- the windows are the fine ones rounded outward (any window is sound: above it V = 1, below it its lowest value);
- V_0 is read at −jh from the coarse point at or above it (V nondecreasing): the block's profile, rounded up.
So every variant is a certificate. The script captures the block DP of one five-block quick-setting `account` call,
re-plays it with each (switch, c, back), and lets the library compose each variant's profile over the blocks: the
run's certified ε (against the attack) and the block DP's seconds (the members and stand-ins are cached after the
first call, so only the DP's seconds compare), in one process (2 cores).
"""
import math, sys, time
from dataclasses import replace
import numpy as np
from scipy import fft as sfft
import must_nbdev.accounting.triangle_certificate as TC
import must_nbdev.accounting.upper_dp as U
from must_nbdev.accounting.adaptive import dp_plan, fft_round_off
from must_nbdev.accounting.compose import UNIT_ROUNDOFF
from must_nbdev.accounting.pld import DiscretePLD
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account

def coarse_pld(p:DiscretePLD, c:int) -> DiscretePLD:
    "p on the grid c·h: each atom between the coarse points around it, its Q-mass kept (the members' own two-atom split)."
    H, j = p.h * c, p.j0 + np.arange(len(p.masses))
    g = np.floor_divide(j, c); x = (j - g * c) * p.h                   # the atom at g·H + x, 0 <= x < H
    be = np.clip((np.exp(-x) - math.exp(-H)) / -math.expm1(-H), 0.0, 1.0)   # weight at g·H (1 where x = 0)
    g0 = int(g.min()); n = int(g.max()) - g0 + 2
    m = np.bincount(g - g0, p.masses * be, minlength=n) + np.bincount(g + 1 - g0, p.masses * (1 - be), minlength=n)
    return DiscretePLD(H, g0, m, p.inf_mass)

def kernels(groups, more, whole, k, trim, c):
    "The library's kernel list G (labels folded as `upper_game_dp` does), members first put on the grid c·h."
    cp = (lambda p: p) if c == 1 else (lambda p: coarse_pld(p, c))
    G, splits = [], ((groups, None, None),) + tuple(more)
    for d, (grs, _, _) in enumerate(splits):
        light = sorted((i for i, (_, alts) in enumerate(grs) if len(alts) == 1 and len(alts[0]) == 1),
                       key=lambda i: grs[i][0])[:-1]
        fold = set(light) if len(light) > 1 else set()
        for i, (pi, alts) in enumerate(grs):
            if i in fold: continue
            K, infs, a, b = U.upper_kernels(tuple(cp(p) for alt in alts for p in alt), k, trim)
            G.append((pi, K, infs, a, b, np.cumsum([0] + [len(alt) for alt in alts]),
                      float(np.max(K.sum(axis=1) + infs)), d))
        if fold: G.append(U.fold_kernels(tuple((grs[i][0], cp(grs[i][1][0][0])) for i in sorted(fold)), k, trim) + (d,))
    for p in whole:
        K, infs, a, b = U.upper_kernels((cp(p),), k, trim)
        G.append((1.0, K, infs, a, b, np.array([0, 1]), float(K.sum() + infs[0]), -1))
    return G

def two_grid_dp(groups, k, e0, span, h, window, max_bins, *, null=0.0, left=0.0, whole=(), more=(),
                trim=U.NET_TRIM, switch=0, c=1, back=0):
    "upper_game_dp with the steps back <= t < switch on the grid c·h (switch = 0 or c = 1: the library's DP)."
    # back > 0: the first `back` steps fine again, V_back read from the coarse point at or above each fine point
    P = dp_plan(window, k, e0, span, h)
    lo, hi = P['lo'].copy(), P['hi'].copy()
    splits = ((groups, null, left),) + tuple(more)
    fine, coarse = kernels(groups, more, whole, k, trim, 1), (kernels(groups, more, whole, k, trim, c) if c > 1 else None)
    u = float(UNIT_ROUNDOFF['double'])
    s = np.arange(lo[k], hi[k] + 1) * h
    V = np.minimum(np.maximum(-np.expm1(e0 - s) + 4 * u * (1 + abs(e0) + np.abs(s)), 0.0), 1.0)
    spectra, err_total, idle, grid = {}, 0.0, [0] * len(splits), 1    # grid: V's grid, in fine steps
    with U.correlation_pool() as pool:
        for t in range(k - 1, -1, -1):
            if c > 1 and t == switch - 1:       # V_{switch} onto the coarse grid: its every c-th point, exactly
                lo_f = lo[t + 1]; J0 = -(-lo_f // c); J1 = hi[t + 1] // c
                V = V[J0 * c - lo_f:J1 * c - lo_f + 1:c]; lo[t + 1], hi[t + 1], grid = J0, J1, c
                lo[:t + 1] = np.floor_divide(lo[:t + 1], c); hi[:t + 1] = -np.floor_divide(-hi[:t + 1], c)
                spectra = {}
            if c > 1 and back > 0 and t == back - 1:   # V_back onto the fine grid: the coarse point at or above
                J0 = lo[t + 1]; i = np.arange(J0 * c - c + 1, hi[t + 1] * c + 1)
                V = V[np.clip(-(-i // c) - J0, 0, len(V) - 1)]; lo[t + 1], hi[t + 1], grid = i[0], i[-1], 1
                lo[:t + 1], hi[:t + 1] = P['lo'][:t + 1], P['hi'][:t + 1]; spectra = {}
            G = coarse if grid > 1 else fine
            read = lambda idx: np.where(idx > hi[t + 1], 1.0, V[np.clip(idx - lo[t + 1], 0, len(V) - 1)])
            n_out, steps = hi[t] - lo[t] + 1, []
            here = read(np.arange(lo[t], hi[t] + 1))
            total, err = [nu * here + lf for _, nu, lf in splits], [0.0] * len(splits)
            probe = (k - 1 - t) % U.SPLIT_PROBE == 0
            play = [probe or n < U.SPLIT_IDLE for n in idle] if groups else [True] * len(splits)
            for g, (pi, K, infs, a, b, cuts, l1, d) in enumerate(G):
                if d >= 0 and not play[d]: continue
                E = read(np.arange(lo[t] + a, hi[t] + b + 1))
                r = sfft.next_fast_len(len(E), real=True)
                if spectra.get(g, (0,))[0] != r: spectra[g] = (r, sfft.rfft(K[:, ::-1], r, axis=1))
                FE, w, value = sfft.rfft(E, r), b - a + 1, np.full(n_out, np.inf)
                for c0, c1 in zip(cuts[:-1], cuts[1:]):
                    best = U.largest_correlation(FE, spectra[g][1][c0:c1], infs[c0:c1], r, w - 1, n_out, pool)
                    np.minimum(value, best, out=value)
                e = fft_round_off(u, r, math.sqrt(float(np.einsum('i,i->', E, E))), l1)
                if d < 0: steps.append((value + e, e)); continue
                total[d] += pi * value; err[d] += pi * e
            err_total += max(err + [e for _, e in steps])
            sums = [tt + ee if on else None for tt, ee, on in zip(total, err, play)]
            V = (np.min([x for x in sums if x is not None], axis=0) if groups and any(play) else np.full(n_out, np.inf))
            for value, _ in steps: np.minimum(V, value, out=V)
            kept = [d for d, x in enumerate(sums) if x is not None] if groups else []
            for d in kept[::-1]:
                rest = [sums[j] for j in kept if j != d] + [v for v, _ in steps]
                if rest and not np.any(sums[d] < np.min(rest, axis=0)): kept.remove(d); idle[d] += 1
                else: idle[d] = 0
            V = np.minimum(V, 1.0)
    j = -np.arange(span + 1)                     # V_0 at −jh: from the grid point at or above it (V nondecreasing)
    J = -((np.arange(span + 1)) // grid) - lo[0]
    return dict(values=np.where(J >= len(V), 1.0, V[np.clip(J, 0, len(V) - 1)]), err=err_total, bins=0)

if __name__ == '__main__':
    args = sys.argv[1:] or ['wr', '2.62']
    variants = [(0, 1, 0), ('1/4', 2, 0), ('1/2', 2, 0), ('1/2', 2, 1), ('1/2', 2, 8), ('3/4', 2, 0), ('3/4', 2, 8),
                ('1', 2, 0), ('1/2', 4, 8)]
    for name, sigma in zip(args[::2], args[1::2]):
        sigma, sc = float(sigma), scheme_at(name, 60_000, 256, b=6000)
        net = replace(TC.QUICK_NET, blocks=5)
        lib = TC.upper_game_dp; seen = {}
        def timed_dp(*a, **kw):
            t0 = time.perf_counter(); out = (variant_dp if kw.get('span', a[3] if len(a) > 3 else 0) else lib)(*a, **kw)
            seen['dp'] = seen.get('dp', 0.0) + (time.perf_counter() - t0) * (1 if a[3] else 0); return out
        print(f"## {name}, σ = {sigma}, five blocks, the quick setting\n")
        print('| steps on c·h | c | first steps fine again | certified ε | × attack | the block DP, s |'); print('|---|---|---|---|---|---|')
        for share, c, back in variants:
            def variant_dp(groups, k, e0, span, h, window, max_bins, **kw):
                sw = 0 if share == 0 else round(k * eval(share))
                return two_grid_dp(groups, k, e0, span, h, window, max_bins, switch=sw, c=c, back=back, **kw)
            TC.upper_game_dp = timed_dp; seen.clear()
            try:
                t0 = time.perf_counter(); r = account(sc, sigma=sigma, steps=2350, delta=1e-5, net=net); dt = time.perf_counter() - t0
            finally: TC.upper_game_dp = lib
            print(f"| {'none' if share == 0 else 'all' if share == '1' else 'the first ' + share} | {c} | {back} | {r.upper:.6g} | "
                  f"{r.upper / r.lower:.4f} | {seen.get('dp', 0):.1f} |", flush=True)
        ref = account(sc, sigma=sigma, steps=2350, delta=1e-5, net=net)
        print(f"\nthe library's own DP: {ref.upper:.6g} (the first row is its copy here)\n", flush=True)
