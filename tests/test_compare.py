"""`must_nbdev.training.compare` and `must compare`: every scheme side by side at one batch size and budget."""
import contextlib, io, json, math
import pytest
from must_nbdev.accounting.account import account
from must_nbdev.cli import main
from must_nbdev.core.sampling import make_scheme
from _helpers import paragraph
from must_nbdev.training.compare import compare_schemes, comparison_schemes, comparison_table, reading, short_label

@pytest.fixture(scope='module')
def calibrated():
    return compare_schemes(4_000, 40, steps=200, eps=2.0, delta=1e-5, b_values=[160], epoch_schemes=False)

def test_epoch_rows_appear_for_whole_epochs_and_are_rechecked_independently():
    from must_nbdev.core.epochs import make_epoch_scheme
    from must_nbdev.accounting.epoch_account import account_epochs
    rows = compare_schemes(2_000, 40, steps=100, eps=2.0, delta=1e-5, b_values=[80])      # 2 epochs of 50 steps
    epoch = {(r.name, r.relation): r for r in rows if r.name in ('allocation', 'shuffle')}
    assert set(epoch) == {('allocation', 'add_remove'), ('allocation', 'substitute'), ('shuffle', 'substitute')}
    assert all(r.steps == 100 for r in epoch.values())
    for (name, rel), r in epoch.items():
        check = account_epochs(make_epoch_scheme(name, 2_000, 40), sigma=r.sigma, epochs=2, delta=1e-5, relation=rel)
        assert check.certified <= 2.0 and r.eps_attack <= r.eps <= 2.0 and check.certificate == r.certificate
    poisson = {r.relation: r for r in rows if r.name == 'poisson'}
    assert epoch['allocation', 'add_remove'].sigma < poisson['add_remove'].sigma     # random allocation beats Poisson
    # under substitution: the remove-then-add certificate, far below the Gaussian bound of shuffled epochs
    assert epoch['allocation', 'substitute'].certificate == 'allocation pair, remove then add'
    assert poisson['substitute'].sigma < epoch['allocation', 'substitute'].sigma < epoch['shuffle', 'substitute'].sigma / 2
    assert compare_schemes(2_000, 40, steps=101, sigma=2.0, delta=1e-5, b_values=[80])[-1].name == 'must-wo'
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(['compare', '--n', '2000', '--m', '40', '--k', '101', '--sigma', '2', '--delta', '1e-5', '--b', '80', '--quiet'])
    assert ('random allocation and shuffled epochs: not shown (101 steps is not a whole number of 50-step epochs'
            in ' '.join(out.getvalue().split()))   # the note is wrapped to the CLI's width

def test_every_scheme_once_at_equal_batch_and_steps(calibrated):
    labels = [short_label(r) for r in calibrated]
    assert labels == ['Poisson (add/remove)', 'Poisson', 'WOR', 'WR', 'MUST.ow b=160', 'MUST.ww b=160', 'MUST.wo b=160']
    assert len({r.steps for r in calibrated}) == 1 and calibrated[0].steps == 200

def test_calibrated_rows_meet_the_target_and_are_rechecked_independently(calibrated):
    for r in calibrated:
        assert r.eps <= 2.0 and 0 < r.eps_attack <= r.eps and r.theory_gap >= 1
        sc = make_scheme('poisson', 4_000, q=0.01) if r.name == 'poisson' else make_scheme(r.name, 4_000, m=40, b=r.b)
        check = account(sc, sigma=r.sigma, steps=200, delta=1e-5, relation=r.relation, attack=False)
        assert check.upper <= 2.0 * (1 + 1e-9)                      # an independent call certifies the row's σ
        assert (account(sc, sigma=r.sigma * 0.98, steps=200, delta=1e-5, relation=r.relation, attack=False).upper
                > 2.0 * 0.999)

def test_distinct_records_follow_the_draws(calibrated):
    for r in calibrated:
        if r.name in ('wor', 'poisson'): assert math.isclose(r.distinct, 40, rel_tol=1e-9)
        else: assert r.distinct < 40                                    # a draw with replacement can repeat a record
    ow = next(r for r in calibrated if r.name == 'must-ow')
    assert math.isclose(ow.distinct, 4_000 * (160 / 4_000) * (1 - (1 - 1 / 160) ** 40), rel_tol=1e-9)

