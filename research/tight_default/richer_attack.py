"""Does a richer real 1-D family raise the adaptive attack at the goal's sizes? The package's attack for a fixed-size
scheme under substitution plays the displacing pair (x = +1, x' and every other record at -1) and its reverse,
adaptively. This adds, as further options of the same adaptive DP (and of the fixed mixes), the collinear pairs with
x = +1, x' = -1 and every other record at y: a batch with l copies of the differing record moves by l(1 - y)
against l(-1 - y), with l from the scheme's occurrence pmf. Each is a real pair of neighbouring datasets, so the
attack stays a certified lower bound. Budget 1e10 work units, enough for the adaptive DP except where it says.

    python research/tight_default/richer_attack.py SCHEME SIGMA Y1,Y2,... [s2]    # s2: Figure S2's δ(1)
"""
import math, sys, time
import numpy as np
from must_nbdev.core.sampling import scheme_at, occurrence_pmf
from must_nbdev.accounting import attack as A, adaptive as AD
from must_nbdev.accounting.pairs import COMPONENT_FLOOR, GaussianMixture
from must_nbdev.accounting.account import account

BUDGET = 1e10
name, sigma, ys = sys.argv[1], float(sys.argv[2]), [float(v) for v in sys.argv[3].split(',')]
s2 = len(sys.argv) > 4
kw = dict(steps=1000, eps=1.0) if s2 else dict(steps=2350, delta=1e-5)
scheme = scheme_at(name, *((10000, 200) if s2 else (60000, 256)), b=118 if s2 else 6000)
plain = A.attack_pairs

def richer(scheme, sigma, relation=None):
    "The package's pairs, then the collinear pairs with the other records at each y."
    out = plain(scheme, sigma, relation)
    if not scheme.fixed_size or (relation or scheme.relation) != 'substitute': return out
    occ = occurrence_pmf(scheme); keep = occ.log_pmf >= math.log(COMPONENT_FLOOR)
    l, lw = np.flatnonzero(keep).astype(float), occ.log_pmf[keep]
    G = lambda mu: GaussianMixture(lw, mu, sigma)
    return out + [(G(l * (1 - y)), G(l * (-1 - y)), True) for y in ys]

t0 = time.perf_counter(); r0 = account(scheme, sigma=sigma, attack_budget=BUDGET, **kw); t1 = time.perf_counter()
A.attack_pairs = AD.attack_pairs = richer; AD.attack_runs.cache_clear()
r1 = account(scheme, sigma=sigma, attack_budget=BUDGET, **kw); t2 = time.perf_counter()
print(f"{name} sigma={sigma} {kw} others at y in {ys}: certified {r0.upper:.6g}; attack {r0.lower:.6g} "
      f"({r0.attack_name}, {t1 - t0:.1f} s) -> {r1.lower:.6g} ({r1.attack_name}, {t2 - t1:.1f} s)")
