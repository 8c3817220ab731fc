"""Off-line (2-D) triangle attacks at the DP-SGD size and Figure S2, against must_nbdev's collinear attack.

Run (from research/tight_default/offline_attack, with the package installed or PYTHONPATH at the repository root):
    nice -n 10 python offline_attack.py            # everything: ~28 min on one core
    nice -n 10 python offline_attack.py --only must-ow@2.62   # one configuration (~5 min)
    nice -n 10 python offline_attack.py --scan must-ww@1.1    # β-scan of x' off y (~30 s)
    python offline_attack.py --summary             # the SUMMARY table from the JSON
Output: offline_attack_out.txt (the log, appended) and offline_attack_results.json.

MODEL (checked against must_nbdev/accounting/attack.py and pairs.py). Substitution, fixed batch size m, clipping 1.
One step releases sum of the batch's gradients + N(0, σ²I). The differing record appears C times, C ~ the scheme's
occurrence pmf p_c (must_nbdev.core.sampling.occurrence_pmf); the other records all have gradient y. After shifting by
m·y:   P = Σ_c p_c N(c·u, σ²I),  Q = Σ_c p_c N(c·v, σ²I),   u = x − y, v = x' − y,   |x|, |x'|, |y| ≤ 1.
The package's attack (attack_pairs, fixed size, substitute) is the collinear displacing pair x = +1, x' = y = −1:
u = 2, v = 0 (`G(2l)` vs `zero`), composed over k steps with j of them reversed ((Q, P) instead of (P, Q)),
j ∈ {0, k//2, k} ("fixed mixes"), the best of the three.  Adding independent noise is a post-processing, so scaling
(u, v) up never hurts: the extreme triangles are those whose smallest enclosing circle has radius 1 (three points on the
unit circle, or two antipodal points and the third inside).  The pair depends on the triangle only through
(|u|, |v|, angle(u, v)); the likelihood ratio depends on the output only through its projection on span(u, v)
(the orthogonal part is the same N(0, σ²) under P and Q), so one step is a 2-D problem.

METHOD. (1) The plane span(u, v) (σ units) is cut into square cells of side dz over the box of all component means
(p_c ≥ 1e-18) ± 11.5σ; each cell's P- and Q-mass is exact (products of normal cell masses, Σ_c p_c A_c ⊗ B_c).
Merging a cell into one outcome is a post-processing (the cell pair is dominated by the true pair: error ↓ in dz²).
(2) Each cell's mass is split by connect-the-dots onto the loss grid h·Z keeping its P- and Q-mass (dominates the cell
pair: error ↑ in h²).  (3) k-fold composition by FFT (scipy fftconvolve, binary powers); after each convolution the
upper tail of mass ≤ 1e-16 and every loss above the cap ε+40 go to +inf, the lower tail of mass ≤ 1e-13 is collapsed
onto its top point (both raise δ; effect < 1e-9 relative).  (4) ε(δ) by brentq on the exact δ(ε) of the discrete PLD.
The numerical error is measured, not bounded: every reported value is computed at three resolutions
(dz, h), (dz/2, h/2), (dz/4, h/4); the error is second order in both, so the Richardson value f3 + (f3 − f2)/3 is
reported with |f3 − f2|/3 as its error estimate.  A collinear pair rotated by 37° in the plane (so that the cells cut
it obliquely, as they cut an off-line triangle) checks that the 2-D merging error is of the same size.

SEARCH. Family A: y = (−1, 0), x = e^{iα}, x' = e^{iβ} (all three on the circle; α ∈ [0°, 180°], β ∈ [0°, 360°) by
the reflection symmetry); family B: x = (1, 0), x' = (−1, 0), y = r e^{iφ} in the disk; family C: y = (−1, 0),
x = (1, 0), x' = r e^{iφ} in the disk (its mirror x ↔ x' is the same pair with P and Q swapped: the orientation mixes
cover it).  Coarse grid at the screening resolution, then a local refinement (Nelder–Mead on (α, β)) around the best
off-line triangles, then the three-resolution values for the best ones and the collinear references.
"""
import argparse, json, sys, time
import math
import numpy as np
from scipy.special import ndtr
from scipy.signal import fftconvolve
from scipy.optimize import brentq
from must_nbdev.core.sampling import scheme_at, occurrence_pmf