def test_reading_states_what_the_numbers_say(calibrated):
    text = reading(calibrated)
    best = min((r for r in calibrated if r.relation == 'substitute'), key=lambda r: r.sigma)
    assert text.startswith(f"Under substitution, {short_label(best)} needs the least noise")
    assert comparison_table(calibrated).count('\n') == len(calibrated) + 1

def test_regression_stage_i_sizes_that_tie_are_named_together():
    "MUST.wo has WR's law at every b: the reading named whichever b won by round-off (b=4096 in one run, 1024 in another)."
    from dataclasses import replace
    rows = compare_schemes(4_000, 40, steps=50, sigma=2.0, delta=1e-5, b_values=[80, 160], epoch_schemes=False)
    wo = [r for r in rows if r.name == 'must-wo']
    assert len(wo) == 2 and wo[0].eps == pytest.approx(wo[1].eps, rel=1e-6)
    # every other MUST row made worse, so the best MUST scheme is MUST.wo, at either b
    rows = [replace(r, eps=2 * r.eps) if r.b is not None and r.name != 'must-wo' else r for r in rows]
    assert ' The best MUST scheme, MUST.wo (b = 80, 160: alike), has ' in reading(rows, calibrated=False)
    lone = [r for r in rows if not (r.name == 'must-wo' and r.b == 160)]
    assert ' The best MUST scheme, MUST.wo b=80, has ' in reading(lone, calibrated=False)

def test_default_b_values_and_bad_input():
    names = [(sc.name, sc.b) for sc, _ in comparison_schemes(10_000, 100)]
    assert ('must-ow', 200) in names and ('must-ow', 800) in names and ('must-ow', 2500) in names
    with pytest.raises(ValueError, match='exactly one of eps'): compare_schemes(1000, 10, steps=5, delta=1e-5)
    with pytest.raises(ValueError, match='batch_size must be <='):
        compare_schemes(1000, 2000, steps=5, eps=1.0, delta=1e-5)

def test_regression_compare_takes_the_accuracy_and_max_bins_its_errors_name():
    "An unreachable target's error said 'raise max_bins (CLI --max-bins)', which `must compare` lacked; now both reach the fixed-size rows."
    from must_nbdev.accounting.calibrate import calibrate_sigma
    kw = dict(steps=20, eps=1.0, delta=1e-5, accuracy=2.0, max_bins=2048)
    rows = compare_schemes(1000, 50, b_values=[200], epoch_schemes=False, **kw)
    for r in rows:
        ref = calibrate_sigma(make_scheme(r.name, 1000, **({'q': 0.05} if r.name == 'poisson' else {'m': 50}),
                                          **({'b': 200} if r.b else {})), relation=r.relation, **kw)
        assert (r.sigma, r.eps) == (ref.sigma, ref.eps_upper), r
    default = compare_schemes(1000, 50, steps=20, eps=1.0, delta=1e-5, b_values=[200], epoch_schemes=False)
    assert [r.sigma for r in rows] != [r.sigma for r in default]                                # they were used
    with pytest.raises(ValueError, match='accuracy must be'): compare_schemes(1000, 50, **kw | {'accuracy': 1})
    with pytest.raises(ValueError, match='max_bins must be an integer >= 16'):
        compare_schemes(1000, 50, **kw | {'max_bins': 8})
    rc, out, err = _run(['compare', '--n', '1000', '--m', '100', '--k', '100', '--eps', '1e-9', '--delta', '1e-12',
                         '--max-bins', '4096', '--quiet'])
    assert rc == 2 and 'max_bins=4096' in err and 'raise max_bins (CLI --max-bins)' in err and err.count('\n') == 1

def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err): rc = main(argv)
    return rc, out.getvalue(), err.getvalue()

