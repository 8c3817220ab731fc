"""Round-off claims of the certificates against 60-digit mpmath references.

The certified bounds are argued in prose to survive floating-point rounding: the 64u log-difference slack of
`hs_gauss`/`hs_mixture` and the right-side Newton root (04_unlabelled), the FFT round-off charges built on
`UNIT_ROUNDOFF` (02_compose, 06_adaptive), `log_ndtr`'s accuracy, and the 1e-11 PLD slack. At ε = 0, tiny n and
collinear (1-D) configurations the margins are 1e-11 relative or less, so these tests compare the library's values with
mpmath at 60 digits and assert the one-sided claims without any tolerance below the exact value.

`gaussian_profile`'s "cancellation-free" claim was recorded here as a strict xfail until the profile integrated Mills'
ratio at small θ; no claim is known to fail now."""
import math
import mpmath as mp
import numpy as np
import pytest
from scipy import fft as sfft, special
from must_nbdev.core.definitions import gaussian_profile, hockey_stick
from must_nbdev.core.sampling import make_scheme, occurrence_pmf
from must_nbdev.accounting.compose import UNIT_ROUNDOFF, PRECISION_DTYPES, compose_plds
from must_nbdev.accounting.adaptive import fft_round_off
from must_nbdev.accounting.dominating import dominating_labels, scheme_gaussian_pld
from must_nbdev.accounting.pld import DiscretePLD
from must_nbdev.accounting.unlabelled import _root, hs_gauss, hs_mixture, labelled_profile
from must_nbdev.accounting.account import account

DPS = 60                       # digits of every mpmath reference (set locally: other test files set mp.mp.dps too)
U64 = 2.0 ** -53               # unit round-off of float64
ULPS = 8                       # "a few units in the last place" (04_unlabelled) states no number: 8 ulps asserted


def _ulp(x: float) -> float:
    "The spacing of float64 at |x| (the smallest subnormal at 0)."
    return float(np.spacing(abs(x))) if x != 0 else 5e-324


# ---------------------------------------------------------------- mpmath references
def _mp_log_ndtr(x: float):
    "log Φ(x), 60 digits; from the upper tail for x > 0 (log1p: log Φ(40) ≈ −4e-350 is lost by log(Φ) at 60 digits)."
    X = mp.mpf(x)
    return mp.log(mp.ncdf(X)) if X <= 0 else mp.log1p(-mp.ncdf(-X))

def _mp_delta_G(gamma: float, theta: float):
    "δ_G(γ; θ) = H_γ(N(θ, 1) || N(0, 1)) = Φ(θ/2 − log γ/θ) − γ Φ(−θ/2 − log γ/θ), exact in the float inputs."
    G, T = mp.mpf(gamma), mp.mpf(theta)
    return mp.ncdf(T / 2 - mp.log(G) / T) - G * mp.ncdf(-T / 2 - mp.log(G) / T)

def _mpf(x):
    "x as an mpf, exactly (np.longdouble too: mp.mpf would round it through float)."
    if isinstance(x, np.longdouble):
        m, e = np.frexp(x)
        return mp.ldexp(mp.mpf(int(np.ldexp(m, 64))), int(e) - 64)
    return mp.mpf(float(x))

def _mp_newton_root(B, T):
    "The root t* of Σ_l e^{B_l + T_l t} = 1 (log-sum increasing and convex in t), 60 digits: Newton from the right."
    f = lambda t: mp.log(mp.fsum(mp.exp(b + a * t) for b, a in zip(B, T)))
    t = min(-b / a for b, a in zip(B, T))                       # right of the root: one term alone reaches 1
    for _ in range(400):
        e = [mp.exp(b + a * t) for b, a in zip(B, T)]
        s = mp.log(mp.fsum(e)) * mp.fsum(e) / mp.fsum(a * x for a, x in zip(T, e))
        t -= s
        if abs(s) <= mp.mpf(10) ** (8 - DPS) * (1 + abs(t)): break
    tol = mp.mpf(10) ** (20 - DPS) * (1 + abs(t))
    assert f(t - tol) < 0 < f(t + tol), "the reference root is not bracketed"
    return t

def _mp_root(base, th):
    "The exact root of `_root`'s equation for the float rows base_l, θ_l (−inf bases: absent terms)."
    keep = np.isfinite(base)
    return _mp_newton_root([_mpf(b) for b in base[keep]], [_mpf(t) for t in th[keep]])

