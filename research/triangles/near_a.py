"""Price of a Loewner net near the displacing triangle A (y = x' = -e1, x = e1) at Fig S2, one family: the free
vertex x' = -e1 + e in the disc, cells on dyadic rings |e| in [rho/2, rho] of angular size ~rho/2, plus one member
for the innermost ball. Exploration: member bounds from sampled cells (+10%), member PLDs are lower quadratures."""
from common import *
from common import adaptive_dp
from net import gram, A_tri as A_opt, gram_opt
import json

def cell_member(lo, hi, polar_f, tau_f, sub=9):
    pts = [polar_f(r, t) for r in np.linspace(lo[0], hi[0], sub) for t in np.linspace(lo[1], hi[1], sub)]
    Gs = np.array([gram(*p) for p in pts]); c = polar_f((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2); Gc = gram(*c)
    E = Gs - Gc; e11, e22, e12 = E[:, 0, 0], E[:, 1, 1], E[:, 0, 1]
    tau = max(tau_f * np.abs(e12).max(), 1e-7)
    d1 = max(e11.max(), 0) + tau; d2 = max(np.max(e22 + e12 ** 2 / (d1 - e11)), 0) + 1e-9
    return Gc + np.diag([d1 * 1.1, d2 * 1.1])

def xp_free(r, t):       # x' = -e1 + r (cos t, sin t), kept in the disc by the angle range
    return np.array([-1., 0.]), np.array([1., 0.]), np.array([-1 + r * math.cos(t), r * math.sin(t)])

if __name__ == '__main__':
    q, s, k, e0 = 0.02, 4.0, 1000, 1.0
    h = account(make_scheme('wor', 10_000, m=200), sigma=s, steps=k, eps=e0, attack=False).h
    base = [A_opt(q, s, h), A_opt(q, s, h, True)]
    v0 = adaptive_dp(tuple(base), k, e0, 0, h, MAX_BINS)['values'][0]
    print(f"two orientations {v0:.6e}", flush=True)
    members, rho = [], 0.4
    while rho > 0.004:
        # |x'| <= 1 with x' = -e1 + r e^{it} means cos t >= r/2: t in [-acos(r/2), acos(r/2)]
        tmax = math.acos(min(rho / 4, 1)); n_ang = max(2, math.ceil(2 * tmax / (rho / 2) * rho))   # ~rho/2 arcs
        n_ang = max(2, math.ceil(2 * tmax * 0.75 * rho / (rho / 2)))
        for i in range(n_ang):
            lo, hi = (rho / 2, -tmax + 2 * tmax * i / n_ang), (rho, -tmax + 2 * tmax * (i + 1) / n_ang)
            best = None
            for tf in (0.25, 1.0, 4.0):
                o = gram_opt(cell_member(lo, hi, xp_free, tf), q, s, h, f"ring {rho:g} cell {i} tau {tf}")
                v = adaptive_dp(tuple(base + [o]), k, e0, 0, h, MAX_BINS)['values'][0]
                if best is None or v < best[1]: best = (o, v)
            members.append(best[0])
            print(f"rho {rho:g} cell {i}/{n_ang}: alone {best[1]/v0:.5f} ({best[0][1]})", flush=True)
        rho /= 2
    for tf in (0.25, 1.0, 4.0):    # the innermost ball |e| <= rho
        o = gram_opt(cell_member((0.0, -math.pi / 2), (rho, math.pi / 2), xp_free, tf), q, s, h, f"ball {rho:g} tau {tf}")
        v = adaptive_dp(tuple(base + [o]), k, e0, 0, h, MAX_BINS)['values'][0]
        print(f"innermost ball rho {rho:g} tau {tf}: alone {v/v0:.5f}", flush=True)
    v = adaptive_dp(tuple(base + members), k, e0, 0, h, MAX_BINS)['values'][0]
    print(json.dumps(dict(v0=v0, rings_together=v / v0, members=len(members))), flush=True)