def test_cli_compare_table_json_plot_and_errors(tmp_path):
    png = tmp_path / 'c.png'
    rc, out, _ = _run(['compare', '--n', '4000', '--batch-size', '40', '--k', '50', '--sigma', '1.2', '--delta', '1e-5',
                       '--b', '160', '--plot', str(png), '--quiet'])
    assert rc == 0 and '| MUST.ow b=160 |' in out and 'Under substitution' in out and png.stat().st_size > 10_000
    rc, out, _ = _run(['compare', '--n', '4000', '--batch-size', '40', '--k', '50', '--sigma', '1.2', '--delta', '1e-5',
                       '--b', '160', '--json'])
    rows = json.loads(out)
    assert rc == 0 and len(rows) == 7 and all(r['sigma'] == 1.2 and r['eps_attack'] <= r['eps'] for r in rows)
    for bad in (['--n', '4000', '--batch-size', '40', '--k', '50', '--delta', '1e-5'],
                ['--n', '4000', '--batch-size', '40', '--k', '50', '--epochs', '1', '--sigma', '1', '--delta', '1e-5'],
                ['--n', '4000', '--batch-size', '40', '--k', '50', '--sigma', '1', '--delta', '2']):
        rc, out, err = _run(['compare'] + bad)
        assert rc == 2 and out == '' and len(err.strip().splitlines()) == 1 and 'Traceback' not in err, (bad, err)

def test_rows_say_when_a_fast_certificate_answered_far_from_the_attack():
    "A row whose fast certificate is above TIGHT_GAP × the attack says how to ask for the tight one, as account does."
    from must_nbdev.accounting.account import TIGHT_GAP
    rows = compare_schemes(2000, 40, delta=1e-5, sigma=2.0, steps=200, b_values=[80])
    # epoch schemes have no tighter certificate to ask for: shuffled epochs' gap is reported, not offered a --net
    far = {r.scheme for r in rows if r.relation == 'substitute' and r.theory_gap > TIGHT_GAP
           and r.name not in ('poisson', 'allocation', 'shuffle')}
    assert far >= {'WOR', 'WR'}                                 # 1.11 and 1.09 here
    for r in rows:
        assert bool(r.tighter) == (r.scheme in far), r
        if r.tighter: assert 'net=True' in r.tighter and f'{r.theory_gap:.3g}x' in r.tighter
    rc, out, _ = _run(['compare', '--n', '2000', '--batch-size', '40', '--k', '200', '--sigma', '2', '--delta', '1e-5',
                       '--b', '80', '--quiet'])
    note = paragraph(out, 'tighter:')
    assert rc == 0 and out.count('tighter:') == 1 and 'WOR' in note and 'must compare --net' in note
    assert '--net quick-blocks plays it in 5 blocks' in ' '.join(note.split())
    assert 'Poisson' not in note
    assert all(len(l) <= 96 for l in out.split('tighter:')[1].splitlines())   # the note wraps to the CLI's width


def test_net_rows_take_the_triangle_net_where_it_applies():
    "net=True: every fixed-size row also gets the triangle net, the number account(net=True) gives; Poisson untouched."
    from must_nbdev.accounting.net_options import TightOptions
    kw = dict(delta=1e-5, sigma=2.0, steps=50, b_values=[80], epoch_schemes=False)
    options = TightOptions(tol=1.0, grid=4, lean=True)                 # a coarse net: seconds a row
    fast, tight = compare_schemes(2000, 40, **kw), compare_schemes(2000, 40, **kw, net=True, net_options=options)
    assert [(r.name, r.relation) for r in fast] == [(r.name, r.relation) for r in tight]
    for f, t in zip(fast, tight):
        if f.name == 'poisson': assert (t.eps, t.certificate) == (f.eps, f.certificate)
        else: assert t.eps_attack <= t.eps <= f.eps and t.tighter is None, (f, t)
    won = {t.name for t in tight if t.certificate == 'triangle net'}
    assert won == {'wr', 'must-wo'}                                    # 1.391 < 1.423 (MUST.wo is WR)
    skipped = [t for t in tight if t.name in ('must-ow', 'must-ww')]    # within 0.3% of the attack: the net's
    assert all(t.certificate == 'partially unlabelled' for t in skipped)   # floor leaves no room, it is not played
    assert all(set(t.skipped) == {'triangle net'} and t.skipped['triangle net'].startswith('its floor: no room — ')
               for t in skipped)                                     # and each row says so, as account does
    assert all(t.skipped is None for t in tight if t.name == 'poisson') and all(f.skipped is None for f in fast)
    wr = next(t for t in tight if t.name == 'wr')
    assert wr.eps == account(make_scheme('wr', 2000, m=40), sigma=2.0, steps=50, delta=1e-5, net=True,
                             **options.keywords()).upper       # the same number as the account door
    with pytest.raises(ValueError, match='net_tol=0.5 set the triangle net'):
        compare_schemes(2000, 40, **kw, net_options=TightOptions(tol=0.5))
    with pytest.raises(TypeError, match='must be TightOptions'):
        compare_schemes(2000, 40, **kw, net=True, net_options={'tol': 1.0})
    rc, out, _ = _run(['compare', '--n', '2000', '--batch-size', '40', '--k', '50', '--sigma', '2', '--delta', '1e-5',
                       '--b', '80', '--quiet', '--net', '--net-tol', '1', '--net-grid', '4', '--net-lean'])
    assert rc == 0 and '| WR | 2 | 1.391 |' in out and 'triangle net' in out, out
    assert paragraph(out, 'triangle net not played for') == ('triangle net not played for MUST.ow b=80, MUST.ww b=80: '
                                                          'its floor: no room'), out

