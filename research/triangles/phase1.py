"What inflating the displacing pair costs in the adaptive DP (the price a Loewner-net certificate pays near A)."
from common import *
from common import loss_cells, lower_pld, adaptive_dp
def A_opt(q, s, h, scale, fat=0.0, swap=False):
    if fat == 0:
        A = GaussianMixture(np.log([1 - q, q]), np.array([0., 2 * scale]), s); B = GaussianMixture(np.zeros(1), np.zeros(1), s)
        if swap: A, B = B, A
        return (lower_pld(loss_cells(A, B, h, max_cells=4 * MAX_BINS, width=1.0), h), f"A scale {scale} swap {swap}")
    return (tri_pld(np.array([2 * scale, 0.]), np.array([0., fat]), q, s, h, swap=swap), f"A scale {scale} fat {fat}")
for (name, q, s, k, eps, sc) in [("FigS2", 0.02, 4.0, 1000, 1.0, ('wor', 10_000, 200)),
                                  ("DPSGD2.62", 256 / 60000, 2.62, 2350, None, ('wor', 60_000, 256))]:
    r = account(make_scheme(sc[0], sc[1], m=sc[2]), sigma=s, steps=k, eps=eps if eps else None,
                delta=None if eps else 1e-5, attack=False)
    h = r.h; e0 = eps if eps else r.eps
    v0, _ = run_dp([A_opt(q, s, h, 1.0), A_opt(q, s, h, 1.0, swap=True)], k, e0, h)
    print(name, f"certified {r.upper:.5g} at e0={e0:.4g}: two orientations δ={v0:.5e}", flush=True)
    for eta in (0.005, 0.01, 0.02, 0.05):
        v, _ = run_dp([A_opt(q, s, h, 1 + eta), A_opt(q, s, h, 1 + eta, swap=True)], k, e0, h)
        print(f"  scale {1+eta}: δ={v:.5e} ratio {v/v0:.4f}", flush=True)
    # the fattened members go through the planar quadrature: compare them with A through the same quadrature
    vp, _ = run_dp([A_opt(q, s, h, 1.0, 1e-6), A_opt(q, s, h, 1.0, 1e-6, swap=True)], k, e0, h)
    print(f"  planar quadrature of A: δ={vp:.5e} (library 1-D lower PLD: {v0:.5e})", flush=True)
    for fat in (0.05, 0.1, 0.2):
        v, _ = run_dp([A_opt(q, s, h, 1.0, fat), A_opt(q, s, h, 1.0, fat, swap=True)], k, e0, h)
        print(f"  fat {fat} (infeasible member): δ={v:.5e} ratio {v/vp:.4f} to the planar A", flush=True)
