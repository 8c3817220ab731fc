"`must_nbdev.training.interop` (training/01_interop): the training-loop sampler and the PLD export to dp_accounting."
import builtins, math
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats
from must_nbdev.accounting.pld import DiscretePLD
from must_nbdev.accounting.dominating import MechanismPLD, scheme_gaussian_pld
from must_nbdev.accounting.accountant import PrivacyAccountant
from must_nbdev.training.interop import (SAMPLER_BUDGET, MustBatchSampler, row_cost, must_dp_accounting_pld,
                                         to_dp_accounting, dp_accounting_classes)
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
    again = MustBatchSampler(s, steps, seed=seed, chunk=chunk)          # the same integer seed: the same run
    assert all(np.array_equal(a, c) for a, c in zip(xs, again))

def test_chunk_respects_the_memory_budget():
    for s in (make_scheme('wr', 10_000, m=300_000), make_scheme('must-ow', 60_000, m=256, b=512),
              make_scheme('poisson', 10**6, q=1e-3), multistage(1000, [('wr', 5000), ('wor', 100)])):
        sm = MustBatchSampler(s, 10**6)
        assert (sm.chunk == max(1, SAMPLER_BUDGET // row_cost(s))
                and (sm.chunk == 1 or sm.chunk * row_cost(s) <= SAMPLER_BUDGET))
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
    s = make_scheme('must-ow', 100, m=40, b=20)
    loader = ([X[i] for i in batch] for batch in MustBatchSampler(s, 25, seed=9))   # the fetch: dataset[i] per index
    for got, ref in zip(loader, MustBatchSampler(s, 25, seed=9)): assert got == list(X[ref]) and len(got) == 40

def test_real_torch_data_loader_if_installed():
    torch = pytest.importorskip('torch')
    from torch.utils.data import DataLoader, TensorDataset
    s = make_scheme('must-ww', 100, m=16, b=20)
    dl = DataLoader(TensorDataset(torch.arange(100)), batch_sampler=MustBatchSampler(s, 10, seed=1))
    assert len(dl) == 10
    for (ids,), ref in zip(dl, MustBatchSampler(s, 10, seed=1)): assert np.array_equal(ids.numpy(), ref)

@pytest.mark.parametrize('call, msg', [
    (lambda: MustBatchSampler.from_name('wor', 100, 101, 5), 'm must be <= n for WOR'),
    (lambda: MustBatchSampler.from_name('poisson', 100, 101, 5), "<= 100, got 101 .*make_scheme's n is dataset_size"),
    (lambda: MustBatchSampler.from_name('must-wo', 100, 30, 5, b=20), 'm must be <= b for MUST.wo'),
    (lambda: MustBatchSampler.from_name('must-ow', 100, 30, 5, b=101), 'b must be <= n'),
    (lambda: MustBatchSampler.from_name('must-ow', 100, 30, 5), 'must-ow needs b'),
    (lambda: MustBatchSampler(make_scheme('wr', 10, m=5), 5, dataset_size=11), 'dataset_size=11 differs'),
    (lambda: MustBatchSampler(make_scheme('wr', 10, m=5), -1), 'steps must be'),
    (lambda: MustBatchSampler(make_scheme('wr', 10, m=5), True), 'steps must be'),
    (lambda: MustBatchSampler(make_scheme('wr', 10, m=5), 5, chunk=0.5), 'chunk must be'),
    (lambda: MustBatchSampler(make_scheme('wr', 10, m=5), 5, seed='x'), 'seed must be'),
])
def test_bad_input(call, msg):
    with pytest.raises(ValueError, match=msg): call()

def test_a_non_scheme_is_a_type_error():
    with pytest.raises(TypeError, match='scheme must be a Scheme'): MustBatchSampler(None, 5)

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

DPA_ROUNDOFF = 1e-14   # dp_accounting's composed δ: its FFT's round-off, absolute

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
        # same PMF, same convolution: inside our certified interval, up to dp_accounting's own FFT round-off, which it
        # does not charge (2.3e-15 above our upper bound of 2.35e-10 on an AMD EPYC machine)
        assert b.lower <= d <= b.upper + DPA_ROUNDOFF
        assert b.upper - d <= 1e-4 * b.upper + DPA_ROUNDOFF

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
    pipe = to_dp_accounting(scheme_gaussian_pld(s, 3.0, h=h)).self_compose(40).compose(
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
    with pytest.raises(ValueError, match='masses must be finite'):          # refused where it is built
        to_dp_accounting(MechanismPLD([DiscretePLD(0.01, 0, np.array([np.nan]))], []))
    changed = DiscretePLD(0.01, 0, np.array([0.5])); changed.masses[0] = np.nan
    with pytest.raises(ValueError, match='masses must be finite'):          # and where it is exported
        to_dp_accounting(MechanismPLD([changed], []))
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


# ---- fresh batches on every pass (regressions: a default or integer-seeded sampler replayed every epoch) ----

def test_two_passes_of_a_default_sampler_differ_and_a_seed_reproduces_the_run():
    s = make_scheme('must-ow', 8000, m=200, b=800)
    for seed in (None, 7):
        sm = MustBatchSampler(s, seed=seed)
        p0, p1 = np.concatenate(list(sm)), np.concatenate(list(sm))
        assert not np.array_equal(p0, p1)
        again = MustBatchSampler(s, seed=sm.seed)
        assert np.array_equal(np.concatenate(list(again)), p0) and np.array_equal(np.concatenate(list(again)), p1)

def test_passes_are_independent_draws():
    "Across 400 passes of one step, record 0's inclusion frequency matches eta, and consecutive passes are uncorrelated."
    s = make_scheme('wor', 50, m=10)
    sm = MustBatchSampler(s, 1, seed=3)
    inc = np.array([0 in next(iter(sm)) for _ in range(4000)], float)
    eta = 10 / 50
    assert abs(inc.mean() - eta) <= 4.5 * math.sqrt(eta * (1 - eta) / len(inc))
    r = np.corrcoef(inc[:-1], inc[1:])[0, 1]
    assert abs(r) <= 4.5 / math.sqrt(len(inc))                 # a replaying sampler gives r = 1 (or NaN: constant)

def test_replay_only_on_request_and_set_epoch_resumes():
    s = make_scheme('wr', 100, m=10)
    rp = MustBatchSampler(s, 5, seed=1, replay=True)
    assert np.array_equal(np.concatenate(list(rp)), np.concatenate(list(rp)))
    sm = MustBatchSampler(s, 5, seed=1); passes = [np.concatenate(list(sm)) for _ in range(3)]
    other = MustBatchSampler(s, 5, seed=1); other.set_epoch(2)
    assert np.array_equal(np.concatenate(list(other)), passes[2]) and other.epoch == 3
    with pytest.raises(ValueError, match='replay=True needs an integer seed'):
        MustBatchSampler(s, 5, seed=np.random.default_rng(0), replay=True)
    with pytest.raises(ValueError, match='epoch must be'): sm.set_epoch(-1)

def test_one_epoch_per_pass_gives_opacus_the_scheme_rate():
    for n, m, steps in ((8000, 200, 40), (50_000, 512, 97), (60_000, 256, 234)):
        s = make_scheme('wor', n, m=m)
        sm = MustBatchSampler(s)
        assert len(sm) == steps == n // m and sm.per_epoch
        assert 20 * len(sm) <= s.steps_for_epochs(20)           # E passes never exceed what epochs=E charges
    sm = MustBatchSampler(make_scheme('wor', 8000, m=200))
    assert 1 / len(sm) == 200 / 8000                            # what Opacus computes from a loader over it

# ---- the best certificate, exported (regression: the export shipped the public-label pair, eps 9.43 vs 2.97) ----

def test_export_of_must_ow_matches_account_in_the_readme_setting():
    pytest.importorskip('dp_accounting')
    from must_nbdev import account, MustDpEvent, MustPLDAccountant
    from dp_accounting import dp_event
    s = make_scheme('must-ow', 60_000, m=256, b=6000)
    ref = account(s, sigma=1.774, steps=2344, delta=1e-5, attack=False)
    assert ref.certificate == 'partially unlabelled'
    eps = must_dp_accounting_pld(s, 1.774, h=1e-3).self_compose(2344).get_epsilon_for_delta(1e-5)
    assert abs(eps - ref.upper) <= 0.02 * ref.upper
    acc = MustPLDAccountant().compose(dp_event.SelfComposedDpEvent(MustDpEvent(s, 1.774), 2344))
    assert abs(acc.get_epsilon(1e-5) - ref.upper) <= 0.02 * ref.upper
    pub = must_dp_accounting_pld(s, 1.774, h=1e-3, certificate='public labels')
    assert pub.self_compose(2344).get_epsilon_for_delta(1e-5) > 2 * ref.upper

@pytest.mark.parametrize('name', ['wor', 'wr', 'must-ww', 'must-wo', 'poisson'])
def test_must_pld_accountant_equals_account_for_each_scheme(name):
    pytest.importorskip('dp_accounting')
    from must_nbdev import account, MustDpEvent, MustPLDAccountant
    from dp_accounting.privacy_accountant import NeighboringRelation as NR
    s = _scheme(name, 5000, 50, 500)
    ref = account(s, sigma=1.5, steps=300, delta=1e-5, attack=False)
    rel = NR.ADD_OR_REMOVE_ONE if s.relation == 'add_remove' else NR.REPLACE_ONE
    got = MustPLDAccountant(rel).compose(MustDpEvent(s, 1.5), 300).get_epsilon(1e-5)
    assert abs(got - ref.upper) <= 0.02 * ref.upper, (name, got, ref)

def test_must_pld_accountant_composes_with_other_events_and_refuses_bad_ones():
    pytest.importorskip('dp_accounting')
    from must_nbdev import MustDpEvent, MustPLDAccountant
    from dp_accounting import dp_event
    s = make_scheme('wor', 1000, m=20)
    acc = MustPLDAccountant()
    assert not acc.supports(MustDpEvent('wor', 1.0)) and not acc.supports(MustDpEvent(s, -1.0))
    acc.compose(dp_event.ComposedDpEvent([MustDpEvent(s, 2.0), dp_event.GaussianDpEvent(3.0)]), 10)
    alone = MustPLDAccountant().compose(MustDpEvent(s, 2.0), 10)
    assert acc.get_delta(1.0) > alone.get_delta(1.0)
    assert MustPLDAccountant().compose(dp_event.NonPrivateDpEvent()).get_epsilon(1e-5) == math.inf
    with pytest.raises(ValueError, match='value_discretization_interval'): MustPLDAccountant(None, 2.0)
    for count in (True, 2.5, 0, '3'):   # dp_accounting's own compose read True as 1 step: refused, as 2.5 is
        with pytest.raises(ValueError, match='count must be an integer >= 1'): MustPLDAccountant().compose(
            MustDpEvent(s, 2.0), count)
    assert MustPLDAccountant().compose(MustDpEvent(s, 2.0), np.int64(10)).get_delta(1.0) == alone.get_delta(1.0)

def test_importing_the_package_does_not_load_dp_accounting_or_torch():
    import subprocess, sys
    code = ("import sys, must_nbdev; from must_nbdev.training import interop, opacus; "
            "print(sorted(m for m in ('dp_accounting', 'torch', 'opacus') if m in sys.modules))")
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == '[]'

def test_without_dp_accounting_a_star_import_works_and_use_names_the_package():
    import subprocess, sys
    code = ("import builtins; real = builtins.__import__\n"
            "def fake(name, *a, **kw):\n"
            "    if name.startswith('dp_accounting'): raise ImportError(name)\n"
            "    return real(name, *a, **kw)\n"
            "builtins.__import__ = fake\n"
            "from must_nbdev import *\n"
            "try: MustPLDAccountant()\n"
            "except ImportError as e: print('refused:', e)\n")
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True).stdout
    assert out.startswith('refused:') and 'pip install dp-accounting' in out

def test_a_failing_must_event_composes_nothing():
    "A MustDpEvent that cannot be built is refused before anything is composed (the ledger and the PLDs agree)."
    pytest.importorskip('dp_accounting')
    from must_nbdev import MustDpEvent, MustPLDAccountant
    from dp_accounting import dp_event
    from dp_accounting.privacy_accountant import UnsupportedEventError
    acc = MustPLDAccountant(value_discretization_interval=1e-4)
    bad = dp_event.ComposedDpEvent([dp_event.GaussianDpEvent(1.0),
                                    MustDpEvent(make_scheme('must-ow', 60_000, m=256, b=512), 0.3)])
    assert not acc.supports(bad)
    with pytest.raises(UnsupportedEventError, match="h is dp_accounting's value_discretization_interval"):
        acc.compose(bad)                            # the grid error names this accountant's own knob
    assert acc.get_epsilon(1e-5) == 0 and isinstance(acc.ledger, dp_event.NoOpDpEvent)
    ok = MustPLDAccountant().compose(MustDpEvent(make_scheme('wor', 1000, m=20), np.float32(2.0)), 5)
    assert 0 < ok.get_epsilon(1e-5) < math.inf

def test_sampler_flags_and_a_generators_passes_are_not_reinterpreted():
    "distinct='no' and replay='false' became True through bool(); set_epoch on a Generator's sampler did nothing."
    s = make_scheme('wr', 100, m=10)
    with pytest.raises(TypeError, match='distinct'): MustBatchSampler(s, 5, seed=1, distinct='no')
    with pytest.raises(TypeError, match='replay'): MustBatchSampler(s, 5, seed=1, replay='false')
    g = MustBatchSampler(s, 5, seed=np.random.default_rng(0))
    g.set_epoch(0); list(g); g.set_epoch(1)                   # in order: the stream's own passes
    with pytest.raises(ValueError, match='cannot jump'): g.set_epoch(0)
    with pytest.raises(ValueError, match='no stage-I size'): MustBatchSampler.from_name('wor', 10, 4, b=7)

def test_dp_accounting_queries_are_checked():
    "get_epsilon(2.0) answered 0 and get_epsilon(nan) nan; get_delta(-1) and get_delta(nan) answered numbers."
    pytest.importorskip('dp_accounting')
    from must_nbdev import MustDpEvent, MustPLDAccountant
    acc = MustPLDAccountant(); acc.compose(MustDpEvent(make_scheme('wor', 1000, m=10), 2.0), 10)
    for bad in (2.0, 0.0, float('nan'), 1.0):
        with pytest.raises(ValueError, match='target_delta'): acc.get_epsilon(bad)
    for bad in (-1.0, float('nan'), float('inf')):
        with pytest.raises(ValueError, match='target_epsilon'): acc.get_delta(bad)
    assert 0 < acc.get_epsilon(1e-5) < math.inf and 0 <= acc.get_delta(1.0) <= 1

def test_a_certificate_with_the_papers_pair_is_refused():
    "must_dp_accounting_pld(pair='paper', certificate='partially unlabelled') exported the paper's pair silently."
    pytest.importorskip('dp_accounting')
    with pytest.raises(ValueError, match="pair='paper'"):
        must_dp_accounting_pld(make_scheme('wr', 1000, m=20), 1.0, h=1e-3, pair='paper',
                               certificate='partially unlabelled')


def test_regression_defaulted_relation_refuses_a_poisson_step_instead_of_another_eps():
    from dp_accounting import dp_event
    from dp_accounting.privacy_accountant import NeighboringRelation as NR
    from must_nbdev.accounting.account import account
    MustDpEvent, MustPLDAccountant = dp_accounting_classes()
    poi = make_scheme('poisson', 1000, m=50)
    run = dp_event.SelfComposedDpEvent(MustDpEvent(poi, 1.0), 60)
    with pytest.raises(Exception, match='pass neighboring_relation= explicitly'): MustPLDAccountant().compose(run)
    ours = MustPLDAccountant(NR.ADD_OR_REMOVE_ONE).compose(run).get_epsilon(1e-5)
    ref = account(poi, sigma=1.0, steps=60, delta=1e-5)     # account's own relation for Poisson: add/remove
    assert ref.relation == 'add_remove' and ref.bound_interval[0] * (1 - 1e-4) <= ours <= ref.upper * (1 + 1e-9)
