"""The y family with label 1's Q and R pieces merged into one triangle piece (issue 23; prototype, 2026-11-27).

Given the reference draw Y, split the step's positive part as
  (e π_1 φ_μ1 − α e π_1 φ_ν1 − (α−1) λ r φ_s)_+  +  (the theorem's pieces for labels >= 2, references (1−λ) r and z)
(valid: (A − B)_+ <= Σ_k (A_k − B_k)_+ with B split in two). The first piece is (c + λr) times the hockey stick of
a WOR triangle pair at rate c/(c + λr), c = e π_1, over the triangle (x, x', y_1): `planar_upper_pld` of 07_triangles.
Each knot takes the smallest of the library's member bound and this one over a few λ (a per-α choice is valid: each is
a bound on H_α for that α). Then the game of 07_triangles over the members, as unlabelled_net.py plays it.
Usage: python merged_net.py SCHEME SIZE [CELL]   (SCHEME must-ow; SIZE 2.62, 1.1 or s2)
"""
import math, sys, time
import numpy as np
from sizes import reference
from must_nbdev.accounting.adaptive import attack_runs
from must_nbdev.accounting.pld import MAX_BINS
from must_nbdev.accounting.dominating import scheme_gaussian_pld
from must_nbdev.accounting.triangles import member_gram, planar_upper_pld
from must_nbdev.accounting.upper_dp import upper_game_dp
from must_nbdev.accounting.triangle_certificate import whole_steps
from must_nbdev.accounting.unlabelled import MAX_LOSS, LabelGroup, label_groups, profile_knots, profile_pld
from must_nbdev.accounting.unlabelled_net import member_profile, cell_side

name, size = sys.argv[1], sys.argv[2]
cell = float(sys.argv[3]) if len(sys.argv) > 3 else 0.1
LAMS = (0.97, 0.99, 0.997)
sc, sigma, k, r = reference(name, size)
print(r, flush=True)
h = r.h
(g,), lost = label_groups(sc)
J = -scheme_gaussian_pld(sc, sigma, 'substitute', h, MAX_BINS, 'worst').upper[0].j0
js = profile_knots(max(1, min(J, int(MAX_LOSS / h))))
alpha, eps = np.exp(js * h), js * h
c = g.e * g.pi[0]
rests = {lam: LabelGroup(g.e, (1 - lam) * g.r, g.z, np.r_[0.0, g.pi[1:]]) for lam in LAMS}
t0 = time.perf_counter()
stats = []
def deltas(pld, E):
    "pld.delta at every ε in E at once (tail sums; the knots and the losses share the grid)."
    s, m = pld.losses, pld.masses
    T1 = np.cumsum(m[::-1])[::-1]
    T2 = np.cumsum((m * np.exp(-(s - s[0])))[::-1])[::-1]
    i = np.searchsorted(s, E + 1e-9 * pld.h if hasattr(pld, 'h') else E, side='right')
    out = np.zeros(len(E))
    ok = i < len(s)
    out[ok] = np.maximum(T1[i[ok]] - np.exp(E[ok] - s[0]) * T2[i[ok]], 0.0)
    return out + pld.inf_mass

def side_bound(a, v, vp, gram):
    """H_α bound, one orientation: |x − y_1| <= v for P's record, |x − x'| <= a; the merged piece at `gram`, a Gram
    matrix above every triangle of the cell (07_triangles' member_gram: Loewner order)."""
    with np.errstate(all='ignore'):
        old = lost + member_profile(g, sigma, alpha, a=a, u=2.0, v=v)
        best = old.copy()
        for lam in LAMS:
            w = lam * g.r
            pld = planar_upper_pld(gram, q=c / (c + w), sigma=sigma, h=h)
            merged = (c + w) * deltas(pld, eps)
            rest = member_profile(rests[lam], sigma, alpha, a=a, u=2.0, v=v)
            best = np.minimum(best, lost + merged + rest)
    stats.append(float(np.max(old / np.maximum(best, 1e-300))))
    return np.minimum(best * (1 + 1e-12), 1.0)

def cells(cell):
    "Every cell [s0, s1] x [t0, t1] of (|x − y_1|, |x' − y_1|) with the range of |x − x'| on it (Lemma T)."
    g_ = np.arange(0, math.ceil(2 / cell - 1e-9) + 1) * cell; g_[-1] = 2.0
    for s0, s1 in zip(g_[:-1], g_[1:]):
        for t0, t1 in zip(g_[:-1], g_[1:]):
            amax = min(2.0, cell_side(s0, s1, t0, t1) + 1e-9)
            amin = max(0.0, s0 - t1, t0 - s1)
            if amin > amax: continue
            yield s0, s1, t0, t1, amin, amax

fwd_rev = []
for s0, s1, u0, u1, amin, amax in cells(cell):     # (u, not t: t0 is the clock)
    C = ((s0 * s0 + u0 * u0 - amax * amax) / 2, (s1 * s1 + u1 * u1 - amin * amin) / 2)
    Gf = member_gram(((s0 * s0, s1 * s1), (u0 * u0, u1 * u1), C), sigma)     # P's centre x − y_1 first
    Gr = member_gram(((u0 * u0, u1 * u1), (s0 * s0, s1 * s1), C), sigma)     # the reverse: x' − y_1 first
    fwd_rev.append((side_bound(amax, s1, u1, Gf), side_bound(amax, u1, s1, Gr)))
F = np.array([f for f, _ in fwd_rev]); R = np.array([r_ for _, r_ in fwd_rev])
keep = [i for i in range(len(F)) if not any(j != i and np.all(F[j] >= F[i]) and np.all(R[j] >= R[i])
                                            and (np.any(F[j] > F[i]) or np.any(R[j] > R[i]) or j < i)
                                            for j in range(len(F)))]          # curves below another's: dominated
members = [profile_pld(js, F[i], h, reverse=R[i]) for i in keep]
print(f'  {len(members)} of {len(F)} cells kept (y family, merged label 1, cell {cell}), {time.perf_counter() - t0:.0f} s; '
      f'largest old/new at a knot: {max(stats):.3g}', flush=True)
window = attack_runs(sc, sigma, 'substitute', h, MAX_BINS)[0]
e0, span = (1.0, 0) if size == 's2' else (r.lower, math.ceil((r.upper - r.lower) / h))
d = upper_game_dp(((1.0, (tuple(members),)),), k, e0, span, h, window, MAX_BINS, whole=whole_steps(sc, sigma, h, MAX_BINS))
if size == 's2':
    v = float(d['values'][0])
else:
    ok = np.flatnonzero(d['values'] <= 1e-5); v = e0 + ok[0] * h if len(ok) else math.inf
print(f'{name} {size}: merged y net {v:.6g} (gap {v / r.lower:.4f}; before {r.upper:.6g}); '
      f'{time.perf_counter() - t0:.0f} s, err {d["err"]:.2g}', flush=True)
