"""Y-AVERAGED P-vs-Z lemma for MUST.ow (z is a random other record, not adversarial):
   z, y_1..y_m i.i.d. ~ nu (law of the other records; WOR details ignored), label l ~ pi independent:
   Pbar = sum_l pi_l Law( l x + y_{l+1} + .. + y_m ),  Zbar = sum_l pi_l Law( l z + y_{l+1} + .. + y_m )   (then + N(0, sigma^2))
   claim L*: H_gamma(Pbar || Zbar) <= H_gamma(sum pi_l N(2l/sigma) || N(0)).  d = 1, nu on the lattice {-1,-.5,0,.5,1}."""
import numpy as np, time
from scipy import stats, optimize
from common import hs_mix_vs_gauss
rng = np.random.default_rng(11); t0 = time.time()
S = np.linspace(-1, 1, 5)                       # support of nu; lattice step 0.5
def sum_pmf(nu, k):                              # pmf of the sum of k draws, on lattice index (value = -k + 0.5 j)
    out = np.array([1.0])
    for _ in range(k): out = np.convolve(out, nu)
    return out
def H(gam, wp, mp, wq, mq, sigma, h=0.01):
    lo, hi = min(mp.min(), mq.min()) / sigma - 10, max(mp.max(), mq.max()) / sigma + 10
    t = np.arange(lo, hi, h)
    dens = lambda w, m: (w[:, None] * np.exp(-(t - m[:, None] / sigma)**2 / 2)).sum(0)
    return np.maximum(dens(wp, mp) - gam * dens(wq, mq), 0).sum() * h / np.sqrt(2 * np.pi)
def pair(nu, x, pi, m):
    wp, mp, wq, mq = [], [], [], []
    for l, p in enumerate(pi, start=1):
        s = sum_pmf(nu, m - l); vals = -(m - l) + 0.5 * np.arange(len(s))
        wp.append(p * s); mp.append(l * x + vals)
        for zi, zv in enumerate(S):
            wq.append(p * nu[zi] * s); mq.append(l * zv + vals)
    wp, mp, wq, mq = map(np.concatenate, (wp, mp, wq, mq))
    k = wp > 1e-14; j = wq > 1e-14
    return wp[k], mp[k], wq[j], mq[j]
rows = []
while time.time() - t0 < 150:
    m = int(rng.integers(3, 8)); sigma = float(rng.choice([0.5, 0.8, 1.1, 2.0]))
    pi = rng.dirichlet(np.ones(m) * 0.6) if rng.random() < 0.5 else stats.binom.pmf(np.arange(1, m + 1), m, rng.uniform(0.05, 0.6))
    pi = pi / pi.sum(); gam = float(np.exp(rng.uniform(0, 3)))
    ref = hs_mix_vs_gauss(gam, pi, 2 * np.arange(1, m + 1) / sigma)
    if ref < 1e-8: continue
    def ratio(p):
        nu = np.exp(p[:5] - p[:5].max()); nu /= nu.sum(); x = np.tanh(p[5])
        return H(gam, *pair(nu, x, pi, m), sigma) / ref
    starts = [np.r_[rng.normal(0, 2, 5), rng.normal(0, 2)] for _ in range(4)] + [np.r_[[-9, -9, -9, -9, 9], -3.0], np.r_[[-9, -9, 9, -9, -9], 3.0]]
    best = max(((ratio(s), s) for s in starts), key=lambda t: t[0])
    res = optimize.minimize(lambda p: -ratio(p), best[1], method='Nelder-Mead', options=dict(maxiter=200))
    p = res.x if -res.fun > best[0] else best[1]
    nu = np.exp(p[:5] - p[:5].max()); nu /= nu.sum()
    rows.append((round(max(best[0], -res.fun), 5), m, sigma, round(gam, 2), np.round(pi, 3).tolist(), np.round(nu, 3).tolist(), round(float(np.tanh(p[5])), 3)))
rows.sort(key=lambda r: -r[0])
print(len(rows), 'adversarial searches; top 6 (ratio, m, sigma, gamma, pi, nu on {-1,-.5,0,.5,1}, x):')
for r in rows[:6]: print('  ', r)