def _mp_hs_mixture(w, th, gamma: float):
    "H_γ(Σ_l w_l N(θ_l, 1) || N(0, 1)) = Σ_l w_l Φ(θ_l − t*) − γ Φ(−t*), t* the likelihood ratio's root at γ."
    G = _mpf(gamma)
    live = [(_mpf(x), _mpf(t)) for x, t in zip(w, th) if x > 0]
    t = _mp_newton_root([mp.log(x) - a * a / 2 - mp.log(G) for x, a in live], [a for _, a in live])
    return mp.fsum(x * mp.ncdf(a - t) for x, a in live) - G * mp.ncdf(-t)

def _mp_pair_delta(P, Q, sigma: float, eps: float):
    "δ(ε) = ∫(p − e^ε q)_+ of two 1-D Gaussian mixtures [(mean, weight)] with one σ: crossings bisected, exact CDFs."
    s, E = mp.mpf(sigma), mp.mpf(eps)
    dens = lambda M, t: mp.fsum(w * mp.exp(-(t - m) ** 2 / (2 * s * s)) for m, w in M)
    D = lambda t: mp.log(dens(P, t)) - mp.log(dens(Q, t)) - E
    lo = min(m for m, _ in P + Q) - 40 * s; hi = max(m for m, _ in P + Q) + 40 * s
    grid = [lo + (hi - lo) * i / 400 for i in range(401)]
    sign = [D(t) > 0 for t in grid]
    cuts = []
    for a, b, sa, sb in zip(grid, grid[1:], sign, sign[1:]):
        if sa == sb: continue
        for _ in range(120):                                   # 1e-36 in t: δ is flat there (second order)
            c = (a + b) / 2
            a, b = (c, b) if (D(c) > 0) == sa else (a, c)
        cuts.append((a + b) / 2)
    edges = [-mp.inf] + cuts + [mp.inf]
    mass = lambda M, a, b: mp.fsum(w * (mp.ncdf((b - m) / s) - mp.ncdf((a - m) / s)) for m, w in M)
    return mp.fsum(mass(P, a, b) - mp.exp(E) * mass(Q, a, b)
                   for i, (a, b) in enumerate(zip(edges, edges[1:])) if sign[0] == (i % 2 == 0))

def _mp_occurrence(name: str, n: int, m: int, b):
    "How often one record appears in a batch, {l: P(l)}, from the schemes' definitions (independent of core.sampling)."
    N = mp.mpf(n)
    binom = lambda k, p, l: mp.binomial(k, l) * p ** l * (1 - p) ** (k - l)
    if name in ('poisson', 'wor'): return {0: 1 - m / N, 1: m / N}
    if name in ('wr', 'must-wo'): return {l: binom(m, 1 / N, l) for l in range(m + 1)}   # MUST.wo has WR(m)'s law
    if name == 'must-ow':                                      # WOR b of n, then WR m of the b
        d = {l: b / N * binom(m, 1 / mp.mpf(b), l) for l in range(m + 1)}; d[0] += 1 - b / N; return d
    if name == 'must-ww':                                      # WR b of n (slots), then WR m of the b slots
        return {l: mp.fsum(binom(b, 1 / N, j) * binom(m, mp.mpf(j) / b, l) for j in range(b + 1))
                for l in range(m + 1)}
    raise ValueError(name)


# ---------------------------------------------------------------- 2. log_ndtr to a few ulps
_LOG_NDTR_X = np.unique(np.r_[np.linspace(-40, 40, 321), -np.geomspace(1e-8, 40, 60), np.geomspace(1e-8, 40, 60),
                              0.0, 1e-300, -1e-300, 1e-16, -1e-16, 1e-8, -1e-8, -20.0, np.nextafter(-20.0, -21.0),
                              np.nextafter(-20.0, 0.0), 6.0, np.nextafter(6.0, 7.0), -5.0, 5.0, -37.5, 37.5])

def test_log_ndtr_is_within_8_ulps_of_mpmath_on_the_left_half_line():
    "04_unlabelled's hs_gauss prose: `log_ndtr` is accurate to a few ulps (no number stated: 8); x in [-40, 0]."
    worst = 0.0
    with mp.workdps(DPS):
        for x in _LOG_NDTR_X[_LOG_NDTR_X <= 0]:
            exact = _mp_log_ndtr(x)
            err = float(abs(mp.mpf(float(special.log_ndtr(x))) - exact)) / _ulp(float(exact))
            worst = max(worst, err)
            assert err <= ULPS, (x, float(special.log_ndtr(x)), float(exact), err)
    assert worst > 0.5              # the grid reaches arguments where scipy is not correctly rounded (measured 2.5)

