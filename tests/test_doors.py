"""Every door says the same thing about the same run: `account`, the curves over steps, `PrivacyAccountant`,
`OpacusStyleAccountant`, the calibrators and the schedule, compare, sweep and the dp_accounting export report the same
certified value and the same attack (one grid driver, one certificate registry, one attack)."""
import math
import pytest
from must_nbdev.core.sampling import make_scheme
from must_nbdev.accounting.account import account, delta_over_k, epsilon_over_steps
from must_nbdev.accounting.accountant import PrivacyAccountant
from must_nbdev.accounting.calibrate import calibrate_schedule, calibrate_sigma
from must_nbdev.training.compare import compare_schemes
from must_nbdev.training.sweep import SweepPoint, evaluate_point
from must_nbdev.training.opacus import OpacusStyleAccountant

N, M, SIGMA, K, DELTA, EPS = 1000, 50, 1.2, 30, 1e-5, 1.0
RUNS = {'wor': make_scheme('wor', N, m=M), 'wr': make_scheme('wr', N, m=M),
        'must-ow': make_scheme('must-ow', N, m=M, b=200), 'poisson': make_scheme('poisson', N, q=M / N)}

@pytest.fixture(scope='module', params=sorted(RUNS))
def run(request):
    sc = RUNS[request.param]
    return sc, account(sc, sigma=SIGMA, steps=K, delta=DELTA), account(sc, sigma=SIGMA, steps=K, eps=EPS)

def test_one_result_family_means_the_same_at_every_door(run):
    "`certified`, `attack` and `bracket` have one meaning: every door's answer for the run carries account's values."
    from must_nbdev.accounting.accountant import CertifiedResult
    from must_nbdev.accounting.attack import AttackAccountant
    sc, by_delta, _ = run
    assert (by_delta.certified, by_delta.attack, by_delta.bracket) == (
        by_delta.upper, by_delta.lower, tuple(by_delta.bound_interval))
    curve = epsilon_over_steps(sc, sigma=SIGMA, steps=[K], delta=DELTA)[0]
    recorded = PrivacyAccountant().step(sc, sigma=SIGMA, steps=K).epsilon(DELTA)
    answers = [curve, recorded]
    if sc.name != 'poisson': answers.append(evaluate_point(SweepPoint(sc.name, N, M, SIGMA, K * M / N, sc.b,
                                                                      sc.relation), DELTA))
    for a in answers:
        assert isinstance(a, CertifiedResult) and a.certified == by_delta.certified, (type(a), a.certified)
        assert a.attack in (None, by_delta.attack)
    assert recorded.attack is None and recorded.bracket[1] == recorded.certified   # the recorded run runs no attack
    attacked = AttackAccountant(sc, SIGMA, sc.relation, K, by_delta.h).epsilon(DELTA)
    assert attacked.certified is None and attacked.attack == attacked.lower <= by_delta.certified
    paper = account(sc, sigma=SIGMA, steps=K, delta=DELTA, pair='paper')
    assert paper.certified is None and paper.attack is None                        # not a worst-case answer

def test_curves_are_account(run):
    sc, by_delta, by_eps = run
    e = epsilon_over_steps(sc, sigma=SIGMA, steps=[K], delta=DELTA)[0]
    d = delta_over_k(sc, sigma=SIGMA, steps=[K], eps=EPS)[0]
    assert (e.upper, e.lower, e.certificate) == (by_delta.upper, by_delta.lower, by_delta.certificate)
    assert (d.upper, d.lower, d.certificate) == (by_eps.upper, by_eps.lower, by_eps.certificate)
    assert e.attack_name == by_delta.attack_name and e.certificates == by_delta.certificates

def test_recorded_run_is_account(run):
    sc, by_delta, by_eps = run
    acc = PrivacyAccountant().step(sc, sigma=SIGMA, steps=K)
    assert acc.epsilon(DELTA).upper == by_delta.upper and acc.certificate == by_delta.certificate
    assert acc.certificates == by_delta.certificates
    assert acc.delta(EPS).upper == by_eps.upper and acc.certificate == by_eps.certificate

def test_recorded_run_one_call_per_step_is_account(run):
    sc, by_delta, _ = run
    acc = PrivacyAccountant()
    for _ in range(K): acc.step(sc, sigma=SIGMA)
    assert acc.epsilon(DELTA).upper == by_delta.upper

