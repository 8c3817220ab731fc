"""Does the adaptive attack gain from the c-family (x = +1, x' = −1, every other record at c ∈ [−1, 1]) for schemes that
draw a record several times? c = −1 is the displacing pair, c = +1 its reverse (mirrored). The count stays hidden: a
step is Σ_l π_l N(l(1 − c)) against Σ_l π_l N(−l(1 + c)) (1-D, clip 1). Each option is a real pair of datasets, so the
DP over them is a certified lower bound like the two-orientation one. argv: scheme sigma eps c [c ...] (DP-SGD size:
n = 60,000, m = 256, b = 6000, 2350 steps, h = 0.002). Output: c_family_out.txt."""
import sys, time, math
import numpy as np
from must_nbdev.core.sampling import scheme_at, occurrence_pmf
from must_nbdev.accounting.pairs import GaussianMixture, COMPONENT_FLOOR
from must_nbdev.accounting.pld import loss_cells, lower_pld, MAX_BINS
from must_nbdev.accounting.adaptive import adaptive_dp

name, sigma, eps, cs = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), [float(c) for c in sys.argv[4:]]
k, h = 2350, 0.002
sc = scheme_at(name, 60_000, 256, b=6000)
occ = occurrence_pmf(sc); keep = occ.log_pmf >= math.log(COMPONENT_FLOOR)
l, lw = np.flatnonzero(keep).astype(float), occ.log_pmf[keep]
def opt(c):
    A, B = GaussianMixture(lw, l * (1 - c), sigma), GaussianMixture(lw, -l * (1 + c), sigma)
    return (lower_pld(loss_cells(A, B, h, max_cells=4 * MAX_BINS, width=1.0), h), f"c={c:g}" + (" reversed" if c > 0 else ""))
base = (opt(-1.0), opt(1.0))
t = time.perf_counter(); v0 = adaptive_dp(base, k, eps, 0, h, MAX_BINS)['values'][0]
print(f"{name} σ={sigma} h={h}: two orientations δ({eps}) = {v0:.6e} ({time.perf_counter() - t:.0f} s)", flush=True)
opts = base + tuple(opt(c) for c in cs)
t = time.perf_counter(); d = adaptive_dp(opts, k, eps, 0, h, MAX_BINS)
print(f"  with c in {cs}: δ = {d['values'][0]:.6e}, ratio {d['values'][0] / v0:.6f} ({time.perf_counter() - t:.0f} s)",
      flush=True)
