"Real (feasible) triangles near the displacing one, and the equilateral one: does any raise the adaptive DP?"
from common import *
from common import adaptive_dp
from net import A_tri as A_opt
import json
e1, m1 = np.array([1., 0.]), np.array([-1., 0.])
circ = lambda t: np.array([-math.cos(t), math.sin(t)])       # angle t from -e1
tris = [(f"x' on the circle, {t} rad from -e1", m1, e1, circ(t)) for t in (0.02, 0.05, 0.1, 0.2, 0.4, 0.8, 1.6)]
tris += [(f"y on the circle, {t} rad from -e1", circ(t), e1, m1) for t in (0.02, 0.05, 0.1, 0.2, 0.4, 0.8)]
tris += [(f"y inside, (-1+{d}, 0) + perpendicular {p}", np.array([-1 + d, p]), e1, m1) for d, p in ((0.05, 0.2), (0.2, 0.5))]
eq = [np.array([math.cos(t), math.sin(t)]) for t in (math.pi, math.pi / 3, -math.pi / 3)]
tris += [("equilateral, inscribed", *eq)]
for name, q, s, k, sc, eps in [("Fig S2", 0.02, 4.0, 1000, ('wor', 10_000, 200), 1.0),
                                ("DP-SGD σ=2.62", 256 / 60000, 2.62, 2350, ('wor', 60_000, 256), 0.6915)]:
    h = account(make_scheme(sc[0], sc[1], m=sc[2]), sigma=s, steps=k, eps=eps, attack=False).h
    base = [A_opt(q, s, h), A_opt(q, s, h, True)]
    v0 = adaptive_dp(tuple(base), k, eps, 0, h, MAX_BINS)['values'][0]
    print(f"{name}: two orientations δ({eps}) = {v0:.6e}", flush=True)
    for lab, y, x, xp in tris:
        o = tri_opt(y, x, xp, q, s, h)
        v = adaptive_dp(tuple(base + [o]), k, eps, 0, h, MAX_BINS)['values'][0]
        print(f"  {lab}: ratio {v / v0:.6f}", flush=True)
