"The benchmark scripts run: the accountant benchmark's runner answers for ours on a Poisson and a MUST workload."
import importlib.util, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]

def _module(name):
    spec = importlib.util.spec_from_file_location(f'bench_{name}', ROOT / 'benchmarks' / f'{name}.py')
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    return mod

@pytest.mark.parametrize('workload', [('Poisson', 'poisson', dict(n=10**7, q=0.02), 1.0, 100, 'add_remove'),
                                      ('MUST.ow', 'must-ow', dict(n=10_000, m=200, b=118), 4.0, 100, 'substitute')])
def test_accountant_benchmark_runner_answers_for_ours(workload):
    "A Poisson workload is given by its rate q (scheme_at takes m): the runner once failed on every Poisson row."
    bench = _module('accountant')
    r = bench.run('ours', workload, 'eps', 1.0, 1)
    assert 'error' not in r, r
    assert 0 < r['lo'] <= r['value'] <= 1 and r['median_seconds'] > 0

@pytest.mark.parametrize('name', ['TIGHT_DEFAULT', 'TIGHT_BLOCKS'])
def test_tight_default_markdown_is_its_record(name):
    "The tight-by-default artefacts are their JSON record rendered: the gap column is certified / attack, as it says."
    import json
    bench = _module('tight_default')
    record = json.loads((ROOT / 'benchmarks' / f'{name}.json').read_text())
    text = (ROOT / 'benchmarks' / f'{name}.md').read_text()
    assert bench.render(record) == text
    wor = next(r for r in record['rows'] if r['scheme'] == 'wor' and r['setting'] == 'quick')
    assert f"| {wor['upper'] / wor['attack']:.3f} |" in text

def test_the_default_record_shows_the_net_as_every_door_answers_unasked():
    "TIGHT_BY_DEFAULT: each configuration as shipped (the net where it applies) and with net=False, beside the yardstick."
    import json
    bench = _module('tight_default')
    record = json.loads((ROOT / 'benchmarks' / 'TIGHT_BY_DEFAULT.json').read_text())
    assert bench.render(record) == (ROOT / 'benchmarks' / 'TIGHT_BY_DEFAULT.md').read_text()
    rows = {(r['size'], r['scheme'], r['setting']): r for r in record['rows']}
    defaults = [r for r in record['rows'] if r['setting'] == 'default']
    assert len(defaults) == 14 and len(record['yardstick']) == 3
    for r in defaults:   # the default is the net (or says why not), never looser than the fast certificates
        fast = rows[r['size'], r['scheme'], 'fast']
        assert r['certificate'] == 'triangle net' and r['attack'] <= r['upper'] <= fast['upper'] and not r['tighter']
    cals = {(c['scheme'], c['setting']): c for c in record['calibrations']}
    for name in bench.SCHEMES:   # σ for (3, 1e-5): the default's at or below the fast one's, at or above the attack's
        default, fast = cals[name, 'default'], cals[name, 'fast']
        assert fast['attack_sigma'] <= default['sigma'] <= fast['sigma'] and default['upper'] <= 3.0

def test_best_attack_markdown_is_its_record():
    "The best-attack artefact is its record rendered: each gap is the recorded certificate over the better attack."
    import json
    bench = _module('best_attack')
    record = json.loads((ROOT / 'benchmarks' / 'BEST_ATTACK.json').read_text())
    text = (ROOT / 'benchmarks' / 'BEST_ATTACK.md').read_text()
    assert bench.render(record) == text
    whole = bench._quick(ROOT / 'benchmarks' / 'TIGHT_DEFAULT.json')
    for r in record['rows']:
        assert r['cli']['upper'] == r['default']['upper']          # the budget moves the attack, never the certificate
        best = max(r['default']['attack'], r['cli']['attack'])
        assert best < r['cli']['upper']                              # a lower bound: below the certificate
        if (r['size'], r['scheme']) in whole:
            assert f" | {whole[r['size'], r['scheme']][0] / best:.3f} | " in text

def _tight_records():
    "(whole run, five blocks): the two recorded runs of benchmarks/tight_default.py."
    import json
    return tuple(json.loads((ROOT / 'benchmarks' / f'{n}.json').read_text()) for n in ('TIGHT_DEFAULT', 'TIGHT_BLOCKS'))

def test_the_hints_quote_the_quick_nets_recorded_cost():
    "QUICK_NET_MEASURED and QUICK_BLOCKS_MEASURED, which `tighter` prints, are the two records' summary, not older runs."
    from must_nbdev.accounting.net_options import QUICK_NET_MEASURED, QUICK_BLOCKS_MEASURED
    bench = _module('tight_default')
    whole, blocks = _tight_records()
    assert whole['commit'] == blocks['commit']          # one library, so the blocks' share of its time means something
    assert bench.measured(whole, blocks) == (QUICK_NET_MEASURED, QUICK_BLOCKS_MEASURED)

def test_measured_ranges_round_outward_and_refuse_records_with_nothing_in_common():
    "An 'at most' range: the low end down, the high end up, and a value on the boundary stays itself (1.02·100)."
    bench = _module('tight_default')
    assert bench._span([1.02, 1.0371], 2) == '1.02-1.04' and bench._span([29.6, 49.3]) == '29-50'
    empty = dict(rows=[], calibrations=[])
    with pytest.raises(ValueError, match='share no quick-setting call'):
        bench.measured(empty, empty)

def test_side_by_side_shows_every_quick_call_of_both_records():
    "The table 09b and guides/04 display: each record's quick calls, as certified over attack and seconds."
    bench = _module('tight_default')
    whole, blocks = _tight_records()
    text = bench.side_by_side(whole, blocks)
    for rec in (whole, blocks):
        for r in rec['rows']:
            if r['setting'] == 'quick': assert f"{r['upper'] / r['attack']:.3f}×, {r['seconds']:.1f} s" in text, r
        for c in rec['calibrations']:
            if c['setting'] == 'quick': assert f"{c['sigma']:.4f}, {c['seconds']:.0f} s" in text, c
