"""WOR at the DP-SGD size with σ = 1.1: the triangle net's ε(1e-5) for a given tol and coarsen (argv), between the
attack's 6.72 and the public labels' 7.49. Outputs: dpsgd_net_11_out.txt (tol 0.02 with coarsen 2; tol 0.05 with coarsen 4)."""
import sys, time
from must_nbdev.core.sampling import make_scheme
from must_nbdev.accounting.triangle_certificate import triangle_epsilon
tol, c = float(sys.argv[1]), int(sys.argv[2])
sc = make_scheme('wor', 60000, m=256)
r = triangle_epsilon(sc, sigma=1.1, steps=2350, delta=1e-5, h=0.002, eps_lo=6.72, eps_hi=7.49, tol=tol, coarsen=c)
print(tol, c, r, r.value / 6.72, flush=True)