def test_epoch_rows_and_progress_are_checked_first():
    "epoch_rows without steps or epochs raised TypeError, with both ignored steps; a bad progress failed late."
    from must_nbdev.training.compare import epoch_rows, compare_schemes
    with pytest.raises(ValueError, match='exactly one of steps'): epoch_rows(100, 10, delta=1e-5, sigma=1.0)
    with pytest.raises(ValueError, match='exactly one of steps'): epoch_rows(100, 10, delta=1e-5, sigma=1.0, steps=10,
                                                                            epochs=1)
    with pytest.raises(ValueError, match='epochs'): epoch_rows(100, 10, delta=1e-5, sigma=1.0, epochs=float('nan'))
    with pytest.raises(TypeError, match='progress'): compare_schemes(100, 10, delta=1e-5, sigma=1.0, epochs=1, progress=5)
    with pytest.raises(TypeError, match='epoch_schemes'):
        compare_schemes(100, 10, delta=1e-5, sigma=1.0, epochs=1, epoch_schemes='no')


def test_regression_epoch_rows_refuses_eps_and_sigma_together():
    from must_nbdev.training.compare import epoch_rows
    with pytest.raises(ValueError, match='exactly one of eps'):       # sigma was silently dropped
        epoch_rows(100, 10, delta=1e-5, eps=1.0, sigma=2.0, epochs=1)
    with pytest.raises(ValueError, match='delta must be'): epoch_rows(100, 10, delta=2.0, sigma=2.0, epochs=1)


def test_comparison_schemes_b_values_not_a_list_is_a_type_error():
    with pytest.raises(TypeError, match=r'b_values must be a list of stage-I sizes \(or None\)'):
        comparison_schemes(100, 10, b_values=50)


def test_regression_whole_epochs_say_their_own_step_count():
    # m does not divide n: the fixed rows run ⌈2·1000/30⌉ = 67 steps, the epoch rows 2 whole epochs of 34 = 68
    from must_nbdev.training.compare import compare_schemes, reading, step_counts
    rows = compare_schemes(1000, 30, delta=1e-5, sigma=2.0, epochs=2, b_values=[120])
    assert {r.steps for r in rows if r.name in ('allocation', 'shuffle')} == {68}
    assert step_counts(rows) == (67, 68)
    assert {r.steps for r in rows if r.name not in ('allocation', 'shuffle')} == {67}
    assert '68 steps, against 67' in reading(rows, calibrated=False)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(['compare', '--n', '1000', '--m', '30', '--epochs', '2', '--sigma', '2', '--delta', '1e-5', '--b', '120',
              '--quiet'])
    assert '67 steps (68 for the whole epochs of random allocation and shuffling)' in ' '.join(out.getvalue().split())


def test_regression_a_scheme_left_out_at_a_b_asked_is_said_not_dropped():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(['compare', '--n', '100', '--m', '10', '--k', '3', '--sigma', '1', '--delta', '1e-5', '--b', '5', '--quiet'])
    assert 'MUST.wo b=5: not shown (m must be <= b' in out.getvalue()


def test_regression_a_row_where_no_attack_ran_says_nan_not_zero(monkeypatch):
    "compare_schemes read `lower` (0 where no attack grid fits) as the attack's ε and the gap as inf."
    import must_nbdev.training.compare as compare
    real = compare.account
    monkeypatch.setattr(compare, 'account', lambda *a, **kw: real(*a, **{**kw, 'attack': False}))
    rows = compare_schemes(2_000, 40, delta=1e-5, sigma=2.0, steps=20, b_values=[160], epoch_schemes=False)
    blind = [r for r in rows if r.name != 'poisson']
    assert blind and all(math.isnan(r.eps_attack) and math.isnan(r.theory_gap) for r in blind)
    exact = next(r for r in rows if r.name == 'poisson')       # an exact pair is its own attack
    assert exact.eps_attack > 0 and exact.theory_gap == pytest.approx(exact.eps / exact.eps_attack)


