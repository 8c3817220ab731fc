"""The best enumerated k-step adaptive attack at tiny n (k = 3 and beyond): a LOWER bound on the true k-step δ(ε)
that every certificate must stay above (test support, not a library module; built on exact_two_step, and run over
the tiny schemes by research/tight_default/three_step/three_step.py).

Model: as in exact_two_step (substitution of record 0; every batch enumerated; one step's output on cells of width σ/400
in 1-D, squares of side σ/40 in 2-D, with exact Gaussian masses; a configuration c has cell masses p (under D), q (under
D′) and losses L = log(p/q) ∈ (−inf, +inf]; cells with p = 0 are dropped, L = +inf where q = 0).

Construction (α = e^e throughout; a "lower line" at grid point e_i is an affine function of α, value v_i at α_i = e^{e_i}
and slope s_i, that lies below the hockey-stick curve δ_π(α) of one REAL adaptive policy π at EVERY α ≥ 0):
* Level 1 (the last step): for each member c of the family and each grid point e_i, the tangent at α_i of c's cell curve
  δ_c(α) = Σ_{L>e} (p − α q), which is convex in α and ≤ the true δ_c (post-processing). The level keeps, per grid
  point, the tangent with the largest value there (`Lower`). Evaluated at any e it returns max(t0, t1, 0) with t0, t1 the
  stored lines at the grid points on either side of e (ANY stored line would be sound; the neighbours are the tight
  ones), never rounded up. Since each stored line is below its member's δ (≥ 0), max(line, 0) ≤ δ_member as well.
* Level j+1: a first step c (cells p, L) followed, in each cell, by the policy π_g whose line V_j picked at e − L. The
  hockey-stick identity of adaptive composition, Σ_cells Σ_y (p·P_g(y) − α q·Q_g(y))_+ = Σ_cells p · δ_{π_g}(α e^{−L}),
  gives the real policy's value. FIX the choices made at e_i (per cell: which stored line, and whether the zero floor
  is active); then f_i(α) = Σ_cells p · max(line_g(α e^{−L}), 0) is convex in α (a positive sum of maxima of affine
  functions of α) and ≤ δ_{fixed policy}(α) for every α (term by term: max(line_g, 0) ≤ δ_{π_g}, evaluated at α e^{−L}).
  Its value at α_i is W_c(e_i) = Σ p V_j(e_i − L) and a subgradient there is Σ_cells p · 1[line_g > 0] · slope_g · e^{−L}
  (0 is a valid subgradient at a kink, since slope_g ≤ 0): the tangent line at α_i is below f_i ≤ δ_{policy} for all α,
  so it is a valid lower line for level j+1. Cells with L = +inf (q = 0): the second argument is α·0 = 0, the term
  p · max(line_g(0), 0) is constant in α, slope 0 (e^{−inf} = 0 is used, no inf·0). Level j+1 keeps per grid point the
  best line over the first steps c of the family (and the null step x = x′, P = Q, L = 0: a real configuration).
* The k-step value at ε: max over the first steps c of Σ_cells p · V_{k−1}(ε − L) — the value at α = e^ε of a real
  k-step adaptive policy, evaluated through lines below it.
* Cell MERGING (speed, only for building levels ≥ 2): the first step's cells are grouped by their loss (bins of width
  0.002 for |L| ≤ 8, 0.05 beyond, L = +inf on its own); observing only the group is a further post-processing, so the
  merged (Σp, Σq, log(Σp/Σq)) is again a real (coarser) first step. The k-step's last (outermost) sum uses all cells.
* 2-D first step (outermost level only): off-line triangles family_2d(12) at squares of side σ/16, the best two refined
  by exact_two_step._refine (Nelder–Mead over the angles of x, x′, squares σ/12), reported at squares σ/40; the inner
  levels are the 1-D ones.
Hence every reported lower bound is the value of a real adaptive k-step attack (coarsened transcript) evaluated
through lines that are below it: up to floating point, no quadrature error of either sign, nothing rounded up.
"""
import functools
import numpy as np
import exact_two_step as E

NULL = (np.array([1.0]), np.array([0.0]))          # the null step x = x′: P = Q, one group with L = 0


class Lower:
    """Per grid point e_i one lower line in α (value V[i] at α_i, slope S[i] = d/dα), each below a real policy's δ for
    every α ≥ 0. Evaluation: max of the two neighbouring lines and 0 (never rounded up)."""
    def __init__(self, lo, hi, de):
        self.lo, self.de = lo, de
        self.e = lo + de * np.arange(int(round((hi - lo) / de)) + 1); self.a = np.exp(self.e)
        self.V = np.full(self.e.shape, -np.inf); self.S = np.zeros(self.e.shape)

    def add(self, v, s):
        better = v > self.V
        self.V[better], self.S[better] = v[better], s[better]

    def eval(self, e):
        "(value, slope in α of the chosen line or 0 where the floor is active) at every e (e may be −inf)."
        e = np.asarray(e, float); a = np.exp(e)                        # exp(−inf) = 0
        N = len(self.e)
        j = np.clip(np.floor((np.clip(e, self.lo - 1, self.e[-1] + 1) - self.lo) / self.de), 0, N - 1).astype(np.int64)
        j1 = np.minimum(j + 1, N - 1)
        t0 = self.V[j] + self.S[j] * (a - self.a[j]); t1 = self.V[j1] + self.S[j1] * (a - self.a[j1])
        pick = t1 > t0
        t = np.where(pick, t1, t0); s = np.where(pick, self.S[j1], self.S[j])
        pos = t > 0
        return np.where(pos, t, 0.0), np.where(pos, s, 0.0)

    def __call__(self, e): return self.eval(e)[0]


