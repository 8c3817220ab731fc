"Refinement check of the worst 2-D configuration found by moonshot2d.py at Fig S2 (grid step h halved twice)."
import json, math
import numpy as np
from moonshot import EPS, margin
def slack(gamma, sigma, y, a, b, h, L=None):
    L = L or 8 + 2 / sigma
    ax = np.arange(-L, L + h / 2, h)
    X, Y = np.meshgrid(ax, ax, indexing='ij')
    def pair(y, a, b):
        y, a, b = (np.asarray(w, float) / sigma for w in (y, a, b))
        lph = lambda m: -0.5 * ((X - m[0]) ** 2 + (Y - m[1]) ** 2)
        lp = np.logaddexp(math.log1p(-gamma) + lph(y), math.log(gamma) + lph(a))
        lq = np.logaddexp(math.log1p(-gamma) + lph(y), math.log(gamma) + lph(b))
        return np.exp(lp).ravel() * h * h / (2 * math.pi), np.exp(lq).ravel() * h * h / (2 * math.pi)
    def hockey(p, q): return np.array([np.maximum(p - math.exp(e) * q, 0).sum() for e in EPS])
    Ps, Qs = pair([-1, 0], [1, 0], [-1, 0]); A, B = hockey(Ps, Qs), hockey(Qs, Ps)
    H = hockey(*pair(y, a, b)); lam, s = margin(H, A, B)
    return lam, s
if __name__ == '__main__':
    y, a, b = [1.0, 0.0], [-0.92388, -0.382683], [0.92388, 0.382683]
    for h in (0.05, 0.025, 0.0125):
        lam, s = slack(0.02, 4.0, y, a, b, h)
        print(json.dumps(dict(gamma=0.02, sigma=4.0, y=y, a=a, b=b, h=h, lam=lam, slack=s)), flush=True)
