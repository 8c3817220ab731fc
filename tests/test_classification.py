"`must_nbdev.experiments.classification` (experiments/04_classification): experiment 3, its tables and its CLI."
import json, subprocess


def test_reproduce_table6_json_keys():
    out = subprocess.run(['must', 'reproduce', 'table6', '--quick', '--json'], capture_output=True, text=True,
                         check=True).stdout
    rows = json.loads(out)
    assert {r['dataset'] for r in rows} >= {'adult', 'digits', 'mnist-10k'}
    assert all({'dataset', 'setting', 'scheme', 'accuracy', 'paper', 'z'} <= set(r) for r in rows)
    assert {r['setting'] for r in rows if r['dataset'] == 'adult'} == {'paper', 'trained', 'optimum'}
    assert {r['setting'] for r in rows if r['dataset'] == 'mnist-10k'} == {'scaled', 'paper batch, paper σ'}
    # every cell with a printed value carries its z-score
    assert all(r['z'] is not None for r in rows if r['paper'] is not None and r['accuracy_sd'] is not None)
    adult = [r for r in rows if r['dataset'] == 'adult']
    assert {'sensitivity', 'specificity', 'ppv', 'npv', 'f1'} <= set(adult[0])
