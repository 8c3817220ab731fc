"""The best enumerated two-step adaptive attack at tiny n: a LOWER bound on the true two-step δ(ε) that every
certificate must stay above (test support, not a library module; `python benchmarks/tiny_n_gaps.py` tabulates it).

**Model** (06_adaptive, 07_triangles, 08_unlabelled_net, 09_triangle_certificate). Neighbouring datasets differ in record
0 (substitution): x in D, x′ in D′; the other n − 1 records are common. At every step the adversary picks every record's
clipped gradient in the unit disc, adaptively from the earlier outputs; the step samples a batch by the scheme (every
batch enumerated: `batches`) and outputs the batch's gradient sum plus N(0, σ² I). A *configuration* c fixes the
step's gradients: x, x′, and all the others at one point w1, or the first s others at w1 and the rest at w2 (`Config`).
Its output laws P_c (under D) and Q_c (under D′) are finite Gaussian mixtures in R^1 or R^2, and its one-step curve is
δ_c(e) = E_{P_c}[(1 − e^{e − L_c})_+], L_c = log dP_c/dQ_c, for every real e (negative too).

With the second step chosen from the first output y1, the two-step δ(ε) of the policy "c1, then the best c2 of a
family F" is ∫ dP_{c1}(y1) V(ε − L_{c1}(y1)), V(e) = max_{c2 ∈ F} δ_{c2}(e); `two_step_lower` maximises it over the
first steps c1 in F (and, in 2-D, refines the best few by a local search over the angles of x and x′). Swapping x and
x′ swaps P and Q, so the reversed orientation (test_adaptive's `_displacing_pair_two_step_delta`) is simply another
member: every family here is closed under x ↔ x′.

**Why every number here is a lower bound** (up to floating point, no quadrature error of either sign):
* one step is computed on cells (intervals of width σ/res in 1-D, squares of side σ/res in 2-D) with their exact
  Gaussian masses (ndtr): observing only the cell of the output is a post-processing, so the cells' hockey-stick
  curve is at most the true δ_c, and the same holds for the two-step policy "observe the first cell, pick c2 from it"
  (a real adaptive attack whose transcript is coarsened). The mass outside the box ±8σ is dropped (only lowers them);
* V is used only through lower bounds: each cell curve is convex and nonincreasing in α = e^e, so the tangent (in α)
  of a grid point's maximising member lies below V everywhere; V at e is the larger of the tangents at the grid points
  on either side of e (`Envelope`), floored at 0. Nothing is rounded up.
The price of the cells is a loss against the continuum that falls as res^-2: measured (tests/test_tiny_n_theory_gaps.py)
below 3e-7 for one step in 1-D at res 400 against the closed form `delta_1d_exact`, and for one step in 2-D 4e-5,
7e-6, 2e-6, 4e-7 at res 16, 40, 80, 160; a 2-D first step at res 40 (the default for reported values) loses about
6e-6 of the two-step value, the 2-D members inside the envelope and the scan (res 16) about 4e-5. The tiny-n
certificates are 2.5-5.6 % above these values (benchmarks/TINY_N_GAPS.md).
"""
import functools, itertools, math
from typing import NamedTuple
import numpy as np
from scipy import optimize, special

FIXED_SIZE = ('wor', 'wr', 'must-ow', 'must-wo', 'must-ww')

@functools.lru_cache(maxsize=None)
def batches(name: str, n: int, m: int, b: int | None = None) -> tuple:
    "Every batch of a tiny fixed-size scheme as (record indices sorted, with repeats; probability), by enumeration."
    if name == 'wor': first, second = [tuple(range(n))], list(itertools.combinations(range(n), m))
    elif name == 'wr': first, second = [tuple(range(n))], list(itertools.product(range(n), repeat=m))
    elif name == 'must-ow': first, second = list(itertools.combinations(range(n), b)), list(itertools.product(range(b), repeat=m))
    elif name == 'must-ww': first, second = list(itertools.product(range(n), repeat=b)), list(itertools.product(range(b), repeat=m))
    elif name == 'must-wo': first, second = list(itertools.product(range(n), repeat=b)), list(itertools.combinations(range(b), m))
    else: raise ValueError(f"name: a fixed-size scheme {FIXED_SIZE}, not {name!r}")
    out, p = {}, 1 / (len(first) * len(second))
    for s in first:                    # stage I (the whole dataset for WOR and WR), then stage II picks positions in it
        for pos in second:
            key = tuple(sorted(s[i] for i in pos)); out[key] = out.get(key, 0.0) + p
    return tuple(out.items())