def test_opacus_style_accountant_is_account(run):
    sc, by_delta, _ = run
    acc = OpacusStyleAccountant(sc)
    for _ in range(K): acc.step(noise_multiplier=SIGMA, sample_rate=sc.rate)
    assert acc.get_epsilon(DELTA) == by_delta.upper

def test_sweep_and_compare_rows_are_account(run):
    sc, by_delta, _ = run
    if sc.name == 'poisson': pytest.skip('compare builds its own Poisson at rate m/n (checked through wor below)')
    point = SweepPoint(sc.name, N, M, SIGMA, K * M / N, sc.b, sc.relation)
    row = evaluate_point(point, DELTA)
    assert row.steps == K and (row.eps, row.eps_attack, row.certificate) == (
        by_delta.upper, by_delta.lower, by_delta.certificate)

def test_compare_rows_are_account():
    rows = compare_schemes(N, M, delta=DELTA, sigma=SIGMA, steps=K, b_values=[200])
    by = {(r.name, r.relation): r for r in rows}
    for name in ('wor', 'wr', 'must-ow'):
        r = account(RUNS[name], sigma=SIGMA, steps=K, delta=DELTA)
        got = by[(name, 'substitute')]
        assert (got.eps, got.eps_attack, got.certificate) == (r.upper, r.lower, r.certificate)
    p = account(RUNS['poisson'], sigma=SIGMA, steps=K, delta=DELTA)
    assert by[('poisson', 'add_remove')].eps == p.upper

@pytest.mark.parametrize('name', ['wor', 'must-ow'])
def test_calibrators_report_account_at_their_sigma(name):
    sc = RUNS[name]
    cal = calibrate_sigma(sc, steps=K, eps=2.0, delta=DELTA)
    r = account(sc, sigma=cal.sigma, steps=K, delta=DELTA)
    assert (cal.eps_upper, cal.eps_lower, cal.result.certificate) == (r.upper, r.lower, r.certificate)
    assert (cal.certified, cal.attack, cal.bracket) == (r.certified, r.attack, r.bracket)
    sched = calibrate_schedule([(sc, K)], eps=2.0, delta=DELTA)
    assert sched.eps_upper == account(sc, sigma=sched.sigma, steps=K, delta=DELTA).upper
    assert sched.sigma == pytest.approx(cal.sigma, rel=0.01)    # one phase: the same search on the same numbers

@pytest.mark.parametrize('name', ['wor', 'wr', 'must-ow'])
def test_dp_accounting_export_agrees(name):
    pytest.importorskip('dp_accounting')
    from must_nbdev.training.interop import dp_accounting_classes
    Event, Accountant = dp_accounting_classes()
    sc = RUNS[name]
    r = account(sc, sigma=SIGMA, steps=K, delta=DELTA)
    acc = Accountant(value_discretization_interval=1e-3)
    acc.compose(Event(sc, SIGMA), K)
    got = acc.get_epsilon(DELTA)
    # another composition engine (dp_accounting's, on its own grid) of the same certified per-step PLDs
    assert r.lower <= got <= 1.02 * r.upper, (got, r)
    assert set(acc._plds) - {'base pairs'} <= set(r.certificates)

def test_the_nets_certified_eps_does_not_depend_on_the_attack_settings():
    "The net read ε from the attack's ε on: attack=False, attack_budget=0 and the default gave three certified ε."
    from must_nbdev.core.sampling import scheme_at
    from must_nbdev.accounting.net_options import TightOptions
    from must_nbdev.training.sweep import run_sweep
    s, quick = scheme_at('wor', 1000, 20), TightOptions(grid=4, levels=1, lean=True, copies_tol=0.08)
    ask = dict(sigma=2.0, steps=20, delta=DELTA, net=quick)   # the old anchor: 0.916238, 0.916213, 0.916237
    runs = [account(s, **ask), account(s, **ask, attack=False), account(s, **ask, attack_budget=0)]
    assert all(r.certificate == 'triangle net' for r in runs)
    assert len({r.upper for r in runs}) == 1, [r.upper for r in runs]
    assert runs[1].lower == 0 and runs[2].lower < runs[0].lower            # each still reports its own attack
    row = run_sweep([SweepPoint('wor', 1000, 20, 2.0, 0.4)], delta=DELTA, net=quick, attack=False)[0]
    assert row.eps == runs[0].upper

def test_the_curves_take_the_attack_budget():
    "must account --steps 1000,999 ran the attack at the library's budget and --k 1000 at the CLI's (10×)."
    s = RUNS['wor']
    for budget in (0, 1e9):
        one = account(s, sigma=SIGMA, steps=K, delta=DELTA, attack_budget=budget)
        curve = epsilon_over_steps(s, sigma=SIGMA, steps=[K], delta=DELTA, attack_budget=budget)[0]
        assert (curve.lower, curve.attack_name, curve.upper) == (one.lower, one.attack_name, one.upper)