def test_log_ndtr_error_is_within_8u_times_1_plus_its_magnitude_on_minus_40_to_40():
    "04_unlabelled: the 64u slack is 64 eps (1 + |l_a| + |l_b|), so log_ndtr's error must be O(u (1 + |log Φ|))."
    with mp.workdps(DPS):
        for x in _LOG_NDTR_X:
            exact = _mp_log_ndtr(x)
            err = float(abs(mp.mpf(float(special.log_ndtr(x))) - exact))
            assert err <= ULPS * U64 * (1 + abs(float(exact))), (x, float(special.log_ndtr(x)), float(exact))

def test_ndtr_error_is_within_the_triangle_members_charge_on_minus_40_to_40():
    "07_triangles' cell masses: `ndtr` errs by at most NDTR_ULPS·u(1 + |log Φ|)Φ, and by SUBNORMAL below it."
    from must_nbdev.accounting.triangles import NDTR_ULPS, SUBNORMAL
    xs = np.unique(np.r_[_LOG_NDTR_X, np.linspace(-38.5, 8.5, 4001)])
    worst = 0.0
    with mp.workdps(DPS):
        for x in xs:
            exact, got = mp.ncdf(mp.mpf(float(x))), mp.mpf(float(special.ndtr(x)))
            if exact < SUBNORMAL: assert abs(got - exact) <= SUBNORMAL, x; continue
            ratio = float(abs(got - exact) / (exact * (1 + abs(mp.log(exact))))) / U64
            worst = max(worst, ratio)
            assert ratio <= NDTR_ULPS, (x, ratio)
    assert worst > 1                # the grid reaches arguments where ndtr is a few ulps off (measured 3.9)

def _root_rows():
    "(base, θ) rows for `_root`: random mixtures, and adversarial ones (tiny weights, equal θ, θ near 0, γ = 1)."
    rng, rows = np.random.default_rng(20240611), []
    for _ in range(60):
        L = int(rng.integers(1, 6))
        th = rng.uniform(0.01, 5, L) if rng.random() < 0.5 else np.full(L, rng.uniform(0.01, 5))   # equal θ: collinear
        w = rng.dirichlet(np.ones(L)) * rng.choice([1.0, 1e-3, 1e-9])
        g = 1.0 if rng.random() < 0.3 else math.exp(rng.uniform(-3, 30))
        rows.append((np.log(w) - th * th / 2 - math.log(g), th))
    for th0 in (1e-8, 1e-4, 0.5, 10.0, 30.0):
        for g in (1.0, 1 + 2 ** -52, math.exp(1e-8), 0.5, math.exp(50)):     # ε = 0, one ulp above, ε = 1e-8
            for w in (np.array([1.0]), np.array([0.5, 0.5]), np.array([1e-300, 1.0]), np.array([1e-20] * 3),
                      np.array([0.999999, 1e-6])):
                for th in (np.full(len(w), th0), th0 * np.arange(1, len(w) + 1), th0 * (1 + 1e-12 * np.arange(len(w)))):
                    rows.append((np.log(w) - th * th / 2 - math.log(g), th))
    return rows

_ROOT_ROWS = _root_rows()

@pytest.fixture(scope='module')
def newton_and_exact_roots():
    "(base, θ, the library's root, the mpmath root) per row."
    out = []
    with mp.workdps(DPS):
        for base, th in _ROOT_ROWS:
            t = float(_root(base[:, None].copy(), th[:, None].astype(float))[0])
            out.append((base, th, t, _mp_root(base, th)))
    return out

def test_newton_root_is_never_left_of_the_mpmath_root(newton_and_exact_roots):
    "04_unlabelled, _root: 'Newton from the right ... the result is >= the root'."
    with mp.workdps(DPS):
        left = [(t, float(r)) for _, _, t, r in newton_and_exact_roots if mp.mpf(t) < r]
    assert not left, f"{len(left)} of {len(newton_and_exact_roots)} roots left of t*, e.g. {left[:3]}"

def test_newton_root_is_within_its_conditioning_of_the_mpmath_root(newton_and_exact_roots):
    "04_unlabelled, hs_mixture: the Newton root is accurate (only its side is charged): |t − t*| <= 4 u (1 + |z|)/θ_min."
    with mp.workdps(DPS):
        for base, th, t, r in newton_and_exact_roots:
            fin = np.isfinite(base)
            # f(t) = log Σ e^{z_l}, z_l = base_l + θ_l t, is known to u (1 + max|z terms|); f' >= θ_min turns it into t
            scale = U64 * (1 + np.max(np.abs(base[fin]) + np.abs(th[fin] * float(r)))) / th[fin].min()
            # the root is moved right by 8 eps (1 + |z|)/θ_min and one ulp (04_unlabelled), on top of Newton's error
            assert abs(float(mp.mpf(t) - r)) <= 24 * scale + 3 * _ulp(float(r)), (base, th, t, float(r))


