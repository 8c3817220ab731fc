"`must_nbdev.training.interop` (training/01_interop): the training-loop sampler and the PLD export to dp_accounting."
import builtins, math
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats
from must_nbdev.accounting.pld import DiscretePLD
from must_nbdev.accounting.dominating import MechanismPLD, scheme_gaussian_pld
from must_nbdev.accounting.accountant import PrivacyAccountant
from must_nbdev.training.interop import (SAMPLER_BUDGET, MustBatchSampler, _row_cost, must_dp_accounting_pld,
                                         to_dp_accounting)
from must_nbdev.core.sampling import make_scheme, multistage, occurrence_pmf

def _scheme(name, n, m, b):
    if name == 'poisson': return make_scheme('poisson', n, q=min(m, n) / n)
    if name == 'wor': return make_scheme('wor', n, m=min(m, n))
    if name == 'wr': return make_scheme('wr', n, m=m)
    b = min(b, n) if name == 'must-ow' else b
    return make_scheme(name, n, m=min(m, b) if name == 'must-wo' else m, b=b)

@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(['poisson', 'wor', 'wr', 'must-ow', 'must-wo', 'must-ww']), n=st.integers(1, 300),
       m=st.integers(1, 60), b=st.integers(1, 80), steps=st.integers(1, 40),
       chunk=st.one_of(st.none(), st.integers(1, 9)), seed=st.integers(0, 2**32))
def test_batches_are_well_formed(name, n, m, b, steps, chunk, seed):
    s = _scheme(name, n, m, b)
    sm = MustBatchSampler(s, steps, seed=seed, chunk=chunk)
    xs, ds = list(sm), list(MustBatchSampler(s, steps, seed=seed, chunk=chunk, distinct=True))
    assert len(sm) == steps == len(xs) == len(ds)
    for x, (idx, cnt) in zip(xs, ds):
        assert x.dtype == np.int64 and (x.size == 0 or (0 <= x.min() and x.max() < n))
        assert np.array_equal(np.repeat(idx, cnt), x) and (cnt >= 1).all() and (np.diff(idx) > 0).all()
        if s.m is not None: assert len(x) == s.m                       # fixed-size schemes: every copy is there
    assert all(np.array_equal(a, c) for a, c in zip(xs, sm))            # an integer seed replays the same batches

