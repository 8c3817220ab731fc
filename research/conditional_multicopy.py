"""NOT a certificate: what the RDP route would give for WR / MUST IF the unlabelled displacing mixture
P = Σ_l w_l N(2l/σ, 1) vs Q = N(0, 1) (w = occurrence pmf of the scheme) were the per-step Rényi maximiser (unproven)."""
import json, math
import numpy as np
from must_nbdev.core.sampling import make_scheme, occurrence_pmf
from dp_accounting.rdp import rdp_privacy_accountant as R
from rdp_wor import ORDERS

def mixture_rdp(w, c, orders, reverse=False, h=0.01):
    l = np.flatnonzero(w > 1e-30); lw = np.log(w[l]); mu = l * c
    out = []
    for a in orders:
        z = np.arange(-14, 14 + a * mu.max() + h, h)
        lmix = np.logaddexp.reduce(lw[None] + z[:, None] * mu[None] - mu[None] ** 2 / 2, axis=1)   # log P/φ
        lphi = -z ** 2 / 2 - 0.5 * math.log(2 * math.pi)
        lg = lphi + (a * lmix if not reverse else (1 - a) * lmix)
        mx = lg.max(); out.append((math.log(np.exp(lg - mx).sum() * h) + mx) / (a - 1))
    return np.array(out)

if __name__ == '__main__':
    orders = ORDERS[(ORDERS >= 1.05) & (ORDERS <= 40)]
    for name, b in [('wor', None), ('wr', None), ('must-ow', 118), ('must-ww', 118)]:
        sc = make_scheme(name, 10_000, m=200, b=b); w = occurrence_pmf(sc).pmf
        fwd = mixture_rdp(w, 0.5, orders); rev = mixture_rdp(w, 0.5, orders[::16], reverse=True)
        d, a = R.compute_delta(orders, 1000 * fwd, 1.0)
        print(json.dumps(dict(scheme=name, case='FigS2 delta(eps=1), CONDITIONAL on the unproven maximiser',
                              delta=float(d), order=float(a), reverse_le_forward=bool(np.all(rev <= fwd[::16] + 1e-15)))), flush=True)