COMP_FLOOR = 1e-18     # components of occurrence mass below this are dropped (k*p_c < 3e-15: invisible at δ=1e-5)
MARGIN = 11.5          # the z-box reaches this many σ beyond every kept component mean (Φ(-11.5) ~ 7e-31)
STEP_TRUNC = 1e-18     # per-step PLD: tail mass cut (upper tail -> +inf, lower tail dropped)
COMP_TRUNC = 1e-16     # after each convolution: upper-tail mass moved to +inf
LOW_COLLAPSE = 1e-13   # after each convolution: lower-tail mass collapsed onto its top point (raises losses)


def pmf_of(name, n, m, b):
    "Occurrence pmf p_c (c = 0..) of the differing record in one batch, components below COMP_FLOOR dropped."
    p = occurrence_pmf(scheme_at(name, n, m, b=b)).pmf
    keep = np.flatnonzero(p >= COMP_FLOOR)
    return p[: keep.max() + 1] * (p[: keep.max() + 1] >= COMP_FLOOR)


def _axis_masses(edges, means):
    "Cell masses of N(mean, 1) over the cells between `edges`, one row per mean (tails taken on the far side)."
    z = edges[None, :] - means[:, None]
    # Φ(b) − Φ(a) computed from the side of the tail for accuracy
    lo, hi = z[:, :-1], z[:, 1:]
    pos = lo > 0
    return np.where(pos, ndtr(-lo) - ndtr(-hi), ndtr(hi) - ndtr(lo))


def triangle_uv(x, xp, y, sigma):
    "u = (x − y)/σ, v = (x' − y)/σ as 2-vectors."
    x, xp, y = (np.asarray(t, float) for t in (x, xp, y))
    return (x - y) / sigma, (xp - y) / sigma


def cell_pair(u, v, p, dz, rot=0.0):
    """P- and Q-masses of the square cells (side dz, in σ units) of the plane spanned by u, v:
    P = Σ_c p_c N(c u, I), Q = Σ_c p_c N(c v, I) (the orthogonal complement cancels in the likelihood ratio).
    Merging each cell into one outcome is a post-processing: the cell pair is dominated by the true pair.
    `rot` rotates the configuration (to measure the cells' merging error on a collinear pair)."""
    R = np.array([[math.cos(rot), -math.sin(rot)], [math.sin(rot), math.cos(rot)]])
    u, v = R @ np.asarray(u, float), R @ np.asarray(v, float)
    c = np.arange(len(p), dtype=float)
    mu_P, mu_Q = c[:, None] * u[None, :], c[:, None] * v[None, :]
    allm = np.vstack([mu_P, mu_Q])
    lo, hi = allm.min(0) - MARGIN, allm.max(0) + MARGIN
    e1 = np.arange(lo[0], hi[0] + dz, dz)
    e2 = np.arange(lo[1], hi[1] + dz, dz)
    A1, A2 = _axis_masses(e1, mu_P[:, 0]), _axis_masses(e2, mu_P[:, 1])
    B1, B2 = _axis_masses(e1, mu_Q[:, 0]), _axis_masses(e2, mu_Q[:, 1])
    P = (A1.T * p) @ A2          # Σ_c p_c A1_c ⊗ A2_c
    Q = (B1.T * p) @ B2
    return P.ravel(), Q.ravel()


