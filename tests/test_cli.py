"""The `must` command: Table S1 through --json, output format, exit status 2 with one line on bad input, the DP-SGD
vocabulary, the CLI's regressions (crashes, tracebacks, silently dropped options) and the
CLI fuzz test (no traceback, strict JSON)."""
import json, subprocess, sys, contextlib, io
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from _helpers import run_cli, strict_json, paragraph
from must_nbdev.cli import main
from must_nbdev.core.amplification import amplify
from must_nbdev.experiments.amplification_tables import TABLE_S1_EPS
from must_nbdev.core.sampling import scheme_at, make_scheme
from must_nbdev.core.definitions import MECHANISMS
from must_nbdev.experiments.paper import PAPER_TABLE_S1, PAPER_TABLE_S1_ERRATA, matches_printed

def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try: rc = main(argv)
        except SystemExit as e: rc = e.code
    return rc, out.getvalue(), err.getvalue()

def amplify_json(scheme, mechanism, theta):
    args = ['amplify', '--scheme', scheme, '--n', '1000', '--m', '400', '--mechanism', mechanism, '--theta', str(theta),
            '--json']
    if scheme.startswith('must'): args += ['--b', '500']
    for e in TABLE_S1_EPS: args += ['--eps', str(e)]
    rc, out, err = run(args)
    assert rc == 0, err
    return json.loads(out)

@pytest.mark.parametrize('key', [k for k in PAPER_TABLE_S1 if k[2] != 'none'])
def test_cli_reproduces_table_s1(key):
    theta, mech, scheme = key
    recs = amplify_json(scheme, mech, theta)
    assert [list(r) for r in recs] == [['eta', 'eps_prime', 'delta', 'delta_prime', 'pa_type']] * len(TABLE_S1_EPS)
    lib = amplify(scheme_at(scheme, 1000, 400, b=500), mech, theta, TABLE_S1_EPS)
    for r, ep, dp in zip(recs, lib.eps_prime, lib.delta_prime):      # machine precision: identical bits
        assert r['eps_prime'] == float(ep) and r['delta_prime'] == float(dp)
    base = [p.split(',')[1].strip() for p in PAPER_TABLE_S1[(theta, mech, 'none')]]
    for r, b in zip(recs, base): assert matches_printed(r['delta'], b)
    ok = [matches_printed(r['eps_prime'], p.split(',')[0]) and matches_printed(r['delta_prime'], p.split(',')[1])
          for r, p in zip(recs, PAPER_TABLE_S1[key])]
    if key in PAPER_TABLE_S1_ERRATA: assert not any(ok)        # the known erratum row: every δ' differs
    else: assert all(ok), [(p, r) for p, r, k in zip(PAPER_TABLE_S1[key], recs, ok) if not k]

def test_must_wo_equals_wr_through_the_cli():
    a, b = amplify_json('must-wo', 'gaussian', 1.0), amplify_json('wr', 'gaussian', 1.0)
    for x, y in zip(a, b):
        assert x['pa_type'] == y['pa_type']
        for k in ('eta', 'eps_prime', 'delta_prime'): assert x[k] == pytest.approx(y[k], rel=1e-12)

def test_human_output_is_an_aligned_table():
    rc, out, _ = run(['amplify', '--scheme', 'wor', '--n', '100', '--m', '10', '--mechanism', 'laplace', '--theta', '1',
                      '--eps', '0.5', '--eps', '2'])
    lines = out.strip().splitlines()
    assert rc == 0 and lines[1].split() == ['eps', 'eta', 'eps_prime', 'delta', 'delta_prime', 'pa_type']
    assert len({len(l) for l in lines[1:]}) == 1 and lines[2].split()[-1] == 'strong'

BAD = [
    (['--scheme', 'must-ow', '--n', '1000', '--m', '400', '--b', '1200'], 'b must be <= n'),
    (['--scheme', 'must-wo', '--n', '1000', '--m', '600', '--b', '500'], 'm must be <= b'),
    (['--scheme', 'wr', '--n', '0', '--m', '4'], 'n must be an integer >= 1'),
    (['--scheme', 'wr', '--n', '100', '--m', '0'], 'm must be an integer >= 1'),
    (['--scheme', 'wr', '--n', '100.5', '--m', '4'], 'n must be an integer'),
    (['--scheme', 'wr', '--n', '100', '--m', '2.5'], 'm must be an integer'),
    (['--scheme', 'bogus', '--n', '100', '--m', '4'], "argument --scheme: invalid choice"),
    (['--scheme', 'must-ww', '--n', '100', '--m', '4'], 'must-ww needs b'),
]
@pytest.mark.parametrize('scheme_args,msg', BAD)
def test_bad_scheme_input_exits_2_with_one_line(scheme_args, msg):
    rc, out, err = run(['amplify', *scheme_args, '--mechanism', 'gaussian', '--theta', '1', '--eps', '1'])
    assert rc == 2 and out == '' and err.count('\n') == 1 and msg in err, err

