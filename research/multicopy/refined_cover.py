"""An adaptive cover for the unlabelled net (accounting/08_unlabelled_net): refine only the cells whose members the game
picks. argv: scheme size [cells [rounds [family]]]. Any partition of the sides' square [0, 2]² into rectangles is a cover
(each cell's member is at its upper corner with the cell's largest third side, as in `triangle_cover`), so every round's
value is a certificate; the game below is `upper_game_dp`'s, copied to record which member attains each state's maximum."""
import math, sys, time
import numpy as np
from scipy import fft as sfft
from scipy.signal import fftconvolve
from sizes import reference
from must_nbdev.accounting.adaptive import attack_runs, dp_plan, fft_round_off
from must_nbdev.accounting.compose import UNIT_ROUNDOFF
from must_nbdev.accounting.pld import MAX_BINS
from must_nbdev.accounting.dominating import scheme_gaussian_pld
from must_nbdev.accounting.unlabelled import MAX_LOSS, label_groups, profile_knots, profile_pld
from must_nbdev.accounting.unlabelled_net import member_profile, cell_side, FAMILIES
from must_nbdev.accounting.upper_dp import upper_kernels
from must_nbdev.accounting.triangle_certificate import whole_steps

name, size = sys.argv[1], sys.argv[2]
cells0 = int(sys.argv[3]) if len(sys.argv) > 3 else 14
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
family = sys.argv[5] if len(sys.argv) > 5 else 'y'
HOT = float(sys.argv[6]) if len(sys.argv) > 6 else 0.9   # refine the members that carry this share of the use
sc, sigma, k, r = reference(name, size)
print(r, flush=True)
h = r.h
groups, lost = label_groups(sc)
J = -scheme_gaussian_pld(sc, sigma, 'substitute', h, MAX_BINS, 'worst').upper[0].j0
js = profile_knots(max(1, min(J, int(MAX_LOSS / h))))
alpha = np.exp(js * h)
_bounds = {}
def bound(a, side):                       # `unlabelled_members`' bound for this family (Lemma G's radii)
    if (a, side) not in _bounds:
        tot = lost
        for g in groups:
            u = side if family == 'z' and g.z_records == 1 else 2.0
            tot = tot + member_profile(g, sigma, alpha, a=a, u=u, v=side if family == 'y' else 2.0)
        _bounds[a, side] = np.minimum(tot * (1 + 1e-12), 1.0)
    return _bounds[a, side]

side = lambda phi: np.where(phi >= math.pi / 2, 2.0, 2 * np.sin(phi))    # a cell edge φ is the chord 2 sin φ

def members(cells):
    "cells: (φs0, φs1, φt0, φt1) rectangles in central-angle coordinates; members after dropping those below another."
    rows = np.array([(min(2.0, cell_side(*map(float, side(np.array(c)))) + 1e-9), float(side(c[1])), float(side(c[3])))
                     for c in cells])
    above = (rows[None] >= rows[:, None]).all(axis=2) & (rows[None] > rows[:, None]).any(axis=2)
    keep = ~above.any(axis=1)
    return rows, keep

def game(mem, e0, span, window, whole):
    "`upper_game_dp` for one label group with one alternative, plus `whole`; also counts each member's binding maxima."
    P = dp_plan(window, k, e0, span, h); lo, hi = P['lo'], P['hi']
    K, infs, a, b = upper_kernels(tuple(mem), k); l1 = float(np.max(K.sum(axis=1) + infs))
    W = [upper_kernels((p,), k) for p in whole]
    u = float(UNIT_ROUNDOFF['double'])
    s = np.arange(lo[k], hi[k] + 1) * h
    V = np.minimum(np.maximum(-np.expm1(e0 - s) + 4 * u * (1 + abs(e0) + np.abs(s)), 0.0), 1.0)
    wins, spec, err_total, choice = np.zeros(len(mem)), {}, 0.0, {}
    for t in range(k - 1, -1, -1):
        read = lambda idx: np.where(idx > hi[t + 1], 1.0, V[np.clip(idx - lo[t + 1], 0, len(V) - 1)])
        n_out = hi[t] - lo[t] + 1
        def corr(KK, aa, bb, key):
            E = read(np.arange(lo[t] + aa, hi[t] + bb + 1)); rr = sfft.next_fast_len(len(E), real=True)
            if spec.get(key, (0,))[0] != rr: spec[key] = (rr, [sfft.rfft(row[::-1], rr) for row in KK])
            FE, w = sfft.rfft(E, rr), bb - aa + 1
            return [sfft.irfft(FE * S, rr)[w - 1:w - 1 + n_out] for S in spec[key][1]], \
                fft_round_off(u, rr, math.sqrt(float(E @ E)), l1)
        vals, e = corr(K, a, b, 'net')
        vals = np.array(vals) + infs[:, None]
        arg = np.argmax(vals, axis=0); net = vals[arg, np.arange(n_out)] + e
        errs = [e]; Vn = net.copy()
        for i, (KW, iW, aW, bW) in enumerate(W):
            (v,), ew = corr(KW, aW, bW, i); Vn = np.minimum(Vn, v + iW[0] + ew); errs.append(ew)
        err_total += max(errs)
        binding = net <= Vn * (1 + 1e-12)
        np.add.at(wins, arg[binding & (Vn > 1e-12) & (Vn < 1)], 1)
        choice[t] = np.where(binding, arg, -1).astype(np.int32)   # −1: a whole-step pair is smaller there
        V = np.minimum(Vn, 1.0)
    j = -np.arange(span + 1) - lo[0]
    values = np.where(j >= len(V), 1.0, V[np.clip(j, 0, len(V) - 1)])
    return values, err_total, wins, (lo, hi, a, K, choice)

