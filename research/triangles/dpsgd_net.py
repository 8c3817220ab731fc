"""The triangle-net certificate (accounting/09_triangle_certificate) at the DP-SGD size: WOR n = 60,000, m = 256, k = 2350,
eps(delta = 1e-5). python dpsgd_net.py SIGMA [TOL] (about 15-30 min on one core)."""
import sys, json, time
from must_nbdev import make_scheme, account
from must_nbdev.accounting.triangles import NET_TOL
from must_nbdev.accounting.triangle_certificate import triangle_epsilon
s = float(sys.argv[1]); tol = float(sys.argv[2]) if len(sys.argv) > 2 else NET_TOL
wor = make_scheme('wor', 60_000, m=256)
r = account(wor, sigma=s, steps=2350, delta=1e-5)
c = triangle_epsilon(wor, sigma=s, steps=2350, delta=1e-5, h=r.h, eps_lo=r.lower, eps_hi=r.upper, tol=tol)
print(json.dumps(dict(sigma=s, tol=tol, h=r.h, attack=r.lower, attack_name=r.attack_name, public_labels=r.upper,
                      net=c.value, gap_today=r.upper / r.lower, gap_net=c.value / r.lower, members=c.members,
                      seconds=round(c.seconds), err=c.err_charged)))
