"The command functions and their argument helpers (commands), called directly without the parser."
import argparse, io, contextlib, json, math
import pytest
from must_nbdev.commands import parse_number, parse_seed, dumps_json, _scheme_from, cmd_sweep
from must_nbdev.accounting.pld import MAX_BINS

def test_numbers_are_parsed_leniently_and_typed():
    assert parse_number('1e3') == 1000 and isinstance(parse_number('1e3'), int)
    assert parse_number('0.25') == 0.25 and isinstance(parse_number('inf'), float)
    with pytest.raises(argparse.ArgumentTypeError, match='not a number'): parse_number('ten')
    with pytest.raises(argparse.ArgumentTypeError, match='integer >= 0'): parse_seed('-1')

def test_json_is_strict():
    assert json.loads(dumps_json({'x': math.inf, 'y': [math.nan, 1.5]})) == {'x': None, 'y': [None, 1.5]}

def test_poisson_by_rate_needs_no_n_and_others_say_so():
    ns = lambda **kw: argparse.Namespace(**{'scheme': 'poisson', 'n': None, 'm': None, 'b': None, 'q': None, **kw})
    assert _scheme_from(ns(q=0.01)).rate == 0.01
    with pytest.raises(ValueError, match='--n'): _scheme_from(ns(scheme='wor', m=10))

def test_cmd_sweep_prints_one_row_per_point():
    args = argparse.Namespace(n=2000, schemes=['poisson', 'wor'], batch_sizes=[40], sigmas=[1.5, 3], epochs=[0.5],
                              b_per_m=[8], relation=None, delta=1e-5, jobs=1, dask=None, csv=None, plot=None,
                              json=True, quiet=True, accuracy=1.005, max_bins=MAX_BINS)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf): assert cmd_sweep(args) == 0
    rows = json.loads(buf.getvalue())
    assert [(r['scheme'], r['sigma']) for r in rows] == [('poisson', 1.5), ('poisson', 3), ('wor', 1.5), ('wor', 3)]
    assert all(r['steps'] == math.ceil(0.5 * 2000 / 40) for r in rows)

def test_sweep_table_prints_a_dash_where_no_attack_ran(monkeypatch):
    "Regression: `must sweep`'s text table printed 'nan' where no attack ran (`must compare` prints '—')."
    import must_nbdev.commands as commands
    from must_nbdev.training.sweep import run_sweep
    monkeypatch.setattr(commands, 'run_sweep', lambda points, **kw: run_sweep(points, delta=kw['delta'], attack=False))
    args = argparse.Namespace(n=2000, schemes=['wor'], batch_sizes=[40], sigmas=[1.5], epochs=[0.5], b_per_m=[8],
                              relation=None, delta=1e-5, jobs=1, dask=None, csv=None, plot=None, json=False,
                              quiet=True, accuracy=1.005, max_bins=MAX_BINS)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf): assert cmd_sweep(args) == 0
    row = buf.getvalue().splitlines()[2].split()                  # ... eps, attack, gap, certificate
    assert 'nan' not in buf.getvalue() and row[-4:] == ['—', '—', 'public', 'labels'], buf.getvalue()
