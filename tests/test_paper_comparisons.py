"""`must_nbdev.experiments.paper_comparisons`: one comparison per printed table, each cell beside the paper's with a
z-score or a deterministic verdict, registered in one place and written beside its artefact."""
import csv
from pathlib import Path
import pytest
from must_nbdev.experiments.paper_comparisons import (COMPARISON_COLUMNS, PAPER_COMPARISONS, compared_cell,
                                                      comparison_summary, scheme_label, write_comparison)
from must_nbdev.experiments.reproduce import REPRODUCIBLE, artefact_builders


def test_every_comparison_has_its_artefact_and_reproduce_runs_it():
    arts = artefact_builders()
    assert set(PAPER_COMPARISONS) <= set(arts) and set(PAPER_COMPARISONS) <= set(REPRODUCIBLE)
    assert {'tableS1', 'table3', 'table4', 'table5', 'tableS2', 'table6', 'adult000', 'table7', 'table8', 'tableS13',
            'sec34'} == set(PAPER_COMPARISONS)


@pytest.mark.parametrize('z,match,expected', [(0.5, None, True), (-3.01, None, False), (float('nan'), None, False),
                                              (None, True, True), (4.0, True, True)])
def test_a_cell_matches_within_three_standard_errors_unless_a_verdict_is_given(z, match, expected):
    c = compared_cell('x', 1.0, 1.0, z=z, match=match)
    assert c['match'] is expected and (c['z'] is None) == (c['kind'] == 'deterministic')


def test_summary_counts_cells_and_the_chi2_of_the_z_scores_only():
    cells = [compared_cell('a', 1.0, 1.1, z=0.5), compared_cell('b', 2.0, 2.0, match=True),
             compared_cell('c', 3.0, 9.0, z=4.0)]
    s = comparison_summary(cells)
    assert (s['compared'], s['matching'], s['z_cells'], s['beyond_3se']) == (3, 2, 2, 1) and 0 < s['chi2_p'] < 1
    assert comparison_summary([compared_cell('d', 1, 1, match=True)])['chi2_p'] is None


def test_written_comparison_has_the_columns_and_the_count(tmp_path):
    cells = [compared_cell('a', 1.0, 1.1, z=0.5), compared_cell('b', 2.0, 3.0, match=False, note='why')]
    md, cs = write_comparison('table3', artefact_builders()['table3'], cells, tmp_path)
    assert md == tmp_path / 'table3_vs_paper.md' and '1 of 2 cells match' in md.read_text(encoding='utf-8')
    with Path(cs).open(encoding='utf-8') as f: rows = list(csv.DictReader(f))
    assert tuple(rows[0]) == COMPARISON_COLUMNS and rows[1]['note'] == 'why'


def test_table7_reads_the_swapped_printed_mean_as_a_mismatch_with_its_reason():
    t7 = PAPER_COMPARISONS['table7']([dict(experiment='2', scheme='must-ow', m0_expected=79.3, m0_min=67, m0_max=90)],
                                     quick=False)
    assert [c['match'] for c in t7] == [True, False] and 'swapped' in t7[1]['note']
    assert scheme_label('must-ow', 5) == 'must-ow b=5' and scheme_label('wor', None) == 'wor'
