"""Adaptive-orientation attack: a certified LOWER bound on the worst-case δ(ε) of k adaptive steps of scheme∘Gaussian(σ).

At each step a real adversary (who controls the per-step gradient map through the model state, i.e. chooses the next
pair of outputs as a function of all past outputs) picks one of the real one-step pairs of `attack_pairs` in one of its
orientations. Backward dynamic programming over the cumulative privacy loss on the grid s_j = j h:

    V_k(s) = (1 − e^{ε−s})_+,      V_t(s) = max_o Σ_j p_o(j) V_{t+1}(s + j h),      δ_adaptive = V_0(0),

where p_o is the package's dominated ("lower", merged) discretisation `lower_pld` of option o (P-masses at exact grid
losses: a randomised post-processing of the real pair, far tails rounded down, negligible tails dropped). Every
approximation lowers the value (V is ≥ 0, non-decreasing in s, and s ↦ V_t(s0 − log u) is convex, so merging cells
is harmless), and FFT round-off is charged explicitly, so the returned value is a lower bound on the δ(ε) of a concrete
adaptive attack on real neighbouring datasets. See research/rdp.ipynb (Task B) for the argument.
"""
from __future__ import annotations
import math, time
import numpy as np
from scipy import fft as sfft
from must_nbdev.accounting.attack import attack_pairs
from must_nbdev.accounting.pld import loss_cells, lower_pld, MAX_BINS
from must_nbdev.accounting.account import account
from must_nbdev.accounting.moments import log_mgf, MGF_LAMBDAS
from must_nbdev.core.sampling import Scheme

_U = np.finfo(float).eps / 2

def _options(scheme, sigma, relation, h, max_bins=MAX_BINS):
    "Lower discrete PLDs (DiscretePLD, label) of every real one-step option: each attack pair, each allowed orientation."
    out = []
    for ci, (A, B, flips) in enumerate(attack_pairs(scheme, sigma, relation)):
        out.append((lower_pld(loss_cells(A, B, h, max_cells=4 * max_bins, width=1.0), h), f"pair {ci + 1}"))
        if flips: out.append((lower_pld(loss_cells(B, A, h, max_cells=4 * max_bins, width=1.0), h), f"pair {ci + 1} reversed"))
    return out

def _grid(opts, k, eps, tau=1e-16):
    """Cumulative-loss window [J_lo, J_hi] (grid indices) outside which any adaptive policy puts P-mass ≤ tau per side:
    Chernoff, since E[e^{λ L_1+…+L_k}] ≤ (max_o E_o[e^{λ L}])^k whatever the choices (induction over the steps)."""
    h = opts[0][0].h
    up = np.max([log_mgf(p, MGF_LAMBDAS) for p, _ in opts], axis=0)
    down = np.max([log_mgf(p, -MGF_LAMBDAS) for p, _ in opts], axis=0)
    hi = float(np.min((k * up - math.log(tau)) / MGF_LAMBDAS))
    lo = float(np.max((math.log(tau) - k * down) / MGF_LAMBDAS))
    return math.floor(min(lo, 0.0) / h) - 1, math.ceil(max(hi, eps) / h) + 1

