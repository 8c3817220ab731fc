"""`must_nbdev.experiments.reproduce`: an artefact written as markdown + CSV with its comparison against the paper and
a SUMMARY row that counts the same cells, and the summary's matching rule on hand-made cells."""
import csv
import pytest
from must_nbdev.experiments.reproduce import REPRODUCIBLE, reproduce_all
from must_nbdev.experiments.paper_comparisons import comparison_summary


def test_reproduce_table_s1_writes_tables_comparison_and_summary(tmp_path):
    done = reproduce_all(tmp_path, quick=True, keys=['tableS1'], show_progress=False)
    assert [r['key'] for r in done] == ['tableS1']
    names = {p.name for p in tmp_path.iterdir()}
    assert {'tableS1.md', 'tableS1.csv', 'tableS1_vs_paper.md', 'tableS1_vs_paper.csv', 'SUMMARY.md'} <= names
    with (tmp_path / 'tableS1_vs_paper.csv').open(encoding='utf-8') as f:
        cells = list(csv.DictReader(f))
    assert len(cells) == done[0]['compared'] > 0
    assert sum(c['match'] == 'True' for c in cells) == done[0]['matching'] < done[0]['compared']   # the erratum row
    assert 'tableS1' in (tmp_path / 'SUMMARY.md').read_text(encoding='utf-8')
    with (tmp_path / 'tableS1.csv').open(encoding='utf-8') as f:
        assert len(list(csv.DictReader(f))) > 0


def test_comparison_summary_counts_z_and_deterministic_cells():
    cells = [dict(z=0.0, match=True), dict(z=-2.9, match=True), dict(z=3.5, match=False),
             dict(z=None, match=True), dict(z=None, match=False)]
    s = comparison_summary(cells)
    assert (s['compared'], s['matching'], s['z_cells'], s['beyond_3se']) == (5, 3, 3, 1)
    assert 0 < s['chi2_p'] < 1


def test_every_artefact_key_is_unique_and_known_to_the_cli():
    from must_nbdev.cli import build_parser
    assert len(set(REPRODUCIBLE)) == len(REPRODUCIBLE)
    parser = build_parser()
    for key in REPRODUCIBLE:
        assert parser.parse_args(['reproduce', key]).target == key
