"Sweeps (training/04_sweep): grid validation, backends agree, a local Dask cluster, CSV round trip, the CLI."
import csv, json, math
import pytest
from _helpers import run_cli
from must_nbdev import account, make_scheme
from must_nbdev.training.sweep import SweepPoint, evaluate_point, run_sweep, sweep_csv, sweep_grid

POINTS = sweep_grid(5_000, schemes=('poisson', 'wor', 'must-ow'), batch_sizes=(50,), sigmas=(1.0, 2.0), epochs=(1.5,),
                    b_per_m=(4,))

def key(rows): return [(r.scheme, r.b, r.sigma, r.steps, r.eps, r.eps_attack, r.certificate) for r in rows]

@pytest.fixture(scope='module')
def sequential(): return run_sweep(POINTS, delta=1e-5)

def test_grid_is_the_product_with_float_epochs():
    assert len(POINTS) == 3 * 2 and {p.b for p in POINTS if p.scheme == 'must-ow'} == {200}
    assert all(p.b is None for p in POINTS if p.scheme != 'must-ow')
    rows = run_sweep(POINTS[::2], delta=1e-5, attack=False)    # Poisson's exact pair is its own attack; WOR's none
    assert rows[0].steps == math.ceil(1.5 * 5_000 / 50) and rows[0].theory_gap == pytest.approx(rows[0].eps /
                                                                                                rows[0].eps_attack)
    assert rows[1].scheme == 'wor' and math.isnan(rows[1].theory_gap) and math.isnan(rows[1].eps_attack)

def test_rows_bracket_the_truth(sequential):
    for r in sequential:
        assert 0 < r.eps_attack <= r.eps * (1 + 1e-9), r
    for name in ('poisson', 'wor', 'must-ow'):
        lo, hi = sorted((r for r in sequential if r.scheme == name), key=lambda r: r.sigma)
        assert hi.eps < lo.eps        # more noise, smaller certified epsilon

def test_joblib_backend_matches_sequential(sequential):
    pytest.importorskip('joblib')
    assert key(run_sweep(POINTS, delta=1e-5, backend='joblib', n_jobs=2)) == key(sequential)

def test_sweep_on_a_local_dask_cluster(sequential):
    "Issue 26 acceptance: a sweep runs on a local dask.distributed cluster (two worker processes) and agrees."
    distributed = pytest.importorskip('distributed')
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl:
        with distributed.Client(cl) as client:
            rows = run_sweep(POINTS, delta=1e-5, backend='dask', client=client)
            assert key(rows) == key(sequential)
            via_address = run_sweep(POINTS[:2], delta=1e-5, backend='dask', address=cl.scheduler_address)
            assert key(via_address) == key(sequential[:2])
    local = run_sweep(POINTS[:2], delta=1e-5, backend='dask', address='local', n_jobs=2)   # its own cluster, closed
    assert key(local) == key(sequential[:2])
    with pytest.raises(ValueError, match='n_jobs'):
        run_sweep(POINTS[:1], delta=1e-5, backend='dask', address='local', n_jobs=0)

def test_dask_without_a_cluster_says_what_to_do():
    pytest.importorskip('distributed')
    with pytest.raises(ValueError, match='needs a cluster'):
        run_sweep(POINTS[:1], delta=1e-5, backend='dask')

def test_csv_round_trip(sequential, tmp_path):
    path = sweep_csv(sequential, tmp_path / 's.csv')
    back = list(csv.DictReader(open(path)))
    assert [float(r['eps']) for r in back] == [r.eps for r in sequential]
    assert [r['certificate'] for r in back] == [r.certificate for r in sequential]
    assert [r['skipped'] for r in back] == [' | '.join(f'{k}: {v}' for k, v in (r.skipped or {}).items())
                                            for r in sequential]

def test_a_net_not_played_is_said_in_the_row_and_its_csv(tmp_path):
    "A point whose net's floor leaves no room: the row carries account's skipped, the CSV its 'name: why'."
    point = SweepPoint('wr', 3, 2, 1.0, 1.0)
    row = evaluate_point(point, delta=1e-3, net='quick')
    assert row.skipped == account(make_scheme('wr', 3, m=2), sigma=1.0, epochs=1.0, delta=1e-3, net='quick').skipped
    assert set(row.skipped) == {'triangle net'} and evaluate_point(point, delta=1e-3).skipped is None
    back = list(csv.DictReader(open(sweep_csv([row], tmp_path / 'n.csv'))))
    assert back[0]['skipped'] == 'triangle net: ' + row.skipped['triangle net']