def ctd_split(P, Q, h):
    """Connect-the-dots: each cell (P-mass P, Q-mass Q, loss ℓ = log P/Q) split onto the grid points ⌊ℓ/h⌋h and
    ⌈ℓ/h⌉h keeping both its P- and Q-mass (dominates the cell pair; second-order accurate).
    Returns (offset j0, pmf on j0.., mass at +inf) of the loss under P."""
    keep = P > 0
    P, Q = P[keep], Q[keep]
    inf_mass = float(P[Q <= 0].sum())
    P, Q = P[Q > 0], Q[Q > 0]
    ell = np.log(P) - np.log(Q)
    # drop the lowest / cut the highest tail (at most STEP_TRUNC each)
    order = np.argsort(ell)
    cum = np.cumsum(P[order])
    tot = cum[-1]
    i_lo = int(np.searchsorted(cum, STEP_TRUNC, side='right'))
    rc = np.cumsum(P[order][::-1])                       # upper tail sums from the top (no cancellation)
    i_hi = len(P) - 1 - int(np.searchsorted(rc, STEP_TRUNC, side='right'))
    sel = order[i_lo: i_hi + 1]
    inf_mass += float(P[order[i_hi + 1:]].sum())
    low_mass = float(P[order[:i_lo]].sum())     # collapsed onto the lowest kept loss (raises δ)
    ell, P = ell[sel], P[sel].copy()
    P[np.argmin(ell)] += low_mass
    t = ell / h
    j = np.floor(t)
    frac = t - j
    w_hi = P * (-np.expm1(-frac * h)) / (-math.expm1(-h))
    w_lo = P - w_hi
    j = j.astype(np.int64)
    j0 = int(j.min())
    n = int(j.max()) - j0 + 2
    pmf = np.bincount(j - j0, w_lo, minlength=n) + np.bincount(j - j0 + 1, w_hi, minlength=n)
    return j0, pmf, inf_mass


class PLD:
    "A loss distribution on the grid j*h, j = off.., plus a mass at +inf."
    def __init__(self, off, p, inf, h, cap):
        self.off, self.p, self.inf, self.h, self.cap = off, p, inf, h, cap

    def trunc(self, tol=COMP_TRUNC, low=LOW_COLLAPSE):
        "Upper tail of mass <= tol moved to +inf; lower tail of mass <= low collapsed onto its top point (both raise δ)."
        p = np.maximum(self.p, 0.0)
        c = np.cumsum(p)
        a = int(np.searchsorted(c, low, side='right'))
        rc = np.cumsum(p[::-1])
        b = len(p) - 1 - int(np.searchsorted(rc, tol, side='right'))
        b = min(b, int(math.floor(self.cap / self.h)) - self.off)   # losses above the cap: to +inf
        b = max(b, a)
        inf = self.inf + float(p[b + 1:].sum())
        q = p[a: b + 1].copy()
        q[0] += c[a - 1] if a > 0 else 0.0
        return PLD(self.off + a, q, inf, self.h, self.cap)

    def __mul__(self, o):
        "Composition (sum of independent losses)."
        r = fftconvolve(self.p, o.p)
        return PLD(self.off + o.off, r, 1 - (1 - self.inf) * (1 - o.inf), self.h, self.cap).trunc()

    def power(self, k):
        out, base = None, self
        while k:
            if k & 1: out = base if out is None else out * base
            k >>= 1
            if k: base = base * base
        return out

    def delta(self, eps):
        ell = (self.off + np.arange(len(self.p))) * self.h
        s = ell > eps
        return float(np.sum(self.p[s] * -np.expm1(eps - ell[s]))) + self.inf

    def epsilon(self, delta):
        if self.delta(0.0) <= delta: return 0.0
        hi = 1.0
        while self.delta(hi) > delta: hi *= 2
        return brentq(lambda e: self.delta(e) - delta, 0.0, hi, xtol=1e-13, rtol=1e-14)


def step_plds(u, v, p, dz, h, cap, rot=0.0):
    """(forward, reversed) per-step PLDs of the pair (P, Q) and (Q, P). Losses above `cap` are sent to +inf (they
    count fully in δ; set cap ≥ ε + 40 so that no later step can bring them back below ε)."""
    P, Q = cell_pair(u, v, p, dz, rot)
    f = ctd_split(P, Q, h)
    r = ctd_split(Q, P, h)
    return PLD(f[0], f[1], f[2], h, cap).trunc(), PLD(r[0], r[1], r[2], h, cap).trunc()


