"""MUST.ow at several sizes: package / matched / best split / (i) Z unlabelled / (iii) Q unlabelled, ratio to the displacing attack."""
import numpy as np
from scipy import stats
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.unlabelled import label_groups, unlabelled_profile
from generic import value, matched_x, best, _unl
print(f"{'n':>6} {'m':>4} {'b':>5} {'sig':>4} {'eps':>4} {'z/(r+z)':>7} {'attack':>10} {'pkg':>8} {'matched':>8} {'best':>8} {'(i)Zunl':>8} {'(iii)Qunl':>9}")
for (n, m, b) in [(60000, 256, 6000), (60000, 256, 1000), (60000, 256, 600), (10000, 200, 118)]:
    sc = scheme_at('must-ow', n, m, b=b); (g,), lost = label_groups(sc)
    for sigma in (0.8, 1.1, 2.0):
        th = 2 * np.arange(1, len(g.pi) + 1) / sigma
        for eps in (0.5, 2.0):
            al = np.exp(eps); e, r, z, pi = g.e, g.r, g.z, g.pi
            A = e * _unl(al + (al - 1) * (r + z) / e, np.ones(len(pi)), pi, th)[0]
            pk = float(unlabelled_profile(sc, sigma, np.array([al]))[0])
            vm = value(matched_x(al, e, r, z, pi, th), al, e, r, z, pi, th)
            vb, _ = best(al, e, r, z, pi, th, A)
            vi, _ = best(al, e, r, z, pi, th, A, zmode='unl')
            viii, _ = best(al, e, r, z, pi, th, A, qmode='unl')
            print(f"{n:6d} {m:4d} {b:5d} {sigma:4.1f} {eps:4.1f} {z/(r+z):7.3f} {A:10.4e} {pk/A:8.5f} {vm/A:8.5f} {vb/A:8.5f} {vi/A:8.5f} {viii/A:9.5f}", flush=True)