@pytest.mark.parametrize('name, n, m, sigma, k, relation, query', [
    ('poisson', 333, 48, 5.5689, 94, 'add_remove', dict(eps=1.585)),
    ('wor', 324, 9, 6.598, 360, 'substitute', dict(delta=1e-7))])
def test_regression_recorded_run_started_its_grid_one_ulp_away_from_account(name, n, m, sigma, k, relation, query):
    "A recorded run read its one spread as sqrt(k·s²/k), an ulp from account's s, and ended on another grid (a fuzz)."
    sc = make_scheme(name, n, m=m) if name != 'poisson' else make_scheme(name, n, q=m / n)
    once = account(sc, sigma=sigma, steps=k, relation=relation, **query)
    recorded = PrivacyAccountant().step(sc, sigma=sigma, steps=k, relation=relation)
    answer = recorded.delta(query['eps']) if 'eps' in query else recorded.epsilon(query['delta'])
    assert answer.certified == once.certified and recorded.h == once.h

ACCOUNTING_DOORS = {'account', 'delta_over_k', 'epsilon_over_steps', 'calibrate_sigma', 'calibrate_steps',
                    'calibrate_batch_size', 'compare_schemes', 'run_sweep'}

def library_calls_without_net():
    """Calls of an accounting door inside the library that do not name `net=` (file:line name). It reads calls by
    the door's own name; a door called under another name (`curve` in `commands`, which names `net=`) is not seen."""
    import ast
    from pathlib import Path
    pkg = Path(__file__).resolve().parents[1] / 'must_nbdev'
    out = []
    for py in sorted(pkg.rglob('*.py')):
        for node in ast.walk(ast.parse(py.read_text(encoding='utf-8'))):
            if not isinstance(node, ast.Call): continue
            name = getattr(node.func, 'id', None) or getattr(node.func, 'attr', None)
            recorded = name == 'PrivacyAccountant' and not node.args   # a recorded run (fixed parts take no net)
            if (name in ACCOUNTING_DOORS or recorded) and not any(kw.arg == 'net' for kw in node.keywords):
                out.append(f'{py.relative_to(pkg)}:{node.lineno} {name}')
    return out

def test_every_call_of_a_door_inside_the_library_names_its_certificate():
    """Each door calls `account` and the calibrators with its own choice, `net=...` by name, never through account's
    default: a calibration whose σ search followed another default than its final answer returned a σ whose certified
    ε (3.040) missed its target of 3 (research/tight_default claim 59)."""
    assert not library_calls_without_net()

# One switch for every door: under `net_by_default`, each door whose net is not given plays the default net where it
# applies, and answers what it answers when asked for that net by name (a run small enough for the net in seconds).
NET_RUN = dict(scheme=make_scheme('wor', 50, m=5), sigma=2.0, steps=5, delta=1e-5)

@pytest.fixture(scope='module')
def asked_net():
    "The run's ε when each door is asked for the quick net by name (the net answers: it is below the fast one)."
    from must_nbdev.accounting.net_options import QUICK_NET
    r = account(NET_RUN['scheme'], **{k: v for k, v in NET_RUN.items() if k != 'scheme'}, net=QUICK_NET)
    fast = account(NET_RUN['scheme'], **{k: v for k, v in NET_RUN.items() if k != 'scheme'}, net=False)
    assert r.certificate == 'triangle net' and r.upper < fast.upper
    return r, fast

def test_a_default_net_reaches_every_door(asked_net):
    from must_nbdev.accounting.net_options import net_by_default
    r, fast = asked_net
    sc, sigma, k, delta = NET_RUN.values()
    with net_by_default('quick'):
        got = {'account': account(sc, sigma=sigma, steps=k, delta=delta),
               'curve': epsilon_over_steps(sc, sigma=sigma, steps=[k], delta=delta)[0],
               'recorded': PrivacyAccountant().step(sc, sigma=sigma, steps=k).epsilon(delta),
               'sweep': evaluate_point(SweepPoint('wor', 50, 5, sigma, k * 5 / 50, None, 'substitute'), delta)}
        opacus = OpacusStyleAccountant(sc)
        for _ in range(k): opacus.step(noise_multiplier=sigma, sample_rate=sc.rate)
        got['opacus'] = opacus.get_epsilon(delta)
        assert account(sc, sigma=sigma, steps=k, delta=delta, net=False).upper == fast.upper   # asked: fast
    values = {door: getattr(a, 'eps', getattr(a, 'upper', a)) for door, a in got.items()}
    assert values == {door: r.upper for door in got}
    assert account(sc, sigma=sigma, steps=k, delta=delta).upper == fast.upper   # after the block: the fast ones

