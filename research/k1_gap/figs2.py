"""MUST.ow at other sizes (Fig S2: n=10000, m=200, b=118): does the threshold-matched split still reach the attack?"""
import numpy as np, sys
from scipy import stats
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.unlabelled import label_groups, unlabelled_profile, LabelGroup
from ww import group_value, root, displacing_attack
from gap import optimize
for (n, m, b) in [(60000, 256, 6000), (10000, 200, 118), (60000, 256, 600), (60000, 256, 1000)]:
    sc = scheme_at('must-ow', n, m, b=b); (g,), lost = label_groups(sc)
    for sigma in (0.8, 1.1, 2.0):
        import ww; ww.SIGMA = sigma
        th = 2 * np.arange(1, len(g.pi) + 1) / sigma
        for eps in (0.5, 2.0):
            al = np.exp(eps); A, ts = displacing_attack([g], al)
            pk = float(unlabelled_profile(sc, sigma, np.array([al]))[0])
            vm = lost + group_value(g, al, ts, th)
            vz = lost + group_value(LabelGroup(g.e, g.r + g.z, 0.0, g.pi), al, ts, th)   # (i): Z as unlabelled as R
            Lam = np.exp(th * ts - th**2 / 2); TZ = (al - 1) * g.z / g.e
            bad = g.pi[Lam < al + TZ].sum()
            print(f"n={n} m={m} b={b} sigma={sigma} eps={eps}: z/(r+z)={g.z/(g.r+g.z):.3f} A={A:.4e} package/A={pk/A:.5f} "
                  f"matched/A={vm/A:.6f} (i)Z-unlabelled/A={vz/A:.6f}  pi-mass of unmatched labels={bad:.3g}")