# ---------------------------------------------------------------- 1/4. the 64u slack of hs_gauss and hs_mixture
_GAUSS_THETA = (1e-8, 1e-6, 1e-4, 1e-2, 0.1, 0.76, 1.0, 2.0, 5.0, 6.5, 8.0, 10.0, 10.5, 11.5, 12.0, 13.5, 20.0, 37.0)
_GAUSS_LOG_GAMMA = (0.0, 2.0 ** -52, -2.0 ** -53, 1e-8, 1e-3, 0.5, 1.0, -1.0, -5.0, 5.0, 20.0)   # 0: ε = 0

def test_hs_gauss_is_never_below_the_mpmath_delta_G():
    "04_unlabelled, hs_gauss: an upper bound on δ_G(γ; θ), round-off included, at ε = 0 (γ = 1) and near it."
    below = []
    with mp.workdps(DPS):
        for th in _GAUSS_THETA:
            for lg in _GAUSS_LOG_GAMMA:
                g = math.exp(lg)
                v, exact = float(hs_gauss(np.array([g]), th)[0]), _mp_delta_G(g, th)
                if exact >= 1e-300 and mp.mpf(v) < exact: below.append((th, g, v, float(exact)))   # not underflow
    assert not below, below

def test_hs_gauss_is_within_1e_6_of_the_mpmath_delta_G():
    "04_unlabelled, hs_gauss: the 64u charge is small: within 1e-6 relative, or 1e-13 absolute (the charge itself)."
    with mp.workdps(DPS):
        for th in _GAUSS_THETA:
            for lg in _GAUSS_LOG_GAMMA:
                g = math.exp(lg)
                v, exact = float(hs_gauss(np.array([g]), th)[0]), _mp_delta_G(g, th)
                if exact < 1e-300:                                # float64 cannot hold it (θ = 1e-8, γ = e^{1e-3}: e^-5e9)
                    assert 0.0 <= v <= 1e-300, (th, g, v); continue
                # (at θ = 1e-8, δ ≈ 4e-9 and the 64u charge is ~2e-14 absolute: 4e-6 relative)
                assert mp.mpf(v) <= exact * (1 + mp.mpf(1e-6)) + mp.mpf(1e-13), (th, g, v, float(exact))
                assert mp.mpf(v) >= exact * (1 - mp.mpf(1e-14)), (th, g, v, float(exact))   # never far below

def _extreme_row(w, th, g):
    "θ = 1e-8 with mass 3e-20 or γ = e^50: t* ~ 1e9-1e10, |log Φ(−t*)| ~ 1e19 (the rows checked apart below)."
    return th.min() == 1e-8 and (w.sum() < 1e-19 or g > 1e20)

def _mixture_rows():
    "(w, θ, γ) rows for hs_mixture: random, tiny weights, equal/collinear θ, θ near 0, γ = 1 (ε = 0)."
    rng, rows = np.random.default_rng(7), []
    for _ in range(40):
        L = int(rng.integers(1, 6))
        th = rng.uniform(0.01, 12, L) if rng.random() < 0.5 else np.full(L, rng.uniform(0.01, 12))
        w = rng.dirichlet(np.ones(L)) * rng.choice([1.0, 1e-3, 1e-9])
        rows.append((w, th, 1.0 if rng.random() < 0.3 else math.exp(rng.uniform(-3, 40))))
    for th0 in (1e-8, 1e-4, 0.5, 2.0, 10.0, 30.0):
        for g in (1.0, 1 + 2 ** -52, 0.5, math.exp(50)):
            for w in (np.array([1.0]), np.array([0.5, 0.5]), np.array([1e-300, 1.0]), np.array([1e-20] * 3),
                      np.array([0.999999, 1e-6])):
                for th in (np.full(len(w), th0), th0 * np.arange(1, len(w) + 1)):
                    if not _extreme_row(w, th, g): rows.append((w, th, g))
    rows += [(np.array([2.448299614075561e-232]), np.array([40.0]), 1.0),   # the worst shortfall found (5.5e-14)
             (np.array([1e-200]), np.array([45.0]), 1.0), (np.array([3e-300]), np.array([50.0]), 1e-5)]
    return rows

