"""Candidate Lemma L0 (same label law):  for gamma >= 1, |x|,|z|,|y_i| <= 1 (units of sigma: divided by sigma),
   H_gamma( sum_l pi_l N(c_l + l x) || sum_l pi_l N(c_l + l z) )  <=  H_gamma( sum_l pi_l N(2l/sigma) || N(0) ),
   c_l = -(y_1 + ... + y_l).   Random + adversarial (Nelder-Mead) search in d = 1 and d = 2 (grid quadrature).
   Also the unequal-weight version (P weights w_l != pi_l), which is FALSE (y_i = x)."""
import numpy as np, sys, time
from scipy import stats, optimize
from common import hs_mix_vs_gauss
rng = np.random.default_rng(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
t0 = time.time()

def H1d(gam, wp, mp, wq, mq, h=0.004):
    lo, hi = min(mp.min(), mq.min()) - 12, max(mp.max(), mq.max()) + 12
    t = np.arange(lo, hi, h)
    p = (wp[:, None] * np.exp(-(t - mp[:, None])**2 / 2)).sum(0); q = (wq[:, None] * np.exp(-(t - mq[:, None])**2 / 2)).sum(0)
    return np.maximum(p - gam * q, 0).sum() * h / np.sqrt(2 * np.pi)

G2 = np.linspace(-14, 14, 561); X2, Y2 = np.meshgrid(G2, G2); h2 = G2[1] - G2[0]
def H2d(gam, wp, mp, wq, mq):     # mp, mq: (K, 2); centred grid
    ctr = (np.r_[mp, mq].max(0) + np.r_[mp, mq].min(0)) / 2
    mp, mq = mp - ctr, mq - ctr
    dens = lambda w, m: sum(wi * np.exp(-((X2 - a)**2 + (Y2 - b)**2) / 2) for wi, (a, b) in zip(w, m)) / (2 * np.pi)
    return np.maximum(dens(wp, mp) - gam * dens(wq, mq), 0).sum() * h2 * h2

def config(params, K, d, sigma):
    P = np.tanh(params).reshape(K + 2, d)                      # inside the unit cube; project to the ball
    P = P / np.maximum(1, np.linalg.norm(P, axis=1, keepdims=True))
    x, z, ys = P[0], P[1], P[2:]
    c = -np.cumsum(ys, axis=0)
    ls = np.arange(1, K + 1)[:, None]
    return (c + ls * x) / sigma, (c + ls * z) / sigma

if __name__ == '__main__':
    worst = []
    for trial in range(10**6):
        if time.time() - t0 > 140: break
        d = 1 if trial % 3 else 2
        K = int(rng.integers(2, 5)); sigma = float(rng.choice([0.5, 0.8, 1.1, 2.0]))
        pi = rng.dirichlet(np.ones(K) * 0.7) if rng.random() < 0.5 else stats.binom.pmf(np.arange(1, K + 1), 50, rng.uniform(0.005, 0.06))
        pi = pi / pi.sum()
        gam = float(np.exp(rng.uniform(0, 3)))
        ref = hs_mix_vs_gauss(gam, pi, 2 * np.arange(1, K + 1) / sigma)
        H = H1d if d == 1 else H2d
        def ratio(pr):
            mp, mq = config(pr, K, d, sigma)
            if d == 1: mp, mq = mp[:, 0], mq[:, 0]
            return H(gam, pi, mp, pi, mq) / ref
        best = max(((ratio(p0), p0) for p0 in [rng.normal(0, 1.5, (K + 2) * d) for _ in range(6 if d == 1 else 3)]), key=lambda t: t[0])
        res = optimize.minimize(lambda p: -ratio(p), best[1], method='Nelder-Mead', options=dict(maxiter=300 if d == 1 else 120))
        r = max(best[0], -res.fun)
        worst.append((r, d, K, sigma, gam, np.round(pi, 4).tolist(), np.round(np.tanh(res.x), 3).tolist()))
    worst.sort(key=lambda t: -t[0])
    print(f"L0 (equal weights): {len(worst)} adversarial searches; largest ratio H/H_displacing found:")
    for w in worst[:5]: print("  ", w)

    # the unequal-weight version fails: y_i = x (P a single Gaussian), w on label 1 only
    pi = np.array([0.7, 0.3]); sigma = 1.0; gam = 2.0; w = np.array([0.7, 0.0])
    lhs = H1d(gam, w, np.array([0.0, 0.0]), pi, np.array([-2.0, -4.0]))
    rhs = hs_mix_vs_gauss(gam, w, np.array([2.0, 4.0]))
    print(f"unequal weights (w=(0.7,0), pi=(0.7,0.3), sigma=1, gamma=2, y_i=x=+1, z=-1): LHS={lhs:.5f} > RHS={rhs:.5f}")
