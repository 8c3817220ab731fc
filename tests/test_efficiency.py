"`must_nbdev.experiments.efficiency`: the expected number of distinct records against Monte Carlo and closed forms."
import numpy as np
import pytest
from must_nbdev.core.sampling import make_scheme, scheme_at
from must_nbdev.experiments.efficiency import expected_distinct, distinct_counts


def test_expected_distinct_monte_carlo():
    for name in ['poisson', 'wor', 'wr', 'must-ow', 'must-ww', 'must-wo']:
        sc = make_scheme(name, 500, q=0.1) if name == 'poisson' else scheme_at(name, 500, 50, b=80)
        d = distinct_counts(sc, 3000, rng=2)
        assert abs(d.mean() - expected_distinct(sc)) <= 4.5 * d.std() / np.sqrt(3000) + 1e-9


def test_expected_distinct_closed_forms():
    "WOR(m): m distinct; WR(m) of n: n(1 − (1 − 1/n)^m); MUST.ow(b, m): b(1 − (1 − 1/b)^m) (WR(m) of the stage-I set)."
    n, m, b = 500, 50, 80
    assert expected_distinct(make_scheme('wor', n, m=m)) == pytest.approx(m, rel=1e-12)
    assert expected_distinct(make_scheme('wr', n, m=m)) == pytest.approx(n * (1 - (1 - 1 / n) ** m), rel=1e-12)
    assert (expected_distinct(make_scheme('must-ow', n, m=m, b=b))
            == pytest.approx(b * (1 - (1 - 1 / b) ** m), rel=1e-12))
    assert expected_distinct(make_scheme('poisson', n, q=0.1)) == pytest.approx(n * 0.1, rel=1e-12)