def test_bad_input_is_refused():
    with pytest.raises(ValueError, match='sigmas'): sweep_grid(1000, sigmas=(0,))
    with pytest.raises(ValueError, match='epochs'): sweep_grid(1000, epochs=(-1,))
    with pytest.raises(ValueError, match='n_jobs'): run_sweep(POINTS, delta=1e-5, backend='joblib', n_jobs=0)
    with pytest.raises(ValueError, match='delta'): run_sweep(POINTS, delta=1.0)
    with pytest.raises(TypeError, match='SweepPoint'): run_sweep([1, 2], delta=1e-5)

def test_cli_sweep_writes_csv_plot_and_json(tmp_path):
    rc, out, err = run_cli('sweep', '--n', '5000', '--schemes', 'poisson', 'wor', '--batch-sizes', '50', '--sigmas',
                           '1', '2', '--epochs', '1', '--delta', '1e-5', '--csv', str(tmp_path / 's.csv'),
                           '--plot', str(tmp_path / 's.png'), '--quiet')
    assert rc == 0, err
    assert 'WOR' in out and (tmp_path / 's.csv').exists() and (tmp_path / 's.png').stat().st_size > 1000
    rc, out, err = run_cli('sweep', '--n', '5000', '--schemes', 'wor', '--batch-sizes', '50', '--sigmas', '2',
                           '--epochs', '1', '--delta', '1e-5', '--json')
    assert rc == 0 and json.loads(out)[0]['scheme'] == 'wor'

def test_cli_sweep_on_a_local_dask_cluster():
    pytest.importorskip('distributed')
    rc, out, err = run_cli('sweep', '--n', '5000', '--schemes', 'wor', '--batch-sizes', '50', '--sigmas', '2', '3',
                           '--epochs', '1', '--delta', '1e-5', '--dask', 'local', '--jobs', '2', '--json')
    assert rc == 0, err
    assert [r['sigma'] for r in json.loads(out)] == [2, 3]

def test_unreachable_scheduler_is_a_value_error():
    "A wrong --dask address is bad input (one line in the CLI), not an internal error."
    pytest.importorskip('distributed')
    with pytest.raises(ValueError, match='cannot connect to the Dask scheduler'):
        run_sweep(POINTS[:1], delta=1e-5, backend='dask', address='tcp://127.0.0.1:9', connect_timeout=2)

def test_client_and_address_together_raise():
    "A client and an address name two clusters: the sweep refuses rather than silently using one."
    with pytest.raises(ValueError, match='not both'):
        run_sweep(POINTS[:1], delta=1e-5, backend='dask', client=object(), address='local')

def test_cli_sweep_bad_input_is_one_line():
    rc, out, err = run_cli('sweep', '--n', '1000', '--batch-sizes', '2000', '--sigmas', '1', '--epochs', '1',
                           '--delta', '1e-5')
    assert rc == 2 and len(err.strip().splitlines()) == 1 and 'batch_sizes' in err

def test_a_point_says_when_a_fast_certificate_answered_far_from_the_attack():
    "As account does: WOR at n=2000, m=40, σ=2, 4 epochs answers 1.11× the attack; Poisson never sets it."
    wor = evaluate_point(SweepPoint('wor', 2000, 40, 2.0, 4.0), delta=1e-5)
    assert wor.theory_gap > 1.05 and 'net=True' in wor.tighter
    assert evaluate_point(SweepPoint('poisson', 2000, 40, 2.0, 4.0), delta=1e-5).tighter is None
    assert evaluate_point(SweepPoint('wor', 2000, 40, 2.0, 4.0), delta=1e-5, attack=False).tighter is None
    rc, out, _ = run_cli('sweep', '--n', '2000', '--schemes', 'wor', '--batch-sizes', '40', '--sigmas', '2',
                         '--epochs', '4', '--delta', '1e-5', '--quiet', '--jobs', '1')
    assert rc == 0 and any(l.startswith('tighter: for WOR') for l in out.splitlines()), out

def test_epoch_schemes_in_a_sweep_answer_what_account_epochs_answers():
    from must_nbdev.core.epochs import make_epoch_scheme
    from must_nbdev.accounting.epoch_account import account_epochs
    # one σ: each (scheme, σ) costs 5-10 s of epoch accounting, and the sweep's path is the same at every σ
    pts = sweep_grid(6_000, schemes=('allocation', 'shuffle'), batch_sizes=(60,), sigmas=(2.0,), epochs=(2,),
                     relation='substitute')
    for r in run_sweep(pts, delta=1e-5):
        ref = account_epochs(make_epoch_scheme(r.scheme, 6_000, 60), sigma=r.sigma, epochs=2, delta=1e-5,
                             relation='substitute')
        assert (r.eps, r.eps_attack, r.certificate, r.steps, r.relation) == (ref.certified, ref.attack,
                                                                               ref.certificate, 200, 'substitute')
    with pytest.raises(ValueError, match='whole epochs'): sweep_grid(6_000, schemes=('shuffle',), epochs=(0.5,))
    rc, out, err = run_cli('sweep', '--n', '6000', '--schemes', 'allocation', '--batch-sizes', '60', '--sigmas', '1',
                           '--epochs', '2.5', '--delta', '1e-5', '--quiet')
    assert rc == 2 and out == '' and 'whole epochs' in err and len(err.strip().splitlines()) == 1