@pytest.mark.parametrize('mech_args,msg', [
    (['--mechanism', 'gaussian', '--theta', '0', '--eps', '1'], 'theta must be finite and in (0, inf)'),
    (['--mechanism', 'gaussian', '--theta', '-1', '--eps', '1'], 'theta must be'),
    (['--mechanism', 'gaussian', '--theta', '1', '--eps', '-0.1'], 'eps must be finite and in [0, inf)'),
    (['--mechanism', 'gaussian', '--theta', '1', '--eps', 'nan'], 'eps must be finite'),
    (['--mechanism', 'gaussian', '--theta', 'nan', '--eps', '1'], 'theta must be finite'),
    (['--mechanism', 'cauchy', '--theta', '1', '--eps', '1'], 'argument --mechanism: invalid choice'),
    (['--mechanism', 'gaussian', '--theta', 'abc', '--eps', '1'], 'not a number'),
])
def test_bad_mechanism_input_exits_2_with_one_line(mech_args, msg):
    rc, out, err = run(['amplify', '--scheme', 'wr', '--n', '100', '--m', '4', *mech_args])
    assert rc == 2 and err.count('\n') == 1 and msg in err, err

def test_console_script_runs():
    r = subprocess.run([sys.executable, '-c', 'from must_nbdev.cli import _console; _console()', 'amplify', '--scheme',
                        'wr', '--n', '100', '--m', '4', '--mechanism', 'gaussian', '--theta', '1', '--eps', '1',
                        '--json'],
                       capture_output=True, text=True)
    assert r.returncode == 0 and json.loads(r.stdout)[0]['pa_type'] in ('strong', 'weak-I')
    r = subprocess.run([sys.executable, '-c', 'from must_nbdev.cli import _console; _console()', 'amplify', '--scheme',
                        'wr', '--n', '100', '--m', '4', '--mechanism', 'gaussian', '--theta', '1', '--eps', '-1'],
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.count('\n') == 1

def test_account_json_eps_and_delta():
    rc, out, err = run(['account', '--scheme', 'poisson', '--n', '1000', '--m', '20', '--sigma', '1', '--k', '1000',
                        '--eps', '1', '--json'])
    r = json.loads(out)
    assert rc == 0 and {'delta_lower', 'delta_upper', 'delta', 'eps', 'seconds', 'L', 'r', 'relation', 'h'} <= set(r)
    assert r['relation'] == 'add_remove' and r['delta_lower'] <= 0.0707393 <= r['delta_upper'] and r['seconds'] > 0
    rc, out, err = run(['account', '--scheme', 'poisson', '--n', '1000', '--q', '0.02', '--sigma', '1', '--k', '1000',
                        '--delta', '0.0707393', '--json'])
    r = json.loads(out)
    assert rc == 0 and r['eps_lower'] <= 1.0 <= r['eps_upper'] and {'eps_lower', 'eps_upper', 'eps', 'delta'} <= set(r)

@pytest.mark.parametrize('args,msg', [
    (['--sigma', '0', '--k', '10', '--eps', '1'], 'sigma must be finite and in [1e-06, 1e+100]'),
    (['--sigma', '1', '--k', '0', '--eps', '1'], 'k must be an integer >= 1'),
    (['--sigma', '1', '--k', '10', '--eps', '-1'], 'eps must be finite and in [0, inf)'),
    (['--sigma', '1', '--k', '10', '--delta', '1'], 'delta must be finite and in (0, 1)'),
    (['--sigma', '1', '--k', '10', '--delta', '0'], 'delta must be finite and in (0, 1)'),
    (['--sigma', '1', '--k', '10'], 'one of the arguments --eps --delta is required'),
    (['--sigma', '1', '--k', '10', '--eps', '1', '--relation', 'replace'], 'argument --relation: invalid choice'),
])
def test_account_bad_input_exits_2_with_one_line(args, msg):
    rc, out, err = run(['account', '--scheme', 'wr', '--n', '100', '--m', '10', *args])
    assert rc == 2 and err.count('\n') == 1 and msg in err, err

# --- DP-SGD vocabulary, calibrate, usage ---

def test_regression_repeated_eps_give_one_row_each():
    rc, out, err = run(['account', '--scheme', 'poisson', '--q', '0.02', '--sigma', '1', '--k', '100', '--eps', '1',
                        '--eps', '2', '--json'])
    rows = json.loads(out)
    assert rc == 0 and [r['query'] for r in rows] == ['delta(eps=1)', 'delta(eps=2)']
    assert rows[1]['upper'] < rows[0]['lower']                           # δ(ε) decreases in ε: the second row is real

def test_epochs_and_batch_size_mean_k_steps():
    a = run(['account', '--scheme', 'wor', '--n', '1000', '--batch-size', '100', '--sigma', '2', '--epochs', '3',
             '--eps', '1', '--json'])
    b = run(['account', '--scheme', 'wor', '--n', '1000', '--m', '100', '--noise-multiplier', '2', '--k', '30', '--eps',
             '1', '--json'])
    assert a[0] == b[0] == 0 and json.loads(a[1])['k'] == 30
    assert json.loads(a[1])['delta_upper'] == json.loads(b[1])['delta_upper']

def test_poisson_by_rate_needs_no_n():
    rc, out, err = run(['account', '--scheme', 'poisson', '--q', '0.02', '--sigma', '1', '--k', '100', '--eps', '1'])
    ref = run(['account', '--scheme', 'poisson', '--n', '1000', '--q', '0.02', '--sigma', '1', '--k', '100', '--eps',
               '1', '--json'])
    assert rc == 0 and out.startswith('Poisson(q=0.02)') and f"{json.loads(ref[1])['delta_upper']:.6e}" in out

def test_regression_poisson_by_rate_refuses_b_instead_of_dropping_it():
    rc, out, err = run(['account', '--scheme', 'poisson', '--q', '0.1', '--b', '5', '--sigma', '1', '--k', '3', '--eps', '1'])
    assert rc == 2 and 'poisson has no stage-I size b' in err and len(err.strip().splitlines()) == 1

def test_version_and_bare_usage():
    rc, out, err = run(['--version'])
    assert rc == 0 and out.startswith('must_nbdev ')
    rc, out, err = run([])
    assert rc == 2 and 'usage: must' in out and 'examples:' in out

@pytest.mark.parametrize('cmd', ['amplify', 'account', 'compare', 'epochs', 'calibrate', 'reproduce'])
def test_every_help_ends_with_examples(cmd):
    rc, out, err = run([cmd, '--help'])
    tail = out.rstrip().split('examples:')[-1].strip().splitlines()
    assert (rc == 0 and 'examples:' in out and 2 <= len(tail) <= 3
            and all(l.strip().startswith('must ' + cmd) for l in tail))

def test_calibrate_sigma_is_certified_and_tight():
    rc, out, err = run(['calibrate', '--scheme', 'poisson', '--q', '0.01', '--k', '200', '--eps', '1', '--delta',
                        '1e-5', '--json'])
    rec = json.loads(out)
    assert rc == 0 and rec['eps_upper'] <= 1.0 and rec['sigma'] / rec['sigma_infeasible'] <= 1.005
    from must_nbdev.accounting.account import account
    sc = make_scheme('poisson', 2 ** 53, q=0.01)
    assert account(sc, sigma=rec['sigma_infeasible'], steps=200, delta=1e-5, attack=False)['eps_upper'] > 1.0

def test_regression_calibrate_takes_the_accuracy_and_max_bins_its_errors_name():
    "A calibration that could not resolve its ε said 'raise max_bins (CLI --max-bins)', which `must calibrate` lacked."
    from must_nbdev.accounting.calibrate import calibrate_sigma, calibrate_steps, calibrate_batch_size
    sc, kw = make_scheme('wor', 1000, m=100), dict(eps=1, delta=1e-5, accuracy=2.0, max_bins=64)
    cases = [(['--m', '100', '--k', '10'], 'sigma', calibrate_sigma(sc, steps=10, **kw)),
             (['--m', '100', '--solve', 'steps', '--sigma', '5'], 'value', calibrate_steps(sc, sigma=5, **kw)),
             (['--solve', 'batch-size', '--sigma', '5', '--k', '10'], 'value',
              calibrate_batch_size('wor', n=1000, sigma=5, steps=10, **kw))]
    for argv, field, ref in cases:
        rc, out, err = run(['calibrate', '--scheme', 'wor', '--n', '1000', *argv, '--eps', '1', '--delta', '1e-5',
                            '--accuracy', '2', '--max-bins', '64', '--json'])
        rec = json.loads(out)
        assert rc == 0 and (rec[field], rec['eps_upper']) == (getattr(ref, field), ref.eps_upper), (argv, rec)
    default = calibrate_sigma(sc, steps=10, eps=1, delta=1e-5)
    assert default.eps_upper != cases[0][2].eps_upper and default.sigma < cases[0][2].sigma   # they were used

@pytest.mark.parametrize('argv,hint', [
    (['account', '--num-steps', '100'], '--num-steps is --k here'),
    (['calibrate', '--target_epsilon=3'], '--target_epsilon is --eps here'),
    (['sweep', '--num-steps', '10'], '--num-steps is not an option of must sweep'),
    (['sweep', '--target-epsilon', '1'], '--target-epsilon is not an option of must sweep'),
    (['compare', '--sample-rate', '0.01'], '--sample-rate is not an option of must compare'),
    (['amplify', '--target-delta', '1e-5'], '--target-delta is not an option of must amplify'),
    (['amplify', '--noise_multiplier', '1'], '--noise_multiplier is not an option of must amplify'),
    (['epochs', '--num-steps', '100'], '--num-steps is not an option of must epochs'),   # its --k: steps per epoch
    (['--num-steps', '3'], '--num-steps is not an option of must (must --help'),
])
def test_regression_other_libraries_flags_get_the_name_this_command_has(argv, hint):
    "`must sweep --num-steps` said '--num-steps is --k here', and sweep has no --k: a hint names only what exists."
    rc, out, err = run(argv)
    assert rc == 2 and out == '' and err.count('\n') == 1 and hint in err, err

def test_regression_head_never_prints_a_broken_pipe_traceback():
    eps = ' '.join(f'--eps {e / 1000:g}' for e in range(1, 3001))   # ~300 KB of JSON: far more than a pipe buffer holds
    cmd = (f"{sys.executable} -c 'from must_nbdev.cli import _console; _console()' amplify --scheme wr --n 1000 --m 40 "
           f"--mechanism gaussian --theta 1 {eps} --json | head -c 100; echo")
    p = subprocess.run(['bash', '-c', 'set -o pipefail; ' + cmd], capture_output=True, text=True, timeout=120)
    assert 'Traceback' not in p.stderr and 'BrokenPipe' not in p.stderr and p.stdout.count('\n') == 1

@pytest.mark.parametrize('argv,msg', [
    (['account', '--scheme', 'wor', '--n', '1000', '--m', '100', '--sigma', '1', '--epochs', '-1', '--eps', '1'],
     '--epochs must be > 0'),
    (['account', '--scheme', 'wor', '--n', '100', '--batch-size', '101', '--sigma', '1', '--k', '3', '--eps', '1'],
     'm must be <= n'),
    (['account', '--scheme', 'wor', '--n', '1000', '--m', '100', '--sigma', '1', '--k', '3', '--steps', '5', '--eps',
      '1'], 'exactly one of --k'),
    (['calibrate', '--scheme', 'wor', '--n', '1000', '--m', '100', '--k', '0', '--eps', '1', '--delta', '1e-5'],
     'k must be an integer >= 1'),
    (['calibrate', '--scheme', 'wor', '--n', '1000', '--m', '100', '--k', '10', '--eps', '1e-9', '--delta', '1e-12',
      '--max-bins', '4096'], 'raise max_bins (CLI --max-bins)'),
    (['calibrate', '--scheme', 'wor', '--n', '1000', '--m', '100', '--k', '10', '--eps', '1', '--delta', '1e-5',
      '--max-bins', '3'], 'max_bins must be an integer >= 16'),
    (['calibrate', '--scheme', 'wor', '--n', '1000', '--m', '100', '--k', '10', '--eps', '1', '--delta', '1e-5',
      '--accuracy', '0.5'], 'accuracy must be finite and in (1, inf)'),
    (['calibrate', '--scheme', 'must-ow', '--n', '1000', '--solve', 'batch-size', '--sigma', '2', '--k', '10', '--eps',
      '1', '--delta', '1e-5'], 'b_per_m'),
    (['calibrate', '--scheme', 'wor', '--n', '1000', '--m', '10', '--k', '10', '--eps', '1', '--eps', '2', '--delta',
      '1e-5'],
     '--eps takes one target'),
    (['calibrate', '--scheme', 'wor', '--n', '1000', '--m', '10', '--steps', '1,2', '--eps', '1', '--delta', '1e-5'],
     '--steps takes one'),
    (['calibrate', '--scheme', 'wor', '--n', '1000', '--m', '10', '--k', '5', '--b-per-m', '3', '--eps', '1', '--delta',
      '1e-5'],
     '--b-per-m is only used'),
    (['calibrate', '--scheme', 'must-ow', '--n', '1000', '--solve', 'batch-size', '--b-per-m', '3', '--sigma', '2',
      '--k', '10', '--epochs', '2', '--eps', '1', '--delta', '1e-5'], 'drop --epochs'),
    (['calibrate', '--scheme', 'wor', '--n', '1000', '--solve', 'batch-size', '--sigma', '2', '--k', '10', '--eps',
      '1', '--delta', '1e-5', '--net-tol', '0.04'], '--net-tol 0.04 set the triangle net'),
    (['calibrate', '--scheme', 'poisson', '--n', '1000', '--solve', 'batch-size', '--sigma', '2', '--k', '10',
      '--eps', '1', '--delta', '1e-5', '--net'], 'fixed-size'),
    (['calibrate', '--scheme', 'wor', '--n', '1000', '--m', '10', '--solve', 'steps', '--sigma', '2', '--eps', '1',
      '--delta', '1e-5', '--net-tol', '0.04'], '--net-tol 0.04 set the triangle net'),
    # net options without --net: a loud error, never options silently ignored
    (['account', '--scheme', 'wor', '--n', '1000', '--m', '10', '--sigma', '2', '--k', '10', '--delta', '1e-5',
      '--net-tol', '0.04'], '--net-tol 0.04 set the triangle net'),
    (['calibrate', '--scheme', 'wor', '--n', '1000', '--m', '10', '--k', '10', '--eps', '1', '--delta', '1e-5',
      '--net-grid', '4'], '--net-grid 4 set the triangle net'),
    (['compare', '--n', '1000', '--m', '50', '--k', '10', '--sigma', '2', '--delta', '1e-5', '--net-lean'],
     '--net-lean set the triangle net'),
    (['account', '--scheme', 'wor', '--n', '1000', '--m', '10', '--k', '10', '--sigma', '2', '--delta', '1e-5',
      '--net-blocks', '4'], '--net-blocks 4 set the triangle net'),
    (['account', '--scheme', 'wor', '--n', '1000', '--m', '10', '--k', '10', '--sigma', '2', '--delta', '1e-5',
      '--net', '--net-blocks', '0'], 'net_blocks must be an integer >= 1'),
    (['calibrate', '--scheme', 'poisson', '--n', '1000', '--m', '10', '--k', '10', '--eps', '1', '--delta', '1e-5',
      '--net'], 'fixed-size'),
])
def test_new_bad_input_exits_2_with_one_line(argv, msg):
    rc, out, err = run(argv)
    assert rc == 2 and err.count('\n') == 1 and msg in err, err


def test_regression_plot_is_never_silently_ignored(tmp_path):
    png = tmp_path / 'one.png'
    rc, out, err = run(['account', '--scheme', 'wor', '--n', '1000', '--m', '10', '--sigma', '2', '--k', '10',
                        '--delta', '1e-5', '--plot', str(png)])
    assert rc == 0 and png.stat().st_size > 10_000 and 'plot written' in out

def test_regression_not_certified_says_why_per_row():
    rc, out, err = run(['account', '--scheme', 'poisson', '--q', '0.004', '--sigma', '1.1', '--steps', '1,1000',
                        '--eps', '5', '--json'])
    rows = json.loads(out)
    tiny = [r for r in rows if not r['certified_accuracy']]
    assert rc == 0 and tiny and all('1e-8' in r['reason'] and 'sigma' not in r['reason'] for r in tiny)
    rc, out, err = run(['account', '--scheme', 'poisson', '--q', '0.004', '--sigma', '1.1', '--k', '1', '--eps', '5'])
    assert rc == 0 and 'NOT certified: delta <=' in out and 'max_bins' not in out.split('NOT certified:')[1]


# ---------------------------------------------------------------- regressions and fuzz
def test_regression_cli_account_delta_query_does_not_crash():
    rc, out, err = run_cli('account', '--scheme', 'wor', '--n', '1000', '--m', '10', '--sigma', '1', '--k', '1',
                           '--delta', '0.01')
    assert rc == 0 and 'Traceback' not in err


@pytest.mark.parametrize('argv,needle', [
    (['reproduce', 'table3', '--seed', '1.5'], '--seed'), (['reproduce', 'table3', '--seed', 'nan'], '--seed'),
    (['reproduce', 'table3', '--seed', '-1'], '--seed'),
    (['reproduce', 'table3', '--quick', '--out', '/dev/null/x'], 'cannot write'),
    (['account', '--scheme', 'wr', '--n', '1e300', '--m', '10', '--sigma', '1', '--k', '5', '--eps', '1'], 'n must be'),
    # a bad n with delta >= 1/n printed the delta warning above its error (two lines)
    (['account', '--scheme', 'wor', '--n', '1e20', '--m', '10', '--sigma', '1', '--k', '5', '--delta', '1e-5'],
     'n must be'),
    # --solve batch-size called a fractional --k "steps", a name the command line does not have
    (['calibrate', '--scheme', 'wor', '--n', '60000', '--solve', 'batch-size', '--sigma', '2.63', '--k', '2.5',
      '--eps', '3', '--delta', '1e-5'], '--k must be an integer >= 1'),
])
def test_regression_cli_errors_are_one_line_with_status_2(argv, needle):
    rc, out, err = run_cli(*argv)
    assert rc == 2 and needle in err and 'Traceback' not in err and len(err.strip().splitlines()) == 1


def test_reproduce_bad_target_exits_2():
    r = subprocess.run(['must', 'reproduce', 'table99'], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.count('\n') == 1


@settings(max_examples=40, deadline=None)
@given(arg=st.sampled_from(['n', 'm', 'b', 'sigma', 'k', 'eps']),
       bad=st.sampled_from(['-1', '0', 'nan', 'inf', 'abc', '1e400', '2.5']))
def test_fuzz_cli_bad_numbers_never_trace(arg, bad):
    argv = dict(scheme='must-ow', n='1000', m='20', b='40', sigma='2', k='10', eps='1')
    argv[arg] = bad
    buf_out, buf_err = [], []
    import io, contextlib
    o, e = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(o), contextlib.redirect_stderr(e):
        try: rc = main(['account'] + [x for kv in argv.items() for x in (f'--{kv[0]}', kv[1])] + ['--json'])
        except SystemExit as ex: rc = ex.code
    assert rc in (0, 2), (argv, rc, e.getvalue())
    assert 'Traceback' not in e.getvalue()
    if rc == 0: strict_json(o.getvalue())
    else: assert len(e.getvalue().strip().splitlines()) == 1


def test_regression_peer_flag_names_fractional_batch_and_large_delta():
    "Other libraries' flag names get ours; a fractional batch size points to --q; delta >= 1/n warns on stderr."
    import contextlib, io
    from must_nbdev.cli import main
    def run(argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err): rc = main(argv)
        return rc, out.getvalue(), err.getvalue()
    rc, out, err = run(['account', '--scheme', 'poisson', '--q', '0.01', '--noise_multiplier', '1', '--k', '10',
                        '--eps', '1'])
    assert (rc == 2 and out == '' and '--noise_multiplier is --noise-multiplier here' in err
            and len(err.splitlines()) == 1)
    rc, out, err = run(['account', '--scheme', 'wor', '--n', '1000', '--m', '2.5', '--sigma', '1', '--k', '10', '--eps',
                        '1'])
    assert rc == 2 and '--q' in err and '9007199254740992' not in err
    rc, out, err = run(['account', '--scheme', 'wor', '--n', '1000', '--m', '10', '--sigma', '2', '--k', '10',
                        '--delta', '0.01'])
    assert rc == 0 and 'warning: delta=0.01 >= 1/n' in err and 'eps(delta=0.01)' in out
    # the warning follows the answer: a run that fails on another argument prints its error alone, in one line
    rc, out, err = run(['account', '--scheme', 'wor', '--n', '1000', '--m', '10', '--sigma', '-2', '--k', '10',
                        '--delta', '0.01'])
    assert rc == 2 and len(err.splitlines()) == 1 and 'sigma must be' in err


def test_reproduce_one_table_with_out_writes_its_comparison(tmp_path):
    "Issue 26 item 7: `must reproduce table3 --out d` writes table3_vs_paper as `reproduce all` does."
    from must_nbdev.cli import main
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf): rc = main(['reproduce', 'table3', '--quick', '--out', str(tmp_path)])
    assert rc == 0 and 'table3_vs_paper.md' in buf.getvalue()
    text = (tmp_path / 'table3_vs_paper.md').read_text()
    assert 'ours against the paper' in text and (tmp_path / 'table3_vs_paper.csv').exists()

def test_help_does_not_load_the_heavy_scipy_submodules():
    "`must --help` stays fast: building the parser imports no scipy submodule (scipy.special and scipy.fft alone: 0.15 s)."
    import subprocess, sys
    code = ("import sys; from must_nbdev.cli import build_parser; build_parser(); "
            "print(sorted(m for m in ('scipy.stats', 'scipy.signal', 'scipy.optimize', 'scipy.special', 'scipy.fft') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == '[]'


def test_account_says_when_the_fast_certificate_answered_and_how_to_ask_for_the_tight_one():
    "WOR at Fig S2's rate, 200 steps: the public labels answer at 3.2x the attack; the report names them and --net."
    rc, out, err = run(['account', '--scheme', 'wor', '--n', '10000', '--m', '200', '--sigma', '4', '--k', '200',
                        '--eps', '0.5'])
    assert rc == 0, err
    line = paragraph(out, 'tighter:')
    assert "'public labels' answered" in line and 'x the best attack' in line and '--net' in line
    assert '(CLI --net quick:' in line and '(CLI --net quick-blocks;' in line        # the presets, by name
    assert '--net-grid 4 --net-levels 1 --net-lean --net-copies-tol 0.08' in line   # the quick setting, as flags


def test_account_follows_its_hint():
    "The hint's flags, as given, certify below the fast answer and above the attack: what it offers works."
    base = ['account', '--scheme', 'wor', '--n', '10000', '--m', '200', '--sigma', '4', '--k', '200', '--eps', '0.5',
            '--json']
    rc, out, err = run(base); fast = json.loads(out)
    flags = fast['tighter'].split('(CLI ')[3].split(';')[0].split()         # the quick setting in blocks
    assert flags == ['--net', 'quick-blocks'], fast['tighter']
    rc, out, err = run(base + flags); net = json.loads(out)
    assert rc == 0, err
    assert net.get('tighter') is None and net['attack'] <= net['certified'] < fast['certified'], (fast, net)
    assert net['certificate'] == 'triangle net'


def test_calibrate_says_when_the_fast_certificate_answered():
    "WOR at Fig S2's rate: the calibrated σ comes from the public labels, far above the attack; the report says so."
    rc, out, err = run(['calibrate', '--scheme', 'wor', '--n', '10000', '--m', '200', '--k', '200', '--eps', '0.5',
                        '--delta', '1e-4'])
    assert rc == 0, err
    note = paragraph(out, 'tighter:')
    assert "'public labels' answered" in note and '--net' in note
    rc, out, err = run(['calibrate', '--scheme', 'wor', '--n', '10000', '--m', '200', '--k', '200', '--eps', '0.5',
                        '--delta', '1e-4', '--json'])
    rec = json.loads(out)
    assert rc == 0 and 'x the best attack' in rec['tighter']

def test_net_options_on_a_list_of_steps_used_to_be_ignored():
    "Regression: `must account --steps 20,40 --net-tol 0.04` printed the fast table; now --net-* needs --net, and"
    # --net answers every k as `account(net=True)` does
    from must_nbdev.accounting.account import account
    from must_nbdev.accounting.net_options import QUICK_NET
    base = ['account', '--scheme', 'wor', '--n', '1000', '--m', '50', '--sigma', '4', '--steps', '20,40', '--delta',
            '1e-5']
    rc, out, err = run([*base, '--net-tol', '0.04'])
    want_err = "--net-tol 0.04 set the triangle net's options, but --net was not given"   # as every command says it
    assert rc == 2 and err.count('\n') == 1 and want_err in err, err
    rc, out, err = run([*base, '--net', *QUICK_NET.recipe(cli=True).split(), '--json'])
    sc = make_scheme('wor', 1000, m=50)
    want = [account(sc, sigma=4.0, steps=k, delta=1e-5, net=True, **QUICK_NET.keywords()).upper for k in (20, 40)]
    assert rc == 0 and [r['upper'] for r in json.loads(out)] == want, (out, err)

def test_net_takes_a_preset_by_name_as_its_flags():
    "--net quick is --net with QUICK_NET's flags; an unknown preset, or a preset with --net-* options, exits 2."
    from must_nbdev.accounting.net_options import QUICK_NET
    base = ['account', '--scheme', 'wor', '--n', '1000', '--m', '50', '--sigma', '4', '--k', '20', '--delta', '1e-5',
            '--json']
    rc, out, err = run([*base, '--net', 'quick']); named = json.loads(out)
    rc2, out2, err2 = run([*base, '--net', *QUICK_NET.recipe(cli=True).split()]); flags = json.loads(out2)
    assert rc == rc2 == 0 and named['certificates'] == flags['certificates'], (err, err2)
    assert named['certified'] == flags['certified'] and 'triangle net' in named['certificates']
    rc, out, err = run([*base, '--net', 'quickest'])
    assert rc == 2 and "invalid choice: 'quickest'" in err and "'quick-blocks'" in err, err
    rc, out, err = run([*base, '--net', 'quick', '--net-tol', '0.1'])
    assert rc == 2 and err.count('\n') == 1 and '--net quick and --net-tol 0.1 both set' in err, err

def test_a_steps_table_names_each_certificate_and_says_when_a_fast_one_answered():
    rc, out, err = run(['account', '--scheme', 'wor', '--n', '60000', '--batch-size', '256', '--sigma', '1.1', '--steps',
                        '100,1000', '--delta', '1e-5'])
    lines = out.splitlines()
    assert rc == 0 and lines[1].split()[-1] == 'certificate' and lines[3].endswith('public labels'), out
    note = paragraph(out, 'tighter:')
    assert note.startswith('tighter: for k = 1000 a fast certificate answered') and '--steps ... --net' in note, out

def test_python_dash_m_runs_the_command():
    "python -m must_nbdev.cli did nothing and exited 0 (no __main__ block); a bad --q for WOR exits 2, one line."
    p = subprocess.run([sys.executable, '-m', 'must_nbdev.cli', '--help'], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and 'usage: must' in p.stdout
    p = subprocess.run([sys.executable, '-m', 'must_nbdev.cli', 'account', '--scheme', 'wor', '--n', '100', '--m', '10',
                        '--q', '0.5', '--sigma', '2', '--steps', '10', '--delta', '1e-5'],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and p.stderr.strip().count('\n') == 0 and "q is Poisson's rate" in p.stderr


def test_regression_account_says_no_attack_run_not_an_attack_of_zero(monkeypatch):
    "Where no attack ran (no attack grid fits), `must account` printed 'a real attack reaches 0'."
    import must_nbdev.commands as commands
    real = commands.account
    from must_nbdev.accounting.adaptive import ADAPTIVE_WORK_BUDGET      # attack=False spends no budget
    monkeypatch.setattr(commands, 'account',
                        lambda *a, **kw: real(*a, **{**kw, 'attack': False, 'attack_budget': ADAPTIVE_WORK_BUDGET}))
    rc, out, err = run(['account', '--scheme', 'wor', '--n', '100', '--m', '10', '--sigma', '1', '--k', '2',
                        '--delta', '1e-5'])
    assert rc == 0 and 'no attack run' in out and 'attack reaches' not in out and 'theory gap' not in out

@pytest.mark.parametrize('argv', [
    ['account', '--scheme', 'wor', '--n', '1000', '--m', '10', '--sigma', '1e-300', '--k', '10', '--delta', '1e-5'],
    ['account', '--scheme', 'poisson', '--q', '0.01', '--sigma', '1e-10', '--k', '10', '--delta', '1e-5'],
    ['epochs', '--scheme', 'allocation', '--n', '1000', '--m', '100', '--epochs', '1', '--sigma', '1e300',
     '--delta', '1e-5']])
def test_sigma_outside_the_accountants_range_exits_2_with_one_line(argv):
    "Regression: these printed numpy warnings and a NaN conversion error, or exited 1 on an OverflowError."
    rc, out, err = run(argv)
    assert rc == 2 and err.count('\n') == 1 and 'sigma must be finite and in [1e-06, 1e+100]' in err, err

def test_regression_the_memory_budget_error_named_a_python_function_the_cli_cannot_call():
    "--max-bins above the 2 GiB budget said 'raise the budget (set_memory_budget)': the CLI now takes --memory-budget."
    from must_nbdev.core import definitions
    from must_nbdev.accounting.account import account
    base = ['account', '--scheme', 'wor', '--n', '1000', '--m', '10', '--sigma', '1', '--k', '10', '--delta', '1e-5']
    rc, out, err = run([*base, '--max-bins', '4000000'])
    assert rc == 2 and '--memory-budget' in err and len(err.splitlines()) == 1
    rc, out, err = run([*base, '--max-bins', '4000000', '--memory-budget', '3', '--accuracy', '1.5', '--json'])
    assert rc == 0 and json.loads(out)['eps_upper'] > 0
    assert definitions.MEMORY_BUDGET == 2 << 30                            # restored after the command
    rc, out, err = run([*base, '--memory-budget', 'nan'])
    assert rc == 2 and '--memory-budget must be' in err
    rc, out, err = run([*base, '--memory-budget', '0.5', '--json'])   # a smaller budget lowers the default cap
    ref = account(make_scheme('wor', 1000, m=10), sigma=1, steps=10, delta=1e-5, max_bins=(1 << 29) // 640)
    assert rc == 0 and json.loads(out)['eps_upper'] == ref.upper and definitions.MEMORY_BUDGET == 2 << 30

def test_regression_sweep_takes_the_accuracy_and_max_bins_the_grid_error_names():
    "The grid driver's error says 'raise max_bins (CLI --max-bins)', and must sweep had no --max-bins."
    from must_nbdev.accounting.account import account
    rc, out, err = run(['sweep', '--n', '1000', '--schemes', 'wor', '--batch-sizes', '10', '--sigmas', '1',
                        '--epochs', '1', '--delta', '1e-5', '--max-bins', '4096', '--accuracy', '1.5', '--json',
                        '--quiet'])
    rec = json.loads(out)[0]
    ref = account(make_scheme('wor', 1000, m=10), sigma=1, steps=100, delta=1e-5, accuracy=1.5, max_bins=4096)
    assert rc == 0 and rec['eps'] == ref.upper
    rc, out, err = run(['sweep', '--n', '1000', '--schemes', 'wor', '--batch-sizes', '10', '--sigmas', '1',
                        '--epochs', '1', '--delta', '1e-5', '--max-bins', '8'])
    assert rc == 2 and 'max_bins must be' in err and len(err.splitlines()) == 1
    rc, out, err = run(['sweep', '--n', '1000', '--schemes', 'wor', '--batch-sizes', '10', '--sigmas', '1',
                        '--epochs', '1', '--delta', '1e-5', '--memory-budget', '4'])
    assert rc == 2 and 'unrecognized arguments: --memory-budget' in err     # its workers are other processes


def test_regression_account_rows_without_an_attack_printed_lower_0_and_a_generic_reason():
    """`must account` over several k printed 'lower 0' where no attack ran, and replaced a trivial row's reason (no grid
    fits the steps) with 'bracket wider than --accuracy'. Each row now carries `account`'s attack (None) and reason."""
    argv = ['account', '--scheme', 'wor', '--n', '1000', '--m', '50', '--sigma', '0.5', '--steps', '1,3000',
            '--delta', '1e-5', '--max-bins', '256']
    rc, out, err = run(argv + ['--json'])
    rows = json.loads(out)
    assert rc == 0 and [r['k'] for r in rows] == [1, 3000]
    trivial = rows[1]
    assert trivial['lower'] is None and trivial['attack_name'].startswith('none') and not trivial['certified_accuracy']
    assert '3000 steps do not fit' in trivial['reason'] and 'bracket wider' not in trivial['reason']
    rc, out, err = run(argv)
    assert rc == 0 and '3000 steps do not fit' in out and 'no attack ran' in out
    assert not any(line.split()[2:3] == ['0'] for line in out.splitlines() if line.strip().startswith('3000'))


def test_attack_budget_without_an_attack_to_spend_it_exits_2():
    "--attack-budget with --pair paper was accepted and unused; the CLI's own larger default is not a request."
    rc, out, err = run(['account', '--scheme', 'wor', '--n', '1000', '--m', '10', '--sigma', '1', '--k', '5',
                        '--delta', '1e-5', '--pair', 'paper', '--attack-budget', '1e9'])
    assert rc == 2 and 'attack_budget' in err and len(err.strip().splitlines()) == 1
    rc, out, err = run(['account', '--scheme', 'wor', '--n', '1000', '--m', '10', '--sigma', '1', '--k', '5',
                        '--delta', '1e-5', '--pair', 'paper'])
    assert rc == 0, err

def test_account_says_when_the_net_asked_for_did_not_fit_and_the_fast_certificate_answered():
    "--net quick under a 4 MiB budget: exit 0, the fast certificate's numbers, and one line naming why the net was not played."
    rc, out, err = run(['account', '--scheme', 'wr', '--n', '200', '--m', '10', '--sigma', '1', '--k', '3', '--eps', '1',
                        '--net', 'quick', '--memory-budget', '0.004', '--max-bins', '6553'])
    assert rc == 0, err
    why = paragraph(out, 'triangle net not played:')
    assert why.startswith('triangle net not played: too large for the budget — ') and 'GiB of spectra' in why
    assert 'max_bins (CLI --max-bins)' in why and 'net_tol (CLI --net-tol)' in why   # the flags a CLI user can set
    assert why.endswith("the fast certificate 'partially unlabelled' answered, 1.02x the best attack")
    assert '-> partially unlabelled wins' in out

def test_account_names_the_flags_when_the_nets_grid_would_pass_one():
    "--net quick (net_grid 4) where only a coarse h fits max_bins: the reason names --net-grid and --max-bins."
    rc, out, err = run(['account', '--scheme', 'wor', '--n', '2000', '--m', '20', '--sigma', '1', '--k', '50',
                        '--delta', '1e-5', '--net', 'quick', '--max-bins', '64'])
    assert rc == 0, err
    why = paragraph(out, 'triangle net not played:')
    assert 'puts the net on the loss grid' in why
    assert 'lower net_grid (CLI --net-grid), or raise max_bins (CLI --max-bins)' in why

def test_calibrate_says_when_the_net_asked_for_was_not_played():
    "must calibrate --net quick where the net's floor leaves no room: the line says so; --json carries skipped."
    argv = ['calibrate', '--solve', 'sigma', '--scheme', 'wr', '--n', '3', '--m', '2', '--k', '2', '--eps', '1',
            '--delta', '1e-3', '--net', 'quick']
    rc, out, err = run(argv)
    assert rc == 0, err
    assert paragraph(out, 'triangle net not played:').startswith('triangle net not played: its floor: no room — ')
    rc, out, err = run(argv + ['--json'])
    assert rc == 0 and set(json.loads(out)['skipped']) == {'triangle net'}, err

def test_account_over_several_steps_and_calibrate_steps_say_the_net_was_not_played():
    "The multi-step table and calibrate --solve steps dropped skipped (text and --json) where the net did not fit."
    small = ['--net', 'quick', '--memory-budget', '0.004', '--max-bins', '6553']
    argv = ['account', '--scheme', 'wr', '--n', '200', '--m', '10', '--sigma', '1', '--steps', '3,4', '--eps', '1']
    rc, out, err = run(argv + small)
    assert rc == 0, err
    assert paragraph(out, 'triangle net not played for').startswith(
        'triangle net not played for k = 3, k = 4: too large for the budget; the fast certificate answered')
    rc, out, err = run(argv + small + ['--json'])
    assert rc == 0 and all(set(r['skipped']) == {'triangle net'} for r in json.loads(out)), err
    argv = ['calibrate', '--solve', 'steps', '--scheme', 'wr', '--n', '200', '--m', '10', '--sigma', '2', '--eps', '2',
            '--delta', '1e-3', '--quiet']
    rc, out, err = run(argv + small)
    assert rc == 0, err
    assert paragraph(out, 'triangle net not played:').startswith('triangle net not played: too large for the budget — ')
    rc, out, err = run(argv + small + ['--json'])
    assert rc == 0 and set(json.loads(out)['skipped']) == {'triangle net'}, err
