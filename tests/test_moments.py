"""The moments' bound (accounting/01b_moments): blocked exponential sums against 50-digit ones, and the cut moments
against the exact δ of a composition with a far atom."""
import math
import numpy as np
import pytest
from must_nbdev.accounting.compose import compose_plds
from must_nbdev.accounting.moments import MomentsBound, CHERNOFF_CUTS
from must_nbdev.accounting.pld import DiscretePLD


@pytest.mark.parametrize("seed", range(3))
def test_moments_sums_skip_blocks_yet_stay_within_their_charge_of_the_exact_sum(seed):
    """The blocked log Σ e^{lm + λs} of the moments' bound against 50-digit sums: within the charge `_phi` adds
    (γ_{N+4} relative and 8u of the magnitudes), on terms spread over thousands of e-folds, so blocks are skipped."""
    from mpmath import mp, mpf, exp, log, fsum
    from must_nbdev.accounting.moments import TermBlocks, LSE_BLOCK, gamma64
    mp.dps = 50
    rng, u = np.random.default_rng(seed), np.finfo(float).eps / 2
    n = 3 * LSE_BLOCK + int(rng.integers(1, LSE_BLOCK))                 # a partial last block: padded
    s = np.sort(rng.normal(0, 5, n)); lm = -np.abs(rng.normal(0, 300, n))
    terms, skipped = TermBlocks(lm, s), 0
    for lam in (-64.0, -1.0, -0.01, 0.0, 0.01, 1.0, 64.0):
        exact = log(fsum(exp(mpf(float(a)) + mpf(lam) * mpf(float(b))) for a, b in zip(lm, s)))
        got = terms.lse(lam)
        charge = gamma64(n + 4) + 8 * u * (abs(got) + terms.lm_abs + abs(lam) * terms.s_abs)
        assert abs(mpf(got) - exact) <= charge, (lam, got, exact)
        skipped += terms.skipped
        for cut in (0, 1, LSE_BLOCK - 1, LSE_BLOCK, 2 * LSE_BLOCK + 7, n - 1):   # the first `cut` terms only
            head = terms.lse(lam, cut)
            if not cut: assert head == -math.inf; continue
            exact = log(fsum(exp(mpf(float(a)) + mpf(lam) * mpf(float(b))) for a, b in zip(lm[:cut], s[:cut])))
            charge = gamma64(cut + 4) + 8 * u * (abs(head) + terms.lm_abs + abs(lam) * terms.s_abs)
            assert abs(mpf(head) - exact) <= charge, (lam, cut, head, exact)
    assert skipped > 0                                                   # the case bounds some blocks, not sums them
    bound = terms.top + np.maximum(64 * terms.s_lo, 64 * terms.s_hi) + 1   # and by the rule: at λ = 64, blocks whose
    assert (bound < np.max(lm + 64 * s) - 60).any()                      # every term is far below the largest


def _far_atom_exact_mp(a, w_far, L, k, eps):
    "δ(ε) at 50 digits of k steps of the loss ±a (masses 1/2 − w_far/2 each) or L (mass w_far): a sum over the counts."
    from mpmath import mp, mpf, binomial, exp
    mp.dps = 50
    half, w, tot = (1 - mpf(w_far)) / 2, mpf(w_far), mpf(0)
    for j in range(k + 1):                    # j steps at the far loss, i of the rest at +a
        for i in range(k - j + 1):
            s = j * mpf(L) + (2 * i - (k - j)) * mpf(a)
            if s > eps:
                tot += binomial(k, j) * binomial(k - j, i) * w ** j * half ** (k - j) * (1 - exp(mpf(eps) - s))
    return tot


def test_moments_cut_pays_for_a_far_atom_and_holds_exactly():
    "A far tiny atom (loss 30, mass 1e-25) makes the uncut moments useless; cut at a level, they bound δ deep and exactly."
    a, w, L, k, h = 0.05, 1e-25, 30.0, 60, 0.01
    masses = np.zeros(int(round(L / h)) + int(round(a / h)) + 1)
    masses[[0, 2 * int(round(a / h)), -1]] = [(1 - w) / 2, (1 - w) / 2, w]
    comp = compose_plds([(DiscretePLD(h, -int(round(a / h)), masses, 0.0), k)])
    uncut = lambda eps: comp.moments.delta(eps, cuts=0)[0]
    for eps in (1.0, 2.0, 2.5, 2.9, 3.5, 5.0):
        exact = _far_atom_exact_mp(a, w, L, k, eps)
        bound = comp.chernoff_delta(eps)[0]
        assert exact <= bound < uncut(eps) / 10, (eps, exact, bound, uncut(eps))   # e^{λL} ruins every uncut λ
        if eps > 2: assert comp.delta_bounds(eps)[1] == bound          # below the FFT's floor the cut moments answer
        if eps > k * a: assert bound < 1e-20 < uncut(eps) / 1e15     # past the bulk: only the far atom, and the cut
    for d in (1e-12, 1e-18, 1e-22):
        e_up = comp.chernoff_eps(d)
        assert math.isfinite(e_up) and _far_atom_exact_mp(a, w, L, k, e_up) <= d


def test_moments_bound_alone_equals_the_composed_pld_s():
    "A MomentsBound of the parts answers what the composed PLD's moments answer (it is the same bound)."
    a, w, L, k, h = 0.05, 1e-25, 30.0, 60, 0.01
    masses = np.zeros(3006); masses[[0, 10, 3005]] = [(1 - w) / 2, (1 - w) / 2, w]
    pld = DiscretePLD(h, -5, masses, 0.0)
    comp, alone = compose_plds([(pld, k)]), MomentsBound([(pld, k)], 0.0)
    for eps in (2.0, 3.5):
        assert comp.chernoff_delta(eps) == alone.delta(eps) and alone.delta(eps, cuts=0)[0] > alone.delta(eps)[0]
    assert comp.chernoff_eps(1e-18) == alone.eps(1e-18) <= alone.eps(1e-18, cuts=len(CHERNOFF_CUTS))


@pytest.mark.parametrize("seed", range(4))
def test_one_pass_sum_of_a_few_blocks_has_the_blocked_sums_bits(seed):
    """`TermBlocks.lse` sums a PLD of at most `LSE_FEW` blocks in one pass where `blocked_lse` would keep every block:
    the same value bit for bit at every λ the package uses, over spreads where blocks are and are not skipped."""
    from must_nbdev.accounting.moments import TermBlocks, LSE_BLOCK, LSE_FEW, MGF_LAMBDAS, CHERNOFF_LAMBDAS
    rng = np.random.default_rng(seed)
    one_pass = 0
    for spread in (1.0, 10.0, 40.0, 300.0):
        n = int(rng.integers(1, LSE_FEW * LSE_BLOCK + 1))
        terms = TermBlocks(-np.abs(rng.normal(0, spread, n)), np.sort(rng.normal(0, 5, n)))
        for lam in (*MGF_LAMBDAS, *-MGF_LAMBDAS, *CHERNOFF_LAMBDAS, 0.0):
            got = terms.lse(lam); one_pass += terms.skipped == 0
            assert got == terms.blocked_lse(lam), (spread, n, lam)
    assert one_pass > 0