@pytest.mark.parametrize('args,name', [(('x', 10, [5]), 'n'), ((1000, 10, ['x']), 'b_values'),
                                       ((1000, 2.5, [20]), 'batch_size')])
def test_left_out_refuses_what_is_no_size(args, name):
    "Regression: left_out returned make_scheme's type errors as the reasons a scheme was left out."
    from must_nbdev.training.compare import left_out
    with pytest.raises(ValueError, match=f'{name} must be an integer'): left_out(*args)


def test_comparison_doors_refuse_what_is_not_a_comparisons_rows():
    """Regression: reading([]) raised 'min() arg is an empty sequence'; comparison_table([1]), short_label(3) and
    step_counts([1]) raised AttributeError."""
    from must_nbdev.training.compare import step_counts
    with pytest.raises(ValueError, match='rows must hold at least one ComparisonRow'): reading([])
    with pytest.raises(TypeError, match='rows must be a list of ComparisonRow'): reading(None)
    with pytest.raises(TypeError, match='rows must be a list of ComparisonRow'): comparison_table([1])
    with pytest.raises(TypeError, match='rows must be a list of ComparisonRow'): step_counts([1])
    with pytest.raises(TypeError, match='row must be a ComparisonRow'): short_label(3)
    rows = compare_schemes(2000, 40, delta=1e-5, sigma=2.0, steps=20, b_values=[80], epoch_schemes=False)
    with pytest.raises(ValueError, match='rows must hold WOR'): reading([r for r in rows if r.name != 'wor'])
    with pytest.raises(TypeError, match='calibrated must be True or False'): reading(rows, calibrated='no')
    assert 'WOR' in reading(rows, calibrated=False)

def test_regression_reading_called_the_no_amplification_answer_tight():
    """At MNIST's size, δ = 1e-8, random allocation's row was answered without amplification (below the allocation
    lattices' round-off floor), and the reading still said "with a tight certificate". The floor is lower now (the
    lattices charge CDF errors, the Fourier power's on interval sums), so the case is reproduced at δ = 1e-10."""
    from must_nbdev.training.compare import ComparisonRow, epoch_rows
    base = [ComparisonRow('wor', 'WOR', None, 'substitute', 0.8, 32.4, 31.0, 1.05, 'public labels', 256, 2344, 0.0),
            ComparisonRow('poisson', 'Poisson', None, 'add_remove', 0.8, 3.14, 3.1, 1.01, 'exact', 256, 2344, 0.0)]
    low = epoch_rows(60_000, 256, delta=1e-10, sigma=0.8, epochs=10)
    ra = next(r for r in low if r.name == 'allocation' and r.relation == 'add_remove')
    text = reading(base + low, calibrated=False)
    assert ra.certificate == 'no amplification' and 'tight certificate' not in text
    assert 'with the no amplification certificate' in text, text
    high = epoch_rows(60_000, 256, delta=1e-5, sigma=0.8, epochs=10)
    assert 'with a tight certificate' in reading(base + high, calibrated=False)

def test_regression_reading_dropped_a_trailing_zero():
    "The reading printed random allocation's 0.5504 as '0.55' next to Poisson's '0.567': three digits keep their zeros."
    from must_nbdev.training.compare import ComparisonRow
    rows = [ComparisonRow('wor', 'WOR', None, 'substitute', 0.8, 0.5504, 0.5, 1.1, 'public labels', 256, 2344, 0.0),
            ComparisonRow('poisson', 'Poisson', None, 'add_remove', 0.8, 2.0, 1.9, 1.05, 'exact', 256, 2344, 0.0)]
    text = reading(rows, calibrated=False)
    assert 'WOR has the smallest ε (0.550)' in text and '(0.55)' not in text, text
    rows[0] = ComparisonRow('wor', 'WOR', None, 'substitute', 0.8, 100.0, 90.0, 1.1, 'public labels', 256, 2344, 0.0)
    assert '(100)' in reading(rows, calibrated=False)                  # no trailing point
