"""The notebooks in nbs/ keep their outputs (they are read on GitHub and in Jupyter without being run), written by the
execution that renders the docs (`python tools/build_docs.py`) and no older than the sources and library they show."""
import importlib.util, json, re
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location('build_docs', ROOT / 'tools' / 'build_docs.py')
bd = importlib.util.module_from_spec(_spec); _spec.loader.exec_module(bd)
NOTEBOOKS = bd.notebooks()
REL = [p.relative_to(bd.NBS).as_posix() for p in NOTEBOOKS]

def _nb(path): return json.loads(Path(path).read_text(encoding='utf-8'))

@pytest.mark.parametrize('path', NOTEBOOKS, ids=REL)
def test_outputs_are_as_fresh_as_the_library_they_exercise(path):
    "The stamp the docs build wrote beside the outputs names these sources and these library modules."
    stamp = _nb(path)['metadata'].get(bd.OUTPUTS_KEY)
    assert stamp is not None, f'{path.name} keeps no outputs from the docs build: run python tools/build_docs.py'
    now = bd.outputs_stamp(path)
    assert stamp['sources'] == now['sources'], f'{path.name} changed after its outputs: run python tools/build_docs.py'
    assert stamp['library'] == now['library'], (f'the library code {path.name} exercises changed after its outputs '
                                                'were computed: run python tools/build_docs.py')
    assert stamp.get('artefacts') == now.get('artefacts'), (f'a benchmarks/ file {path.name} displays changed after '
                                                            'its outputs were computed: run python tools/build_docs.py')

def test_notebooks_that_display_recorded_artefacts_go_stale_with_them():
    "A notebook showing a benchmark record is stamped with that file: a re-run record re-executes it."
    shown = {p.relative_to(bd.NBS).as_posix(): {f.name for f in bd.artefacts_read(p)} for p in NOTEBOOKS}
    records = {'TIGHT_BLOCKS.json', 'TIGHT_DEFAULT.json', 'tight_default.py'}
    assert records <= shown['accounting/09b_net_blocks.ipynb'] and records <= shown['guides/04_benchmarks.ipynb']
    assert {'PRACTITIONER.md', 'practitioner.png'} <= shown['training/03_compare.ipynb']
    assert not shown['accounting/10_account.ipynb']      # its hints cite an artefact in library code, shown nowhere

def _example_or_test(cell):
    "A code cell a reader sees run: not exported (the library's source) and not hidden (set-up, nbdev_export)."
    src = ''.join(cell['source']) if isinstance(cell['source'], list) else cell['source']
    return not re.search(r'^#\|\s*(export\w*|hide|default_exp)\b', src, re.M)

def test_the_notebooks_show_what_they_compute():
    "Outputs are kept: at least half of the example and test cells show one, and none is an error or stderr."
    seen, keep = 0, 0
    for path in NOTEBOOKS:
        code = [c for c in _nb(path)['cells'] if c['cell_type'] == 'code']
        shown_here = [c for c in code if _example_or_test(c)]
        seen += len(shown_here); keep += sum(bool(c.get('outputs')) for c in shown_here)
        outs = [o for c in code for o in c.get('outputs', [])]
        assert not [o for o in outs if o.get('output_type') == 'error'], f'{path.name} keeps an error'
        assert not [o for o in outs if o.get('name') == 'stderr'], f'{path.name} keeps stderr'
        assert all(c.get('execution_count') is None for c in code), f'{path.name}: run nbdev_clean'
    assert keep >= seen / 2, f'only {keep} of {seen} example and test cells keep an output'

def test_keep_outputs_writes_the_executed_outputs_and_the_stamp(tmp_path, monkeypatch):
    "keep_outputs copies an execution's outputs (stderr dropped) and refuses a notebook that changed meanwhile."
    nb = {'cells': [{'cell_type': 'markdown', 'id': 'a', 'metadata': {}, 'source': ['# T']},
                    {'cell_type': 'code', 'id': 'b', 'metadata': {}, 'execution_count': None, 'outputs': [],
                     'source': ['print(1)']}], 'metadata': {}, 'nbformat': 4, 'nbformat_minor': 5}
    monkeypatch.setattr(bd, 'NBS', tmp_path)
    monkeypatch.setattr(bd, 'outputs_stamp', lambda p: {'sources': 's', 'library': 'l'})
    p = tmp_path / 'x.ipynb'; p.write_text(json.dumps(nb), encoding='utf-8')
    ran = json.loads(json.dumps(nb))
    ran['cells'][1]['outputs'] = [{'output_type': 'stream', 'name': 'stdout', 'text': ['1\n']},
                                  {'output_type': 'stream', 'name': 'stderr', 'text': ['warning\n']}]
    ran['cells'][1]['execution_count'] = 3
    bd.keep_outputs(p, ran)
    kept = _nb(p)
    assert kept['cells'][1]['outputs'] == [{'output_type': 'stream', 'name': 'stdout', 'text': ['1\n']}]
    assert kept['cells'][1]['execution_count'] is None and kept['metadata'][bd.OUTPUTS_KEY]['library'] == 'l'
    line = {'cell_type': 'markdown', 'metadata': {bd.PROVENANCE: True}, 'source': '*Stored output*, made by ...'}
    bd.keep_outputs(p, {**ran, 'cells': ran['cells'] + [line]})       # a slow cell: its provenance line, kept below it
    assert _nb(p)['cells'][1]['outputs'][-1]['data'] == {'text/markdown': '*Stored output*, made by ...'}
    ran['cells'][1]['source'] = ['print(2)']
    with pytest.raises(SystemExit, match='changed while it was executed'): bd.keep_outputs(p, ran)