def occupancy(plan, start):
    "Forward pass of the game's optimal policy from absolute state `start`: each member's total P-probability of use."
    lo, hi, a, K, choice = plan
    mu = np.zeros(hi[0] - lo[0] + 1); mu[start - lo[0]] = 1.0
    use = np.zeros(len(K))
    for t in range(k):
        nxt = np.zeros(hi[t + 1] - lo[t + 1] + 1)
        c = choice[t]
        for i in np.unique(c[mu > 0]):
            if i < 0: continue                     # (whole-step pairs: not the net's business)
            m = np.where(c == i, mu, 0.0); use[i] += m.sum()
            if m.sum() < 1e-12: continue           # (negligible: not worth an FFT)
            out = fftconvolve(m, K[i])             # state lo[t] + s + a + j
            first = lo[t] + a - lo[t + 1]
            lo_i, hi_i = max(first, 0), min(first + len(out), len(nxt))
            if hi_i > lo_i: nxt[lo_i:hi_i] += out[lo_i - first:hi_i - first]
        mu = np.maximum(nxt, 0.0)
    return use

window = attack_runs(sc, sigma, 'substitute', h, MAX_BINS)[0]
whole = whole_steps(sc, sigma, h, MAX_BINS)
e0, span = (1.0, 0) if size == 's2' else (r.lower, math.ceil((r.upper - r.lower) / h))
g = np.arange(cells0 + 1) * (math.pi / (2 * cells0))
cells = [(g[i], g[i + 1], g[j], g[j + 1]) for i in range(cells0) for j in range(cells0)]
for rnd in range(rounds + 1):
    t0 = time.perf_counter()
    rows, keep = members(cells)
    idx = np.flatnonzero(keep)
    mem = [profile_pld(js, bound(rows[i, 0], rows[i, 1]), h, reverse=bound(rows[i, 0], rows[i, 2])) for i in idx]
    values, err, wins, plan = game(mem, e0, span, window, whole)
    if size == 's2': jv = 0; v = float(values[0])
    else:
        ok = np.flatnonzero(values <= 1e-5); jv = int(ok[0]); v = e0 + jv * h if len(ok) else math.inf
    use = occupancy(plan, -jv)                     # V_0's state −j is the start e0 + jh
    share = use / max(use.sum(), 1e-300)
    order = np.argsort(-share); top = order[:np.searchsorted(np.cumsum(share[order]), HOT) + 1]
    hot = idx[top]
    print(f'round {rnd}: {len(cells)} cells, {len(idx)} members: {name} {size} {v:.6g} (gap {v / r.lower:.4f}), '
          f'{time.perf_counter() - t0:.0f} s, err {err:.2g}; {np.count_nonzero(wins)} members bind somewhere, '
          f'{np.count_nonzero(use)} are used from the start, {len(hot)} carry {HOT:.0%} of the use '
          f'(net use {use.sum():.3g})', flush=True)
    for i in top[:12]: print(f'    member {rows[idx[i]].round(4)} share {share[i]:.3f}', flush=True)
    if rnd == rounds: break
    hot_set = set(int(i) for i in hot)
    new = []
    for i, c in enumerate(cells):
        if i in hot_set:
            ms, mt = (c[0] + c[1]) / 2, (c[2] + c[3]) / 2
            new += [(c[0], ms, c[2], mt), (c[0], ms, mt, c[3]), (ms, c[1], c[2], mt), (ms, c[1], mt, c[3])]
        else: new.append(c)
    cells = new