def fixed_mixes(fwd, rev, k, query, value):
    """The three fixed orientation mixes: j of the k steps reversed, j in {0, k//2, k}.
    query 'eps': ε(δ=value); 'delta': δ(ε=value). Returns {j: answer}."""
    out = {}
    h2 = k // 2
    Fh, Rh = fwd.power(h2), rev.power(h2)
    if k % 2 == 0: Fk, Rk = Fh * Fh, Rh * Rh
    else: Fk, Rk = Fh * Fh * fwd, Rh * Rh * rev
    comps = {0: Fk, h2: (Fh * fwd if k % 2 else Fh) * Rh, k: Rk}
    for j, c in comps.items():
        out[j] = c.epsilon(value) if query == 'eps' else c.delta(value)
    return out


# ---------------------------------------------------------------------------------------------------------------- driver
DPSGD = dict(n=60_000, m=256, b=6000, k=2350, query='eps', value=1e-5)     # benchmarks/tight_default.py
FIG_S2 = dict(n=10_000, m=200, b=118, k=1000, query='delta', value=1.0, sigma=4.0)
# the package's best attack, benchmarks/BEST_ATTACK.md (commit c40363d): default budget, and CLI budget (10x)
PACKAGE = {('wor', 2.62): (0.691515, 0.691515), ('wr', 2.62): (0.693336, 0.693336),
           ('must-ow', 2.62): (0.711548, 0.713132), ('must-ww', 2.62): (0.714627, 0.716244),
           ('wor', 1.1): (6.71996, 6.75596), ('wr', 1.1): (8.26148, 8.29948),
           ('must-ow', 1.1): (17.9276, 17.9696), ('must-ww', 1.1): (19.2956, 19.2956),
           ('wr', 4.0): (0.000317696, 0.000317696), ('must-ow', 4.0): (0.0379573, 0.0400776),
           ('must-ww', 4.0): (0.0401051, 0.0423305)}

def configs():
    "(label, dict) in priority order; dz0, h0: the screening resolution; cap: losses above go to +inf."
    out = []
    for s in ('must-ow', 'must-ww'): out.append((f'{s}@2.62', dict(DPSGD, scheme=s, sigma=2.62, dz0=0.04, h0=2e-4, cap=41.0)))
    for s in ('wor', 'wr'): out.append((f'{s}@2.62', dict(DPSGD, scheme=s, sigma=2.62, dz0=0.04, h0=2e-4, cap=41.0)))
    for s in ('must-ow', 'must-ww', 'wr'): out.append((f'{s}@S2', dict(FIG_S2, scheme=s, dz0=0.04, h0=2e-4, cap=41.0)))
    for s in ('must-ow', 'must-ww', 'wor', 'wr'):
        out.append((f'{s}@1.1', dict(DPSGD, scheme=s, sigma=1.1, dz0=0.04, h0=1e-3, cap=70.0)))
    return out

def tri_A(al, be):   # degrees
    a, b = np.radians(al), np.radians(be)
    return np.array([math.cos(a), math.sin(a)]), np.array([math.cos(b), math.sin(b)]), np.array([-1.0, 0.0])
def tri_B(r, ph):
    p = np.radians(ph)
    return np.array([1.0, 0.0]), np.array([-1.0, 0.0]), r * np.array([math.cos(p), math.sin(p)])
def tri_C(r, ph):
    p = np.radians(ph)
    return np.array([1.0, 0.0]), r * np.array([math.cos(p), math.sin(p)]), np.array([-1.0, 0.0])
TRI = {'A': tri_A, 'B': tri_B, 'C': tri_C}
REFS = {   # the collinear references
    'displacing x=+1, x\'=y=-1 (package)': ('C', (1.0, 180.0)),
    'paper x=+1, x\'=-1, y=0': ('B', (0.0, 0.0)),
    'x=+1, y=-1, x\'=0': ('C', (0.0, 0.0)),
}

def area(tri):
    x, xp, y = tri
    u, v = x - y, xp - y
    return 0.5 * abs(u[0] * v[1] - u[1] * v[0])

