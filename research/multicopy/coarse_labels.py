"""Would a public coarse count help MUST.ow at Fig S2? Reveal c = how often the record's stage-I position p is drawn,
coarsened to {0}, {1}, {>=2}, keep the count hidden within {>=2} (a group of 04_unlabelled's theorem with r = 0), and
compose the public mixture (every piece symmetrised). Revealing c is valid: p's count is independent of who holds p.
Answer: no. Revealing c = 0 costs the R part's hiding, and one step's δ doubles, so a label-1 net could not recover
it (coarse_labels_out.txt)."""
import numpy as np, math, time
from scipy import stats
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.unlabelled import (LabelGroup, group_bound, unlabelled_profile, profile_knots, profile_pld,
                                              hs_gauss, positive_binomial)
from must_nbdev.accounting.pld import DiscretePLD
from must_nbdev.accounting.compose import compose_plds
n, m, b, sigma, k, eps, h = 10_000, 200, 118, 4.0, 1000, 1.0, 0.002
q = b / n
pi, p_pos, drop = positive_binomial(m, 1 / b)
print('p_pos', p_pos, 'pi[:4]', pi[:4], 'drop', drop)
js = profile_knots(int(30 / h)); alpha = np.exp(js * h)
def pld_of(U): return profile_pld(js, np.minimum(U, 1.0), h)
def mix(parts):
    lo = min(p.j0 for _, p in parts); hi = max(p.j0 + len(p.masses) for _, p in parts)
    out = np.zeros(hi - lo)
    for w, p in parts: out[p.j0 - lo:p.j0 - lo + len(p.masses)] += w * p.masses
    return DiscretePLD(h, lo, out, sum(w * p.inf_mass for w, p in parts))
def delta_k(pld): return compose_plds([(pld, k)]).delta_bounds(eps)
sc = scheme_at('must-ow', n, m, b=b)
A = pld_of(unlabelled_profile(sc, sigma, alpha)); print('A whole unlabelled', delta_k(A))
U1 = q * hs_gauss(1 + (alpha - 1) / q, 2 / sigma)          # c = 1: WOR-like, rate q, symmetrised
pi2 = np.r_[0.0, pi[1:]] / pi[1:].sum()
U2 = group_bound(LabelGroup(q, 0.0, 1 - q, pi2), sigma, alpha)   # c >= 2, hidden within
null = DiscretePLD(h, 0, np.array([1.0]), 0.0)
w1, w2 = p_pos * pi[0], p_pos * pi[1:].sum()
B = mix([(1 - p_pos, null), (w1, pld_of(U1)), (w2, pld_of(U2))]); print('B coarse symmetrised', delta_k(B))
# full public labels at rate q, all symmetrised
parts = [(1 - p_pos, null)] + [(p_pos * pi[l - 1], pld_of(q * hs_gauss(1 + (alpha - 1) / q, 2 * l / sigma)))
                               for l in range(1, len(pi) + 1)]
print('C all public, rate q, symmetrised', delta_k(mix(parts)))
i = np.searchsorted(js, [250, 1000])
print('one step at ε', js[i] * h, ': whole', unlabelled_profile(sc, sigma, alpha[i]), 'coarse', w1 * U1[i] + w2 * U2[i])
