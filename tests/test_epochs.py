"Epoch schemes (core/03_epochs): registry facts, one epoch's batches, and the sampler's fresh, reproducible passes."
import numpy as np, pytest
from must_nbdev.core.epochs import EPOCH_SCHEMES, make_epoch_scheme, epoch_batches, EpochBatchSampler

@pytest.mark.parametrize('name', list(EPOCH_SCHEMES))
@pytest.mark.parametrize('n,m', [(1, 1), (7, 3), (100, 10), (1000, 333)])
def test_every_record_once_per_epoch(name, n, m):
    sc = make_epoch_scheme(name, n, m)
    b = epoch_batches(sc, 11)
    assert len(b) == sc.steps_per_epoch == -(-n // m)
    assert np.array_equal(np.sort(np.concatenate(b)), np.arange(n))

def test_shuffle_batches_have_size_m_but_the_last():
    sc = make_epoch_scheme('shuffle', 1000, 333)
    assert [len(x) for x in epoch_batches(sc, 0)] == [333, 333, 333, 1]

def test_allocation_step_of_a_record_is_uniform_and_independent_of_others():
    sc, g = make_epoch_scheme('allocation', 6, 2), np.random.default_rng(1)
    pairs = np.zeros((3, 3), int)
    for _ in range(3000):
        step = {int(i): s for s, x in enumerate(epoch_batches(sc, g)) for i in x}
        pairs[step[0], step[1]] += 1
    expected = 3000 / 9
    assert ((pairs - expected) ** 2 / expected).sum() < 26.1        # chi-square, 8 dof, p = 0.001

def test_sampler_draws_fresh_batches_every_pass_and_replays_from_seed():
    sc = make_epoch_scheme('allocation', 500, 50)
    s = EpochBatchSampler(sc, seed=3)
    passes = [list(s) for _ in range(3)]
    assert passes[0] != passes[1] != passes[2]
    s2 = EpochBatchSampler(sc, seed=3); s2.set_epoch(2)
    assert list(s2) == passes[2]
    assert all(isinstance(i, int) for i in passes[0][0])

def test_sampler_is_a_torch_batch_sampler():
    torch = pytest.importorskip('torch')
    ds = torch.utils.data.TensorDataset(torch.arange(100))
    dl = torch.utils.data.DataLoader(ds, batch_sampler=EpochBatchSampler(make_epoch_scheme('shuffle', 100, 32), seed=0))
    seen = torch.cat([x for (x,) in dl])
    assert len(dl) == 4 and sorted(seen.tolist()) == list(range(100))

def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match='batch_size'): make_epoch_scheme('allocation', 10, 0)
    with pytest.raises(ValueError, match='scheme'): make_epoch_scheme('wor', 10, 2)
    with pytest.raises(ValueError, match='whole epochs'): make_epoch_scheme('shuffle', 10, 3).epochs_for_steps(5)
    with pytest.raises(ValueError, match='seed'): EpochBatchSampler(make_epoch_scheme('shuffle', 10, 3), seed=-1)

@pytest.mark.parametrize('n,m,k', [(7, 3, 2), (100, 10, 3), (50, 50, 4), (9, 2, 5)])
def test_allocation_of_k_steps_gives_every_record_k_distinct_steps(n, m, k):
    sc = make_epoch_scheme('allocation', n, m, k=k)
    assert sc.steps_per_epoch == -(-k * n // m) and sc.rate == k / sc.steps_per_epoch
    b = epoch_batches(sc, 5)
    assert len(b) == sc.steps_per_epoch and all(len(np.unique(x)) == len(x) for x in b)
    assert (np.bincount(np.concatenate(b), minlength=n) == k).all()

def test_allocation_of_two_steps_is_a_uniform_pair_of_steps():
    sc, g = make_epoch_scheme('allocation', 4, 2, k=2), np.random.default_rng(2)    # t = 4 steps: 6 pairs
    hits = {}
    for _ in range(3000):
        pair = tuple(s for s, x in enumerate(epoch_batches(sc, g)) if 0 in x)
        hits[pair] = hits.get(pair, 0) + 1
    counts = np.array(list(hits.values()))
    assert len(counts) == 6 and ((counts - 500) ** 2 / 500).sum() < 20.5          # chi-square, 5 dof, p = 0.001

def test_k_is_refused_where_the_scheme_uses_each_record_once():
    with pytest.raises(ValueError, match='k must be 1'): make_epoch_scheme('shuffle', 10, 2, k=2)
    with pytest.raises(ValueError, match='k'): make_epoch_scheme('allocation', 10, 2, k=0)


def test_an_epoch_too_large_for_memory_is_refused_before_drawing():
    "Regression: make_epoch_scheme takes any n and k, and epoch_batches then raised MemoryError (or numpy's errors)."
    for sc in (make_epoch_scheme('allocation', 10**6, 10, k=10**12), make_epoch_scheme('shuffle', 10**20, 10)):
        with pytest.raises(ValueError, match='memory budget'): epoch_batches(sc, 0)
    assert len(epoch_batches(make_epoch_scheme('shuffle', 60_000, 256), 0)) == 235   # a real size still draws


def test_the_epoch_memory_estimate_is_each_schemes_own():
    "Regression: one charge of 48 bytes a record refused shuffled epochs of 45M+ records that need 9 bytes a record."
    from must_nbdev.core.definitions import set_memory_budget
    old = set_memory_budget(64 << 20)
    try:
        assert len(epoch_batches(make_epoch_scheme('shuffle', 2 * 10**6, 256), 0)) == 7813   # 32 MB charged
        with pytest.raises(ValueError, match='use fewer records or steps per record'):      # 96 MB charged
            epoch_batches(make_epoch_scheme('allocation', 2 * 10**6, 256), 0)
    finally: set_memory_budget(old)