@pytest.fixture(scope='module')
def mixture_values():
    "(w, θ, γ, hs_mixture's value, the mpmath value) per row."
    with mp.workdps(DPS):
        return [(w, th, g, float(hs_mixture(np.array([g]), w[None, :], th)[0]), _mp_hs_mixture(w, th, g))
                for w, th, g in _mixture_rows()]

def test_hs_mixture_is_never_below_the_mpmath_hockey_stick(mixture_values):
    "04_unlabelled, hs_mixture: an upper bound on H_γ(Σ w_l N(θ_l, 1) || N(0, 1)), whatever the rounding."
    with mp.workdps(DPS):
        below = [(w, th, g, v, float(e)) for w, th, g, v, e in mixture_values if e >= 1e-300 and mp.mpf(v) < e]
    assert not below, below[:5]

def test_hs_mixture_is_within_1e_6_of_the_mpmath_hockey_stick(mixture_values):
    "04_unlabelled, hs_mixture: within 1e-6 relative or 1e-13 absolute (the 64u charge); 0 only below 1e-300."
    with mp.workdps(DPS):
        for w, th, g, v, e in mixture_values:
            if e < 1e-300:                                        # float64 cannot hold it: 0 (or a subnormal)
                assert 0.0 <= v <= 1e-300, (w, th, g, v, e); continue
            assert mp.mpf(v) <= e * (1 + mp.mpf(1e-6)) + mp.mpf(1e-13), (w, th, g, v, float(e))
            assert mp.mpf(v) >= e * (1 - mp.mpf(1e-13)), (w, th, g, v, float(e))   # the shortfall above stays small

def test_hs_mixture_is_finite_and_above_mpmath_on_extreme_rows():
    "04_unlabelled, hs_mixture's 'upper bound, round-off included' where θ is tiny and the root is ~1e9 (γ = 1 too)."
    rows = []
    for g in (1.0, 1 + 2 ** -52, 0.5, math.exp(50)):
        for w in (np.array([1.0]), np.array([0.5, 0.5]), np.array([1e-300, 1.0]), np.array([1e-20] * 3),
                  np.array([0.999999, 1e-6])):
            for th in (np.full(len(w), 1e-8), 1e-8 * np.arange(1, len(w) + 1)):
                if _extreme_row(w, th, g): rows.append((w, th, g))
    with mp.workdps(DPS):
        for w, th, g in rows:
            v, exact = float(hs_mixture(np.array([g]), w[None, :], th)[0]), _mp_hs_mixture(w, th, g)
            assert np.isfinite(v), (w, th, g, v)
            assert mp.mpf(v) >= exact or (exact < 1e-300 and 0.0 <= v <= 1e-300), (w, th, g, v, exact)   # underflow

@pytest.mark.parametrize('name,n,m,sigma', [('wor', 1, 1, 0.2), ('wr', 2, 1, 0.2), ('wor', 3, 2, 0.175),
                                            ('wr', 2, 2, 0.2)])
def test_labelled_profile_stays_above_mpmath_where_hs_gauss_falls_short(name, n, m, sigma):
    "04_unlabelled, labelled_profile: 'round-off included' at θ = 2/σ >= 10, where hs_gauss alone is 1 ulp short."
    sc = make_scheme(name, n, m=m)
    eta, labels, inf = dominating_labels(sc, sigma, 'substitute')
    with mp.workdps(DPS):
        for a in (1.0, 1.5, math.e):
            at = 1 + (mp.mpf(a) - 1) / mp.mpf(eta)
            exact = mp.mpf(eta) * (mp.mpf(inf) + mp.fsum(mp.mpf(p) * _mp_delta_G(at, t)
                                                          for p, t in labels if p > 0 and t > 0))
            v = float(labelled_profile(sc, sigma, np.array([a]))[0])
            assert exact <= mp.mpf(v) <= exact * (1 + mp.mpf(1e-9)), (a, v, float(exact))


# ---------------------------------------------------------------- 1. UNIT_ROUNDOFF: the FFT round-off charges
def _mp_circular_power(c, k: int, r: int):
    "The k-fold circular self-convolution of c (length r), 60 digits, by binary powering."
    def mul(a, b):
        out = [mp.mpf(0)] * r
        for i, x in enumerate(a):
            if x:
                for j, y in enumerate(b):
                    if y: out[(i + j) % r] += x * y
        return out
    res, base = None, c
    while k:
        if k & 1: res = base if res is None else mul(res, base)
        k >>= 1
        if k: base = mul(base, base)
    return res