def test_a_sweep_with_the_net_answers_what_account_net_answers_where_it_applies():
    "WOR at n=1000, m=50, σ=4, 2 epochs: the quick net certifies 0.731 against the fast 0.749; Poisson is untouched."
    from must_nbdev import account, make_scheme
    from must_nbdev.accounting.net_options import QUICK_NET
    pts = sweep_grid(1000, schemes=['poisson', 'wor'], batch_sizes=[50], sigmas=[4.0], epochs=[2])
    fast, tight = run_sweep(pts, delta=1e-5), run_sweep(pts, delta=1e-5, net=QUICK_NET)
    ref = account(make_scheme('wor', 1000, m=50), sigma=4.0, steps=40, delta=1e-5, net=True, **QUICK_NET.keywords())
    assert (tight[1].eps, tight[1].certificate, tight[1].tighter) == (ref.upper, 'triangle net', None)
    assert tight[1].eps < fast[1].eps and fast[1].tighter is not None and key(tight[:1]) == key(fast[:1])
    with pytest.raises(ValueError, match='applies to no point'): run_sweep(pts[:1], delta=1e-5, net=QUICK_NET)
    with pytest.raises(ValueError, match="got 'quickest'"): run_sweep(pts, delta=1e-5, net='quickest')
    with pytest.raises(TypeError, match='TightOptions'): run_sweep(pts, delta=1e-5, net=0.5)
    assert key(run_sweep(pts[:1], delta=1e-5, net=None)) == key(fast[:1])   # None: no net, as False
    rc, out, err = run_cli('sweep', '--n', '1000', '--schemes', 'wor', '--batch-sizes', '50', '--sigmas', '4',
                           '--epochs', '2', '--delta', '1e-5', '--quiet', '--net', 'quick')   # QUICK_NET, by name
    assert rc == 0 and 'triangle net' in out and f'{ref.upper:.6f}'[:7] in out, (out, err)
    rc, out, err = run_cli('sweep', '--n', '1000', '--schemes', 'wor', '--batch-sizes', '50', '--sigmas', '4',
                           '--epochs', '2', '--delta', '1e-5', '--net-tol', '0.04')
    assert rc == 2 and len(err.strip().splitlines()) == 1 and '--net was not given' in err

def test_sweep_point_with_fractional_epochs_of_an_epoch_scheme_raises():
    "run_sweep charged int(2.5) = 2 epochs of shuffled epochs while its row said 2.5: a point now checks itself."
    with pytest.raises(ValueError, match='whole epochs'): SweepPoint('shuffle', 100, 10, 1.0, 2.5)
    with pytest.raises(ValueError, match='whole epochs'): SweepPoint('allocation', 100, 10, 1.0, 0.5)

def test_sweep_point_refuses_what_it_would_ignore():
    "b on a scheme without a stage-I size, an unknown relation, add/remove for fixed epoch batches: refused, named."
    with pytest.raises(ValueError, match='no stage-I size'): SweepPoint('wor', 100, 10, 1.0, 1.0, b=50)
    for name in ('allocation', 'shuffle'):     # the epoch schemes too (built by make_epoch_scheme, which takes no b)
        with pytest.raises(ValueError, match='no stage-I size'): SweepPoint(name, 100, 10, 1.0, 1.0, b=50)
    with pytest.raises(ValueError, match='relation'): SweepPoint('wor', 100, 10, 1.0, 1.0, relation='bogus')
    with pytest.raises(ValueError, match='add_remove'): SweepPoint('shuffle', 100, 10, 1.0, 1.0, relation='add_remove')
    with pytest.raises(ValueError, match='relation'): sweep_grid(100, batch_sizes=[10], relation='bogus')

def test_run_sweep_refuses_options_it_would_ignore():
    "n_jobs means nothing to the sequential backend; attack='no' is not False."
    p = [SweepPoint('wor', 100, 10, 1.0, 1.0)]
    with pytest.raises(ValueError, match='n_jobs'): run_sweep(p, delta=1e-5, n_jobs=4)
    with pytest.raises(ValueError, match='-1'): run_sweep(p, delta=1e-5, backend='joblib', n_jobs=-2)
    with pytest.raises(TypeError, match='attack'): run_sweep(p, delta=1e-5, attack='no')
    with pytest.raises(TypeError, match='show_progress'): run_sweep(p, delta=1e-5, show_progress='no')