@functools.lru_cache(maxsize=None)
def count_law(name, n, m, b, s):
    """Law of (l, k1, k2): copies of record 0, of records 1..s (at w1) and of records s+1..n−1 (at w2) in the batch,
    as three int arrays and a probability array."""
    law = {}
    for bt, p in batches(name, n, m, b):
        l = bt.count(0); k1 = sum(1 for i in bt if 1 <= i <= s); key = (l, k1, len(bt) - l - k1)
        law[key] = law.get(key, 0.0) + p
    keys = sorted(law)
    return tuple(np.array([k[i] for k in keys], float) for i in range(3)) + (np.array([law[k] for k in keys]),)

class Config(NamedTuple):
    "One step's gradients: x (record 0 in D), xp (in D′), the first s others at w1 and the rest at w2 (w2 None: all at w1)."
    x: tuple
    xp: tuple
    w1: tuple
    w2: tuple | None = None
    s: int | None = None

    @property
    def dim(self): return len(self.x)

    def collinear(self, tol=1e-9) -> bool:
        "True if every point lies on one line (a 1-D configuration, possibly written in 2-D)."
        pts = np.array([p for p in (self.x, self.xp, self.w1, self.w2) if p is not None], float)
        if pts.shape[1] == 1: return True
        d = pts - pts[0]
        return bool(np.all(np.abs(d[:, 0, None] * d[None, :, 1] - d[:, 1, None] * d[None, :, 0]) < tol))

def mixture(name, n, m, b, cfg: Config):
    "(centres of P, weights, centres of Q, weights) of one step at configuration cfg, equal centres merged."
    s = n - 1 if cfg.w2 is None else cfg.s
    l, k1, k2, w = count_law(name, n, m, b, s)
    x, xp, w1 = (np.array(v, float) for v in (cfg.x, cfg.xp, cfg.w1))
    w2 = w1 if cfg.w2 is None else np.array(cfg.w2, float)
    def merged(c):
        out = {}
        for ci, wi in zip(map(tuple, np.round(c, 12)), w): out[ci] = out.get(ci, 0.0) + wi
        return np.array(list(out), float), np.array(list(out.values()))
    common = k1[:, None] * w1 + k2[:, None] * w2
    return merged(l[:, None] * x + common) + merged(l[:, None] * xp + common)

def _cell_masses(c, sigma, edges):
    "Mass of N(c_j, σ²) in each cell [edges[i], edges[i+1]) (one axis; rows j): ndtr differences on the tail side."
    z = (edges[None, :] - c[:, None]) / sigma
    F, S = special.ndtr(np.minimum(z, 0.0)), special.ndtr(-np.maximum(z, 0.0))       # CDF left of 0, survival right
    return np.where(z[:, :-1] >= 0, S[:, :-1] - S[:, 1:], np.where(z[:, 1:] <= 0, F[:, 1:] - F[:, :-1],
                                                                    (0.5 - F[:, :-1]) + (0.5 - S[:, 1:])))

class PLD(NamedTuple):
    "A configuration's output on cells: the loss L = log(P-mass/Q-mass) of each cell, and its P- and Q-masses."
    L: np.ndarray
    p: np.ndarray
    q: np.ndarray

    def delta(self, e):
        "(δ(e), dδ/dα at α = e^e) of the cells: Σ_{L > e} (p − e^e q) and −Σ_{L > e} q."
        e = np.asarray(e, float); o = np.argsort(self.L, kind='stable')
        i = np.searchsorted(self.L[o], e, side='right')
        P = np.r_[np.cumsum(self.p[o][::-1])[::-1], 0.0]; Q = np.r_[np.cumsum(self.q[o][::-1])[::-1], 0.0]
        return P[i] - np.exp(e) * Q[i], -Q[i]

@functools.lru_cache(maxsize=8192)
def _axis(c, sigma, h, K):
    "Masses of N(c, σ²) in the cells [ih, (i+1)h), −K ≤ i < K (every centre of a step with batch size m is in [−m, m])."
    return _cell_masses(np.array([c]), sigma, h * np.arange(-K, K + 1))[0]

