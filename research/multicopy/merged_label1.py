"""One step: the theorem with label 1's Q and R pieces merged into one triangle piece (issue 23, a prototype).

For a fixed reference draw Y, split the step's positive part as
  (e π_1 φ_μ1 − α e π_1 φ_ν1 − (α−1) λ r φ_s)_+        a WOR-like triangle piece, exact for the triangle (x, x', y_1)
+ (the theorem's pieces for labels >= 2, with references (1−λ) r and z)
which is valid because (A − B)_+ <= Σ (A_k − B_k)_+ . The first piece is the hockey stick of the pair
(c φ_μ + w φ_s, c φ_ν + w φ_s), c = e π_1, w = λ r: a WOR triangle pair, monotone in its Gram matrix (07_triangles).
Compared on real steps of MUST.ow (x = (1,0), x' = (−1,0), every other record at w) with the old y-family member.
"""
import sys
import numpy as np
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.unlabelled import label_groups, LabelGroup
from must_nbdev.accounting.unlabelled_net import member_profile

sigma = float(sys.argv[1]) if len(sys.argv) > 1 else 2.62
n, m, b = (int(v) for v in sys.argv[2:5]) if len(sys.argv) > 4 else (60_000, 256, 6_000)
lam = float(sys.argv[5]) if len(sys.argv) > 5 else 0.99
(g,), lost = label_groups(scheme_at('must-ow', n, m, b=b))
eps = np.array([0.0, 0.01, 0.03, 0.05, 0.1, 0.2, 0.5])
alpha = np.exp(eps)

def grid(cs, step=0.01, span=7.5):
    cs = np.asarray(cs)
    lo, hi = cs.min(0) - span, cs.max(0) + span
    X, Y = np.meshgrid(np.arange(lo[0], hi[0], step), np.arange(lo[1], hi[1], step), indexing='ij')
    return lambda c: np.exp(-((X - c[0]) ** 2 + (Y - c[1]) ** 2) / 2) / (2 * np.pi), step * step

def real(x, xp, w):
    ls = np.arange(1, len(g.pi) + 1)
    cx, cxp = np.outer(ls, (x - w) / sigma), np.outer(ls, (xp - w) / sigma)
    phi, dA = grid(np.vstack([cx, cxp, [[0, 0]]]))
    base = (1 - g.e) * phi((0, 0))
    p = base + g.e * sum(pi * phi(c) for pi, c in zip(g.pi, cx))
    q = base + g.e * sum(pi * phi(c) for pi, c in zip(g.pi, cxp))
    return np.array([np.maximum(p - al * q, 0).sum() * dA for al in alpha])

def merged(x, xp, y1):
    "The label-1 triangle piece at the real triangle (x, x', y_1)."
    mu, nu = (x - y1) / sigma, (xp - y1) / sigma
    phi, dA = grid(np.vstack([mu, nu, [0, 0]]))
    c, w = g.e * g.pi[0], lam * g.r
    pm, pn, p0 = phi(mu), phi(nu), phi((0, 0))
    return np.array([np.maximum(c * pm - al * c * pn - (al - 1) * w * p0, 0).sum() * dA for al in alpha])

LAMS = (0.5, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 0.999)
def new(x, xp, y1):
    "The smallest over λ (a per-α choice: the bound holds for each α separately); also label 1's piece alone."
    global lam
    a, v = float(np.linalg.norm(x - xp)), max(float(np.linalg.norm(x - y1)), 1e-9)
    best, alone = np.full(len(alpha), np.inf), None
    for lam in LAMS:
        rest = LabelGroup(g.e, (1 - lam) * g.r, g.z, np.r_[0.0, g.pi[1:]])
        m1 = merged(x, xp, y1)
        best = np.minimum(best, lost + m1 + member_profile(rest, sigma, alpha, a=a, u=2.0, v=v))
        if lam == 0.999: alone = m1
    return best, alone

def old(x, xp, y1):
    a, v = float(np.linalg.norm(x - xp)), max(float(np.linalg.norm(x - y1)), 1e-9)
    return lost + member_profile(g, sigma, alpha, a=a, u=2.0, v=v)

x, xp = np.array([1.0, 0.0]), np.array([-1.0, 0.0])
f = lambda v: ' '.join(f'{t:9.3e}' for t in v)
print(f'MUST.ow n={n} m={m} b={b} σ={sigma} λ={lam}: e={g.e:.4g} r={g.r:.4g} z={g.z:.4g} π_1={g.pi[0]:.4f}')
print('eps       ', f(eps))
for name, w in [('displacing', xp), ('w=0', np.zeros(2)), ('w=(0,1)', np.array([0., 1.])),
                ('w=(0.5,0.5)', np.array([.5, .5])), ('w=(-0.5,0.8)', np.array([-.5, .8]))]:
    for orient, (P, Q) in (('fwd', (x, xp)), ('rev', (xp, x))):
        r_ = real(P, Q, w); o, (nw, al1) = old(P, Q, w), new(P, Q, w)
        print(f'{name} {orient}\n   real      {f(r_)}\n   old/real  {f(o / np.maximum(r_, 1e-300))}'
              f'\n   new/real  {f(nw / np.maximum(r_, 1e-300))}\n   lab1/real {f(al1 / np.maximum(r_, 1e-300))}')
