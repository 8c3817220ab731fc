"""Epoch schemes against exhaustive enumeration at tiny n: every batch assignment of a real dataset, on a fine grid.

Shuffled epochs of n = 3 records in batches of 1 (t = 3 steps): the exact output law of a dataset is the mixture over
the 6 permutations; random allocation of 2 steps: the mixture over the record's step. One epoch is integrated on a 3-D
(or 2-D) grid, two epochs by convolving the loss histogram with itself. Every dataset stays below the certificate, and
the package's attack is a real pair whose value the enumeration reproduces."""
import itertools, math
import numpy as np, pytest
from scipy.stats import norm
from must_nbdev.core.definitions import gaussian_profile
from must_nbdev.core.epochs import make_epoch_scheme
from must_nbdev.accounting.epoch_account import account_epochs
from _helpers import loss_law_deltas

STEP, H = 0.1, 2e-3

def _grid_law(components, sigma, dim):
    "Density of an equal mixture of N(c, σ²I) over `components` on a grid (and the cell volume)."
    x = np.arange(-5 * sigma - 2.5, 5 * sigma + 2.5, STEP)
    def product(c):                                    # a component's density: the outer product of its axes'
        out = norm.pdf(x, c[0], sigma)
        for c_i in c[1:]: out = np.multiply.outer(out, norm.pdf(x, c_i, sigma))
        return out
    return sum(product(c) for c in components) / len(components), STEP ** dim

def _deltas(p, q, vol, eps_list, epochs):
    "δ(ε) of `epochs` independent copies of the pair (p, q) on one grid."
    keep = p > 0
    return loss_law_deltas(np.log(p[keep] / np.maximum(q[keep], 1e-300)), p[keep] * vol, eps_list, epochs, H)

def _shuffle_components(grads):
    "The 6 output means of one shuffled epoch of 3 records in batches of 1 (1-D gradients)."
    return [tuple(grads[i] for i in perm) for perm in itertools.permutations(range(3))]

@pytest.mark.parametrize('epochs', [1, 2])
def test_shuffled_epochs_of_three_records_stay_below_the_certificate_and_meet_the_attack(epochs):
    sigma, eps_list = 1.0, (0.5, 1.5)
    sc = make_epoch_scheme('shuffle', 3, 1)
    cert = [account_epochs(sc, sigma=sigma, epochs=epochs, eps=e, attack=False).certified for e in eps_list]
    att = [account_epochs(sc, sigma=sigma, epochs=epochs, eps=e, bins=1 << 16).attack for e in eps_list]
    rng = np.random.default_rng(0)
    datasets = [((1.0, 1.0), -1.0, 1.0)]                                      # the package's attack: others g, x −g, x' g
    datasets += [(tuple(rng.uniform(-1, 1, 2)), *rng.uniform(-1, 1, 2)) for _ in range(8)]
    for i, (others, x, x2) in enumerate(datasets):
        p, vol = _grid_law(_shuffle_components((*others, x)), sigma, 3)
        q, _ = _grid_law(_shuffle_components((*others, x2)), sigma, 3)
        for d in (_deltas(p, q, vol, eps_list, epochs), _deltas(q, p, vol, eps_list, epochs)):
            assert all(v <= c for v, c in zip(d, cert)), (others, x, x2, d, cert)
        if i == 0:                      # the attack's pair, enumerated: the package's attack value is its own
            d = _deltas(p, q, vol, eps_list, epochs)
            assert all(a <= v * 1.02 + 1e-6 and v <= a * 1.1 + 1e-6 for v, a in zip(d, att)), (d, att)

@pytest.mark.parametrize('epochs', [1, 2])
def test_random_allocation_of_two_steps_matches_its_pair_in_both_directions(epochs):
    "t = 2, add/remove: the exact pair (the record at one of the two steps, gradient 1) by enumeration on a 2-D grid."
    sigma, eps_list = 1.0, (0.0, 0.5, 1.5)
    sc = make_epoch_scheme('allocation', 4, 2)                                # t = 2
    p, vol = _grid_law([(1.0, 0.0), (0.0, 1.0)], sigma, 2)
    q, _ = _grid_law([(0.0, 0.0)], sigma, 2)
    for e, rem, add in zip(eps_list, _deltas(p, q, vol, eps_list, epochs), _deltas(q, p, vol, eps_list, epochs)):
        r = account_epochs(sc, sigma=sigma, epochs=epochs, eps=e, bins=1 << 16)
        exact = max(rem, add)
        assert r.attack <= exact * 1.002 + 1e-7 and exact <= r.certified * 1.002 + 1e-7, (e, r, rem, add)
        assert r.certified <= exact * 1.02 + 1e-6                              # the pair is exact: tight