class Evaluator:
    def __init__(self, cfg):
        self.cfg, self.p = cfg, pmf_of(cfg['scheme'], cfg['n'], cfg['m'], cfg['b'])
        self.calls = 0
    def __call__(self, tri, level=0, rot=0.0):
        "{j: value} of the three fixed mixes, at resolution (dz0, h0)/2**level."
        c = self.cfg; self.calls += 1
        u, v = triangle_uv(*tri, c['sigma'])
        f, r = step_plds(u, v, self.p, c['dz0'] / 2 ** level, c['h0'] / 2 ** level, c['cap'], rot)
        return fixed_mixes(f, r, c['k'], c['query'], c['value'])
    def best(self, tri, level=0, rot=0.0):
        d = self(tri, level, rot); j = max(d, key=d.get); return d[j], j
    def richardson(self, tri, rot=0.0, levels=(0, 1, 2)):
        "Values at three resolutions, the Richardson value and its error estimate, the winning j."
        vals = [self.best(tri, L, rot) for L in levels]
        f2, f3 = vals[-2][0], vals[-1][0]
        return dict(values=[v for v, _ in vals], j=vals[-1][1], value=f3 + (f3 - f2) / 3, err=abs(f3 - f2) / 3)

def package_fixed(cfg):
    "must_nbdev's own fixed-mix attack (attack_budget=0): its certified lower end and its bracket."
    from must_nbdev.core.sampling import scheme_at
    from must_nbdev.accounting.account import account
    s = scheme_at(cfg['scheme'], cfg['n'], cfg['m'], b=cfg['b'])
    kw = dict(eps=cfg['value']) if cfg['query'] == 'delta' else dict(delta=cfg['value'])
    r = account(s, sigma=cfg['sigma'], steps=cfg['k'], attack_budget=0, **kw)
    return r.lower, tuple(r.attack_interval)

def grid(step_A, rs, phis_B, phis_C):
    "The screening triangles: ('A', (α, β)) deduplicated under the swap x↔x' and the reflection; B and C families."
    out, seen = [], set()
    angles = np.arange(0, 360, step_A)
    for a in angles:
        for b in angles:
            if a == b: continue
            key = min(((s * a) % 360, (s * b) % 360) if o else ((s * b) % 360, (s * a) % 360) for s in (1, -1) for o in (0, 1))
            if key in seen: continue
            seen.add(key); out.append(('A', (float(key[0]), float(key[1]))))
    out += [('B', (r, ph)) for r in rs for ph in phis_B]
    out += [('C', (r, ph)) for r in rs for ph in phis_C]
    return out

def fmt(fam, par):
    return f"{fam}({par[0]:.4g}, {par[1]:.4g})"

def describe(fam, par):
    x, xp, y = TRI[fam](*par)
    f = lambda p: f"({p[0]:+.4f},{p[1]:+.4f})"
    return f"x={f(x)} x'={f(xp)} y={f(y)}; angles x={math.degrees(math.atan2(x[1], x[0])):.2f}° " \
           f"x'={math.degrees(math.atan2(xp[1], xp[0])):.2f}° y={math.degrees(math.atan2(y[1], y[0])):.2f}°"