@pytest.mark.parametrize('precision', ['double', 'extended'])
@pytest.mark.parametrize('case', ['spread', 'dirichlet', 'two-point'])
def test_fft_composition_error_is_within_the_charged_round_off(case, precision):
    "02_compose, steps 1-3: every bin of the FFT composition is within fp_l2 + fp_inf (+ u|u_j|, charged in γ_N)."
    rng = np.random.default_rng(11)
    masses, j0, k = {'spread': (np.array([0.3, 1e-9, 0.2, 1e-17, 0.5 - 1e-9 - 1e-17]), -2, 7),
                     'dirichlet': (rng.dirichlet(np.full(9, 0.3)), -4, 24),
                     'two-point': (np.array([1 - 2.0 ** -40, 2.0 ** -40]), 0, 3)}[case]
    c = compose_plds([(DiscretePLD(0.1, j0, masses, 0.0), k)], precision=precision)
    r = len(c.u)
    with mp.workdps(DPS):
        cm = [mp.mpf(0)] * r
        for i, x in enumerate(masses): cm[(j0 + i) % r] += mp.mpf(float(x))
        exact = _mp_circular_power(cm, k, r)
        err = np.array([float(abs(mp.mpf(float(c.u[i])) - exact[int(c.J[i]) % r])) for i in range(r)])
    assert np.all(err <= c.fp_l2 + c.fp_inf + U64 * np.abs(c.u)), (err.max(), c.fp_l2, c.fp_inf)
    assert math.sqrt(float(np.sum(err ** 2))) <= c.fp_l2 + c.fp_inv_l2 + U64 * math.sqrt(float(np.sum(c.u ** 2)))
    if precision == 'double': assert err.max() > 0              # the float64 transform does round

@pytest.mark.parametrize('precision', ['double', 'extended'])
def test_adaptive_fft_round_off_charge_covers_one_correlation(precision):
    "06_adaptive: one FFT correlation (as adaptive_dp computes it) is within fft_round_off(u, r, ‖V‖₂, ‖p‖₁) per entry."
    u, dt = float(UNIT_ROUNDOFF[precision]), PRECISION_DTYPES[precision]
    rng = np.random.default_rng(5)
    s = np.arange(-60, 140) * 0.05
    V = np.maximum(-np.expm1(0.5 - s), 0.0).astype(dt)             # a terminal hinge (1 − e^{ε−s})_+, as in the DP
    K = np.r_[rng.dirichlet(np.full(12, 0.4)), 1e-13, 1e-15, 0.0, 1e-12]
    K = (K / K.sum()).astype(dt)
    r = 256
    conv = sfft.irfft(sfft.rfft(V, r) * sfft.rfft(K[::-1], r), r)   # adaptive_dp: rfft(V, r), rfft(row[::-1], r)
    bound = float(fft_round_off(u, r, math.sqrt(float(np.sum(V * V))), float(K.sum())))
    with mp.workdps(DPS):
        Vm, Km = [_mpf(x) for x in V], [_mpf(x) for x in K[::-1]]
        for i in range(r):
            exact = mp.fsum(Vm[j] * Km[(i - j) % r] for j in range(len(Vm)) if (i - j) % r < len(Km))
            assert abs(_mpf(conv[i]) - exact) <= bound, (i, float(conv[i]), float(exact), bound)


# ---------------------------------------------------------------- 1/4. certified δ(ε) against the exact one-step δ
_ONE_STEP = [  # (scheme, n, m, b, σ, relation, pair): WOR/Poisson worst case = exact pair; WR/MUST: the paper's pair
    ('wor', 1, 1, None, 1.0, 'add_remove', 'worst'),      # the plain Gaussian mechanism
    ('wor', 2, 1, None, 1.0, 'substitute', 'worst'),      # Balle et al.'s η δ_G(1 + (e^ε − 1)/η; 2/σ)
    ('wor', 3, 2, None, 0.7, 'substitute', 'worst'),
    ('poisson', 2, 1, None, 1.0, 'add_remove', 'worst'),
    ('poisson', 3, 1, None, 0.5, 'add_remove', 'worst'),
    ('wr', 2, 2, None, 1.0, 'substitute', 'paper'),
    ('wr', 4, 3, None, 2.0, 'substitute', 'paper'),
    ('must-ow', 3, 2, 2, 1.0, 'substitute', 'paper'),
    ('must-wo', 2, 1, 2, 1.0, 'substitute', 'paper'),
    ('must-ww', 2, 2, 2, 1.0, 'substitute', 'paper'),
]