def pld(name, n, m, b, sigma, cfg: Config, res=None) -> PLD:
    """The cells of one step at cfg: the exact P- and Q-masses of the squares (intervals in 1-D) of side h = σ/res
    of the lattice hZ^d that meet the box ±8σ beyond the centres (res: 400 in 1-D, 40 in 2-D), and the loss
    log(P-mass/Q-mass) of each. Observing only the cell is a post-processing of the output, so every hockey-stick
    divergence of these masses, and every two-step value built on them, is at most the true one (data processing);
    the mass outside the box (< 1e-14) is dropped, which only lowers them too."""
    cP, wP, cQ, wQ = mixture(name, n, m, b, cfg)
    d = cP.shape[1]; res = res or (400 if d == 1 else 40)
    h = sigma / res; K = int(math.ceil((m + 10 * sigma) / h)); allc = np.vstack([cP, cQ])
    cut = [slice(int(math.floor((allc[:, i].min() - 8 * sigma) / h)) + K, int(math.ceil((allc[:, i].max() + 8 * sigma) / h)) + K)
           for i in range(d)]
    def masses(c, w):
        M = [np.array([_axis(float(v), sigma, h, K)[cut[i]] for v in c[:, i]]) for i in range(d)]
        return (w @ M[0]) if d == 1 else ((M[0].T * w) @ M[1]).ravel()
    p, q = masses(cP, wP), masses(cQ, wQ)
    keep = p > 0; p, q = p[keep], q[keep]
    with np.errstate(divide='ignore'): L = np.log(p) - np.log(q)          # +inf where Q has no mass
    return PLD(L, p, q)

def delta_1d_exact(name, n, m, b, sigma, cfg: Config, e):
    "δ_c(e) of a 1-D configuration in closed form: the sets {p > e^e q} by root finding, their masses by ndtr."
    cP, wP, cQ, wQ = mixture(name, n, m, b, cfg)
    cP, cQ = cP[:, 0], cQ[:, 0]
    def logratio(y):       # log p(y) − log q(y), vectorised
        y = np.atleast_1d(np.asarray(y, float))[:, None]
        return (special.logsumexp(-(y - cP) ** 2 / (2 * sigma ** 2), b=wP, axis=1)
                - special.logsumexp(-(y - cQ) ** 2 / (2 * sigma ** 2), b=wQ, axis=1))
    mass = lambda c, w, u, v: float(np.sum(w * (special.ndtr((v - c) / sigma) - special.ndtr((u - c) / sigma))))
    t = np.arange(min(cP.min(), cQ.min()) - 40 * sigma, max(cP.max(), cQ.max()) + 40 * sigma, sigma / 200)
    lt = logratio(t)
    out = []
    for ee in np.atleast_1d(e):
        g = lt - ee
        roots = [optimize.brentq(lambda y: logratio(y)[0] - ee, t[i], t[i + 1], xtol=1e-14, rtol=1e-15)
                 for i in np.flatnonzero(g[:-1] * g[1:] < 0)]
        edges = np.r_[-np.inf, roots, np.inf]
        tot = 0.0
        for u, v in zip(edges[:-1], edges[1:]):
            mid = (u + v) / 2 if np.isfinite(u) and np.isfinite(v) else (v - 1 if np.isfinite(v) else (u + 1 if np.isfinite(u) else 0.0))
            if logratio(mid)[0] > ee: tot += mass(cP, wP, u, v) - math.exp(ee) * mass(cQ, wQ, u, v)
        out.append(tot)
    return np.array(out)

class Envelope:
    """A lower bound of V(e) = max_c δ_c(e) over a family of cell curves: each is convex in α = e^e, so the tangent (in
    α) of the maximising member at a grid point is below V for every e; V at e is the larger of the tangents at the grid
    points on either side of e (never rounded up), floored at 0. The grid of e: lo..hi with spacing de."""
    def __init__(self, plds=(), lo=-20.0, hi=20.0, de=0.002):
        self.e = np.arange(lo, hi + de / 2, de); self.a = np.exp(self.e)
        self.V = np.full(self.e.shape, -np.inf); self.S = np.zeros(self.e.shape)
        for P in plds: self.add(P)

    def add(self, P: PLD):
        d, s = P.delta(self.e)
        better = d > self.V
        self.V[better], self.S[better] = d[better], s[better]

    def __call__(self, e):
        e = np.asarray(e, float); a = np.exp(e)
        j = np.clip(np.searchsorted(self.e, e, side='right') - 1, 0, len(self.e) - 1)
        j1 = np.minimum(j + 1, len(self.e) - 1)
        t0 = self.V[j] + self.S[j] * (a - self.a[j]); t1 = self.V[j1] + self.S[j1] * (a - self.a[j1])
        return np.maximum(np.maximum(t0, t1), 0.0)

