"""`must_nbdev.accounting.pairs`: the paper's pair of one scheme∘Gaussian step as Gaussian mixtures (weights from the
occurrence law, means ±l), the mixture's cell masses against mpmath, and log(Φ(b) − Φ(a)) against mpmath in both
tails."""
import math
import mpmath as mp
import numpy as np
import pytest
from scipy import stats
from must_nbdev.accounting.pairs import GaussianMixture, log_normal_cell, output_pair
from must_nbdev.core.sampling import make_scheme

mp.mp.dps = 50


def _log_cell_exact(a, b):
    "log(Φ(b) − Φ(a)) in 50 digits, from the upper tails when the cell is right of 0 (no cancellation near 1)."
    a, b = mp.mpf(a), mp.mpf(b)
    return float(mp.log(mp.ncdf(-a) - mp.ncdf(-b)) if a >= 0 else mp.log(mp.ncdf(b) - mp.ncdf(a)))


# cells at least 1e-3 wide (the PLD grids' cells are wider; a cell of width w loses about 1e-16/w to cancellation)
@pytest.mark.parametrize('a,b',
                         [(-40.0, -39.0), (-8.0, -7.999), (-1.0, 2.0), (0.0, 1e-3), (5.0, 6.0), (37.0, 38.5),
                          (-3.0, 0.0), (2.0, 2.001)])
def test_log_normal_cell_matches_mpmath(a, b):
    assert float(log_normal_cell(a, b)) == pytest.approx(_log_cell_exact(a, b), rel=1e-12, abs=1e-11)


def test_poisson_pairs_are_the_textbook_ones():
    "Poisson(q): P = (1−q)N(0,σ²) + qN(1,σ²); Q = N(0,σ²) for add/remove, (1−q)N(0,σ²) + qN(−1,σ²) for substitution."
    sc = make_scheme('poisson', 1000, q=0.05)
    P, Q = output_pair(sc, 1.7, 'add_remove')
    np.testing.assert_allclose(np.exp(P.logw), [0.95, 0.05], rtol=1e-12); np.testing.assert_array_equal(P.mu, [0, 1])
    assert P.sigma == Q.sigma == 1.7 and np.exp(Q.logw).tolist() == [1.0] and Q.mu.tolist() == [0.0]
    P, Q = output_pair(sc, 1.7, 'substitute')
    np.testing.assert_allclose(np.exp(Q.logw), [0.95, 0.05], rtol=1e-12); np.testing.assert_array_equal(Q.mu, [0, -1])


def test_wr_pair_weights_are_binomial():
    P, Q = output_pair(make_scheme('wr', 40, m=25), 1.0, 'substitute')
    l = P.mu.astype(int)
    np.testing.assert_allclose(np.exp(P.logw), stats.binom.pmf(l, 25, 1 / 40), rtol=1e-10)
    np.testing.assert_array_equal(Q.mu, -P.mu)
    assert P.dropped <= 1e-25                               # only components below 1e-30 are left out


def test_mixture_cell_masses_match_mpmath():
    W, M = [0.2, 0.5, 0.3], [-1.0, 0.5, 3.0]
    g = GaussianMixture(np.log(W), np.array(M), 0.8)
    t = np.r_[-np.inf, np.linspace(-6, 9, 301), np.inf]
    cells = np.exp(g.logmass_cells(t))
    assert cells.sum() == pytest.approx(1.0, rel=1e-12)
    # reference in 50 digits: each component's cell mass from its lower tail left of its mean,
    # its upper tail right of it
    ref = [sum(w * math.exp(_log_cell_exact((a - m) / 0.8, (b - m) / 0.8)) for w, m in zip(W, M))
           for a, b in zip(t[1:-2], t[2:-1])]
    np.testing.assert_allclose(cells[1:-1], ref, rtol=1e-9)
    np.testing.assert_allclose(np.exp(g.logmass(t[1:-2], t[2:-1])), cells[1:-1], rtol=1e-9)
    for x in (-5.0, 0.0, 2.2, 8.0):
        assert math.exp(g.logsf(x)) + math.exp(g.logcdf(x)) == pytest.approx(1.0, rel=1e-12)
        assert (math.exp(g.logpdf([x])[0])
                == pytest.approx(sum(w * stats.norm.pdf(x, m, 0.8) for w, m in zip(W, M)), rel=1e-12))


def test_bad_relation_and_sigma_name_the_argument():
    sc = make_scheme('wor', 100, m=5)
    with pytest.raises(ValueError, match='relation'): output_pair(sc, 1.0, 'replace')
    with pytest.raises(ValueError, match='sigma'): output_pair(sc, 0.0)
