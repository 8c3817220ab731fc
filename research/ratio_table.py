"One-step ratios of the new certificate, today's labelled bound and the displacing attack (delta at eps)."
import json, math, time
import numpy as np
from labels_core import profile_new, profile_attack, profile_labelled
rows = []
import os
SKIP = os.environ.get('FIGS2_ONLY')
if SKIP: rows = [json.loads(l) for l in open('ratio_table.log') if l.startswith('{')]
cases = [('wr', 60000, 256, None), ('must-ow', 60000, 256, 6000), ('must-ww', 60000, 256, 6000)]
for nm, n, m, b in ([] if SKIP else cases):
    for s in (1.1, 2.62):
        a = np.exp(np.array([0.5, 1.0, 2.0]))
        t0 = time.time()
        U, L, A = profile_new(nm, n, m, b, s, a), profile_labelled(nm, n, m, b, s, a), profile_attack(nm, n, m, b, s, a)
        for i, e in enumerate((0.5, 1.0, 2.0)):
            rows.append(dict(scheme=nm, n=n, m=m, b=b, sigma=s, eps=e, new=U[i], labelled=L[i], attack=A[i],
                             new_over_attack=U[i] / A[i], labelled_over_attack=L[i] / A[i]))
            print(json.dumps(rows[-1]), flush=True)
for nm in ('wr', 'must-ow', 'must-ww'):
    n, m, b, s = 10000, 200, (None if nm == 'wr' else 118), 4.0
    a = np.exp(np.array([1.0]))
    U, L, A = profile_new(nm, n, m, b, s, a), profile_labelled(nm, n, m, b, s, a), profile_attack(nm, n, m, b, s, a)
    rows.append(dict(scheme=nm, n=n, m=m, b=b, sigma=s, eps=1.0, new=U[0], labelled=L[0], attack=A[0],
                     new_over_attack=U[0] / A[0], labelled_over_attack=L[0] / A[0]))
    print(json.dumps(rows[-1]), flush=True)
json.dump(rows, open('ratio_table.json', 'w'), indent=1)
