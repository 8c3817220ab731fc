"""Prototype (issue 23): the labelled triangle game for multi-copy schemes (WR, MUST).

Lemma 1's coupling, kept joint, makes a step of any fixed-size scheme a public mixture over labels l (copies of the
record, given that it appears) of scaled triangle pairs (1−η̃)N(0)+η̃N(l(x−ȳ)) vs (1−η̃)N(0)+η̃N(l(x'−ȳ)), ȳ the mean of
the displaced records' gradients (in the unit disc), plus a null label of weight 1 − η/η̃. So
    V_t(s) ≤ (1 − η/η̃) V_{t+1}(s) + Σ_l π_l min( max_{M in net(σ/l)} K_M ⋆ V_{t+1},  K_{S_l} ⋆ V_{t+1} )
with S_l the symmetrised label pair of 03_dominating (it dominates every scaled triangle in both orientations).
"""
import math, sys, time
import numpy as np
from scipy import fft as sfft
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.dominating import dominating_labels
from must_nbdev.accounting.pld import CAP_MASS
from must_nbdev.accounting.adaptive import dp_plan, attack_runs, UNIT_ROUNDOFF
from must_nbdev.accounting.triangles import triangle_net, planar_upper_pld
from must_nbdev.accounting.upper_dp import upper_kernels
from must_nbdev.accounting.triangle_certificate import label_pld
from must_nbdev.accounting.members import on_grid

COARSE = {}   # label -> grid factor of its members' PLDs

def coarse(l): return COARSE.get(l, 1)

def groups_for(scheme, sigma, h, tols, verbose=True):
    "[(π_l, net plds or (), symmetrised pld)], null weight, mass left out."
    eta_t, labels, left = dominating_labels(scheme, sigma, 'substitute')
    null = sum(p for p, th in labels if th == 0)
    groups = []
    for p, th in labels:
        if th == 0 or p <= 0: continue
        l = round(th * sigma / 2)
        if p < CAP_MASS: left += p; continue            # negligible label: +∞ (V = 1)
        tol = tols.get(l)
        t0 = time.perf_counter()
        c = coarse(l)
        net = tuple(on_grid(planar_upper_pld(G, q=eta_t, sigma=sigma / l, h=c * h), c)
                    for G in triangle_net(sigma / l, tol=tol)) if tol is not None else ()
        groups.append((p, net, label_pld(eta_t, th, h)))
        if verbose and tol is not None:
            print(f"  label {l}: π={p:.4g}, {len(net)} members at σ/l={sigma / l:.3g}, {time.perf_counter() - t0:.0f} s",
                  flush=True)
    return groups, null, left

def labelled_dp(groups, null, left, k, e0, span, h, window):
    "Upper DP of the labelled game (prototype twin of 07's upper_game_dp)."
    P = dp_plan(window, k, e0, span, h)
    lo, hi = P['lo'], P['hi']
    allp = [q for _, net, sym in groups for q in (*net, sym)]
    K, infs, a, b = upper_kernels(tuple(allp), k)
    u, l1 = float(UNIT_ROUNDOFF['double']), float(np.max(K.sum(axis=1) + infs))
    s = np.arange(lo[k], hi[k] + 1) * h
    V = np.minimum(np.maximum(-np.expm1(e0 - s) + 4 * u * (1 + abs(e0) + np.abs(s)), 0.0), 1.0)
    r_cur, spectra, err_total = 0, None, 0.0
    for t in range(k - 1, -1, -1):
        idx = np.arange(lo[t] + a, hi[t] + b + 1)
        E = np.where(idx > hi[t + 1], 1.0, V[np.clip(idx - lo[t + 1], 0, len(V) - 1)])
        r = sfft.next_fast_len(len(E), real=True)
        if r != r_cur: r_cur, spectra = r, [sfft.rfft(row[::-1], r) for row in K]
        FE, n_out, w = sfft.rfft(E, r), hi[t] - lo[t] + 1, b - a + 1
        conv = lambda i: sfft.irfft(FE * spectra[i], r)[w - 1:w - 1 + n_out] + infs[i]
        # V itself at the outputs (null label): E shifted by −a
        Vself = E[-a:-a + n_out] if a <= 0 else None
        total = null * Vself + left
        i = 0
        for p, net, sym in groups:
            best = np.full(n_out, -np.inf)
            for _ in net: np.maximum(best, conv(i), out=best); i += 1
            ys = conv(i); i += 1
            total = total + p * (np.minimum(best, ys) if len(net) else ys)
        err = 8 * (10 * u * math.log2(r)) * math.sqrt(float(E @ E)) * l1 + 4 * u * l1
        err_total += err
        V = np.minimum(total + err, 1.0)
    j = -np.arange(span + 1) - lo[0]
    return dict(values=np.where(j >= len(V), 1.0, V[np.clip(j, 0, len(V) - 1)]), err=err_total)

if __name__ == '__main__':
    name = sys.argv[1]; tols = eval(sys.argv[2]) if len(sys.argv) > 2 else {1: 0.02}
    COARSE.update(eval(sys.argv[3]) if len(sys.argv) > 3 else {})
    n, m, b, sigma, k, eps = 10_000, 200, 118, 4.0, 1000, 1.0
    sch = scheme_at(name, n, m, b=b)
    from must_nbdev.accounting.account import account
    r = account(sch, sigma=sigma, steps=k, eps=eps); h = r.h
    print(r, 'h', h)
    t0 = time.perf_counter()
    groups, null, left = groups_for(sch, sigma, h, tols)
    d = labelled_dp(groups, null, left, k, eps, 0, h, attack_runs(sch, sigma, 'substitute', h, 2 ** 22)[0])
    v = float(d['values'][0])
    print(f"{name} tols={tols} coarse={COARSE}: labelled game δ(1) ≤ {v:.5g}  gap {v / r.lower:.3f}  (err {d['err']:.2g}, "
          f"{time.perf_counter() - t0:.0f} s)")
