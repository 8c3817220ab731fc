#!/usr/bin/env python
"""Run the notebooks' full-size cells (flagged `#| slow`) and store their outputs as benchmark artefacts.

A cell flagged `#| slow` computes something at the paper's size and takes minutes (the Fig S2 triangle nets, the
full Table 4-7 runs, the MNIST classification). `nbdev_test` skips these cells; the docs build does not execute them
either, it shows the outputs stored here, under the cell, with the command and commit that made them. That keeps a
library edit cheap: the docs re-execute only the fast cells of the notebooks that import the edited module.

    python benchmarks/slow_cells.py                                  # every notebook with slow cells, 2 at a time
    python benchmarks/slow_cells.py accounting/09_triangle_certificate 90_cli --jobs 2

Each notebook runs in full (fast cells included, with the docs build's setup cell) in a fresh kernel, so the stored
outputs are what the notebook prints. Slow cells that share no variables run as separate executions of the notebook
(one per group, `--jobs` at a time): 09_triangle_certificate's three Fig S2 schemes run side by side. The artefact,
benchmarks/artefacts/<notebook>.json, holds per slow cell its key (`sha256`, see `source_sha`), its outputs (stderr
dropped) and its seconds, and for the run the command, the commit (the tree must be clean), the date, the machine and
the values of the notebook's witness (benchmarks/witnesses.py: the same library functions at a size of seconds).
A cell's key is the sha256 of its `#|` directive lines, magic lines and syntax tree (`canonical_code`), not of its
text: re-breaking a line, splitting a string literal or editing a comment keeps the stored output; any change to what
the code does makes it stale. tests/test_artefacts.py fails when a slow cell's code changed since its artefact was
made, or when the current library gives other witness values: a library edit that moves the numbers asks for this
command to be run again.
"""
import argparse, ast, datetime, hashlib, importlib.util, json, os, platform, re, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NBS, STORE = ROOT / 'nbs', ROOT / 'benchmarks' / 'artefacts'
COMMAND = 'python benchmarks/slow_cells.py'

# ---------------------------------------------------------------------------------------------------- shared helpers

def _text(cell): return ''.join(cell['source']) if isinstance(cell['source'], list) else cell['source']

def is_slow(cell):
    "Whether a notebook cell is a code cell flagged `#| slow` among its leading directive lines (as nbdev reads them)."
    if cell['cell_type'] != 'code': return False
    for line in _text(cell).splitlines():
        if not line.startswith('#|'): break
        if 'slow' in re.split(r'[\s,:]+', line[2:]): return True
    return False

MAGIC = re.compile(r'^(\s*)(%|!(?!=)).*$')   # an IPython magic or shell line (not a continuation starting with !=)

def _canonical(node):
    """`ast.dump` of `node` without line numbers, leaving out fields that are None or empty lists (as Python 3.13's
    ast.dump does by default), so that the text is the same on Python 3.9 to 3.13 (3.12 adds `type_params=[]`)."""
    if isinstance(node, ast.AST):
        fields = [f'{k}={_canonical(v)}' for k, v in ast.iter_fields(node)
                  if not (v is None or (isinstance(v, list) and not v))]
        return f"{type(node).__name__}({', '.join(fields)})"
    if isinstance(node, list): return '[' + ', '.join(_canonical(x) for x in node) + ']'
    return repr(node)

def canonical_code(source):
    """What a cell's key depends on: its `#|` directive lines, its magic and shell lines (stripped) and the syntax tree of
    the rest (`_canonical`), so that comments, blank lines, line breaks inside brackets, parentheses and string
    literals split by implicit concatenation leave it unchanged, while any change to what the code does changes it.
    A source that does not parse (with its magic lines read as `pass`) is taken as it is written."""
    lines = source.split('\n')
    directives = [l.rstrip() for l in lines if l.startswith('#|')]
    magics = [l.strip() for l in lines if not l.startswith('#|') and MAGIC.match(l)]
    code = '\n'.join(MAGIC.sub(r'\1pass', l) for l in lines)
    try: tree = _canonical(ast.parse(code))
    except SyntaxError: tree = 'unparsed:' + source
    return json.dumps({'directives': directives, 'magics': magics, 'code': tree}, ensure_ascii=False)

def source_sha(source):
    "A slow cell's key in its artefact: the sha256 of `canonical_code(source)` (re-breaking lines keeps it)."
    return hashlib.sha256(canonical_code(source).encode('utf-8')).hexdigest()

def cell_sha(cell): return source_sha(_text(cell))

def key_of(path):
    "A notebook's key: its path under nbs/ without '.ipynb' (accounting/09_triangle_certificate)."
    return Path(path).resolve().relative_to(NBS.resolve()).with_suffix('').as_posix()

def artefact_path(key): return STORE / (key.replace('/', '__') + '.json')

def load_artefact(key):
    "The stored artefact of a notebook (a dict), or None."
    p = artefact_path(key)
    return json.loads(p.read_text(encoding='utf-8')) if p.exists() else None

