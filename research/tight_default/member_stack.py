"""Claim 43: building a member's chunks together (fewer, larger numpy calls) does not make the members cheaper.

    cd research/tight_default && python member_stack.py > member_stack_out.txt

Claim 38 read the members' poor thread scaling as the interpreter's overhead around short calls and suggested fewer,
larger calls per member. This script builds WR's label-1 members at the DP-SGD size (sigma = 2.62, the rate and grid
of claim 38, one level per grid step) on one thread, as the library builds them (one 64-cell chunk of o1 cells at a
time, about six chunks a member) and *stacked*: the chunks of a group (8, or every chunk of the member) in one 2-D
array, each chunk keeping its own loss levels (padded to the widest chunk's by repeating its last level, so the padded regions have mass 0
and are dropped), and one region split for the whole member. It prints the seconds (twice each), the regions examined
(padding included; the library's counted while it runs, which costs it a little) and the largest relative change of any mass (the sums run in another order). The library is
untouched.
"""
import math, time
import numpy as np
from scipy import special
import must_nbdev.accounting.triangles as T
from must_nbdev.accounting.triangles import *
from must_nbdev.accounting.triangles import _cell_masses, _split_regions, _o1_edges
from must_nbdev.accounting.pld import DiscretePLD

EXAMINED = [0]

def stacked_pld(gram, *, q, sigma, h, per_h=PER_H, group=8):
    G11, G12, G22 = float(gram[0][0]), float(gram[0][1]), float(gram[1][1])
    b1 = math.sqrt(max(G22, 1e-18)); a1 = G12 / b1; a2 = max(math.sqrt(max(G11 - a1 * a1, 0.0)), 1e-9)
    s2, l1q, lq = sigma * sigma, math.log1p(-q), math.log(q)
    ca, cb = (a1 * a1 + a2 * a2) / (2 * s2), b1 * b1 / (2 * s2)
    F = lambda u: np.logaddexp(l1q, lq + u / s2 - ca)
    Gq = lambda v: np.logaddexp(l1q, lq + v / s2 - cb)
    e = _o1_edges(F, Gq, a1, b1, sigma, h, per_h); e0, e1, mid = e[:-1], e[1:], (e[:-1] + e[1:]) / 2
    m1 = {mu: _cell_masses((e - mu) / sigma) for mu in {0.0, a1, b1}}
    inf_mass = ((1 - q) * float(special.ndtr(e[0] / sigma) + special.ndtr(-e[-1] / sigma))
                + q * float(special.ndtr((e[0] - a1) / sigma) + special.ndtr(-(e[-1] - a1) / sigma)))
    Gm, hp = Gq(b1 * mid), h / per_h
    bulk = (mid >= min(0.0, a1, b1) - Z_BULK * sigma) & (mid <= max(0.0, a1, b1) + Z_BULK * sigma)
    lad = np.arange(math.floor(float(np.min(F(a1 * mid[bulk] - a2 * Z_BULK * sigma) - Gm[bulk])) / hp),
                    math.ceil(float(np.max(F(a1 * mid[bulk] + a2 * (a2 + Z_BULK * sigma)) - Gm[bulk])) / hp) + 1) * hp
    top, bottom = float(np.max(F(a1 * mid + a2 * (a2 + Z_FAR * sigma)) - Gm)), float(np.min(l1q - Gm))
    coarse = np.concatenate([np.linspace(min(bottom, lad[0] - hp), lad[0], 41)[:-1],
                             np.linspace(lad[-1], max(top, lad[-1] + hp), 41)[1:]])
    def o2_of(L, x, g):
        with np.errstate(invalid='ignore', divide='ignore', over='ignore'):
            u = ca + np.log((np.exp(L + g) - (1 - q)) / q)
        return np.where(np.isnan(u), -np.inf, (s2 * u - a1 * x) / a2)
    n1 = len(mid)
    cuts = np.array([0, T.TAIL_CELLS, *range(T.TAIL_CELLS + 64, n1 - T.TAIL_CELLS, 64), n1 - T.TAIL_CELLS, n1])
    ua0, ua1 = np.minimum(a1 * e0, a1 * e1), np.maximum(a1 * e0, a1 * e1)
    vb0, vb1 = np.minimum(b1 * e0, b1 * e1), np.maximum(b1 * e0, b1 * e1)
    starts = cuts[:-1]
    lo_all = F(ua0 - a2 * Z_BULK * sigma) - Gq(vb1); hi_all = F(ua1 + a2 * (a2 + Z_BULK * sigma)) - Gq(vb0)
    lo_c = np.minimum.reduceat(lo_all, starts) - hp; hi_c = np.maximum.reduceat(hi_all, starts) + hp
    pmass = (1 - q) * m1[0.0] + q * m1[a1]
    light = np.add.reduceat(pmass, starts) < LIGHT_CHUNK   # NOTE: sums differ in order from the library's
    chunk_of = np.repeat(np.arange(len(starts)), np.diff(cuts))
    levs = []
    for c in range(len(starts)):
        fine = lad[::LIGHT_STRIDE] if light[c] else lad
        levs.append(np.sort(np.concatenate([coarse, fine[(fine >= lo_c[c]) & (fine <= hi_c[c])]])))
    xs_all, ps_all, Lmin_l, Lmax_l, lA_l, lB_l = [], [], [], [], [], []
    for g0 in range(0, len(starts), group):
        cs = range(g0, min(g0 + group, len(starts)))
        W = max(len(levs[c]) for c in cs)
        Lv = np.concatenate([np.pad(levs[c], (0, W - len(levs[c])), mode='edge')[None, :].repeat(cuts[c + 1] - cuts[c], 0)
                             for c in cs])
        sl = slice(cuts[cs[0]], cuts[cs[-1] + 1])
        EXAMINED[0] += Lv.shape[0] * (Lv.shape[1] + 1)   # regions: levels + 1 per cell
        o2 = o2_of(Lv, mid[sl, None], Gm[sl, None])
        inf_col = np.full((o2.shape[0], 1), np.inf)
        edges = np.concatenate([-inf_col, o2, inf_col], 1); lo2, hi2 = edges[:, :-1], edges[:, 1:]
        w0, wa = _cell_masses(edges / sigma), _cell_masses((edges - a2) / sigma)
        pm = (1 - q) * m1[0.0][sl, None] * w0 + q * m1[a1][sl, None] * wa
        qm = ((1 - q) * m1[0.0][sl, None] + q * m1[b1][sl, None]) * w0
        with np.errstate(invalid='ignore', divide='ignore'):
            Lmax = F(ua1[sl, None] + a2 * hi2) - Gq(vb0[sl, None]); Lmin = F(ua0[sl, None] + a2 * lo2) - Gq(vb1[sl, None])
            keep = (pm > 0) & np.isfinite(Lmax)
            inf_mass += float(pm[(pm > 0) & ~np.isfinite(Lmax)].sum())
            Lmin_l.append(Lmin[keep]); Lmax_l.append(Lmax[keep]); lA_l.append(np.log(pm[keep])); lB_l.append(np.log(qm[keep]))
    p = _split_regions(np.concatenate(Lmin_l), np.concatenate(Lmax_l), np.concatenate(lA_l), np.concatenate(lB_l), 0.0, h)
    return DiscretePLD(h, p.j0, p.masses, inf_mass)