def run(label, cfg, priority, log):
    from scipy.optimize import minimize
    t0 = time.time(); E = Evaluator(cfg)
    res = dict(label=label, cfg=cfg)
    pk = package_fixed(cfg)
    res['package_fixed'], res['package_best'] = pk, PACKAGE[(cfg['scheme'], cfg['sigma'])]
    log(f"\n=== {label}: {cfg}\n pmf components kept: {len(E.p)}; package fixed mix (attack_budget=0): lower "
        f"{pk[0]:.9g}, bracket {pk[1]}; BEST_ATTACK.md default/CLI: {res['package_best']}")
    # 1. screening grid at level 0
    tris = grid(15 if priority else 30, (0.0, 0.25, 0.5, 0.75, 1.0), (0, 30, 60, 90), (0, 30, 60, 90, 120, 150, 180))
    scr = []
    for fam, par in tris:
        tri = TRI[fam](*par)
        v, j = E.best(tri, 0)
        scr.append((v, j, fam, par, area(tri)))
    scr.sort(key=lambda t: -t[0])
    ref0 = E.best(TRI['C'](1.0, 180.0), 0)[0]
    log(f" screening: {len(scr)} triangles at dz={cfg['dz0']}, h={cfg['h0']} ({time.time() - t0:.0f} s); "
        f"displacing pair {ref0:.9g}; top 12 (value, best j, triangle, area):")
    for v, j, fam, par, ar in scr[:12]:
        log(f"   {v:.9g}  rel {v / ref0 - 1:+.3e}  j={j:5d}  {fmt(fam, par):18s} area {ar:.3f}")
    off = [t for t in scr if t[4] > 0.05]
    log(f" best off-line (area > 0.05) on the grid: {off[0][0]:.9g} rel {off[0][0] / ref0 - 1:+.3e} "
        f"{fmt(off[0][2], off[0][3])}")
    res['screen'] = [dict(value=v, j=int(j), fam=fam, par=list(par), area=ar) for v, j, fam, par, ar in scr]
    # 2. local refinement: Nelder–Mead (family A angles / B, C as given) from the best off-line grid points
    starts, refined = off[:3 if priority else 2], []
    for v, j, fam, par, ar in starts:
        def obj(z, fam=fam):
            if fam != 'A':
                z = (float(np.clip(z[0], 0, 1)), float(z[1]))
            return -E.best(TRI[fam](*z), 0)[0]
        scale = (8.0, 8.0) if fam == 'A' else (0.15, 15.0)
        simplex = np.array([par, (par[0] + scale[0], par[1]), (par[0], par[1] + scale[1])], float)
        r = minimize(obj, np.array(par, float), method='Nelder-Mead',
                     options=dict(initial_simplex=simplex, maxfev=60 if priority else 35, xatol=0.2, fatol=1e-9))
        z = tuple(float(t) for t in r.x) if fam == 'A' else (float(np.clip(r.x[0], 0, 1)), float(r.x[1]))
        ar2 = area(TRI[fam](*z))
        refined.append((-r.fun, fam, z, ar2))
        log(f"   NM from {fmt(fam, par)} ({v:.9g}) -> {fmt(fam, z)}: {-r.fun:.9g} rel {-r.fun / ref0 - 1:+.3e}, "
            f"area {ar2:.3f}, {r.nfev} evals")
    res['refined'] = [dict(value=v, fam=f, par=list(z), area=a) for v, f, z, a in refined]
    # 3. three resolutions + Richardson: references, rotated reference, best off-line points, near-collinear probes
    finals = [(name, fam, par, 0.0) for name, (fam, par) in REFS.items()]
    finals.append(('displacing, rotated 37° in the cells', 'C', (1.0, 180.0), np.radians(37)))
    finals.append(('best off-line on the grid', off[0][2], off[0][3], 0.0))
    bestref = max(refined, key=lambda t: t[0])
    finals.append(('best after Nelder-Mead', bestref[1], bestref[2], 0.0))
    finals += [(f"near-displacing: x' 3° off y", 'A', (0.0, 177.0), 0.0),
               (f"near-displacing: x 3° off antipode", 'A', (3.0, 180.0), 0.0)]
    res['finals'] = []
    for name, fam, par, rot in finals:
        R = E.richardson(TRI[fam](*par), rot)
        R.update(name=name, fam=fam, par=list(par), area=area(TRI[fam](*par)), describe=describe(fam, par))
        res['finals'].append(R)
        log(f"   {name:40s} {fmt(fam, par):20s} j={R['j']:5d} levels {['%.10g' % t for t in R['values']]} "
            f"-> {R['value']:.10g} ± {R['err']:.2g}")
    ref = res['finals'][0]
    for R in res['finals'][1:]:
        R['rel_vs_displacing'] = R['value'] / ref['value'] - 1
        R['rel_err'] = (R['err'] + ref['err']) / ref['value']
        log(f"   rel. to displacing: {R['name']:40s} {R['rel_vs_displacing']:+.3e} (num. err {R['rel_err']:.1e})")
    res['seconds'] = time.time() - t0
    log(f" {label}: {E.calls} evaluations, {res['seconds']:.0f} s")
    return res

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--only', nargs='*', help='labels, e.g. must-ow@2.62 wr@S2')
    ap.add_argument('--out', default='offline_attack_out.txt')
    ap.add_argument('--json', default='offline_attack_results.json')
    ap.add_argument('--scan', nargs='*', help="labels: a 1-D scan x' = e^{iβ}, β → 180° (x = (1,0), y = (-1,0)) at level 1")
    ap.add_argument('--summary', action='store_true', help='print the SUMMARY table from the JSON and stop')
    a = ap.parse_args(argv)
    if a.summary: print(summary(a.json)); return
    if a.scan: return scan(a.scan, a.out)
    fh = open(a.out, 'a')
    def log(s):
        print(s, flush=True); fh.write(s + '\n'); fh.flush()
    log(f"# offline_attack.py, {time.strftime('%Y-%m-%d %H:%M:%S')}")
    try: results = json.load(open(a.json))
    except Exception: results = {}
    for i, (label, cfg) in enumerate(configs()):
        if a.only and label not in a.only: continue
        r = run(label, cfg, label in ('must-ow@2.62', 'must-ww@2.62'), log)
        results[label] = r
        json.dump(results, open(a.json, 'w'), indent=1, default=float)


