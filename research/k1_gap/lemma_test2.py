"""L0 / L1 with REALISTIC label laws pi = Bin(m, p) | >= 1 (d = 1, adversarial search).
L1: int( c*sum pi_l phi(mu_l) - gR phi(s) - gZ sum pi_l phi(zeta_l) )_+  <=  c*H_{(gR+gZ)/c}( sum pi_l N(2l/sigma) || N(0) ),  s = c_0 = 0."""
import numpy as np, sys, time
from scipy import stats, optimize
from common import hs_mix_vs_gauss
from lemma_test import H1d, config
rng = np.random.default_rng(7); t0 = time.time(); out = {'L0': [], 'L1': []}
def H1dR(gam, gR, wp, mp, wq, mq, h=0.004):
    lo, hi = min(mp.min(), mq.min(), 0) - 12, max(mp.max(), mq.max(), 0) + 12
    t = np.arange(lo, hi, h)
    p = (wp[:, None] * np.exp(-(t - mp[:, None])**2 / 2)).sum(0); q = (wq[:, None] * np.exp(-(t - mq[:, None])**2 / 2)).sum(0)
    return np.maximum(p - gam * q - gR * np.exp(-t**2 / 2), 0).sum() * h / np.sqrt(2 * np.pi)
trial = 0
while time.time() - t0 < 150:
    trial += 1
    K = 5; sigma = float(rng.choice([0.5, 0.8, 1.1, 2.0])); mp_ = float(np.exp(rng.uniform(np.log(0.04), np.log(2.5))))
    pi = stats.binom.pmf(np.arange(1, K + 1), 256, mp_ / 256); pi = pi / pi.sum()
    kind = 'L0' if trial % 2 else 'L1'
    gZ = float(np.exp(rng.uniform(0, 3))); gR = 0.0 if kind == 'L0' else gZ * float(np.exp(rng.uniform(np.log(0.2), np.log(30))))
    ref = hs_mix_vs_gauss(gZ + gR, pi, 2 * np.arange(1, K + 1) / sigma)
    if ref < 1e-9: continue
    def ratio(pr):
        mp, mq = config(pr, K, 1, sigma)
        return H1dR(gZ, gR, pi, mp[:, 0], pi, mq[:, 0]) / ref
    best = max(((ratio(p0), p0) for p0 in [rng.normal(0, 1.5, K + 2) for _ in range(5)]), key=lambda t: t[0])
    res = optimize.minimize(lambda p: -ratio(p), best[1], method='Nelder-Mead', options=dict(maxiter=250))
    out[kind].append((round(max(best[0], -res.fun), 5), sigma, round(mp_, 3), round(gZ, 2), round(gR, 2), np.round(np.tanh(res.x), 2).tolist()))
for k, v in out.items():
    v.sort(key=lambda t: -t[0]); print(k, len(v), 'searches; top 4 (ratio, sigma, m*p, gZ, gR, [x,z,y1..]):')
    for w in v[:4]: print('   ', w)