def _exact_one_step(name, n, m, b, sigma, relation, pair, eps):
    "The exact δ(ε) of one step, 60 digits: the Gaussian mechanism, Balle et al. for WOR, else the 1-D mixture pair."
    if name == 'wor' and n == m == 1 and relation == 'add_remove':
        return _mp_delta_G(mp.exp(eps), 1 / mp.mpf(sigma))
    if name == 'wor' and relation == 'substitute':
        eta = mp.mpf(m) / n
        return eta * _mp_delta_G(1 + (mp.exp(eps) - 1) / eta, 2 / mp.mpf(sigma))
    occ = _mp_occurrence(name, n, m, b)
    P = [(mp.mpf(l), w) for l, w in occ.items() if w > 0]
    if relation == 'substitute': return _mp_pair_delta(P, [(-mu, w) for mu, w in P], sigma, eps)
    Q = [(mp.mpf(0), mp.mpf(1))]
    return max(_mp_pair_delta(P, Q, sigma, eps), _mp_pair_delta(Q, P, sigma, eps))

def test_reference_pair_delta_matches_closed_form_and_quadrature():
    "The mpmath reference itself: Poisson's closed form (threshold t* = σ² log((e^ε − 1 + q)/q) + 1/2), and mp.quad."
    with mp.workdps(DPS):
        q, s = mp.mpf(1) / 2, mp.mpf(1)
        P, Q = [(mp.mpf(0), 1 - q), (mp.mpf(1), q)], [(mp.mpf(0), mp.mpf(1))]
        for eps in (0.0, 0.5):
            E = mp.mpf(eps)
            t = s * s * mp.log((mp.exp(E) - 1 + q) / q) + mp.mpf(1) / 2
            closed = (1 - q) * mp.ncdf(-t / s) + q * mp.ncdf((1 - t) / s) - mp.exp(E) * mp.ncdf(-t / s)
            assert abs(_mp_pair_delta(P, Q, 1.0, eps) - closed) <= mp.mpf(10) ** -40
        # WR(n=2, m=2), substitution, ε = 0: the pair is symmetric, so p > q exactly on t > 0
        occ = _mp_occurrence('wr', 2, 2, None)
        P = [(mp.mpf(l), w) for l, w in occ.items()]
        dens = lambda M, t: mp.fsum(w * mp.npdf(t, m, 1) for m, w in M)
        quad = mp.quad(lambda t: dens(P, t) - dens([(-m, w) for m, w in P], t), [0, 2, 6, mp.inf])
        assert abs(_mp_pair_delta(P, [(-m, w) for m, w in P], 1.0, 0.0) - quad) <= mp.mpf(10) ** -30

@pytest.mark.parametrize('name,n,m,b,sigma,relation,pair', _ONE_STEP)
def test_one_step_certified_delta_is_never_below_the_mpmath_value(name, n, m, b, sigma, relation, pair):
    "02_compose ('lower <= δ(ε) <= upper', PLD slack 1e-11, FFT round-off) at k = 1, ε = 0, tiny n: rounding decides."
    sc = make_scheme(name, n, m=m, b=b)
    with mp.workdps(DPS):
        occ = _mp_occurrence(name, n, m, b)                   # the reference law agrees with core.sampling's
        pmf = occurrence_pmf(sc).pmf
        assert max(abs(float(occ[l]) - pmf[l]) for l in range(len(pmf))) <= 4 * U64
    h = 2e-3
    mech = scheme_gaussian_pld(sc, sigma, relation, h=h, pair=pair)
    ups = [compose_plds([(p, 1)], precision='double') for p in mech.upper]
    los = [compose_plds([(p, 1)], precision='double') for p in mech.lower]
    for eps in (0.0, 1e-3, 0.5):                               # 0 and 0.5 are grid losses; 1e-3 is not
        with mp.workdps(DPS):
            exact = _exact_one_step(name, n, m, b, sigma, relation, pair, eps)
            upper = max(c.delta_bounds(eps)[1] for c in ups)
            lower = max(c.delta_bounds(eps)[0] for c in los)
            assert mp.mpf(lower) <= exact <= mp.mpf(upper), (eps, lower, float(exact), upper)
            assert mp.mpf(upper) <= exact * (1 + mp.mpf(2e-5)), (eps, upper, float(exact))   # h = 2e-3: ~4e-6 measured
            if eps == 0.0:
                # at ε = 0 the upper PLD is exact up to its round-off charges: the split's error over the cell's width
                # for the symmetrised labels (03_dominating; 0.8-3e-8 measured at h = 2e-3), about 3e-11 for the
                # exact pairs of 01_pld
                charges = 5e-8 if (pair == 'worst' and name != 'poisson') else 1e-10
                assert mp.mpf(upper) <= exact * (1 + mp.mpf(charges)), (upper, float(exact))

