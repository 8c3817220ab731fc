"""The stored outputs of the notebooks' slow cells (benchmarks/artefacts/) are current: every slow cell has an output
made from its present code (its key: benchmarks/slow_cells.py, `source_sha`), on a clean committed tree, and the
present library gives the witness values stored beside it (the same functions at a size of seconds,
benchmarks/witnesses.py)."""
import importlib.util, json, math, subprocess
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]

def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    return mod

sc = _load('slow_cells', ROOT / 'benchmarks' / 'slow_cells.py')
NOTEBOOKS = sc.slow_notebooks()
KEYS = [sc.key_of(p) for p in NOTEBOOKS]

def test_slow_notebooks_found():
    assert 'accounting/09_triangle_certificate' in KEYS and len(KEYS) >= 10

@pytest.mark.parametrize('key', KEYS)
def test_every_slow_cell_has_a_current_stored_output(key):
    art = sc.load_artefact(key)
    assert art is not None, f'no artefact for nbs/{key}.ipynb: run `{sc.COMMAND} {key}`'
    cells = [c for c in json.loads((sc.NBS / f'{key}.ipynb').read_text(encoding='utf-8'))['cells'] if sc.is_slow(c)]
    stored = [sc.stored_outputs(c, art, key) for c in cells]          # raises, naming the command, when stale
    assert len(art['cells']) == len(cells), f'nbs/{key}.ipynb: the artefact holds cells the notebook no longer has'
    for c in stored:
        assert not any(o.get('output_type') == 'error' for o in c['outputs'])
        assert c['seconds'] >= 0
    assert art['command'] == f'{sc.COMMAND} {key}' and not art['dirty']
    assert len(art['commit']) == 40 and art['date'] and art['machine']

@pytest.mark.parametrize('key', KEYS)
def test_artefact_commit_is_in_this_history(key):
    commit = sc.load_artefact(key)['commit']
    if subprocess.run(['git', 'cat-file', '-e', f'{commit}^{{commit}}'], cwd=ROOT, capture_output=True).returncode:
        pytest.skip('the commit is not in this (shallow) clone')
    assert subprocess.run(['git', 'merge-base', '--is-ancestor', commit, 'HEAD'], cwd=ROOT).returncode == 0

# An FFT's round-off is absolute, and its SIMD path depends on the CPU: two machines' δ ≈ 3e-13 at the floor differed
# by 3e-19 (1e-6 relative; 04_classification). Differences below 1e-17 are round-off, not a moved number.
FFT_NOISE = 1e-17
# A search (an ε bisection, a calibration) stops within its tolerance, so that round-off can move where it stops: the
# same library on an AMD EPYC machine gave WOR's attack ε 2.7e-9 relative away from the artefact's (03_compare), and
# a calibration one call more (12 against 13, σ the same to 1e-12; 11_calibrate). Both are far below a moved number.
SEARCH_NOISE = 1e-8   # relative
SEARCH_CALLS = 1      # a search's length, in calls

def _same(key, a, b):
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(a, b, rel_tol=SEARCH_NOISE, abs_tol=FFT_NOISE) or (math.isnan(a) and math.isnan(b))
    if key.endswith('calls') and isinstance(a, int) and isinstance(b, int): return abs(a - b) <= SEARCH_CALLS
    return a == b

def test_same_tells_round_off_from_a_moved_number():
    assert _same('WOR.eps_attack', 3.9195943177860815, 3.9195943072483552)     # the two machines' values
    assert not _same('WOR.eps_attack', 3.9195943, 3.9196943)                    # a moved digit
    assert _same('net.calls', 12, 13) and not _same('net.calls', 12, 14) and not _same('members', 12, 13)

@pytest.mark.parametrize('key', KEYS)
def test_library_reproduces_the_witness(key):
    "The present library gives the witness values stored with the artefact: a library edit moved no stored number."
    stored = sc.load_artefact(key)['witness']
    assert stored, f'nbs/{key}.ipynb has no witness in benchmarks/witnesses.py'
    now = sc.witness(key)
    moved = {k: (stored.get(k), now.get(k)) for k in set(stored) | set(now) if not _same(k, stored.get(k), now.get(k))}
    assert not moved, (f'the library now gives other witness values for nbs/{key}.ipynb (stored, now): {moved}; '
                       f'its stored outputs may be stale: run `{sc.COMMAND} {key}`')

def test_slow_groups_follow_variables():
    cells = [{'cell_type': 'code', 'source': s} for s in
             ('#| slow\na = f(1)', 'x = 2', '#| slow\nb = g(x)', '#| slow\nprint(a)', '#| slow\nimport os\nc = os.sep')]
    assert sorted(sc.slow_groups(cells)) == [[0, 3], [2], [4]]
    assert not sc.is_slow({'cell_type': 'markdown', 'source': '#| slow'})
    assert not sc.is_slow({'cell_type': 'code', 'source': 'x = 1\n#| slow'})
    assert sc.is_slow({'cell_type': 'code', 'source': '#| export\n#| slow\nx = 1'})

def test_cell_key_ignores_line_breaks_but_not_code():
    "A slow cell's key (sc.source_sha) keeps through re-broken lines, comments and split strings, not code changes."
    src = '#| slow\nr = f(1, 2, name="a b")   # one line\nprint(f"{r} done")'
    same = '#| slow\n# the run\nr = f(1,\n      2, name="a "\n              "b")\nprint(f"{r} "\n      f"done")'
    assert sc.source_sha(src) == sc.source_sha(same) == sc.cell_sha({'cell_type': 'code', 'source': same})
    for other in (src.replace('f(1, 2', 'f(1, 3'), src.replace('#| slow', '#| slow\n#| hide'),
                  src.replace('"a b"', '"a  b"'), src + '\n!ls', src.replace('r = f', 'r = g')):
        assert sc.source_sha(other) != sc.source_sha(src), other