def adaptive_orientation_delta(scheme:Scheme,           # registry scheme (`make_scheme`) or pipeline (`multistage`)
                               sigma:float,             # noise multiplier (Gaussian std / clip norm)
                               k:int,                   # number of steps
                               eps:float,               # ε at which δ is computed
                               relation:str='substitute',
                               h:float|None=None,       # loss grid step; None: the one `account` chooses
                               max_bins:int=MAX_BINS,
                               return_info:bool=False):
    "Certified lower bound on the worst-case δ(ε) after k adaptive steps: the best orientation policy on the loss grid."
    t0 = time.perf_counter()
    if h is None: h = account(scheme, sigma=sigma, steps=k, eps=eps, relation=relation, attack=False)['h']
    opts = _options(scheme, sigma, relation, h, max_bins)
    J_lo, J_hi = _grid(opts, k, eps)
    N = J_hi - J_lo + 1
    s = (J_lo + np.arange(N)) * h
    V = np.where(s > eps, -np.expm1(eps - s), 0.0)                       # terminal hockey-stick integrand under P
    # correlation with each kernel: V_t(i) = Σ_j p(j) V_{t+1}(i + j); kernel index range [a, b] of p
    kers = []
    for p, lab in opts:
        nz = np.flatnonzero(p.masses > 0); a, b = p.j0 + nz[0], p.j0 + nz[-1]
        kers.append((a, b, p.masses[nz[0]:nz[-1] + 1], lab))
    width = max(b - a + 1 for a, b, _, _ in kers)
    r = sfft.next_fast_len(N + width, real=True)
    # y = V ⋆ p  computed as convolution of V with reversed p: (V * rev)(i + b) = Σ_j p(j) V(i + j)
    specs = [sfft.rfft(m[::-1], r) for _, _, m, _ in kers]
    l1 = [float(m.sum()) for _, _, m, _ in kers]; l2 = [math.sqrt(float((m * m).sum())) for _, _, m, _ in kers]
    eta = 10 * _U * math.log2(r)
    err_total = 0.0
    for t in range(k):
        FV = sfft.rfft(V, r)
        best = None
        nV2 = math.sqrt(float((V * V).sum()))
        for oi, ((a, b, m, lab), S) in enumerate(zip(kers, specs)):
            conv = sfft.irfft(FV * S, r)
            # V_new(i) = Σ_{j=a..b} p(j) V(i + j) = conv[i + b] with the kernel reversed (index c = b − j)
            y = np.zeros(N)
            lo_i, hi_i = max(0, -b), min(N, N - a)                       # rows whose window overlaps the grid
            ii = np.arange(lo_i, hi_i)
            y[ii] = conv[ii + b]
            # outside the grid V is taken as 0 (a lower bound: V >= 0); FFT round-off bound (absolute, per entry)
            err = eta * (3 * nV2 * l2[oi] + 2 * l1[oi] * float(np.abs(V).max())) + 4 * _U * l1[oi]
            y = y - err
            if best is None: best, arg, e_used = y, np.zeros(N, int), err
            else:
                better = y > best; best = np.where(better, y, best); arg = np.where(better, oi, arg)
        err_total += e_used
        V = np.clip(best, 0.0, 1.0)
    i0 = -J_lo
    val = float(V[i0])
    if not return_info: return val
    return val, dict(h=h, bins=N, fft=r, options=[lab for *_, lab in kers], seconds=time.perf_counter() - t0,
                     err_charged_total=err_total, policy_at_start=kers[int(arg[i0])][3] if k else None,
                     reversed_share_of_grid=float(np.mean(arg == 1)) if len(kers) > 1 else 0.0)

def adaptive_orientation_epsilon(scheme:Scheme, sigma:float, k:int, delta:float, relation:str='substitute',
                                 h:float|None=None, rtol:float=1e-3, max_bins:int=MAX_BINS, return_info:bool=False):
    """Certified lower bound on the worst-case ε(δ): the largest ε found with adaptive δ(ε) > `delta` (bisection between
    the fixed-mix attack's ε and the certified upper ε of `account`)."""
    t0 = time.perf_counter()
    r = account(scheme, sigma=sigma, steps=k, delta=delta, relation=relation)
    h = r['h'] if h is None else h
    lo, hi, evals = r['eps_lower'], r['eps_upper'], 0
    d_lo = adaptive_orientation_delta(scheme, sigma, k, lo, relation, h, max_bins); evals += 1
    if not d_lo > delta:                        # cannot happen if the DP is ≥ the fixed mixes; keep the fixed-mix value
        lo_cert = lo if r['eps_lower'] > 0 else 0.0
    else:
        lo_cert = lo
        while hi - lo > rtol * lo:
            mid = 0.5 * (lo + hi)
            d = adaptive_orientation_delta(scheme, sigma, k, mid, relation, h, max_bins); evals += 1
            if d > delta: lo = lo_cert = mid
            else: hi = mid
    if not return_info: return lo_cert
    return lo_cert, dict(h=h, evals=evals, seconds=time.perf_counter() - t0, fixed_mix_eps_lower=r['eps_lower'],
                         certified_eps_upper=r['eps_upper'], bracket=(lo, hi))
