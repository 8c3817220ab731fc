"Task A numbers: RDP certificate (sampled-Gaussian RDP at q = m/n, noise σ/2) composed and converted, vs today's PLD."
import json, time
import numpy as np
from rdp_wor import ORDERS, wor_rdp_per_step, optimal_conversion_delta, optimal_conversion_epsilon
from dp_accounting.rdp import rdp_privacy_accountant as R
base = {(10000, 200, 4.0, 1000): 1.148289e-3, (60000, 256, 1.1, 2350): 7.4887, (60000, 256, 2.62, 2350): 0.84658,
        (60000, 256, 0.8, 23500): 87.981}
for (n, m, s, k), today in base.items():
    t = time.time()
    rdp = k * wor_rdp_per_step(n, m, s, ORDERS)
    if n == 10000:
        v, a = R.compute_delta(ORDERS, rdp, 1.0)
        near = ORDERS[(ORDERS > 0.8 * a) & (ORDERS < 1.25 * a)]
        vo, ao = optimal_conversion_delta(near, k * wor_rdp_per_step(n, m, s, near), 1.0)
        what = 'delta(eps=1)'
    else:
        v, a = R.compute_epsilon(ORDERS, rdp, 1e-5)
        near = ORDERS[(ORDERS > 0.9 * a) & (ORDERS < 1.1 * a)]
        vo, ao = optimal_conversion_epsilon(near, k * wor_rdp_per_step(n, m, s, near), 1e-5)
        what = 'eps(delta=1e-5)'
    print(json.dumps(dict(n=n, m=m, sigma=s, k=k, query=what, pld_today=today, rdp_cks=float(v), order_cks=float(a),
                          rdp_optimal_conversion=float(vo), order_opt=float(ao), best=float(min(v, vo, today)),
                          winner='RDP' if min(v, vo) < today else 'PLD', seconds=round(time.time() - t, 1))), flush=True)