def summary(path='offline_attack_results.json'):
    "The Markdown table of SUMMARY.md from the results JSON."
    res = json.load(open(path))
    q = lambda c: 'ε(δ=1e-5)' if c['query'] == 'eps' else 'δ(ε=1)'
    lines = ['| configuration | query | package fixed-mix attack (lower end; bracket) | package best (default / CLI, BEST_ATTACK.md) '
             '| displacing pair, this code (Richardson ± err) | best off-line triangle (area > 0.05) | its rel. gain | '
             'Nelder–Mead optimum (rel. gain) | num. err (rel.) | best off-line triangle |',
             '|---|---|---|---|---|---|---|---|---|---|']
    order = [l for l, _ in configs()]
    for label in order:
        if label not in res: continue
        r = res[label]; c = r['cfg']; F = {f['name']: f for f in r['finals']}
        d = F['displacing x=+1, x\'=y=-1 (package)']; o = F['best off-line on the grid']; nm = F['best after Nelder-Mead']
        pk = r['package_fixed']
        lines.append(f"| {label} | {q(c)} | {pk[0]:.7g} ({pk[1][0]:.7g}, {pk[1][1]:.7g}) | {r['package_best'][0]:.6g} / "
                     f"{r['package_best'][1]:.6g} | {d['value']:.8g} ± {d['err']:.1e} (j={d['j']}) | {o['value']:.8g} "
                     f"(j={o['j']}) | {o['rel_vs_displacing']:+.3e} | {fmt(nm['fam'], nm['par'])}, area {nm['area']:.1e} "
                     f"({nm['rel_vs_displacing']:+.1e}) | {o['rel_err']:.1e} | {fmt(o['fam'], o['par'])}: {o['describe']} |")
    return '\n'.join(lines)

def scan(labels, out):
    "Along the flattest direction seen (x' moving off y on the circle): ε at level 1 for β = 150..180°."
    fh = open(out, 'a')
    for label, cfg in configs():
        if label not in labels: continue
        E = Evaluator(cfg); ref = E.best(TRI['A'](0.0, 180.0), 1)[0]
        line = f"\n scan {label} (level 1), A(0, β) relative to A(0, 180) = {ref:.10g}:"
        for be in (150, 160, 170, 174, 177, 178, 179, 179.5, 180.5, 181, 183, 186):
            v, j = E.best(TRI['A'](0.0, float(be)), 1)
            line += f"\n   β={be:6.1f}: {v:.10g}  rel {v / ref - 1:+.3e}  j={j}"
        print(line, flush=True); fh.write(line + '\n'); fh.flush()

if __name__ == '__main__': main()