def test_chunk_respects_the_memory_budget():
    for s in (make_scheme('wr', 10_000, m=300_000), make_scheme('must-ow', 60_000, m=256, b=512),
              make_scheme('poisson', 10**6, q=1e-3), multistage(1000, [('wr', 5000), ('wor', 100)])):
        sm = MustBatchSampler(s, 10**6)
        assert (sm.chunk == max(1, SAMPLER_BUDGET // _row_cost(s))
                and (sm.chunk == 1 or sm.chunk * _row_cost(s) <= SAMPLER_BUDGET))
    assert MustBatchSampler(make_scheme('wr', 100, m=2 * SAMPLER_BUDGET), 3).chunk == 1
    sm = MustBatchSampler(make_scheme('wr', 10_000, m=300_000), 7, seed=0)
    sizes = [len(ms) for ms in sm.multisets()]
    assert sizes == [3, 3, 1] and [len(x) for x in sm] == [300_000] * 7

def test_generator_seed_gives_fresh_independent_batches():
    s = make_scheme('must-ww', 500, m=50, b=60)
    g = MustBatchSampler(s, 30, seed=np.random.default_rng(11))
    a, b = np.concatenate(list(g)), np.concatenate(list(g))
    assert not np.array_equal(a, b)
    r = MustBatchSampler(s, 4)
    assert np.array_equal(np.concatenate(list(r)), np.concatenate(list(MustBatchSampler(s, 4, seed=r.seed))))

@pytest.mark.parametrize('scheme', [make_scheme('must-ww', 40, m=12, b=15), make_scheme('poisson', 40, q=0.15),
                                    multistage(40, [('wor', 20), ('wr', 30), ('wor', 10)])])
def test_copies_of_a_record_follow_the_occurrence_pmf(scheme):
    "χ² over all records' copy counts pooled per value (each record's counts are i.i.d. over steps) and per-record η."
    T, n = 15_000, scheme.n
    occ, counts, inc = occurrence_pmf(scheme), np.zeros(64), np.zeros(n)
    per_record = np.zeros((T, 3), np.int64); t = 0
    for ms in MustBatchSampler(scheme, T, seed=2024, chunk=1234).multisets():
        inc += np.bincount(ms.indices, minlength=n)
        for j, r in enumerate((0, 17, n - 1)):
            hit = ms.indices == r; per_record[t + ms.rows[hit], j] = ms.counts[hit]
        t += len(ms)
    w = occ.pmf
    for j in range(3):
        obs = np.bincount(per_record[:, j], minlength=len(w)).astype(float)
        assert len(obs) == len(w)                                   # no count the law gives probability 0
        K = int(np.flatnonzero(T * w >= 5).max())
        e, o = np.append(T * w[:K], T * w[K:].sum()), np.append(obs[:K], obs[K:].sum())
        assert stats.chisquare(o, e * T / e.sum()).pvalue > 1e-4
    z = (inc / T - occ.eta) / math.sqrt(occ.eta * (1 - occ.eta) / T)
    assert abs(z).max() <= 4.5                                      # 40 records: false alarm ~3e-4 per scheme

def test_a_wrong_law_is_rejected():
    "The same statistic rejects MUST.ow batches tested against WR's law (the error of accounting MUST.ow as WR)."
    s, T = make_scheme('must-ow', 30, m=10, b=10), 5000
    c = np.array([cnt[idx == 0].sum() for idx, cnt in MustBatchSampler(s, T, seed=5, distinct=True)])
    w = occurrence_pmf(make_scheme('wr', 30, m=10)).pmf
    obs = np.bincount(c, minlength=len(w)).astype(float)
    K = int(np.flatnonzero(T * w >= 5).max())
    e, o = np.append(T * w[:K], T * w[K:].sum()), np.append(obs[:K], obs[K:].sum())
    assert stats.chisquare(o, e * T / e.sum()).pvalue < 1e-10

def test_stand_in_data_loader_sees_every_copy():
    X = np.arange(100) * 10
    sm = MustBatchSampler(make_scheme('must-ow', 100, m=40, b=20), 25, seed=9)
    loader = ([X[i] for i in batch] for batch in sm)           # the DataLoader fetch: dataset[i] for i in the batch
    for got, ref in zip(loader, sm): assert got == list(X[ref]) and len(got) == 40

def test_real_torch_data_loader_if_installed():
    torch = pytest.importorskip('torch')
    from torch.utils.data import DataLoader, TensorDataset
    s = make_scheme('must-ww', 100, m=16, b=20)
    dl = DataLoader(TensorDataset(torch.arange(100)), batch_sampler=MustBatchSampler(s, 10, seed=1))
    assert len(dl) == 10
    for (ids,), ref in zip(dl, MustBatchSampler(s, 10, seed=1)): assert np.array_equal(ids.numpy(), ref)

@pytest.mark.parametrize('call, msg', [
    (lambda: MustBatchSampler.from_name('wor', 100, 101, 5), 'batch must be <= dataset_size'),
    (lambda: MustBatchSampler.from_name('poisson', 100, 101, 5), 'batch must be <= dataset_size'),
    (lambda: MustBatchSampler.from_name('must-wo', 100, 30, 5, b=20), 'batch must be <= b'),
    (lambda: MustBatchSampler.from_name('must-ow', 100, 30, 5, b=101), 'b must be <= n'),
    (lambda: MustBatchSampler.from_name('must-ow', 100, 30, 5), 'must-ow needs b'),
    (lambda: MustBatchSampler(make_scheme('wr', 10, m=5), 5, dataset_size=11), 'dataset_size=11 differs'),
    (lambda: MustBatchSampler(None, 5), 'scheme must be a Scheme'),
    (lambda: MustBatchSampler(make_scheme('wr', 10, m=5), -1), 'steps must be'),
    (lambda: MustBatchSampler(make_scheme('wr', 10, m=5), True), 'steps must be'),
    (lambda: MustBatchSampler(make_scheme('wr', 10, m=5), 5, chunk=0.5), 'chunk must be'),
    (lambda: MustBatchSampler(make_scheme('wr', 10, m=5), 5, seed='x'), 'seed must be'),
])
def test_bad_input(call, msg):
    with pytest.raises(ValueError, match=msg): call()

def test_batch_above_n_allowed_with_replacement():
    assert [len(x) for x in MustBatchSampler.from_name('wr', 10, 25, 3, seed=0)] == [25] * 3
    assert [len(x) for x in MustBatchSampler.from_name('must-ow', 10, 25, 2, b=5, seed=0)] == [25] * 2

# ---- export to dp_accounting ----

def test_missing_dp_accounting_names_the_package(monkeypatch):
    real = builtins.__import__
    def fake(name, *a, **kw):
        if name.startswith('dp_accounting'): raise ImportError(name)
        return real(name, *a, **kw)
    monkeypatch.setattr(builtins, '__import__', fake)
    with pytest.raises(ImportError, match='pip install dp-accounting'):
        to_dp_accounting(scheme_gaussian_pld(make_scheme('wor', 50, m=5), 1.0, h=1e-2))

@pytest.mark.parametrize('scheme, relation, h', [(make_scheme('poisson', 2000, q=0.02), 'add_remove', 1e-3),
                                                 (make_scheme('poisson', 2000, q=0.02), 'substitute', 1e-3),
                                                 (make_scheme('wr', 2000, m=40), None, 1e-3),
                                                 (make_scheme('must-wo', 500, m=10, b=30), None, 2e-3)])
def test_export_single_step_delta_equal_and_composition_inside_our_bracket(scheme, relation, h):
    pytest.importorskip('dp_accounting')
    mech = scheme_gaussian_pld(scheme, 1.5, relation, h=h)
    for bound in ('upper', 'lower'):
        pld = to_dp_accounting(mech, bound)
        for e in (0.0, 0.2, 1.0, 2.5):
            assert abs(pld.get_delta_for_epsilon(e) - max(p.delta(e) for p in getattr(mech, bound))) <= 1e-12
    k, acc, comp = 64, PrivacyAccountant([(mech, 64)]), to_dp_accounting(mech).self_compose(64)
    # (larger ε hit a math domain error in PrivacyAccountant's auto-precision check: reported)
    for e in (0.3, 0.6, 1.0):
        b, d = acc.delta(e), float(comp.get_delta_for_epsilon(e))
        # same PMF, same convolution: inside our certified interval
        assert b.lower <= d <= b.upper + 2e-15
        assert b.upper - d <= 1e-4 * b.upper + 2e-15

def test_export_directions_match_dp_accounting_poisson_gaussian():
    pytest.importorskip('dp_accounting')
    from dp_accounting.pld import privacy_loss_distribution as dpa
    ours = must_dp_accounting_pld(make_scheme('poisson', 1000, q=0.05), 0.8, h=1e-4)
    theirs = dpa.from_gaussian_mechanism(0.8, sampling_prob=0.05, value_discretization_interval=1e-4)
    for e in (0.1, 0.5, 1.0):
        for side in ('_pmf_remove', '_pmf_add'):
            a, b = getattr(ours, side).get_delta_for_epsilon(e), getattr(theirs, side).get_delta_for_epsilon(e)
            assert abs(a - b) <= 1e-4 * max(a, b) + 1e-15, (e, side, a, b)
    assert ours._pmf_remove.get_delta_for_epsilon(1.0) > 1e3 * (theirs._pmf_add.get_delta_for_epsilon(1.0) + 1e-15)

def test_compose_with_a_dp_accounting_gaussian():
    pytest.importorskip('dp_accounting')
    from dp_accounting.pld import privacy_loss_distribution as dpa
    s, h = make_scheme('must-ow', 500, m=10, b=20), 2e-3
    pipe = must_dp_accounting_pld(s, 3.0, h=h).self_compose(40).compose(
        dpa.from_gaussian_mechanism(1.5, value_discretization_interval=h))
    acc = PrivacyAccountant([(scheme_gaussian_pld(s, 3.0, h=h), 40),
                             (scheme_gaussian_pld(make_scheme('poisson', 1, q=1.0), 1.5, 'add_remove', h=h), 1)])
    for e in (0.5, 1.5, 3.0):
        b, d = acc.delta(e), float(pipe.get_delta_for_epsilon(e))
        assert b.lower <= d <= 1.001 * b.upper

def test_export_bad_input():
    pytest.importorskip('dp_accounting')
    mech = scheme_gaussian_pld(make_scheme('wor', 50, m=5), 1.0, h=1e-2)
    with pytest.raises(ValueError, match='mechanism_pld must be a MechanismPLD'): to_dp_accounting(mech.upper)
    with pytest.raises(ValueError, match='bound'): to_dp_accounting(mech, 'middle')
    with pytest.raises(ValueError, match='must hold 1'): to_dp_accounting(MechanismPLD(mech.upper * 3, mech.lower))
    with pytest.raises(ValueError, match='masses must be finite'):
        to_dp_accounting(MechanismPLD([DiscretePLD(0.01, 0, np.array([np.nan]))], []))
    with pytest.raises(ValueError, match='inf_mass'):
        to_dp_accounting(MechanismPLD([DiscretePLD(0.01, 0, np.array([0.5]), -0.1)], []))
    with pytest.raises(ValueError, match='mixes grid steps'):
        to_dp_accounting(MechanismPLD([DiscretePLD(0.01, 0, np.ones(1)), DiscretePLD(0.02, 0, np.ones(1))], []))
    # no finite mass: δ = inf_mass
    empty = to_dp_accounting(MechanismPLD([DiscretePLD(0.01, 5, np.zeros(4), 1e-9)], []))
    assert empty.get_delta_for_epsilon(1.0) == pytest.approx(1e-9, abs=1e-20)

def test_peak_memory_does_not_grow_with_steps():
    import tracemalloc
    s = make_scheme('must-ow', 20_000, m=128, b=4096)          # chunks of 256 steps (the stage-I array is the widest)
    chunk = MustBatchSampler(s, 10**6).chunk
    def peak(steps):
        tracemalloc.start(); sum(len(x) for x in MustBatchSampler(s, steps, seed=0))
        p = tracemalloc.get_traced_memory()[1]; tracemalloc.stop(); return p
    p1, p4 = peak(chunk), peak(4 * chunk)
    assert p4 <= 1.1 * p1 and p4 <= 12 * 8 * SAMPLER_BUDGET


def test_opacus_style_accountant_follows_a_run_like_opacus():
    "Issue 26: Opacus's accountant interface; one call per step at any length; equal to account for the same run."
    from must_nbdev import OpacusStyleAccountant, account, make_scheme
    acc = OpacusStyleAccountant('wr', n=20_000)
    for _ in range(100_000): acc.step(noise_multiplier=3.0, sample_rate=0.005)
    for _ in range(500): acc.step(noise_multiplier=2.0, sample_rate=0.01)
    assert len(acc) == 2 and acc.history == [(3.0, 0.005, 100_000), (2.0, 0.01, 500)]
    from must_nbdev import PrivacyAccountant
    ref = (PrivacyAccountant().step(make_scheme('wr', 20_000, m=100), sigma=3.0, steps=100_000)
           .step(make_scheme('wr', 20_000, m=200), sigma=2.0, steps=500).epsilon(1e-5).upper)
    assert acc.get_epsilon(1e-5) == pytest.approx(ref, rel=1e-9)
    class Optim: noise_multiplier, accumulated_iterations = 2.0, 2
    acc.get_optimizer_hook_fn(0.005)(Optim())                  # gradient accumulation doubles the rate, as in Opacus
    assert acc.history[-1] == (2.0, 0.01, 501)
    with pytest.raises(ValueError, match='state_dict is for'):
        OpacusStyleAccountant('wor', n=20_000).load_state_dict(acc.state_dict())


def test_dp_accounting_export_composes_on_first_use():
    "Issue 26 item 4: the export's default grid is dp_accounting's, so compose works without matching grids by hand."
    dpa = pytest.importorskip('dp_accounting.pld.privacy_loss_distribution')
    ours = must_dp_accounting_pld(make_scheme('wor', 10_000, m=100), 2.0)
    theirs = dpa.from_gaussian_mechanism(2.0)                     # dp_accounting's default grid
    both = ours.compose(theirs)
    assert both.get_delta_for_epsilon(1.0) > max(ours.get_delta_for_epsilon(1.0), theirs.get_delta_for_epsilon(1.0))
    with pytest.raises(ValueError, match='value_discretization_interval'):
        must_dp_accounting_pld(make_scheme('must-ow', 60_000, m=256, b=512), 1.0)


def test_sampler_chunk_from_a_caller_is_checked_against_the_memory_budget():
    "Issue 27: a caller's chunk is estimated at construction, not discovered as a MemoryError at the first batch."
    with pytest.raises(ValueError, match='chunk=100000 batches of WR .* smaller chunk'):
        MustBatchSampler(make_scheme('wr', 10**6, m=10**5), 10**6, chunk=10**5)
    assert MustBatchSampler(make_scheme('wr', 10**6, m=10**5), 10**6).chunk >= 1      # the default always fits


def test_export_max_bins_is_checked_against_the_memory_budget():
    "Issue 27: the dp_accounting export trusts no caller's max_bins either."
    with pytest.raises(ValueError, match='memory budget'):
        must_dp_accounting_pld(make_scheme('wor', 1000, m=10), 1.0, h=1e-9, max_bins=10**30)
