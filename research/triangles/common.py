import math, sys, time
import numpy as np
from must_nbdev import make_scheme, account
from must_nbdev.accounting.pairs import GaussianMixture, COMPONENT_FLOOR
from must_nbdev.accounting.pld import loss_cells, lower_pld, MAX_BINS
from must_nbdev.accounting.adaptive import adaptive_dp
from tri import tri_pld

def c_opt(q, sigma, h, c):
    "The 1-D c-family member (others at c, x = 1, x' = -1), lower PLD (library cells)."
    A = GaussianMixture(np.log([1 - q, q]), np.array([0., 1 - c]), sigma)
    B = GaussianMixture(np.log([1 - q, q]), np.array([0., -1 - c]), sigma)
    return (lower_pld(loss_cells(A, B, h, max_cells=4 * MAX_BINS, width=1.0), h), f"c={c:g}")

def tri_opt(y, x, xp, q, sigma, h, **kw):
    y, x, xp = (np.asarray(v, float) for v in (y, x, xp))
    return (tri_pld(x - y, xp - y, q, sigma, h, **kw), f"tri y={np.round(y,3).tolist()} x={np.round(x,3).tolist()} x'={np.round(xp,3).tolist()}")

def run_dp(opts, k, eps, h):
    r = adaptive_dp(tuple(opts), k, eps, 0, h, MAX_BINS)
    return r['values'][0], r
