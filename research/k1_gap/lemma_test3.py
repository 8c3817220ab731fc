"""Y-averaged form of the P-vs-Z lemma, when the reference records are all equal (nu = delta_w; then every y_i = w):
   H_gamma( sum_l pi_l N(l(x-w)/sigma) || sum_l pi_l N(l(z-w)/sigma) )  vs  H_gamma( sum_l pi_l N(2l/sigma) || N(0) ),
   |x|,|z|,|w| <= 1, d = 1 (grid over x, z, w), pi = Bin(m, p) | >= 1 (realistic) or generic.
   Includes the 'add' orientation w = x:  N(0) || sum pi N(-2l/sigma)."""
import numpy as np, time
from scipy import stats
from common import hs_mix_vs_gauss
from lemma_test import H1d
rng = np.random.default_rng(3); t0 = time.time(); rows = []
g = np.linspace(-1, 1, 9)
while time.time() - t0 < 150:
    sigma = float(rng.choice([0.5, 0.8, 1.1, 2.0])); K = 6
    if rng.random() < 0.6:
        mp = float(np.exp(rng.uniform(np.log(0.04), np.log(2.5)))); pi = stats.binom.pmf(np.arange(1, K + 1), 256, mp / 256); kind = f'bin(mean {mp:.2f})'
    else:
        pi = rng.dirichlet(np.ones(K) * 0.5); kind = 'dirichlet'
    pi = pi / pi.sum(); ls = np.arange(1, K + 1)
    gam = float(np.exp(rng.uniform(0, 4)))
    ref = hs_mix_vs_gauss(gam, pi, 2 * ls / sigma)
    if ref < 1e-10: continue
    best = (0, None)
    for x in g:
        for z in g:
            if x - z < 0.5: continue      # orientation: x > z (symmetric otherwise)
            for w in g:
                v = H1d(gam, pi, ls * (x - w) / sigma, pi, ls * (z - w) / sigma, h=0.01) / ref
                if v > best[0]: best = (v, (x, z, w))
    addv = H1d(gam, pi, 0 * ls, pi, -2 * ls / sigma, h=0.005) / ref
    rows.append((round(best[0], 5), best[1], round(addv, 5), kind, sigma, round(gam, 2)))
rows.sort(key=lambda r: -r[0])
print(len(rows), 'cases; (max ratio over the x,z,w grid, argmax (x,z,w), ratio of the add orientation w=x=1,z=-1, pi, sigma, gamma):')
for r in rows[:8]: print('  ', r)
b = [r for r in rows if r[3].startswith('bin')]
print('binomial pi only: max ratio', max(r[0] for r in b) if b else None, 'max add-orientation ratio', max(r[2] for r in b) if b else None)