def first_step(P: PLD, eps, V: Envelope) -> float:
    "Two-step δ(ε) of the policy: first step on P's cells, then the best member of V's family given the first cell."
    return float(np.sum(P.p * V(eps - P.L)))

def one_step_delta(name, n, m, b, sigma, cfg: Config, e, res=160):
    """δ_c(e) of one step: in 1-D the closed form (`delta_1d_exact`); in 2-D the cells of side σ/res, a lower bound
    within about 4e-7 of the true value at res 160 (the loss falls as res^-2: 2e-6 at res 80)."""
    if cfg.dim == 1: return delta_1d_exact(name, n, m, b, sigma, cfg, e)
    return pld(name, n, m, b, sigma, cfg, res).delta(e)[0]

# --- families ----------------------------------------------------------------------------------------------------

def _grid(k): return [float(v) for v in np.round(np.linspace(-1, 1, k), 12)]

def family_1d(k=21):
    "x, x′ and all the others at one point w, each on a grid of k values in [−1, 1] (one of each mirror pair)."
    seen, out = set(), []
    for x, xp, w in itertools.product(_grid(k), repeat=3):
        key = (round(x - w, 9), round(xp - w, 9))
        if key in seen or (-key[0], -key[1]) in seen or x == xp: continue
        seen.add(key); out.append(Config((x,), (xp,), (w,)))
    return out

def family_1d_two(n, k=5):
    "x, x′, w1 (the first s others), w2 (the rest) on a grid of k values in [−1, 1], every split 1 ≤ s ≤ n − 2."
    out = []
    for s in range(1, n - 1):
        seen = set()
        for x, xp, w1, w2 in itertools.product(_grid(k), repeat=4):
            key = (round(x - w2, 9), round(xp - w2, 9), round(w1 - w2, 9))
            if key in seen or tuple(-v for v in key) in seen or x == xp or w1 == w2: continue
            seen.add(key); out.append(Config((x,), (xp,), (w1,), (w2,), s))
    return out

def circle(angle_x, angle_xp, angle_w=math.pi) -> Config:
    "The triangle with every vertex on the unit circle: x, x′ and all the others at the given angles (radians)."
    pt = lambda t: (math.cos(t), math.sin(t))
    return Config(pt(angle_x), pt(angle_xp), pt(angle_w))

def family_2d(k=24):
    """Off-line triangles on the unit circle: the others at w = (−1, 0) (rotations change nothing), x and x′ at the
    angles 2πi/k (one of each mirror pair; the collinear ones are the 1-D family's)."""
    seen, out = set(), []
    for i, j in itertools.product(range(k), repeat=2):
        if i == j or (-i % k, -j % k) in seen: continue
        cfg = circle(2 * math.pi * i / k, 2 * math.pi * j / k)
        if cfg.collinear(): continue
        seen.add((i, j)); out.append(cfg)
    return out

def displacing_pair(dim=1):
    "x ↦ +1, x′ and the others ↦ −1, and its reverse: the family of test_adaptive's `_displacing_pair_two_step_delta`."
    z = (0.0,) * (dim - 1)
    return [Config((1.0,) + z, (-1.0,) + z, (-1.0,) + z), Config((-1.0,) + z, (1.0,) + z, (-1.0,) + z)]

FAMILIES = {   # name: (1-D grid, 1-D grid with the others in two groups (0: none), angles of the 2-D triangles)
    'quick': (11, 0, 12), 'default': (21, 5, 24)}

@functools.lru_cache(maxsize=None)
def family(n, kind='default') -> tuple:
    "A preset family (`FAMILIES`): the 1-D configurations, the two-group ones, the off-line triangles on the circle."
    k1, k_two, k2 = FAMILIES[kind]
    return tuple(family_1d(k1) + (family_1d_two(n, k_two) if k_two and n > 2 else []) + family_2d(k2))

