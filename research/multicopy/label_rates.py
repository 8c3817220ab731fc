"""Label rates per label (issue 23). Lemma 5 / 03_dominating split the copy count as: label l with probability π_l,
then l copies with probability η, else none (π_l η = P(l copies); one η for every label). Any split with its own rate
η_l per label is as valid (π_l η_l = P(l), Σ π_l ≤ 1, the rest a null label): the label and the count are drawn from
the sampler's randomness, independently of the data. A smaller η_2 hides a double draw better (its loss on a hit is
about log η_2 lower) at the price of a slightly larger η_1. This compares the public-label certificate (symmetrised
labels, composed) for η_l = η / r (l ≥ 2) and η_1 from the remaining mass. argv: scheme sigma r [r ...]."""
import sys, math, time
import numpy as np
from must_nbdev.core.sampling import scheme_at, occurrence_pmf
from must_nbdev.accounting.dominating import (MechanismPLD, add_symmetric_label, label_top, lower_symmetric,
                                              dominating_labels)
from must_nbdev.accounting.accountant import PrivacyAccountant
from must_nbdev.accounting.pld import CAP_MASS, CELLS_PER_WEIGHT, DiscretePLD

def mech(plan, inf, h):
    "Public-label mechanism from [(π, η, θ)] (symmetrised labels), as dominating_pld but with a rate per label."
    plan = [(pi, eta, th, math.log(CAP_MASS / pi), int(min(64, max(1, math.sqrt(CELLS_PER_WEIGHT / pi)))))
            for pi, eta, th in plan]
    J = max(math.ceil(label_top(eta, th, lc) / h) + c for _, eta, th, lc, c in plan)
    up, cells = np.zeros(2 * J + 1), []
    for pi, eta, th, lc, c in plan:
        tail, ell, p = add_symmetric_label(up, pi, eta, th, h, lc, c); inf += tail; cells.append((ell, p))
    lo = lower_symmetric(*(np.concatenate([c[i] for c in cells]) for i in (0, 1)), h, J, sum(p[0] for p in plan))
    zero = 1 - sum(p[0] for p in plan)
    up[J] += zero; lo[J] += zero
    return MechanismPLD([DiscretePLD(h, -J, up, inf)], [DiscretePLD(h, -J, lo, 0.0)])

name, sigma, rs = sys.argv[1], float(sys.argv[2]), [float(r) for r in sys.argv[3:]]
sc = scheme_at(name, 60_000, 256, b=6000)
eta, labels, left = dominating_labels(sc, sigma, 'substitute')
occ = occurrence_pmf(sc)
print(f"{name} σ={sigma}: η = {eta:.6g}, P(l) = {[f'{x:.3g}' for x in occ.pmf[1:5]]}, labels {len(labels)}", flush=True)
h = 2e-3 if sigma < 2 else 5e-4
for r in [1.0] + rs:
    P = occ.pmf
    plan = []
    rest = [(float(P[l]) / (eta / r), eta / r, 2 * l / sigma) for l in range(2, len(P)) if P[l] > 0]
    pi1 = 1 - sum(p for p, *_ in rest)
    eta1 = float(P[1]) / pi1
    if pi1 <= 0 or eta1 > 1: print(f"  r={r:g}: infeasible"); continue
    plan = [(pi1, eta1, 2 / sigma)] + [x for x in rest if x[0] >= CAP_MASS]
    inf = left + sum(x[0] for x in rest if x[0] < CAP_MASS)
    t = time.perf_counter()
    acc = PrivacyAccountant([(mech(plan, inf, h), 2350)])
    e = acc.epsilon(1e-5)
    print(f"  η_l = η/{r:g} (l ≥ 2): η_1 = {eta1:.6g} (+{eta1 / eta - 1:.2%}), π_2 = {rest[0][0]:.4g}: "
          f"ε(1e-5) ∈ [{e.lower:.5f}, {e.upper:.5f}] ({time.perf_counter() - t:.0f} s)", flush=True)
