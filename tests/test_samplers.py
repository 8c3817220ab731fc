"""`must_nbdev.core.samplers`: draws reproduce from a seed or a generator, WOR's per-row path for huge populations, no
record silently dropped, memory estimated before allocating, the same WOR draws on every CPU, and the old import path."""
import warnings
import numpy as np
import pytest
from must_nbdev.core.sampling import make_scheme
from must_nbdev.core.samplers import sample_many


def test_samplers_reproduce_with_seed_and_generator():
    sc = make_scheme('must-ww', 500, m=100, b=80)
    a, b = sample_many(sc, 10, rng=3), sample_many(sc, 10, rng=np.random.default_rng(3))
    assert np.array_equal(a.indices, b.indices) and np.array_equal(a.counts, b.counts)


def test_large_population_wor_uses_per_row_path():
    sc = make_scheme('must-ow', 10**7, m=50, b=30)
    ms = sample_many(sc, 5, rng=1)
    assert (ms.sizes == 50).all() and (ms.indices < 10**7).all() and (ms.distinct <= 30).all()


def test_regression_sampler_never_silently_drops_records():
    with pytest.raises(ValueError, match='n must be an integer'):
        make_scheme('wor', 10**18, m=10)
    ms = sample_many(make_scheme('wor', 10**15, m=10), 10**4, rng=0)
    assert np.all(ms.sizes == 10) and np.all(ms.distinct == 10)


def test_sampling_memory_is_estimated_before_allocating():
    "Issue 27: a request for more samples than the memory budget holds is refused in one line, naming what to change."
    import tracemalloc
    from must_nbdev.core.samplers import SAMPLE_BYTES, row_cost
    from must_nbdev.core.definitions import set_memory_budget
    with pytest.raises(ValueError, match='T=100000 samples of WR .* draw fewer samples'):
        sample_many(make_scheme('wr', 10**6, m=10**5), 10**5)
    for sc in (make_scheme('wr', 10**5, m=300), make_scheme('must-ow', 10**5, m=200, b=900),
               make_scheme('poisson', 10**5, q=3e-3)):
        tracemalloc.start(); sample_many(sc, 300, 1); peak = tracemalloc.get_traced_memory()[1]; tracemalloc.stop()
        assert peak <= SAMPLE_BYTES * 300 * row_cost(sc)          # the estimate is an upper bound of the real peak
    old = set_memory_budget(1 << 20)
    try:
        with pytest.raises(ValueError, match='memory budget'): sample_many(make_scheme('wor', 10**5, m=300), 100)
    finally: set_memory_budget(old)


def test_wor_draws_are_the_same_on_every_cpu():
    "01_bootstrap's MUST.ow rows once differed between machines: argpartition leaves the kept keys' order to the CPU."
    from must_nbdev.core.samplers import _wor_positions
    for pop, size in ((300, 100), (10, 10), (50, 49)):             # the sort-key path (4·size > pop)
        got = _wor_positions(pop, size, 64, np.random.default_rng(1))
        keys = np.random.default_rng(1).random((64, pop))
        assert np.array_equal(got, np.argsort(keys, axis=1, kind='stable')[:, :size])   # the smallest keys, in order


def test_the_old_import_path_still_serves_the_samplers_with_a_warning():
    import must_nbdev.core.sampling as old
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter('always')
        assert old.sample_many is sample_many
        from must_nbdev.core.sampling import Multisets
    assert sum('moved to must_nbdev.core.samplers' in str(w.message) for w in seen) == 2
    with pytest.raises(AttributeError, match='no attribute'):
        old.no_such_sampler


def test_regression_multisets_negative_index_is_the_last_draw():
    "sample_many(...)[-1] sliced offsets[-1]:offsets[0] and returned empty arrays instead of the last draw."
    ms = sample_many(make_scheme('wor', 100, m=10), 3, 0)
    for t in range(3):
        for a, b in zip(ms[t - 3], ms[t]): assert np.array_equal(a, b)
    assert len(ms[-1][0]) == 10 and ms[-1][1].sum() == 10
    with pytest.raises(IndexError, match='draw 3 out of range for 3 draws'): ms[3]
    with pytest.raises(IndexError, match='draw -4 out of range for 3 draws'): ms[-4]
    with pytest.raises(TypeError, match='Multisets indices must be integers'): ms[1.0]
    assert ms[np.int64(-1)][0].tolist() == ms[2][0].tolist() and len(list(ms)) == 3
