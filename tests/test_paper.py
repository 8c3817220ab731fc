"""`must_nbdev.experiments.paper`: the rule that decides whether a value reproduces a printed number, and Table S1
compared cell by cell (every printed cell reproduced except the documented erratum row)."""
import pytest
from must_nbdev.experiments.amplification_tables import table_s1
from must_nbdev.experiments.paper import PAPER_TABLE_S1, PAPER_TABLE_S1_ERRATA, compare_table_s1, matches_printed


@pytest.mark.parametrize('value,printed,ok', [
    (0.0231, '0.023', True), (0.02349, '0.023', True), (0.0236, '0.023', False), (0.02251, '0.023', True),
    (7.474e-6, '7.47e-6', True), (7.476e-6, '7.47e-6', False), (7.47e-5, '7.47e-6', False),
    (0.0, '0', True), (1e-300, '0', False), (4.5, '4.500', True), (4.5006, '4.500', False)])
def test_matches_printed_rounds_to_the_printed_digits(value, printed, ok):
    assert matches_printed(value, printed) is ok


def test_table_s1_reproduced_except_the_erratum_row():
    cells = compare_table_s1(table_s1())
    keys = {(c['theta'], c['mechanism'], c['scheme']) for c in cells}
    # every printed row (MUST.wo is not printed)
    assert keys == set(PAPER_TABLE_S1)
    assert len(cells) == 6 * len(keys)
    bad = {(c['theta'], c['mechanism'], c['scheme']) for c in cells if not c['match']}
    assert bad == set(PAPER_TABLE_S1_ERRATA)
    assert all(c['erratum'] for c in cells if not c['match']) and not any(c['erratum'] for c in cells if c['match'])