SIGMA, RATE, H = 2.62, 0.004322, 0.0019300702610004186
if __name__ == '__main__':
    net = T.triangle_net(SIGMA, tol=0.02)
    print(f'WR label 1 at sigma = {SIGMA}: {len(net)} members (rate {RATE}, grid {H:.6g}, one level per step), one thread\n')
    print('| how | seconds, first | seconds, second | regions examined |'); print('|---|---|---|---|')
    lib = [T.planar_upper_pld(G, q=RATE, sigma=SIGMA, h=H, per_h=1.0) for G in net[:20]]   # warm
    runs = {'library (chunk by chunk)': lambda G: T.planar_upper_pld(G, q=RATE, sigma=SIGMA, h=H, per_h=1.0),
            'stacked, 8 chunks a call': lambda G: stacked_pld(G, q=RATE, sigma=SIGMA, h=H, per_h=1.0, group=8),
            'stacked, a member a call': lambda G: stacked_pld(G, q=RATE, sigma=SIGMA, h=H, per_h=1.0, group=10**6)}
    out = {}
    masses = T._cell_masses
    def counting(x):      # the library's regions: a 2-D call of the cell masses is one chunk (twice: w0 and wa)
        if x.ndim == 2: EXAMINED[0] += x.shape[0] * (x.shape[1] - 1) / 2
        return masses(x)
    for label, f in runs.items():
        T._cell_masses = counting if label.startswith('library') else masses
        secs = []
        for _ in range(2):
            EXAMINED[0] = 0; t0 = time.perf_counter(); out[label] = [f(G) for G in net]; secs.append(time.perf_counter() - t0)
        print(f'| {label} | {secs[0]:.2f} | {secs[1]:.2f} | {EXAMINED[0] / 2:,.0f} |')   # counted on both runs
    T._cell_masses = masses
    a = out['library (chunk by chunk)']
    for label in list(runs)[1:]:
        b = out[label]
        rel = max(float(np.max(np.abs(x.masses - y.masses) / np.maximum(np.abs(x.masses), 1e-300))) for x, y in zip(a, b))
        same = all(x.j0 == y.j0 and len(x.masses) == len(y.masses) for x, y in zip(a, b))
        infd = max(abs(x.inf_mass - y.inf_mass) / max(x.inf_mass, 1e-300) for x, y in zip(a, b))
        print(f'\n{label}: same supports {same}; largest relative change of a mass {rel:.2g}, of a mass at +inf {infd:.2g}')
    import cProfile, pstats
    prof = cProfile.Profile(); prof.enable()
    for G in net: T.planar_upper_pld(G, q=RATE, sigma=SIGMA, h=H, per_h=1.0)
    prof.disable()
    print('\nThe library\'s members under cProfile, the functions with the most own time:\n')
    pstats.Stats(prof).sort_stats('tottime').print_stats(8)
