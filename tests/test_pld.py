"""`must_nbdev.accounting.pld`: the upper (pessimistic) and lower (optimistic) discrete PLDs of a pair bracket its exact
δ(ε), computed here by numerical integration of the two densities; normalisation; the KL of a piled-up Poisson loss."""
import math
import numpy as np
import pytest
from scipy import integrate, stats
from must_nbdev.accounting.pairs import output_pair
from must_nbdev.accounting.pld import loss_cells, lower_pld, upper_pld
from must_nbdev.core.sampling import make_scheme


def poisson_pair_delta(q, sigma, eps):
    "δ(ε) = ∫ (p − e^ε q)_+ of P = (1−q)N(0,σ²) + qN(1,σ²) against Q = N(0,σ²) (add/remove), by quadrature."
    p = lambda x: (1 - q) * stats.norm.pdf(x, 0, sigma) + q * stats.norm.pdf(x, 1, sigma)
    f = lambda x: max(0.0, p(x) - math.exp(eps) * stats.norm.pdf(x, 0, sigma))
    # P > e^ε Q exactly where x > t: (1−q) + q e^{(2x−1)/2σ²} > e^ε
    t = 0.5 + sigma ** 2 * math.log(max((math.exp(eps) - 1 + q) / q, 1e-300))
    return integrate.quad(f, t, t + 40 * sigma, epsabs=1e-14, epsrel=1e-10, limit=200)[0]


@pytest.mark.parametrize('q,sigma', [(0.1, 1.0), (0.02, 0.7), (0.5, 2.0)])
def test_upper_and_lower_plds_bracket_the_exact_delta(q, sigma):
    P, Q = output_pair(make_scheme('poisson', 10**6, q=q), sigma, 'add_remove')
    h = 1e-3
    c = loss_cells(P, Q, h)
    up, lo = upper_pld(c, h), lower_pld(c, h)
    assert abs(up.masses.sum() + up.inf_mass - 1) < 1e-9 and lo.masses.sum() <= 1 + 1e-12
    for eps in (0.0, 0.1, 0.5, 1.0):
        exact = poisson_pair_delta(q, sigma, eps)
        assert lo.delta(eps) <= exact * (1 + 1e-7) + 1e-13 and exact <= up.delta(eps) * (1 + 1e-7) + 1e-13, (
            eps, lo.delta(eps), exact, up.delta(eps))
        assert up.delta(eps) - lo.delta(eps) <= 0.01 * exact + 1e-12     # a fine grid: a tight bracket


def test_lower_pld_keeps_the_kl_of_a_piled_up_poisson_loss():
    # q = 1e-3: half of P sits just above log(1 − q); the lower PLD must not round that pile down by a grid step
    P, Q = output_pair(make_scheme('poisson', 10**7, q=1e-3), 0.8, 'add_remove')
    c = loss_cells(P, Q, 1e-4)
    kl = float(np.exp(c.lA) @ (c.lA - c.lB))
    lo = lower_pld(c, 1e-4)
    assert 0.999 * kl < float(lo.masses @ lo.losses) <= kl * (1 + 1e-9)


def test_regression_max_bins_from_a_caller_is_checked_against_the_memory_budget():
    # regression: account(poisson, 0.05, 10, delta=1e-5, max_bins=10**30) allocated until MemoryError
    from must_nbdev import account, make_scheme
    from must_nbdev.accounting.pld import check_max_bins, BYTES_PER_BIN
    from must_nbdev.core.definitions import MEMORY_BUDGET
    with pytest.raises(ValueError, match='memory budget'):
        account(make_scheme('poisson', 10_000, q=0.01), sigma=0.05, steps=10, delta=1e-5, max_bins=10**30)
    assert check_max_bins(MEMORY_BUDGET // BYTES_PER_BIN) == MEMORY_BUDGET // BYTES_PER_BIN
    with pytest.raises(ValueError, match='max_bins'):
        check_max_bins(MEMORY_BUDGET // BYTES_PER_BIN + 1)
    with pytest.raises(ValueError, match='max_bins'):
        check_max_bins(1 << 20, budget=(1 << 20) * BYTES_PER_BIN - 1)


def test_one_budget_set_for_the_whole_package():
    "Issue 27: set_memory_budget moves every check at once; max_bins=None means what the budget allows, not unbounded."
    from must_nbdev import PrivacyAccountant, account, make_scheme
    from must_nbdev.accounting.pld import BYTES_PER_BIN
    from must_nbdev.accounting.compose import compose_many
    from must_nbdev.accounting.dominating import scheme_gaussian_pld
    from must_nbdev.core.definitions import set_memory_budget
    from must_nbdev.accounting.pld import budget_max_bins
    old = set_memory_budget(1 << 24)                                    # 16 MiB: 26,214 bins
    try:
        assert budget_max_bins() == (1 << 24) // BYTES_PER_BIN            # the one helper both callers use
        assert PrivacyAccountant(max_bins=None).max_bins == (1 << 24) // BYTES_PER_BIN
        with pytest.raises(ValueError, match='memory budget'):
            account(make_scheme('wor', 1000, m=10), sigma=1.0, steps=10, delta=1e-5, max_bins=1 << 21)
        mech = scheme_gaussian_pld(make_scheme('wor', 1000, m=10), 1.0, h=1e-2, max_bins=1 << 14)
        with pytest.raises(ValueError, match='max_bins'):
            compose_many([[(mech.upper[0], 10**6)]], max_bins=None)    # None: capped by the budget, refused here
    finally: set_memory_budget(old)
    assert PrivacyAccountant(max_bins=None).max_bins == old // BYTES_PER_BIN