def test_regression_sweep_grid_stage_one_size_is_calibrates_ceiling():
    # b = ⌈b_per_m·m⌉ as calibrate_batch_size builds it: 12.5 was rounded to even (12), 1.1·10 must stay 11
    assert [p.b for p in sweep_grid(1000, schemes=('must-ow',), batch_sizes=(10,), b_per_m=(1.1, 1.25))] == [11, 13]


@pytest.mark.parametrize('axis', ['schemes', 'batch_sizes', 'sigmas', 'epochs', 'b_per_m'])
def test_sweep_grid_axis_that_is_not_a_list_is_a_type_error_naming_it(axis):
    with pytest.raises(TypeError, match=f'{axis} must be a list'): sweep_grid(1000, **{axis: 5})


@pytest.mark.parametrize('timeout', [5, -5])
def test_regression_connect_timeout_without_a_scheduler_is_refused_not_ignored(timeout):
    with pytest.raises(ValueError, match='connect_timeout'): run_sweep(POINTS[:1], delta=1e-5, connect_timeout=timeout)


def test_regression_sweep_reads_whether_an_attack_ran_from_account():
    "evaluate_point gave NaN for an exact pair with attack=False, where `account` has the exact value."
    from must_nbdev.accounting.account import account
    p = SweepPoint('poisson', 2000, 40, 2.0, 4.0)
    row, r = evaluate_point(p, delta=1e-5, attack=False), account(p.build(), sigma=2.0, epochs=4.0, delta=1e-5)
    assert row.eps_attack == r.attack > 0 and row.theory_gap == pytest.approx(r.upper / r.attack)
    blind = evaluate_point(SweepPoint('wor', 2000, 40, 2.0, 4.0), delta=1e-5, attack=False)
    assert math.isnan(blind.eps_attack) and math.isnan(blind.theory_gap)


def test_an_empty_b_per_m_never_drops_the_must_points():
    "Regression: sweep_grid(..., schemes=('must-ow', 'wor'), b_per_m=[]) silently returned WOR's points only."
    with pytest.raises(ValueError, match='b_per_m is empty, but must-ow'):
        sweep_grid(1000, schemes=('must-ow', 'wor'), batch_sizes=(10,), b_per_m=[])
    assert [p.scheme for p in sweep_grid(1000, schemes=('wor',), batch_sizes=(10,), b_per_m=[])] == ['wor']


def test_sweep_doors_refuse_what_is_not_points_or_rows(tmp_path):
    """Regression: run_sweep(None) raised "'NoneType' object is not iterable", evaluate_point(3) and plot_sweep([1])
    AttributeError."""
    from must_nbdev.training.sweep import plot_sweep
    with pytest.raises(TypeError, match='points must be a list of SweepPoint'): run_sweep(None, delta=1e-5)
    with pytest.raises(TypeError, match='point must be a SweepPoint'): evaluate_point(3, 1e-5)
    with pytest.raises(ValueError, match='rows must hold at least one SweepRow'): sweep_csv([], tmp_path / 'x.csv')
    assert not (tmp_path / 'x.csv').exists()                                  # refused before the file is opened
    with pytest.raises(TypeError, match='rows must be a list of SweepRow'): plot_sweep([1])

def test_regression_a_local_dask_sweep_under_a_default_net_refused_its_poisson_points(monkeypatch):
    """A sweep on a throw-away local cluster calls itself with the cluster's client: it passed down the default net's
    options as if asked for by name, and a sweep the net applies to nowhere raised instead of answering fast. The
    cluster, client and joblib are stand-ins here (the real cluster is `test_sweep_on_a_local_dask_cluster`)."""
    import contextlib
    distributed, joblib = pytest.importorskip('distributed'), pytest.importorskip('joblib')
    from must_nbdev.accounting.net_options import net_by_default
    class Cluster(contextlib.nullcontext):
        def __init__(self, *args, **kw): super().__init__(self)
        def close(self): pass
    ran = []
    class Parallel:
        def __init__(self, **kw): pass
        def __call__(self, tasks): ran.extend(tasks); return iter(['row'] * len(ran))
    monkeypatch.setattr(distributed, 'LocalCluster', Cluster); monkeypatch.setattr(distributed, 'Client', Cluster)
    monkeypatch.setattr(joblib, 'Parallel', Parallel)
    monkeypatch.setattr(joblib, 'parallel_config', lambda **kw: contextlib.nullcontext())
    point = SweepPoint('poisson', 50, 5, 2.0, 0.5, None, None)
    with net_by_default('quick'):
        assert run_sweep([point], delta=1e-5, backend='dask', address='local', n_jobs=1) == ['row'] and len(ran) == 1
        with pytest.raises(ValueError, match='applies to no point'):     # asked for by name: loud, as before
            run_sweep([point], delta=1e-5, backend='dask', address='local', n_jobs=1, net='quick')