@pytest.mark.parametrize('precision', ['double', 'extended'])
def test_gaussian_mechanism_composed_k_times_is_bracketed_by_the_certified_bounds(precision):
    "02_compose: k Gaussian steps are one Gaussian mechanism with θ = √k/σ; lower <= mpmath δ(ε) <= upper."
    sigma, h = 2.0, 2e-3
    mech = scheme_gaussian_pld(make_scheme('wor', 1, m=1), sigma, 'add_remove', h=h)
    for k in (1, 2, 4, 16):
        ups = [compose_plds([(p, k)], precision=precision) for p in mech.upper]
        los = [compose_plds([(p, k)], precision=precision) for p in mech.lower]
        for eps in (0.0, 0.25, 1.0):
            with mp.workdps(DPS):
                exact = _mp_delta_G(mp.exp(eps), mp.sqrt(k) / sigma)
                upper = max(c.delta_bounds(eps)[1] for c in ups)
                lower = max(c.delta_bounds(eps)[0] for c in los)
                assert mp.mpf(lower) <= exact <= mp.mpf(upper), (k, eps, lower, float(exact), upper)
                assert mp.mpf(upper) <= exact * (1 + mp.mpf(1e-4)), (k, eps, upper, float(exact))

def test_account_gaussian_mechanism_composed_4_times_at_eps_0_is_above_mpmath():
    "10_account, public API: certified δ(0) of 4 Gaussian steps (σ = 1) >= 2Φ(1) − 1 exactly, bracket around it."
    r = account(make_scheme('wor', 1, m=1), sigma=1.0, steps=4, eps=0.0, relation='add_remove', attack=False)
    with mp.workdps(DPS):
        exact = 2 * mp.ncdf(1) - 1
        assert mp.mpf(r.bound_interval[0]) <= exact <= mp.mpf(r.upper), (r.bound_interval, float(exact))
        assert mp.mpf(r.upper) <= exact * (1 + mp.mpf(1e-5))


# ---------------------------------------------------------------- 4. core.definitions: exact profiles
def test_hockey_stick_matches_mpmath_on_tiny_pmfs():
    "00_definitions, hockey_stick (exact, not a bound): n = 2..4 outcomes, ε = 0 and small, within 8 u of the sum."
    rng = np.random.default_rng(3)
    with mp.workdps(DPS):
        for n in (2, 3, 4):
            for _ in range(20):
                p, q = rng.dirichlet(np.ones(n)), rng.dirichlet(np.ones(n))
                if rng.random() < 0.3: q = p * (1 + 1e-12 * rng.standard_normal(n))   # nearly equal: cancellation
                for eps in (0.0, 1e-12, 1e-3, 0.5):
                    exact = mp.fsum(max(mp.mpf(a) - mp.exp(eps) * mp.mpf(b), 0) for a, b in zip(p, q))
                    v = float(hockey_stick(p, q, eps))
                    assert abs(mp.mpf(v) - exact) <= ULPS * U64 * n, (n, eps, v, float(exact))

def test_gaussian_profile_matches_mpmath_where_theta_is_not_tiny():
    "00_definitions, gaussian_profile ('exact', Theorem 1b): within 1e-12 relative for θ >= 1e-2, ε in [0, 20]."
    with mp.workdps(DPS):
        for th in (1e-2, 0.1, 0.5, 1.0, 2.0, 10.0, 30.0):
            for eps in (0.0, 1e-8, 1e-3, 0.5, 1.0, 5.0, 20.0):
                exact = _mp_delta_G(mp.exp(eps), th)
                if exact < 1e-300: continue
                v = float(gaussian_profile(eps, th))
                assert abs(mp.mpf(v) - exact) <= exact * mp.mpf(1e-12), (th, eps, v, float(exact))

def test_gaussian_profile_is_cancellation_free_at_tiny_theta():
    "00_definitions, gaussian_profile's 'cancellation-free' claim at small θ (θ = 1e-8, ε = 0 was −3.0e-9 relative off)."
    with mp.workdps(DPS):
        for th in (1e-10, 1e-8, 1e-6, 1e-4, 5e-3, 0.019, 0.021, 0.05):
            for eps in (0.0, 1e-12, 1e-8, 1e-5, 1e-3, 0.01, 0.5):
                exact = _mp_delta_G(mp.exp(eps), th)
                if exact < 1e-300: continue                             # below float64's range: 0 is the answer
                v = float(gaussian_profile(eps, th))
                assert abs(mp.mpf(v) - exact) <= exact * mp.mpf(1e-12), (th, eps, v, float(exact))