def test_a_default_net_plays_only_where_it_applies(asked_net):
    "Poisson, add/remove, the paper's pair, fixed PLDs and a run whose σ changes: the fast certificates, no error."
    from must_nbdev.accounting.net_options import net_by_default
    from must_nbdev.accounting.dominating import scheme_gaussian_pld
    r, fast = asked_net
    sc, sigma, k, delta = NET_RUN.values()
    poisson = make_scheme('poisson', 50, q=0.1)
    plain = lambda **kw: account(**kw, net=False).upper
    with net_by_default('quick'):
        assert account(poisson, sigma=sigma, steps=k, delta=delta).upper == plain(scheme=poisson, sigma=sigma,
                                                                                    steps=k, delta=delta)
        for kw in (dict(relation='add_remove'), dict(pair='paper')):
            assert account(sc, sigma=sigma, steps=k, delta=delta, **kw).upper == plain(
                scheme=sc, sigma=sigma, steps=k, delta=delta, **kw)
        two = PrivacyAccountant().step(sc, sigma=sigma, steps=k).step(sc, sigma=2 * sigma, steps=k)
        two.epsilon(delta)
        assert two.net is None and two.certificate != 'triangle net'
        double = PrivacyAccountant(precision='double').step(sc, sigma=sigma, steps=k)   # account: the net's
        with pytest.raises(ValueError, match="precision='double' under the default net"): double.epsilon(delta)
        assert double.step(sc, sigma=2 * sigma, steps=k).epsilon(delta).upper > 0   # two σ: fast, no net
        assert PrivacyAccountant([(scheme_gaussian_pld(sc, sigma, 'substitute', 1e-3), k)]).net is None
        assert OpacusStyleAccountant('poisson').net is None
        with pytest.raises(ValueError, match='fixed-size'):   # a net asked for by name where none applies: loud
            account(poisson, sigma=sigma, steps=k, delta=delta, net='quick')

def test_a_default_net_calibrates_as_the_net_asked_for(asked_net):
    from must_nbdev.accounting.net_options import QUICK_NET, net_by_default
    r, _ = asked_net
    sc, sigma, k, delta = NET_RUN.values()
    asked = calibrate_sigma(sc, steps=k, eps=r.upper, delta=delta, net=QUICK_NET)
    with net_by_default(QUICK_NET): got = calibrate_sigma(sc, steps=k, eps=r.upper, delta=delta)
    assert (got.sigma, got.eps_upper, got.result.certificate) == (asked.sigma, asked.eps_upper, 'triangle net')

def test_the_dp_accounting_export_refuses_a_run_the_default_net_certifies():
    "The export composes per-step PLDs: under a default net it would answer another ε than `account`, so it refuses."
    pytest.importorskip('dp_accounting')
    from must_nbdev.accounting.net_options import net_by_default
    from must_nbdev.training.interop import dp_accounting_classes
    Event, Accountant = dp_accounting_classes()
    sc, sigma, k, delta = NET_RUN.values()
    acc = Accountant(value_discretization_interval=1e-3); acc.compose(Event(sc, sigma), k)
    fast = acc.get_epsilon(delta)
    with net_by_default('quick'):
        for query in (lambda: acc.get_epsilon(delta), lambda: acc.get_delta(1.0)):
            with pytest.raises(ValueError, match="default certificate is the triangle net"): query()
        with net_by_default(False): assert acc.get_epsilon(delta) == fast
        from dp_accounting.privacy_accountant import NeighboringRelation
        poisson = Accountant(NeighboringRelation.ADD_OR_REMOVE_ONE, 1e-3)   # no run certificate: it answers
        poisson.compose(Event(make_scheme('poisson', 50, q=0.1), sigma), k)
        assert 0 < poisson.get_epsilon(delta) < math.inf

