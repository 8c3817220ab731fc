from common import *
from common import _dp
from net import A_tri as A_opt
q, s, k, e0 = 0.02, 4.0, 1000, 1.0
h = account(make_scheme('wor', 10_000, m=200), sigma=s, steps=k, eps=e0, attack=False).h
base = [A_opt(q, s, h), A_opt(q, s, h, True)]
v0 = _dp(tuple(base), k, e0, 0, h, MAX_BINS)['values'][0]
def info(a, b, **kw):
    p = tri_pld(np.array(a), np.array(b), q, s, h, **kw)
    L = p.losses; m = p.masses
    v = _dp(tuple(base + [(p, 'x')]), k, e0, 0, h, MAX_BINS)['values'][0]
    print(f"a={a} b={b} {kw}: mass {m.sum():.15f} E[e^-L] {np.sum(m*np.exp(-L)):.15f} mean L {np.sum(m*L):.4e} "
          f"d(0.01) {p.delta(0.01):.5e} d(.1) {p.delta(0.1):.4e} DP ratio {v/v0:.6f}", flush=True)
pa = base[0][0]; L = pa.losses; m = pa.masses
print(f"A: mass {m.sum():.15f} E[e^-L] {np.sum(m*np.exp(-L)):.15f} mean L {np.sum(m*L):.4e} d(0.01) {pa.delta(0.01):.5e} d(.1) {pa.delta(0.1):.4e}")
th = 0.02; info([2, 0], [1 - math.cos(th), math.sin(th)])
info([2, 0], [1 - math.cos(th), math.sin(th)], n1=6000)
info([2, 0], [0, 0.02]); info([2, 0], [0, 0.05]); th = 0.05; info([2, 0], [1 - math.cos(th), math.sin(th)])
info([2, 0], [0, 1e-4]); info([2, 0], [1e-4, 0.0])