def merge(P: E.PLD, w=0.002, T=8.0, wt=0.05):
    "Cells grouped by loss (a post-processing): (p, L) of the groups; L = +inf cells form their own group."
    fin = np.isfinite(P.L)
    edges = np.unique(np.r_[np.arange(-60.0, -T, wt), np.arange(-T, T, w), np.arange(T, 60.0 + wt, wt)])
    k = np.digitize(P.L[fin], edges)
    n = len(edges) + 1
    p = np.bincount(k, P.p[fin], n); q = np.bincount(k, P.q[fin], n)
    keep = p > 0
    p, q = p[keep], q[keep]
    L = np.log(p) - np.log(q)
    if (~fin).any():
        p = np.r_[p, P.p[~fin].sum()]; L = np.r_[L, np.inf]
    return p, L


def level1(plds, lo=-20.0, hi=20.0, de=0.002):
    V = Lower(lo, hi, de)
    for P in plds: V.add(*P.delta(V.e))
    return V


def screen(Vj, firsts, top=4, lo=-8.0, hi=8.0, de=0.05):
    """Indices of the first steps worth the fine pass (speed only; any subset is sound): those among the `top` best
    W_c(e) = Σ p V_j(e − L) at some point of a coarse grid (their groups re-merged by 0.02)."""
    e = np.arange(lo, hi + de / 2, de); W = []
    for p, L in firsts:
        P = E.PLD(L, p, p * np.exp(-L)); pc, Lc = merge(P, 0.02) if len(p) > 1 else (p, L)
        W.append(Vj(e[:, None] - Lc[None, :]) @ pc)
    W = np.array(W)
    keep = set(np.argsort(-W, axis=0)[:top].ravel().tolist())
    return sorted(keep)


def level_up(Vj, firsts, lo=-10.0, hi=10.0, de=0.004, chunk=400, top=4):
    """The next level: per grid point the best tangent (value, subgradient in α) of f_i over the first steps (p, L)
    (top > 0: only those `screen` keeps; top = 0: all)."""
    V = Lower(lo, hi, de)
    if top: firsts = [firsts[i] for i in screen(Vj, firsts, top)]
    V.kept = len(firsts)
    for p, L in firsts:
        eL = np.exp(-L)                                                # 0 for L = +inf
        for i0 in range(0, len(V.e), chunk):
            e = V.e[i0:i0 + chunk]
            val, sl = Vj.eval(e[:, None] - L[None, :])
            v = val @ p; s = (sl * eL[None, :]) @ p
            better = v > V.V[i0:i0 + chunk]
            V.V[i0:i0 + chunk][better] = v[better]; V.S[i0:i0 + chunk][better] = s[better]
    return V


def outer(Vj, P: E.PLD, eps):
    "k-step value of 'first step on P's cells, then the policies of Vj': Σ p Vj(ε − L) (all cells)."
    return float(np.sum(P.p * Vj(eps - P.L)))


@functools.lru_cache(maxsize=None)
def plds_1d(name, n, m, b, sigma, configs):
    return [E.pld(name, n, m, b, sigma, c, 400) for c in configs]


@functools.lru_cache(maxsize=None)
def levels(name, n, m, b, sigma, configs, k, null=True, de2=0.004, w=0.002, top=4):
    "[V_1, ..., V_{k−1}] for a family (tuple of 1-D configs); ε plays no part."
    plds = plds_1d(name, n, m, b, sigma, configs)
    Vs = [level1(plds)]
    if k > 2:
        firsts = [merge(P, w) for P in plds] + ([NULL] if null else [])
        for _ in range(k - 2): Vs.append(level_up(Vs[-1], firsts, de=de2, top=top))
    return Vs


def k_step_1d(name, n, m, b, sigma, eps, configs, k, null=True, **kw):
    "(value, best first step) of the best k-step policy over a 1-D family; k = 1: the best one-step cell curve."
    configs = tuple(configs); plds = plds_1d(name, n, m, b, sigma, configs)
    if k == 1:
        vals = [float(P.delta(eps)[0]) for P in plds]; i = int(np.argmax(vals)); return vals[i], configs[i]
    Vk = levels(name, n, m, b, sigma, configs, k, null, **kw)[-1]
    vals = [outer(Vk, P, eps) for P in plds]
    if null: vals.append(float(Vk(np.array([eps]))[0]))
    i = int(np.argmax(vals))
    return vals[i], (configs[i] if i < len(configs) else 'null')


def k_step_2d_first(name, n, m, b, sigma, eps, configs, k, refine=2, res_scan=16, res_final=40):
    "Best off-line first step (family_2d(12), refined) followed by the 1-D levels: (value, config)."
    Vk = levels(name, n, m, b, sigma, tuple(configs), k)[-1]
    scan = [(outer(Vk, E.pld(name, n, m, b, sigma, c, res_scan), eps), c) for c in E.family_2d(12)]
    best = (-1.0, None)
    for _, c in sorted(scan, key=lambda z: -z[0])[:refine]:
        for cc in (c, E._refine(name, n, m, b, sigma, eps, Vk, c, res=12)):
            v = outer(Vk, E.pld(name, n, m, b, sigma, cc, res_final), eps)
            if v > best[0]: best = (v, cc)
    return best
