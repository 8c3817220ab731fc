"""How `must` prints (`reports`): numbers, tables, wrapped prose, and the notes under a table."""
import math
from must_nbdev.reports import CLI_WIDTH, fmt_value, not_played, paragraph, skipped_note, text_table, tighter_note

def test_numbers_and_tables_print_as_the_reports_show_them():
    assert [fmt_value(x) for x in (0.0, 0.5, 123456.0, 1.5e-7, 2e6)] == ['0', '0.5', '123456', '1.5000e-07', '2.0000e+06']
    assert fmt_value(math.nan) == '—' and fmt_value(0.123456, '.3f') == '0.123'
    assert text_table(('k', 'eps'), [('3', 0.25), ('40', 1.5)]).split('\n') == [' k   eps', ' 3  0.25', '40   1.5']

def test_a_paragraph_keeps_every_word_within_the_width():
    text = 'triangle net not played: too large for the budget — ' + 'the DP needs more than the budget ' * 6
    p = paragraph(text, '  ')
    assert p.split() == text.split() and all(len(l) <= CLI_WIDTH for l in p.split('\n'))
    assert p.startswith('  triangle') and all(l.startswith('    ') for l in p.split('\n')[1:])

def test_skipped_note_groups_the_rows_by_certificate_and_short_reason():
    "One line per (certificate, short reason) under a table; the budget's line says how to make the net fit."
    rows = [('WOR', None), ('WR', {'triangle net': 'its floor: no room — its floor 0.1 ...'}),
            ('MUST.ow b=80', {'triangle net': 'too large for the budget — the DP needs 5.9 GiB ...'}),
            ('MUST.ww b=80', {'triangle net': 'too large for the budget — the DP needs 2.2 GiB ...'})]
    assert skipped_note(rows) == [
        'triangle net not played for WR: its floor: no room',
        'triangle net not played for MUST.ow b=80, MUST.ww b=80: too large for the budget; the fast certificate '
        'answered (--json names what did not fit; raise --max-bins or --memory-budget)']
    assert skipped_note([('WOR', None)]) == []

def test_sweep_says_how_to_make_the_net_fit_in_its_own_options():
    "must sweep has no --memory-budget: its note names --max-bins alone."
    rows = [('WR', {'triangle net': 'too large for the budget — ...'})]
    assert skipped_note(rows, 'raise --max-bins')[0].endswith('(--json names what did not fit; raise --max-bins)')

def test_not_played_and_tighter_note_say_nothing_when_there_is_nothing_to_say():
    assert not_played(None) == [] and not_played({}) == [] and tighter_note([('WOR', 1.2, None)]) is None
    assert not_played({'triangle net': 'its floor: no room — x'}, '  ') == ['  triangle net not played: its floor: no room — x']
    note = tighter_note([('WOR', 1.2, 'hint'), ('WR', 1.4, 'hint')], 'must compare --net')
    assert note.startswith('tighter: for WOR, WR a fast certificate answered, up to 1.4x the best attack; must compare')
