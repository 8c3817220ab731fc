"""The stand-in game of `_proxy_delta` (09_triangle_certificate, on the grid PROXY_COARSEN x 4h) with label 2 as its
symmetrised pair against label 2 as its displacing pair (what no net can beat): an estimate of what a label-2 net could
buy, per split, at the DP-SGD size. Prints scheme, σ, split, δ (label 2 symmetrised), δ (displacing), relative gain.

    python research/tight_default/standin_gain.py > research/tight_default/standin_gain_out.txt
"""
import math, sys, numpy as np
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting import triangle_certificate as tc
from must_nbdev.accounting.pld import MAX_BINS, upper_pld, loss_cells, CAP_MASS
from must_nbdev.accounting.pairs import GaussianMixture
from must_nbdev.accounting.upper_dp import upper_game_dp
from must_nbdev.accounting.adaptive import attack_runs
def proxy(scheme, sigma, steps, eps, h, ratio, tight_labels):
    labels, null, left = tc._rated_labels(scheme, sigma, ratio)
    h = tc.PROXY_COARSEN * h
    one = lambda eta, l: GaussianMixture(np.log([1 - eta, eta]), np.array([0.0, 2 * l / sigma]), 1.0)
    zero = GaussianMixture(np.zeros(1), np.zeros(1), 1.0)
    groups = tuple((pi, ((upper_pld(loss_cells(one(eta, l), zero, h, max_cells=4 * MAX_BINS, width=1.0), h) if l in tight_labels else
                          tc.label_pld(eta, 2 * l / sigma, h),),)) for pi, eta, l in labels if pi >= CAP_MASS)
    left += sum(pi for pi, *_ in labels if pi < CAP_MASS)
    window = attack_runs(scheme, sigma, 'substitute', h, MAX_BINS)[0]
    return float(upper_game_dp(groups, steps, eps, 0, h, window, MAX_BINS, null=null, left=left,
                               whole=tc.whole_steps(scheme, sigma, h, MAX_BINS))['values'][0])
if __name__ == '__main__':
    for name, sigma, eps, splits in (('wr', 2.62, 0.7319, (1, 8)), ('must-ow', 2.62, 0.7786, (1, tc.PER_COPY)), ('wr', 1.1, 8.436, (1, 16))):
        sc = scheme_at(name, 60000, 256, b=6000); h = account(sc, sigma=sigma, steps=2350, delta=1e-5).h * 4
        for sp in splits:
            d1 = proxy(sc, sigma, 2350, eps, h, sp, {1}); d12 = proxy(sc, sigma, 2350, eps, h, sp, {1, 2})
            print(name, sigma, sp, d1, d12, (d1 - d12) / d1, flush=True)
