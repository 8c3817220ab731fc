"""Independent 1-D tools (scipy only) for the k=1 gap study. Units: noise sd = 1, theta_l = 2l/sigma."""
import numpy as np
from scipy import stats, optimize, integrate, special

N, M, B, SIGMA = 60000, 256, 6000, 1.1


def ow_params(n=N, m=M, b=B, floor=1e-30):
    "MUST.ow from the scheme definition: WOR b of n, then WR m of the b. Returns e, r, z, pi (l=1..), P(L=l) unconditional."
    q = b / n
    rho = (1 - 1 / b) ** m
    ls = np.arange(1, m + 1)
    pmf = stats.binom.pmf(ls, m, 1 / b)
    keep = pmf >= floor
    pmf = pmf[keep]
    pi = pmf / (1 - rho)
    e, r, z = q * (1 - rho), rho, (1 - q) * (1 - rho)
    return e, r, z, pi, q * pmf           # last: P(record in batch with l copies), unconditional


def dG(gamma, theta):
    "delta_G(gamma; theta) = H_gamma(N(theta,1)||N(0,1)), gamma > 0."
    gamma = np.asarray(gamma, float)
    lg = np.log(gamma)
    a = theta / 2 - lg / theta
    return stats.norm.cdf(a) - gamma * stats.norm.cdf(a - theta)


def hs_mix_vs_gauss(gamma, w, theta):
    "H_gamma(sum_l w_l N(theta_l,1) || N(0,1)) by the root of the (monotone) likelihood ratio; theta_l > 0."
    w, theta = np.asarray(w, float), np.asarray(theta, float)
    if gamma <= 0: return w.sum()
    if w.sum() <= 0: return 0.0
    f = lambda t: special.logsumexp(theta * t - theta ** 2 / 2, b=w) - np.log(gamma)
    lo, hi = -50.0, 50.0
    if f(lo) > 0: return w.sum() - gamma
    t = optimize.brentq(f, lo, hi, xtol=1e-14, rtol=1e-15, maxiter=500)
    return float((w * stats.norm.sf(t - theta)).sum() - gamma * stats.norm.sf(t))


def hs_quad(gamma, wp, mup, wq, muq, lo=-40, hi=60):
    "H_gamma(sum wp N(mup) || sum wq N(muq)) in 1-D by adaptive quadrature of (p - gamma q)_+ (independent check)."
    wp, mup, wq, muq = map(lambda v: np.asarray(v, float), (wp, mup, wq, muq))
    g = lambda x: max(0.0, float((wp * stats.norm.pdf(x - mup)).sum() - gamma * (wq * stats.norm.pdf(x - muq)).sum()))
    pts = sorted(set(np.r_[mup, muq].round(6)))
    pts = [p for p in pts if lo < p < hi]
    val, err = integrate.quad(g, lo, hi, points=pts, limit=2000, epsabs=1e-17, epsrel=1e-11)
    return val
