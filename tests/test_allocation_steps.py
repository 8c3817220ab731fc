"Random allocation of k steps per record (accounting/13b_allocation_steps): blocks against exact values, the real pld-accounting, the doors."
import math, numpy as np, pytest
from must_nbdev.core.definitions import gaussian_profile
from must_nbdev.core.epochs import make_epoch_scheme
from must_nbdev.accounting.allocation import allocation_bounds, compose_parts, run_bounds
from must_nbdev.accounting.allocation_steps import (allocation_blocks, allocation_run_bounds, score_attack_plds,
                                                     allocation_epoch_parts)
from must_nbdev.accounting.epoch_account import account_epochs
from _helpers import counted_transforms

def _two_of_three_delta(sigma, eps, direction, step=0.06):
    "δ(ε) of one epoch of 2 of 3 steps, the exact pair (P: a uniform pair of steps shifted by 1), on a fine 3-D grid."
    from scipy.stats import norm
    x = np.arange(-7 * sigma - 0.5, 7 * sigma + 1.5, step)
    f0, f1 = norm.pdf(x, 0, sigma), norm.pdf(x, 1, sigma)
    F = lambda a, b, c: a[:, None, None] * b[None, :, None] * c[None, None, :]
    q = F(f0, f0, f0)
    p = (F(f1, f1, f0) + F(f1, f0, f1) + F(f0, f1, f1)) / 3
    a, b = (p, q) if direction == 'remove' else (q, p)
    return float(np.maximum(a - math.exp(eps) * b, 0).sum() * step ** 3)

@pytest.mark.parametrize('sigma', [0.8, 1.5])
def test_blocks_certificate_and_attack_bracket_the_exact_two_of_three_pair(sigma):
    parts = allocation_epoch_parts(sigma, 3, 2, bins=1 << 16)
    for eps in (0.25, 1.0):
        for d in ('remove', 'add'):
            exact = _two_of_three_delta(sigma, eps, d)
            up = compose_parts(parts, 1)[d, 'certified'].delta_bounds(eps)[1]
            lo = compose_parts(parts, 1)[d, 'attack'].delta_bounds(eps)[0]
            assert lo <= exact * (1 + 1e-4) and exact * (1 + 1e-4) <= up, (d, eps, lo, exact, up)

def test_every_record_in_every_step_is_the_composed_gaussian():
    for E in (1, 3):
        lo, up = allocation_run_bounds(3.0, 5, E, k=5, eps=0.5, bins=1 << 14)
        exact = float(gaussian_profile(0.5, math.sqrt(5 * E) / 3.0))
        assert lo <= exact <= up < exact * 1.01, (E, lo, exact, up)

def test_one_step_per_record_is_the_allocation_pair():
    assert allocation_run_bounds(1.2, 50, 2, delta=1e-6, bins=1 << 16) == allocation_bounds(1.2, 50, 2, delta=1e-6,
                                                                                           bins=1 << 16)

def test_blocks_cover_the_epoch():
    for t in range(1, 30):
        for k in range(1, t + 1):
            b = allocation_blocks(t, k)
            assert sum(s * c for s, c in b.items()) == t and sum(b.values()) == k and max(b) - min(b) <= 1

CONTAINMENT_K = [(1.0, 60, 2, 2), (2.0, 90, 3, 1), (1.5, 40, 4, 2)]

@pytest.mark.parametrize('sigma,t,k,E', CONTAINMENT_K)
def test_containment_against_pld_accounting_with_several_steps_per_record(sigma, t, k, E):
    pa = pytest.importorskip('PLD_accounting')
    their_up, their_lo = pa.gaussian_allocation_epsilon_range(delta=1e-5, sigma=sigma, num_steps=t, num_selected=k,
                                                              num_epochs=E)
    lo, up = allocation_run_bounds(sigma, t, E, k=k, delta=1e-5, bins=1 << 18)
    assert their_lo <= up and lo <= their_up, (lo, up, their_lo, their_up)
    assert up <= their_up * 1.001                        # at least as tight as their upper bound

def test_account_epochs_uses_the_blocks_for_k_steps_and_the_opposite_gradients_attack_under_substitution():
    sc = make_epoch_scheme('allocation', 3_000, 60, k=2)
    ar = account_epochs(sc, sigma=1.0, epochs=2, delta=1e-5, bins=1 << 17)
    assert ar.certificate == 'allocation blocks' and not ar.tight and 0 < ar.attack <= ar.certified
    assert ar.steps == 200 and sc.rate == 0.02
    sub = account_epochs(sc, sigma=1.0, epochs=2, delta=1e-5, relation='substitute', bins=1 << 17)
    assert sub.certificate == 'allocation pair, remove then add' and ar.certified < sub.certified
    assert ar.attack < sub.attack <= sub.certified and 'score' in sub.attack_name

def test_the_score_reads_its_sum_on_a_circle_in_six_transforms():
    """Clamping the sum to the window after each of binary powering's convolutions took about 2·log2(t) FFT products of
    twice the window (1.6 s at σ = 0.8, t = 235) and its charge hid the far tail: δ(1) of one epoch read 1.2e-6. The sum
    modulo the window is a function of the outputs too; two circular sums take six transforms and read 3.4e-6."""
    with counted_transforms() as calls:
        score_attack_plds(0.8, 235, kind='sinh')
    assert len(calls) == 6 and all(M <= 1.01 * (1 << 20) for _, M in calls), calls
    sub = account_epochs(make_epoch_scheme('allocation', 60_000, 256), sigma=0.8, epochs=1, eps=1.0,
                         relation='substitute')
    assert 2e-6 < sub.attack <= sub.certified and 'score' in sub.attack_name, sub
