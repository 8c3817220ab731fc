"""One step: how far is an unlabelled-net member above a real step whose triangle it covers? (issue 23)

Real step: MUST.ow (or MUST.ww's single-group analogue is not modelled here), x = (1, 0), x' = (-1, 0), every other
record at w in the unit disc. Then the batch sum depends only on the copy count L, and
M(D) = Σ_l P(L=l) N(l(x − w), σ²I), M(D') the same with x'. Its hockey-stick H_α is integrated on a 2-D grid.
Bounds (the theorem of 04_unlabelled at Lemma G's radii, summed over groups, plus the left-out mass):
  y family  (u = 2, v = |x − w|),  z family (u = |x − w|, v = 2),  both  (u = v = |x − w|: a 5-sided member),
  full radii (the partially unlabelled profile's group bound).
Usage: python member_slack.py [SIGMA] [n m b]   (default 2.62 60000 256 6000)
"""
import sys, math
import numpy as np
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.unlabelled import label_groups
from must_nbdev.accounting.unlabelled_net import member_profile

sigma = float(sys.argv[1]) if len(sys.argv) > 1 else 2.62
n, m, b = (int(v) for v in sys.argv[2:5]) if len(sys.argv) > 4 else (60_000, 256, 6_000)
scheme = scheme_at('must-ow', n, m, b=b)
(g,), lost = label_groups(scheme)
eps = np.array([0.0, 0.01, 0.05, 0.2, 0.5, 1.0])
alpha = np.exp(eps)

def bound(a, u, v):
    return lost + member_profile(g, sigma, alpha, a=a, u=u, v=v)

def real(x, xp, w, step=0.01, span=7.0):
    "H_α(M(D) || M(D')) with every other record at w (unit noise after scaling by σ), by a 2-D Riemann sum."
    ls = np.arange(1, len(g.pi) + 1)
    cx, cxp = np.outer(ls, (x - w) / sigma), np.outer(ls, (xp - w) / sigma)
    lo = np.minimum(0, np.minimum(cx.min(0), cxp.min(0))) - span
    hi = np.maximum(0, np.maximum(cx.max(0), cxp.max(0))) + span
    gx, gy = np.arange(lo[0], hi[0], step), np.arange(lo[1], hi[1], step)
    X, Y = np.meshgrid(gx, gy, indexing='ij')
    phi = lambda c: np.exp(-((X - c[0]) ** 2 + (Y - c[1]) ** 2) / 2) / (2 * np.pi)
    base = (1 - g.e) * phi((0, 0))                    # r + z: the record absent (every other record at w)
    p = base + g.e * sum(pi * phi(c) for pi, c in zip(g.pi, cx))
    q = base + g.e * sum(pi * phi(c) for pi, c in zip(g.pi, cxp))
    return np.array([np.maximum(p - al * q, 0).sum() * step * step for al in alpha])

x, xp = np.array([1.0, 0.0]), np.array([-1.0, 0.0])
print(f'MUST.ow n={n} m={m} b={b} sigma={sigma}: e={g.e:.4g} r={g.r:.4g} z={g.z:.4g} labels={len(g.pi)} lost={lost:.2g}')
print('eps:', eps)
for name, w in [('displacing (w = x\')', xp), ('w = 0', np.zeros(2)), ('w = (0, 1)', np.array([0.0, 1.0])),
                ('w = (0.5, 0.5)', np.array([0.5, 0.5])), ('w = (-0.5, 0.8)', np.array([-0.5, 0.8])),
                ('w = x (reverse of displacing)', x)]:
    for orient, (P, Q) in (('fwd', (x, xp)), ('rev', (xp, x))):
        d = max(float(np.linalg.norm(P - w)), 1e-9)
        r_ = real(P, Q, w)
        ys, zs, both, full = bound(2.0, 2.0, d), bound(2.0, d, 2.0), bound(2.0, d, d), bound(2.0, 2.0, 2.0)
        f = lambda v: ' '.join(f'{t:9.3e}' for t in v)
        print(f'{name:32s} {orient} |P-w|={d:.3f}\n   real  {f(r_)}\n   y/real {f(ys / np.maximum(r_, 1e-300))}'
              f'\n   z/real {f(zs / np.maximum(r_, 1e-300))}\n   both/real {f(both / np.maximum(r_, 1e-300))}'
              f'\n   full/real {f(full / np.maximum(r_, 1e-300))}')
