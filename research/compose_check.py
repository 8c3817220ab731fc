"k-fold composition of the new one-step certificate (profile -> symmetric dominating PLD -> library FFT composition)."
import json, math, sys, time
import numpy as np
from labels_core import profile_new, profile_labelled, profile_attack, profile_to_pld
from must_nbdev.accounting.compose import compose_plds

def run(name, n, m, b, sigma, k, delta, h=1e-3, smax=4.0):
    J = int(round(smax / h))
    a = np.exp(np.arange(J + 1) * h)
    t0 = time.time()
    L = profile_labelled(name, n, m, b, sigma, a)
    U = np.minimum(profile_new(name, n, m, b, sigma, a), L)
    t1 = time.time()
    out = dict(scheme=name, n=n, m=m, b=b, sigma=sigma, k=k, delta=delta, h=h, smax=smax, U_at_smax=float(U[-1]),
               L_at_smax=float(L[-1]), profile_seconds=t1 - t0)
    for tag, prof in (('new', U), ('labelled_via_converter', L)):
        pld = profile_to_pld(prof, h)
        c = compose_plds([(pld, k)])
        lo, up = c.eps_bounds(delta)
        out[tag] = dict(eps_lower=lo, eps_upper=up, one_step_mass=float(pld.masses.sum() + pld.inf_mass), inf_mass=pld.inf_mass)
    out['seconds'] = time.time() - t0
    print(json.dumps(out), flush=True)
    with open('compose_check.jsonl', 'a') as fh: fh.write(json.dumps(out) + '\n')

if __name__ == '__main__':
    run('must-ow', 60000, 256, 6000, 2.62, 2350, 1e-5, h=float(sys.argv[1]) if len(sys.argv) > 1 else 1e-3)
    run('wr', 60000, 256, None, 2.62, 2350, 1e-5, h=float(sys.argv[1]) if len(sys.argv) > 1 else 1e-3)
    run('must-ww', 60000, 256, 6000, 2.62, 2350, 1e-5, h=float(sys.argv[1]) if len(sys.argv) > 1 else 1e-3)
