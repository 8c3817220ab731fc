"""`must_nbdev.training.opacus` (training/02_opacus) against real Opacus and PyTorch (CPU): the `opacus` extra.

In CI (`MUST_REQUIRE_OPACUS=1`, set by .ci/run) a missing Opacus fails these tests instead of skipping them: a stand-in
hid a silent ε error before."""
import math, os
import numpy as np
import pytest
from must_nbdev import MustBatchSampler, OpacusStyleAccountant, account, attach, make_scheme

if os.environ.get('MUST_REQUIRE_OPACUS'):
    import torch, opacus                                   # noqa: F401  (an ImportError fails the run)
else:
    torch = pytest.importorskip('torch'); pytest.importorskip('opacus')
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
from opacus import PrivacyEngine

N, BATCH, EPOCHS, SIGMA = 1000, 50, 2, 1.0                # 20 steps per epoch, 40 in all

def _data(n=N):
    g = torch.Generator().manual_seed(0)
    X = torch.randn(n, 20, generator=g); y = (X[:, 0] > 0).long()
    return TensorDataset(X, y)

def _train(engine, loader, target=None, epochs=EPOCHS, sigma=SIGMA, **kw):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 8), nn.ReLU(), nn.Linear(8, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    common = dict(module=model, optimizer=opt, data_loader=loader, max_grad_norm=1.0, **kw)
    model, opt, loader = (engine.make_private(noise_multiplier=sigma, **common) if target is None else
                          engine.make_private_with_epsilon(target_epsilon=target, target_delta=1e-5, epochs=epochs,
                                                           **common))
    steps, seen = 0, []
    for _ in range(epochs):
        for X, y in loader:
            seen.append(len(y))
            opt.zero_grad(); nn.functional.cross_entropy(model(X), y).backward(); opt.step(); steps += 1
    return opt, steps, seen

def _attached(scheme, seed=0):
    sampler = MustBatchSampler(scheme, seed=seed); engine = PrivacyEngine(); attach(engine, sampler)
    return sampler, engine, DataLoader(_data(scheme.n), batch_sampler=sampler)

@pytest.mark.parametrize('name', ['wor', 'must-ow'])
def test_two_epochs_through_attach_report_accounts_certified_eps(name):
    s = make_scheme(name, N, m=BATCH, **({'b': 250} if name == 'must-ow' else {}))
    sampler, engine, loader = _attached(s)
    opt, steps, seen = _train(engine, loader, poisson_sampling=False)
    assert steps == EPOCHS * math.ceil(N / BATCH) == 40 and set(seen) == {BATCH} and opt.expected_batch_size == BATCH
    ref = account(s, sigma=SIGMA, steps=40, delta=1e-5, attack=False)
    assert engine.get_epsilon(1e-5) == ref.upper
    assert engine.accountant.mechanism() == name

def test_poisson_through_opacus_equals_account_and_opacus_prv():
    ds = _data()
    eps = {}
    for which in ('ours', 'prv'):
        engine = PrivacyEngine(accountant='prv')
        if which == 'ours': attach(engine, 'poisson')
        _, steps, _ = _train(engine, DataLoader(ds, batch_size=BATCH))
        assert steps == 40
        eps[which] = engine.get_epsilon(1e-5)
    ref = account(make_scheme('poisson', N, q=1 / 20), sigma=SIGMA, steps=40, delta=1e-5, attack=False).upper
    assert eps['ours'] == ref and abs(eps['prv'] - ref) <= 0.01 * ref

def test_regression_poisson_is_charged_at_the_rate_opacus_loader_draws():
    # 930 records in batches of 10: Opacus's loader draws at 1/93 but has int(93.0 - 1e-14) = 92 steps, and Opacus
    # passes 1/92; charged at 1/92, a make_private_with_epsilon run reported 2.013 > its target 2
    ds = _data(930)
    engine = PrivacyEngine(); acc = attach(engine, 'poisson')
    opt, steps, _ = _train(engine, DataLoader(ds, batch_size=10), target=2.0, epochs=1)
    assert steps == 92 and acc.drawn_rates == {1 / 92: 1 / 93} and acc.history[0][1] == 1 / 92
    eps = engine.get_epsilon(1e-5)
    ref = account(make_scheme('poisson', 930, q=1 / 93), sigma=opt.noise_multiplier, steps=92, delta=1e-5,
                  attack=False).upper
    assert eps == ref <= 2.0
    with pytest.raises(ValueError, match='disagrees with the rates'): acc.scheme_at_rate(1 / 50)


def test_regression_a_float32_rate_is_refused_with_both_rates_in_full():
    "A float32 sample rate (0.029999999329...) against the sampler's 0.03 used to read '0.03 disagrees with 0.03'."
    acc = OpacusStyleAccountant(make_scheme('wor', 1_000, m=30))
    assert acc.scheme_at_rate(0.03) is acc.scheme
    with pytest.raises(ValueError, match=r'sample_rate=0\.029999999329447746 .*\(rate 0\.03\)'):
        acc.scheme_at_rate(np.float32(0.03))
    with pytest.raises(ValueError, match=r'sample_rate=0\.05 .*\(rate 0\.03\)'): acc.scheme_at_rate(0.05)


def test_regression_each_poisson_loader_is_charged_its_own_drawn_rate():
    # two loaders on one engine: 920 records (draws and passes 1/92), then 930 (draws 1/93, Opacus passes 1/92 too);
    # one drawn rate for both would charge the first loader's steps at 1/93, below what it drew: refused instead
    engine = PrivacyEngine(); acc = attach(engine, 'poisson')
    _train(engine, DataLoader(_data(920), batch_size=10), epochs=1)
    assert acc.drawn_rates == {1 / 92: 1 / 92}
    with pytest.raises(ValueError, match='second Poisson loader'):
        _train(engine, DataLoader(_data(930), batch_size=10), epochs=1)


def test_make_private_with_epsilon_meets_its_target_by_the_certified_bound():
    s = make_scheme('must-ow', N, m=BATCH, b=250)
    sampler, engine, loader = _attached(s, seed=1)
    opt, steps, _ = _train(engine, loader, target=4.0, poisson_sampling=False)
    eps = engine.get_epsilon(1e-5)
    assert steps == 40 and eps <= 4.0 and eps >= 3.9        # Opacus's search stops within 0.01 of the target
    assert account(s, sigma=opt.noise_multiplier, steps=40, delta=1e-5, attack=False).upper == eps

def test_registered_name_builds_a_bound_accountant_for_get_noise_multiplier():
    from opacus.accountants import create_accountant
    from opacus.accountants.utils import get_noise_multiplier
    s = make_scheme('wor', N, m=BATCH)
    sampler, engine, loader = _attached(s)
    made = create_accountant('wor')
    assert isinstance(made, OpacusStyleAccountant) and made.scheme == s and made.whole_epochs
    sigma = get_noise_multiplier(target_epsilon=3.0, target_delta=1e-5, sample_rate=1 / 20, epochs=2, accountant='wor')
    assert account(s, sigma=sigma, steps=40, delta=1e-5, attack=False).upper <= 3.0

# ---- each misuse of the Opacus route raises, naming the fix (regressions of the silent under-reporting) ----

def test_a_whole_run_sampler_is_charged_its_own_batch():
    "Regression: one sampler for 2 epochs made Opacus pass sample_rate = 1/80 and charge a batch of 100, not 200."
    s = make_scheme('wor', N, m=BATCH)
    whole = MustBatchSampler(s, steps=40, seed=0)                 # the whole run in one pass
    engine = PrivacyEngine(); attach(engine, whole)
    opt, steps, seen = _train(engine, DataLoader(_data(), batch_sampler=whole), epochs=1, poisson_sampling=False)
    assert steps == 40 and set(seen) == {BATCH} and opt.expected_batch_size == BATCH   # Opacus alone: int(1000/40)
    assert engine.get_epsilon(1e-5) == account(s, sigma=SIGMA, steps=40, delta=1e-5, attack=False).upper

def test_an_accountant_set_by_hand_or_by_name_is_refused_at_make_private():
    s = make_scheme('wor', N, m=BATCH)
    sampler = MustBatchSampler(s, seed=0)
    engine = PrivacyEngine(); engine.accountant = OpacusStyleAccountant(sampler)
    with pytest.raises(ValueError, match='only a run wired by must_nbdev.attach'):
        _train(engine, DataLoader(_data(), batch_sampler=sampler), poisson_sampling=False)
    engine = PrivacyEngine(); engine.accountant = OpacusStyleAccountant()      # 'poisson' over a WOR sampler
    with pytest.raises(ValueError, match='only a run wired by'):
        _train(engine, DataLoader(_data(), batch_sampler=sampler), poisson_sampling=False)
    attach(PrivacyEngine(), MustBatchSampler(s))                               # registers 'wor'
    with pytest.raises(ValueError, match='only a run wired by'):
        _train(PrivacyEngine(accountant='wor'), DataLoader(_data(), batch_sampler=sampler), poisson_sampling=False)
    with pytest.raises(ValueError, match='poisson_sampling=True'):
        e = PrivacyEngine(); attach(e, 'poisson')
        _train(e, DataLoader(_data(), batch_sampler=sampler), poisson_sampling=False)

def test_two_batches_per_noisy_step_are_refused():
    "Regression: signal_skip_step (and ghost clipping) made one noisy step of two sampler batches, charged as one."
    sampler, engine, loader = _attached(make_scheme('must-ow', N, m=BATCH, b=250))
    torch.manual_seed(0)
    model = nn.Linear(20, 2); opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model, opt, loader = engine.make_private(module=model, optimizer=opt, data_loader=loader, noise_multiplier=SIGMA,
                                             max_grad_norm=1.0, poisson_sampling=False)
    with pytest.raises(ValueError, match='exactly one batch'):
        for i, (X, y) in enumerate(loader):
            opt.signal_skip_step(i % 2 == 0); nn.functional.cross_entropy(model(X), y).backward(); opt.step()
            opt.zero_grad()

def test_distinct_samplers_secure_mode_and_data_parallel_are_refused(tmp_path):
    s = make_scheme('wor', N, m=BATCH)
    with pytest.raises(ValueError, match='distinct=False'): attach(PrivacyEngine(), MustBatchSampler(s, distinct=True))
    secure = PrivacyEngine(); secure.secure_mode = True
    with pytest.raises(ValueError, match='secure_mode'): attach(secure, MustBatchSampler(s))
    import torch.distributed as dist
    from opacus.distributed import DifferentiallyPrivateDistributedDataParallel as DPDDP
    dist.init_process_group('gloo', init_method=f'file://{tmp_path}/pg', world_size=1, rank=0)
    try:
        sampler, engine, loader = _attached(s)
        model = DPDDP(nn.Linear(20, 2))
        with pytest.raises(ValueError, match='data-parallel'):
            engine.make_private(module=model, optimizer=torch.optim.SGD(model.parameters(), lr=0.1),
                                data_loader=loader, noise_multiplier=1.0, max_grad_norm=1.0, poisson_sampling=False)
    finally: dist.destroy_process_group()

def test_make_private_with_epsilon_uses_its_own_engines_sampler():
    "Opacus's accountant registry is global: the last attach of 'must-ow' must not calibrate another engine's run."
    sa, ea, la = _attached(make_scheme('must-ow', N, m=BATCH, b=250), seed=1)
    _attached(make_scheme('must-ow', 4 * N, m=4 * BATCH, b=1000), seed=2)      # same name, same rate, other n
    opt, steps, _ = _train(ea, la, target=4.0, poisson_sampling=False)
    assert 3.9 <= ea.get_epsilon(1e-5) <= 4.0

def test_poisson_sampling_over_a_fixed_size_sampler_is_refused():
    sampler, engine, loader = _attached(make_scheme('must-ow', N, m=BATCH, b=250))
    with pytest.raises(ValueError, match='poisson_sampling=False'): _train(engine, loader)

def test_an_accountant_swapped_in_after_make_private_raises_at_get_epsilon():
    "Regression: the optimizer hook stays on the old accountant; the new one answered 'no steps' only after training."
    s = make_scheme('wor', N, m=BATCH)
    sampler, engine, loader = _attached(s)
    _train(engine, loader, poisson_sampling=False)
    engine.accountant = OpacusStyleAccountant(sampler)
    with pytest.raises(ValueError, match='attach\\(privacy_engine, sampler\\) before make_private'):
        engine.get_epsilon(1e-5)
    sampler, engine, loader = _attached(s)
    engine.accountant = OpacusStyleAccountant(sampler)
    with pytest.raises(ValueError, match='replaced after attach'): _train(engine, loader, poisson_sampling=False)

def test_other_loaders_datasets_and_double_attach_are_refused():
    s = make_scheme('wor', N, m=BATCH)
    sampler, engine, _ = _attached(s)
    with pytest.raises(ValueError, match='must draw from the attached sampler'):
        _train(engine, DataLoader(_data(), batch_sampler=MustBatchSampler(s, seed=0)), poisson_sampling=False)
    with pytest.raises(ValueError, match='records'):
        _train(engine, DataLoader(_data(500), batch_sampler=sampler), poisson_sampling=False)
    with pytest.raises(ValueError, match='already attached'): attach(engine, sampler)
    with pytest.raises(TypeError, match='MustBatchSampler'): attach(PrivacyEngine(), s)
    used = PrivacyEngine(); used.accountant.history = [(1.0, 0.05, 3)]
    with pytest.raises(ValueError, match='already recorded steps'): attach(used, sampler)

def test_make_private_with_epsilon_by_name_used_to_fail():
    "Regression: 'Unexpected accounting mechanism: must-wor'; now the scheme's name is registered by attach."
    sampler, engine, loader = _attached(make_scheme('wr', N, m=BATCH))
    assert engine.accountant.mechanism() == 'wr' and 'must-' not in engine.accountant.mechanism()
    opt, _, _ = _train(engine, loader, target=5.0, poisson_sampling=False)
    assert engine.get_epsilon(1e-5) <= 5.0

def _checkpointed(seed=3):
    "A WOR run trained through attach and its accountant's checkpoint: (scheme, sampler, engine, state_dict)."
    s = make_scheme('wor', N, m=BATCH)
    sampler, engine, loader = _attached(s, seed=seed)
    _train(engine, loader, poisson_sampling=False)
    return s, sampler, engine, engine.accountant.state_dict()

def test_checkpoint_round_trip_resumes_with_fresh_passes():
    "Regression: a resumed run with the same integer seed drew the first run's batches again."
    s, sampler, engine, state = _checkpointed()
    resumed = MustBatchSampler(s, seed=3)
    fresh = OpacusStyleAccountant(resumed); fresh.load_state_dict(state)
    assert fresh.get_epsilon(1e-5) == engine.get_epsilon(1e-5) and resumed.epoch == sampler.epoch == EPOCHS
    first_run = [np.concatenate(list(MustBatchSampler(s, seed=3))) for _ in range(1)][0]
    assert not np.array_equal(np.concatenate(list(resumed)), first_run)
    with pytest.raises(ValueError, match='resume with the same seed'):
        OpacusStyleAccountant(MustBatchSampler(s, seed=4)).load_state_dict(state)
    with pytest.raises(ValueError, match='state_dict is for'):
        OpacusStyleAccountant(MustBatchSampler(make_scheme('wr', N, m=BATCH))).load_state_dict(state)

@pytest.mark.parametrize('name', ['allocation', 'shuffle'])
def test_epoch_samplers_through_attach_report_account_epochs_certified_eps(name):
    from must_nbdev.core.epochs import make_epoch_scheme, EpochBatchSampler
    from must_nbdev.accounting.epoch_account import account_epochs
    sc = make_epoch_scheme(name, N, BATCH)
    sampler = EpochBatchSampler(sc, seed=4); engine = PrivacyEngine(); attach(engine, sampler)
    opt, steps, seen = _train(engine, DataLoader(_data(), batch_sampler=sampler), poisson_sampling=False)
    assert steps == 40 and sum(seen) == EPOCHS * N and opt.expected_batch_size == BATCH
    ref = account_epochs(sc, sigma=SIGMA, epochs=EPOCHS, delta=1e-5, attack=False)
    assert engine.get_epsilon(1e-5) == ref.certified and engine.accountant.mechanism() == name
    if name == 'shuffle':
        assert set(seen) == {BATCH}
        model = nn.Linear(20, 2)   # a second calibration on a spent budget: Opacus's warning, kept (cheap certificate)
        with pytest.warns(UserWarning, match='non-zero privacy budget already spent'):
            engine.make_private_with_epsilon(module=model, optimizer=torch.optim.SGD(model.parameters(), lr=0.1),
                                             data_loader=DataLoader(_data(), batch_sampler=sampler), max_grad_norm=1.0,
                                             target_epsilon=4.0, target_delta=1e-5, epochs=EPOCHS,
                                             poisson_sampling=False)

def test_make_private_with_epsilon_calibrates_random_allocation_by_its_certificate():
    from must_nbdev.core.epochs import make_epoch_scheme, EpochBatchSampler
    from must_nbdev.accounting.epoch_account import account_epochs
    sc = make_epoch_scheme('allocation', N, BATCH)
    sampler = EpochBatchSampler(sc, seed=5); engine = PrivacyEngine(); attach(engine, sampler)
    opt, steps, _ = _train(engine, DataLoader(_data(), batch_sampler=sampler), target=2.0, poisson_sampling=False)
    eps = engine.get_epsilon(1e-5)
    assert steps == 40 and 1.98 <= eps <= 2.0
    assert account_epochs(sc, sigma=opt.noise_multiplier, epochs=EPOCHS, delta=1e-5, attack=False).certified == eps
    # the package's search, not Opacus's bisection (13 epoch lattices): its options are refused, not ignored
    s2 = EpochBatchSampler(sc, seed=5); e2 = PrivacyEngine(); attach(e2, s2)
    with pytest.raises(TypeError, match='epsilon_tolerance: here sigma comes from calibrate_epoch_sigma'):
        _train(e2, DataLoader(_data(), batch_sampler=s2), target=2.0, poisson_sampling=False, epsilon_tolerance=0.01)
    with pytest.raises(TypeError, match='make_private_with_epsilon needs max_grad_norm'):   # before calibrating
        e2.make_private_with_epsilon(module=nn.Linear(20, 2), optimizer=opt, data_loader=DataLoader(_data(), batch_sampler=s2),
                                     target_epsilon=2.0, target_delta=1e-5, epochs=EPOCHS, poisson_sampling=False)

def test_make_private_with_epsilon_on_epochs_calibrates_for_the_epochs_opacus_begins():
    "Opacus counts int(epochs / rate) steps: 1.5 epochs (30 steps) begin two, charged whole; 1.01 (20 steps) one."
    from must_nbdev.core.epochs import make_epoch_scheme, EpochBatchSampler
    from must_nbdev.training.opacus import _epoch_sigma
    sc = make_epoch_scheme('shuffle', N, BATCH)                     # its certificate is cheap: the count is tested
    acc = attach(PrivacyEngine(), EpochBatchSampler(sc, seed=5))
    two = _epoch_sigma(acc, 2, 8.0, 1e-5)
    one = _epoch_sigma(acc, 1, 8.0, 1e-5)
    assert _epoch_sigma(acc, 1.5, 8.0, 1e-5) == two and _epoch_sigma(acc, 1.01, 8.0, 1e-5) == one < two
    assert _epoch_sigma(acc, 0.001, 8.0, 1e-5) == one                                # no step yet: one epoch

def test_an_epoch_run_with_changing_noise_charges_each_epoch_at_its_smallest_sigma():
    from must_nbdev.core.epochs import make_epoch_scheme
    from must_nbdev.accounting.epoch_account import account_epoch_phases
    sc = make_epoch_scheme('allocation', N, BATCH)
    t = sc.steps_per_epoch
    acc = OpacusStyleAccountant(sc)
    for _ in range(t): acc.step(noise_multiplier=2.0, sample_rate=1 / t)         # epoch 1 at σ = 2
    for _ in range(t - 1): acc.step(noise_multiplier=2.0, sample_rate=1 / t)     # epoch 2: σ = 2, then one step at 1
    acc.step(noise_multiplier=1.0, sample_rate=1 / t)
    acc.step(noise_multiplier=3.0, sample_rate=1 / t)                            # epoch 3 begun at σ = 3
    ref = account_epoch_phases([(sc, 2.0, 1), (sc, 1.0, 1), (sc, 3.0, 1)], delta=1e-5, attack=False)
    assert acc.get_epsilon(1e-5) == ref.certified and ref.epochs == 3 and math.isnan(ref.sigma)
    one = account_epoch_phases([(sc, 2.0, 1), (sc, 1.0, 1)], delta=1e-5, attack=False).certified
    assert one < ref.certified                                                   # the third epoch begun is charged
    with pytest.raises(ValueError, match='sample_rate'): acc.step(noise_multiplier=1.0, sample_rate=1 / (t + 1))

def test_a_net_accountant_calibrates_and_reports_by_the_triangle_net():
    from must_nbdev.accounting.net_options import QUICK_NET
    from must_nbdev.accounting.calibrate import calibrate_sigma
    s = make_scheme('wor', N, m=BATCH)
    sampler = MustBatchSampler(s, seed=6); engine = PrivacyEngine()
    acc = attach(engine, sampler, net='quick')                  # the preset by its name, as README says
    opt, steps, _ = _train(engine, DataLoader(_data(), batch_sampler=sampler), target=0.74, poisson_sampling=False)
    cal = calibrate_sigma(s, steps=40, eps=0.74, delta=1e-5, net=True, **QUICK_NET.keywords())
    assert steps == 40 and opt.noise_multiplier == cal.sigma and cal.result.certificate == 'triangle net'
    eps = engine.get_epsilon(1e-5)
    assert eps == cal.eps_upper <= 0.74 and acc.net == QUICK_NET and 'triangle net (net_grid=4' in repr(acc)
    from opacus.accountants import create_accountant
    assert create_accountant('wor').net == QUICK_NET          # Opacus's calibration by name: the same certificate
    assert account(s, sigma=cal.sigma, steps=40, delta=1e-5, attack=False).upper > 0.74   # fast: more noise needed
    with pytest.raises(TypeError, match='epsilon_tolerance'):
        s2 = MustBatchSampler(s, seed=7); e2 = PrivacyEngine(); attach(e2, s2, net=QUICK_NET)
        _train(e2, DataLoader(_data(), batch_sampler=s2), target=0.74, poisson_sampling=False, epsilon_tolerance=0.1)

def test_a_net_accountant_refuses_what_the_net_does_not_certify():
    from must_nbdev.accounting.net_options import QUICK_NET, TightOptions
    from must_nbdev.core.epochs import make_epoch_scheme
    s = make_scheme('wor', N, m=BATCH)
    assert OpacusStyleAccountant(s, net='quick').net == QUICK_NET         # a preset, by its name
    with pytest.raises(ValueError, match="'quick-blocks'; got 'fast'"): OpacusStyleAccountant(s, net='fast')
    with pytest.raises(TypeError, match='TightOptions'): OpacusStyleAccountant(s, net=2)
    assert OpacusStyleAccountant(s, net=True).net == TightOptions()      # True: the net at its defaults
    assert OpacusStyleAccountant(s, net=False).net is None
    with pytest.raises(ValueError, match='Poisson'): OpacusStyleAccountant('poisson', net=QUICK_NET)
    with pytest.raises(ValueError, match='epoch scheme'):
        OpacusStyleAccountant(make_epoch_scheme('shuffle', N, BATCH), net=QUICK_NET)
    with pytest.raises(ValueError, match='substitute'): OpacusStyleAccountant(s, 'add_remove', net=QUICK_NET)
    acc = OpacusStyleAccountant(s, net=QUICK_NET)
    for sigma in (4.0, 3.0): acc.step(noise_multiplier=sigma, sample_rate=BATCH / N)
    with pytest.raises(ValueError, match='one noise multiplier'): acc.get_epsilon(1e-5)

def test_a_blocked_net_accountant_reports_the_blocked_certificate_through_real_opacus():
    import dataclasses
    from must_nbdev.accounting.net_options import QUICK_NET
    blocked = dataclasses.replace(QUICK_NET, blocks=4)
    s = make_scheme('wor', N, m=BATCH)
    sampler = MustBatchSampler(s, seed=8); engine = PrivacyEngine()
    acc = attach(engine, sampler, net=blocked)
    _, steps, _ = _train(engine, DataLoader(_data(), batch_sampler=sampler), sigma=3.0, poisson_sampling=False)
    ref = account(s, sigma=3.0, steps=steps, delta=1e-5, net=blocked, attack=False)
    whole = account(s, sigma=3.0, steps=steps, delta=1e-5, net=QUICK_NET, attack=False)
    assert steps == 40 and acc.net == blocked and 'net_blocks=4' in repr(acc)
    assert engine.get_epsilon(1e-5) == ref.upper != whole.upper          # the blocks reach Opacus, not the whole DP

def test_a_checkpoint_history_is_checked_as_steps_are():
    "load_state_dict took steps 2.5 (charged int(2.5) = 2 at get_epsilon) and raised KeyError on {}."
    s, _, _, state = _checkpointed()
    for bad, match in (([(1.0, s.rate, 2.5)], 'history steps'), ([(0.0, s.rate, 2)], 'history sigma'),
                       ([(1.0, 0.5, 2)], 'sample_rate'), ([(1.0, s.rate)], 'steps\\) rows, got the entry')):
        fresh = OpacusStyleAccountant(MustBatchSampler(s, seed=3))
        kind = TypeError if 'entry' in match else ValueError             # a row of the wrong length
        with pytest.raises(kind, match=match): fresh.load_state_dict(dict(state, history=bad))
        assert fresh.history == [] and fresh.sampler.epoch == 0           # refused before anything moved
    with pytest.raises(ValueError, match="a 'history'"): OpacusStyleAccountant(MustBatchSampler(s)).load_state_dict({})
    with pytest.raises(ValueError, match='sample_rate'):
        OpacusStyleAccountant().step(noise_multiplier=1.0, sample_rate='0.1')
    with pytest.raises(ValueError, match='sample_rate'): OpacusStyleAccountant().step(noise_multiplier=1.0, sample_rate=True)

def test_a_checkpoint_missing_or_bad_sampler_position_is_refused_before_anything_moves():
    "Regression: no 'sampler_state' raised KeyError, history=[5] a TypeError, and batches_drawn=-7 was taken as is."
    s, _, _, state = _checkpointed()
    cases = [(dict(state, history=[5]), 'rows, got the entry 5'), (dict(state, history=5), 'must be a list'),
             (dict(state, batches_drawn=-7), 'batches_drawn must be'), (dict(state, batches_drawn='x'), 'batches_drawn'),
             ({k: v for k, v in state.items() if k != 'sampler_state'}, 'sampler_state')]
    for bad, match in cases:
        fresh = OpacusStyleAccountant(MustBatchSampler(s, seed=3))
        with pytest.raises((ValueError, TypeError), match=match): fresh.load_state_dict(bad)
        assert fresh.history == [] and fresh.sampler.epoch == 0 and fresh.sampler.batches_drawn == 0

def test_get_epsilon_warns_when_the_net_asked_for_did_not_fit(monkeypatch):
    "With the net asked for and not fitting the budget, get_epsilon returns account's fast ε, with a warning naming why."
    import must_nbdev.accounting.net_blocks as nb
    from must_nbdev.accounting.pld import GridTooLarge
    def too_large(*a, **kw):   # the net's own refusal, as the DP gives it at MUST.ow's small σ (2.2-5.9 GiB)
        raise GridTooLarge("the triangle net's DP needs 9999 FFT bins × 9999 members (5.9 GiB of spectra)", 3.0)
    monkeypatch.setattr(nb, 'triangle_bound', too_large); monkeypatch.setattr(nb, 'net_floor', too_large)
    s = make_scheme('wor', N, m=BATCH)
    acc = OpacusStyleAccountant(s, net='quick')
    for _ in range(20): acc.step(noise_multiplier=1.0, sample_rate=s.rate)
    with pytest.warns(UserWarning, match=r"get_epsilon: triangle net not played: too large for the budget — .*5.9 GiB") as rec:
        eps = acc.get_epsilon(1e-5)
    assert [w.filename for w in rec] == [__file__]    # the warning points at the caller's line, not the package's
    assert eps == account(s, sigma=1.0, steps=20, delta=1e-5).upper           # the fast certificate's ε, said aloud

def test_make_private_with_epsilon_warns_when_the_net_asked_for_did_not_fit(monkeypatch):
    "The calibration behind make_private_with_epsilon(net) answered with the fast certificate: said aloud, as get_epsilon."
    import must_nbdev.accounting.net_blocks as nb
    from must_nbdev.accounting.pld import GridTooLarge
    def too_large(*a, **kw): raise GridTooLarge("the triangle net's DP needs 5.9 GiB of spectra", 3.0)
    monkeypatch.setattr(nb, 'triangle_bound', too_large); monkeypatch.setattr(nb, 'net_floor', too_large)
    s = make_scheme('wor', N, m=BATCH)
    sampler = MustBatchSampler(s, seed=6); engine = PrivacyEngine()
    attach(engine, sampler, net='quick')
    with pytest.warns(UserWarning, match=r"make_private_with_epsilon: triangle net not played: too large for the budget") as rec:
        _train(engine, DataLoader(_data(), batch_sampler=sampler), target=0.74, poisson_sampling=False)
    played = [w for w in rec if 'not played' in str(w.message)]
    assert played and all(w.filename == __file__ for w in played)   # through Opacus's frames to the user's code
