"`must_nbdev.experiments.bootstrap`: the exact repeated-record collision probability against Monte Carlo."
import numpy as np
from must_nbdev.core.sampling import make_scheme
from must_nbdev.core.samplers import sample_many
from must_nbdev.experiments.bootstrap import collision_probability


def test_collision_probability_monte_carlo():
    for name, b in [('must-ww', 40), ('wr', None), ('must-ow', 15)]:
        sc = make_scheme(name, 200, m=25, b=b)
        ms = sample_many(sc, 20000, rng=1)
        mc = np.bincount(ms.rows, ms.counts * (ms.counts - 1), len(ms)).mean() / (25 * 24)
        assert abs(mc - collision_probability(sc)) < 5 * np.sqrt(collision_probability(sc) / 20000 / 300) + 2e-4