class TwoStep(NamedTuple):
    value: float              # best two-step δ(ε) found (first and second steps from the family; refined 2-D first steps)
    config: Config            # the first step that reaches it
    collinear: float          # best two-step δ(ε) with every step collinear (the family's 1-D members)
    collinear_config: Config
    members: int              # configurations in the family

@functools.lru_cache(maxsize=64)
def _envelopes(name, n, m, b, sigma, configs: tuple, res1, res2):
    "(V over the family, V over its collinear members, the cells of its 1-D members): ε plays no part."
    Vall, Vline, cells = Envelope(), Envelope(), {}
    for c in configs:
        P = pld(name, n, m, b, sigma, c, res1 if c.dim == 1 else res2)
        Vall.add(P)
        if c.collinear(): Vline.add(P)
        if c.dim == 1: cells[c] = P                          # 1-D cells are small: kept for the first steps
    return Vall, Vline, cells

def _refine(name, n, m, b, sigma, eps, V, c: Config, res, maxfev=80) -> Config:
    "A local search (Nelder–Mead) over the angles of x and x′ of a 2-D first step, the others kept in place."
    from scipy.optimize import minimize
    r, rp = math.hypot(*c.x), math.hypot(*c.xp)
    at = lambda t: c._replace(x=(r * math.cos(t[0]), r * math.sin(t[0])), xp=(rp * math.cos(t[1]), rp * math.sin(t[1])))
    t0 = [math.atan2(c.x[1], c.x[0]), math.atan2(c.xp[1], c.xp[0])]
    f = lambda t: -first_step(pld(name, n, m, b, sigma, at(t), res), eps, V)
    out = minimize(f, t0, method='Nelder-Mead', options=dict(maxfev=maxfev, xatol=1e-3, fatol=1e-9,
                                                           initial_simplex=[t0, [t0[0] + 0.1, t0[1]], [t0[0], t0[1] + 0.1]]))
    return at(out.x)

def two_step_lower(name, n, m, b, sigma, eps, configs=None, first=None, *, refine=2, res1=400, res2=16,
                   res_final=40) -> TwoStep:
    """The best two-step adaptive δ(ε) over a finite family of real configurations (`configs`, default
    `family(n)`), the second step chosen from the first step's loss (the envelope V of the family), and the best with
    every step collinear. `first` fixes the first steps to try (default: the family, with the best `refine` 2-D ones
    then refined by a local search over their angles). 1-D members are on cells of width σ/res1; 2-D members on
    squares of side σ/res2 inside V and for the scan, σ/res_final for the 2-D first steps reported. Every value is a
    lower bound on the true two-step optimum (module doc)."""
    configs = tuple(family(n) if configs is None else configs)
    Vall, Vline, cells = _envelopes(name, n, m, b, sigma, configs, res1, res2)
    given = first is not None
    first = list(configs if first is None else first)
    best, best_line, scan = (-1.0, None), (-1.0, None), []
    for c in first:
        if c.dim == 1:
            P = cells.get(c) or pld(name, n, m, b, sigma, c, res1)
            v = first_step(P, eps, Vall)
            if any(k.collinear() for k in configs):
                v1 = first_step(P, eps, Vline)
                if v1 > best_line[0]: best_line = (v1, c)
        else:
            if c.collinear() and not given: continue         # in 2-D only the off-line ones: the 1-D ones are above
            v = first_step(pld(name, n, m, b, sigma, c, res_final if given else res2), eps, Vall)
            scan.append((v, c))
        if v > best[0]: best = (v, c)
    if not given and scan:
        for _, c in sorted(scan, key=lambda z: -z[0])[:refine]:
            for cc in (c, _refine(name, n, m, b, sigma, eps, Vall, c, res=12)):
                v = first_step(pld(name, n, m, b, sigma, cc, res_final), eps, Vall)
                if v > best[0]: best = (v, cc)
    return TwoStep(best[0], best[1], best_line[0], best_line[1], len(configs))

@functools.lru_cache(maxsize=None)
def best_attack(name, n, m, b, sigma, eps, kind='quick') -> float:
    "δ(ε) of the best enumerated two-step adaptive attack (`two_step_lower` over `family(n, kind)`), cached per process."
    return two_step_lower(name, n, m, b, sigma, eps, configs=family(n, kind)).value