def slow_notebooks():
    "Every notebook under nbs/ with at least one slow cell."
    return [p for p in sorted(NBS.rglob('*.ipynb')) if '.ipynb_checkpoints' not in p.parts
            and any(is_slow(c) for c in json.loads(p.read_text(encoding='utf-8'))['cells'])]

def stored_outputs(cell, art, key):
    "The stored outputs of a slow cell, checked against its source; a ValueError naming the command if absent or stale."
    sha = cell_sha(cell)
    for c in (art or {}).get('cells', []):
        if c['sha256'] == sha: return c
    raise ValueError(f'nbs/{key}.ipynb has a slow cell without a stored output for its current source '
                     f'({_text(cell).splitlines()[1][:60] if len(_text(cell).splitlines()) > 1 else ""}...): run '
                     f'`{COMMAND} {key}`')

def provenance_line(art, cell):
    "The markdown line shown under a slow cell's stored output: command, commit, date and seconds."
    return (f"*Stored output*, made by `{art['command']}` at commit `{art['commit'][:10]}` on {art['date']} "
            f"({cell['seconds']:,.0f} s for this cell on {art['machine']}); `nbdev_test --flags slow` runs it again.")

# ---------------------------------------------------------------------------------------------------- groups

def _names(src, ctx):
    try: tree = ast.parse(src)
    except SyntaxError: return set()
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ctx): out.add(node.id)
        elif ctx is ast.Store and isinstance(node, (ast.FunctionDef, ast.ClassDef)): out.add(node.name)
        elif ctx is ast.Store and isinstance(node, (ast.Import, ast.ImportFrom)):
            out |= {(a.asname or a.name).split('.')[0] for a in node.names}
    return out

def slow_groups(cells):
    """The slow cells' indices in groups that share no variable: a cell joins the group of every earlier slow cell
    that assigns a name it reads and does not assign itself."""
    idx = [i for i, c in enumerate(cells) if is_slow(c)]
    src = {i: re.sub(r'^\s*[%!].*$', '', _text(cells[i]), flags=re.M) for i in idx}
    parent = {i: i for i in idx}
    def find(i):
        while parent[i] != i: i = parent[i]
        return i
    for j in idx:
        reads = _names(src[j], ast.Load) - _names(src[j], ast.Store)
        for i in idx:
            if i < j and reads & _names(src[i], ast.Store): parent[find(j)] = find(i)
    groups = {}
    for i in idx: groups.setdefault(find(i), []).append(i)
    return list(groups.values())

# ---------------------------------------------------------------------------------------------------- running

def _build_docs():
    spec = importlib.util.spec_from_file_location('build_docs', ROOT / 'tools' / 'build_docs.py')
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    return mod

def _seconds(cell):
    t = cell.get('metadata', {}).get('execution', {})
    a, b = t.get('iopub.execute_input'), t.get('shell.execute_reply')
    if not (a and b): return 0.0
    f = lambda s: datetime.datetime.fromisoformat(s.replace('Z', '+00:00'))
    return (f(b) - f(a)).total_seconds()

def run_group(path, group, timeout):
    "Worker: execute the notebook with only this group's slow cells; {index: stored cell} and the seconds taken."
    import nbformat
    from nbclient import NotebookClient
    bd = _build_docs()
    nb = bd.prepared(Path(path), slow=set(group))   # setup cell first; slow cells outside the group are not run
    t = time.time()
    NotebookClient(nb, timeout=timeout, kernel_name='python3', record_timing=True,
                   resources={'metadata': {'path': str(Path(path).parent)}}).execute()
    out = {}
    for i in group:
        c = nb.cells[i + 1]                        # + 1: the setup cell
        outs = [o for o in c.outputs if not (o.get('output_type') == 'stream' and o.get('name') == 'stderr')]
        out[i] = {'sha256': source_sha(c.source), 'seconds': round(_seconds(c), 1),
                  'outputs': json.loads(nbformat.writes(nbformat.v4.new_notebook(cells=[
                      nbformat.v4.new_code_cell(outputs=outs)])))['cells'][0]['outputs']}
    return str(path), out, time.time() - t

