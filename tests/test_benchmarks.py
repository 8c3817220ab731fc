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