def test_the_recorded_doors_read_the_default_at_each_answer(asked_net):
    "Built before a block or inside it, a recorded accountant answers as `account` does at the moment it answers."
    from must_nbdev.accounting.net_options import net_by_default
    r, fast = asked_net
    sc, sigma, k, delta = NET_RUN.values()
    before = PrivacyAccountant().step(sc, sigma=sigma, steps=k)
    opacus = OpacusStyleAccountant(sc)
    for _ in range(k): opacus.step(noise_multiplier=sigma, sample_rate=sc.rate)
    with net_by_default('quick'):
        inside = PrivacyAccountant().step(sc, sigma=sigma, steps=k)
        assert before.epsilon(delta).upper == opacus.get_epsilon(delta) == r.upper
        with pytest.raises(ValueError, match='scheme.n'): before.step(make_scheme('wor', 60, m=5), sigma=sigma)
        assert before.epsilon(delta).upper == r.upper            # a refused step changes nothing
        assert before.precision == 'auto'                        # account's, which picks it
        with pytest.raises(ValueError, match='the default net'): before.upper   # no PLDs composed, and why
        before.step(sc, sigma=2 * sigma, steps=k)                # a second σ: the fast certificates for the run ...
        before.epsilon(delta); assert before.certificate != 'triangle net'
        rows = before.history(delta=delta)                       # ... and the net for its first phase alone
        assert rows[0]['upper'] == r.upper and rows[1]['upper'] == before.epsilon(delta).upper
    assert inside.epsilon(delta).upper == opacus.get_epsilon(delta) == fast.upper   # after the block: the fast ones

def test_a_default_net_leaves_other_runs_of_the_export_and_the_schedule_alone():
    "The doors that cannot carry the net refuse only the run it certifies: one scheme at one σ."
    pytest.importorskip('dp_accounting')
    from dp_accounting import dp_event
    from must_nbdev.accounting.net_options import net_by_default
    from must_nbdev.training.interop import dp_accounting_classes
    Event, Accountant = dp_accounting_classes()
    sc, sigma, k, delta = NET_RUN.values()
    with net_by_default('quick'):
        two = Accountant(value_discretization_interval=1e-3)
        two.compose(Event(sc, sigma), k); two.compose(Event(sc, 2 * sigma), k)
        gauss = Accountant(value_discretization_interval=1e-3)
        gauss.compose(dp_event.GaussianDpEvent(3.0), k); gauss.supports(Event(sc, sigma))   # checked, not composed
        mixed = Accountant(value_discretization_interval=1e-3)
        mixed.compose(Event(sc, sigma), k); mixed.compose(dp_event.GaussianDpEvent(3.0), 1)
        for acc in (two, gauss, mixed): assert 0 < acc.get_epsilon(delta) < math.inf
        with pytest.raises(ValueError, match='calibrate_sigma'):
            calibrate_schedule([(sc, k), (sc, k)], eps=3.0, delta=delta)
        assert account(sc, sigma=sigma, steps=k, delta=delta, h=0.5).certificate != 'triangle net'   # too coarse
        with pytest.raises(ValueError, match='net_grid'):                  # for the net: asked by name, loud
            account(sc, sigma=sigma, steps=k, delta=delta, h=0.5, net='quick')

def test_the_shipped_default_gives_one_number_at_every_door(monkeypatch):
    "As the package ships ('quick-blocks', five blocks), account, the curve, both recorded doors and the calibrator agree."
    from must_nbdev.accounting.calibrate import calibrate_sigma
    monkeypatch.delenv('MUST_DEFAULT_NET')                  # the package's own default, not the tests' fast one
    sc, sigma, k, delta = make_scheme('wor', 500, m=5), 3.0, 100, 1e-5   # a run the net pays at in seconds
    r = account(sc, sigma=sigma, steps=k, delta=delta)
    assert r.certificate == 'triangle net' and r.upper < account(sc, sigma=sigma, steps=k, delta=delta, net=False).upper
    opacus = OpacusStyleAccountant(sc)
    for _ in range(k): opacus.step(noise_multiplier=sigma, sample_rate=sc.rate)
    got = {'curve': epsilon_over_steps(sc, sigma=sigma, steps=[k], delta=delta)[0].upper,
           'recorded': PrivacyAccountant().step(sc, sigma=sigma, steps=k).epsilon(delta).upper,
           'opacus': opacus.get_epsilon(delta)}
    assert got == {door: r.upper for door in got}
    cal = calibrate_sigma(sc, steps=k, eps=r.upper * 1.2, delta=delta)   # its answer is account's at its σ
    assert cal.result.certificate == 'triangle net' and cal.sigma < sigma
    assert cal.eps_upper == account(sc, sigma=cal.sigma, steps=k, delta=delta).upper <= r.upper * 1.2