def _git(*args): return subprocess.run(['git', *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()

def witness(key):
    "The witness values of a notebook, computed in a fresh process by benchmarks/witnesses.py."
    r = subprocess.run([sys.executable, str(ROOT / 'benchmarks' / 'witnesses.py'), '--json', key], cwd=ROOT,
                       capture_output=True, text=True, env={**os.environ, 'PYTHONPATH': str(ROOT)})
    if r.returncode: raise RuntimeError(f'witness of {key} failed:\n{r.stderr[-2000:]}')
    return json.loads(r.stdout.strip().splitlines()[-1])

def _witness_or_none(key):
    try: return witness(key)
    except Exception as e:
        print(f'  {key}: no witness ({str(e)[-300:]}); add one and run `{COMMAND} --witness {key}`', flush=True)
        return {}

def write_index():
    "benchmarks/artefacts/README.md: one row per artefact (notebook, cells, seconds, commit, date)."
    rows = ['# Stored outputs of the notebooks\' slow cells', '',
            f'Made by `{COMMAND}` (see its docstring); shown by the docs build under each slow cell; checked by '
            '`tests/test_artefacts.py` (cell keys, see `source_sha`, and witness values).', '',
            '| notebook | slow cells | seconds | commit | date | machine |', '|---|---|---|---|---|---|']
    for p in sorted(STORE.glob('*.json')):
        a = json.loads(p.read_text(encoding='utf-8'))
        rows.append(f"| `nbs/{a['notebook']}.ipynb` | {len(a['cells'])} | {sum(c['seconds'] for c in a['cells']):,.0f} "
                    f"| `{a['commit'][:10]}` | {a['date']} | {a['machine']} |")
    (STORE / 'README.md').write_text('\n'.join(rows) + '\n', encoding='utf-8')

def refresh_witness(keys):
    "Recompute the witness of stored artefacts whose commit has the present library (a witness added afterwards)."
    for key in keys:
        art = load_artefact(key)
        if art is None: sys.exit(f'slow_cells.py: no artefact for {key}')
        if subprocess.run(['git', 'diff', '--quiet', art['commit'], '--', 'must_nbdev'], cwd=ROOT).returncode:
            sys.exit(f'slow_cells.py: the library changed since {art["commit"][:10]}; run `{COMMAND} {key}`')
        art['witness'] = witness(key)
        artefact_path(key).write_text(json.dumps(art, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
        print(f'{key}: {art["witness"]}')

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('notebooks', nargs='*', help='keys under nbs/ without .ipynb (default: every notebook with slow cells)')
    ap.add_argument('--jobs', '-j', type=int, default=os.cpu_count() or 1, help='executions at once (default: cores)')
    ap.add_argument('--timeout', type=int, default=6 * 3600, help='seconds per cell')
    ap.add_argument('--allow-dirty', action='store_true', help='run on a tree with uncommitted library or notebook '
                    'changes (the artefact is marked dirty and tests/test_artefacts.py refuses it)')
    ap.add_argument('--whole', action='store_true', help='one execution per notebook (no groups side by side: less '
                    'work in all, as each execution repeats the fast cells)')
    ap.add_argument('--witness', action='store_true', help="only recompute the stored artefacts' witness values "
                    '(allowed when the library is the one of the commit the artefact names)')
    a = ap.parse_args(argv)
    paths = [NBS / f'{k}.ipynb' for k in a.notebooks] if a.notebooks else slow_notebooks()
    if a.witness: return refresh_witness([key_of(p) for p in paths])
    for p in paths:
        if not p.exists(): sys.exit(f'slow_cells.py: no notebook nbs/{key_of(p) if p.is_relative_to(NBS) else p}')
    dirty = bool(_git('status', '--porcelain', '--', 'must_nbdev', 'nbs', 'setup.py', 'settings.ini'))
    if dirty and not a.allow_dirty: sys.exit('slow_cells.py: commit the library and notebooks first (the artefact '
                                             'names the commit it ran on), or pass --allow-dirty')
    commit = _git('rev-parse', 'HEAD')
    from concurrent.futures import ProcessPoolExecutor, as_completed
    groups = lambda p: slow_groups(json.loads(p.read_text(encoding='utf-8'))['cells'])
    tasks = [(p, g) for p in paths for g in ([sorted(i for g in groups(p) for i in g)] if a.whole else groups(p))]
    print(f'{len(tasks)} executions of {len(paths)} notebooks, {a.jobs} at a time', flush=True)
    results = {str(p): {} for p in paths}
    pending = {str(p): sum(1 for q, _ in tasks if q == p) for p in paths}
    os.environ['PYTHONPATH'] = os.pathsep.join([str(ROOT)] + [q for q in os.environ.get('PYTHONPATH', '').split(
        os.pathsep) if q])
    STORE.mkdir(parents=True, exist_ok=True)
    failed = []
    with ProcessPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = {ex.submit(run_group, str(p), g, a.timeout): (p, g) for p, g in tasks}
        for f in as_completed(futs):
            p, g = futs[f]
            key = key_of(p)
            try: _, out, secs = f.result()
            except Exception as e:
                failed.append(key); print(f'  {key} cells {g}: FAILED {type(e).__name__}: {str(e)[-1500:]}', flush=True)
                continue
            print(f'  {key} cells {g}: {secs:.0f} s', flush=True)
            results[str(p)].update(out); pending[str(p)] -= 1
            if pending[str(p)] == 0 and key not in failed:
                art = {'notebook': key, 'command': f'{COMMAND} {key}', 'commit': commit, 'dirty': dirty,
                       'date': datetime.date.today().isoformat(),
                       'machine': f'{os.cpu_count()} cores, {platform.system()} {platform.machine()}',
                       'cells': [results[str(p)][i] for i in sorted(results[str(p)])],
                       'witness': _witness_or_none(key)}
                artefact_path(key).write_text(json.dumps(art, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
                print(f'  wrote {artefact_path(key).relative_to(ROOT)}', flush=True)
    write_index()
    if failed: sys.exit(f'slow cells failed in: {", ".join(sorted(set(failed)))}')

if __name__ == '__main__':
    main()
