"""`must_nbdev.experiments.classification` (experiments/04_classification): experiment 3's rows.

`must reproduce all --quick` in nbs/90_cli checks Table 6's file (every dataset and setting, z-scores); here a
short run checks what each row carries."""
import math
from must_nbdev.experiments.classification import run_classification, TABLE6_COLUMNS, ADULT_METRIC_COLUMNS
from must_nbdev.training.datasets import load_adult, load_digits


def test_rows_carry_table_6_and_the_adult_metrics_with_a_z_score_where_the_paper_prints_a_value():
    adult = run_classification(load_adult(seed=0), seeds=2)['rows']            # the paper's T: its values
    digits = run_classification(load_digits(seed=0), seeds=1, T=5)['rows']
    assert all(set(TABLE6_COLUMNS) <= set(r) for r in adult + digits)
    assert all(set(ADULT_METRIC_COLUMNS) <= set(r) for r in adult)
    assert {r['dataset'] for r in adult} == {'adult'} and {r['dataset'] for r in digits} == {'digits'}
    printed = [r for r in adult if math.isfinite(r['paper']) and math.isfinite(r['accuracy_sd'])]
    assert printed and all(math.isfinite(r['z']) for r in printed)
    assert all(math.isnan(r['z']) for r in adult + digits if math.isnan(r['paper']))   # nothing printed: no z
