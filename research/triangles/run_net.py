"""Certified Loewner-net bound for WOR at Fig S2 (n = 10,000, m = 200, sigma = 4, k = 1000, delta(eps = 1)):
python run_net.py TOL [K]."""
import sys
from certify import *
from certify import adaptive_dp
tol = float(sys.argv[1]); q, s, k, e0 = 0.02, 4.0, int(sys.argv[2]) if len(sys.argv) > 2 else 1000, 1.0
h = account(make_scheme('wor', 10_000, m=200), sigma=s, steps=k, eps=e0, attack=False).h
low = [(disp_lower(q, s, h), 'A'), (disp_lower(q, s, h, True), 'A reversed')]
v_low = adaptive_dp(tuple(low), k, e0, 0, h, MAX_BINS)['values'][0]
t0 = time.time(); leaves = cover(s, tol); G = prune([g for *_, g in leaves]); t1 = time.time()
plds = [upper_pld(g, q, s, h) for g in G]; t2 = time.time()
v_up, err = upper_dp(plds, k, e0, h, low); t3 = time.time()
out = dict(tol=tol, k=k, leaves=len(leaves), members=len(G), attack_two_orientations=v_low, certified_net=v_up,
           ratio=v_up / v_low, fft_err=err, cover_s=round(t1 - t0, 1), pld_s=round(t2 - t1, 1), dp_s=round(t3 - t2, 1))
print(json.dumps(out))
