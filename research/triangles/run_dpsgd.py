"""Certified Loewner-net bound for WOR at the DP-SGD size (n = 60,000, m = 256, k = 2350, eps(delta = 1e-5)):
python run_dpsgd.py TOL SIGMA."""
import sys; sys.path.insert(0, __import__('os').path.dirname(__file__))
from certify import *
from certify import _dp
tol, s = float(sys.argv[1]), float(sys.argv[2]); n, m, k, delta = 60_000, 256, 2350, 1e-5
q = m / n
r = account(make_scheme('wor', n, m=m), sigma=s, steps=k, delta=delta)
h = r.h; e_lo, e_hi = r.lower, r.upper
low = [(disp_lower(q, s, h), 'A'), (disp_lower(q, s, h, True), 'A reversed')]
t0 = time.time(); leaves = cover(s, tol); G = prune([g for *_, g in leaves]); t1 = time.time()
plds = [upper_pld(g, q, s, h) for g in G]; t2 = time.time()
span = math.ceil((e_hi - e_lo) / h) + 1
curve, err = upper_dp(plds, k, e_lo, h, low, span=span); t3 = time.time()
ok = np.flatnonzero(curve <= delta)
eps_net = e_lo + ok[0] * h if len(ok) else math.inf
out = dict(tol=tol, sigma=s, h=h, members=len(G), attack_eps=e_lo, certified_today=e_hi, certified_net=eps_net,
           ratio=eps_net / e_lo, attack_name=r.attack, fft_err=err, pld_s=round(t2 - t1, 1), dp_s=round(t3 - t2, 1))
print(json.dumps(out))
