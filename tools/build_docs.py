#!/usr/bin/env python
"""Build the docs website in docs/ offline: nbdev's notebook processing, rendered by Sphinx + MyST-NB.

    pip install -e ".[dev,docs]"
    python tools/build_docs.py                        # every notebook (cached ones reused), then the full site in docs/
    python tools/build_docs.py --jobs 2               # notebooks executed 2 at a time (default: the number of cores)
    python tools/build_docs.py index core accounting  # a partial site (these notebooks) in _docs_build/site
    python tools/build_docs.py --only accounting/05   # force re-executing the notebooks whose path starts with this

Layout: every notebook under nbs/ gets the page nbdev itself names it by (nbdev.doclinks._nbpath2html, the name
_modidx and nbdev's links use): the folder kept, the number prefix dropped, so nbs/accounting/10_account.ipynb is
docs/accounting/account.html. The folders drive the sidebar: one section per folder (title from the folder's name),
first the folders that are no subpackage of the library (nbs/guides: pages of prose that README links to), then the
subpackages' folders in their dependency order, then the top-level notebooks, index first and the API reference (by
subpackage and module) last. No list of notebooks is kept here.

Steps:
1. execute the notebooks, `--jobs` at a time (each only imports the library, so they are independent), in their own
   folder, after a hidden setup cell that prints numpy scalars as plain numbers, draws figures with constrained
   layout at 2x resolution (200 dpi, shown at 1x size) and describes each figure for its alt text; executions are
   kept in a jupyter-cache (_docs_cache/), keyed by the code cells, the setup cell and a hash of the library's
   modules, so a rebuild re-executes the notebooks whose code changed, or all of them when library code changed;
2. run nbdev's own processors (nbdev.processors.FilterDefaults, what `nbdev_proc_nbs` runs before Quarto):
   title and description from the first cell, directives honoured (hide, export source hidden, echo: false,
   hide_line, filter_stream...), `show_doc` entries added after exported cells and executed;
3. translate what Quarto would do with the result into MyST-NB: `output: asis` cells (the show_doc entries)
   become markdown (with entries for the public methods of each class, an index entry per name, signatures without
   markdown links), `echo: false` / `include: false` / `output: false` become tags or are dropped, stderr is
   removed, markdown tables printed to stdout are rendered as tables, figures are written to docs/figures/ with alt
   text and a link to the full-size file; nbdev's links to the published site become relative links, checked
   against the entries that exist;
4. Sphinx (sphinx-book-theme, MyST-NB, sphinx-copybutton; configuration in tools/docs/conf.py) renders all pages,
   the API reference and the full-text search index. Math is typeset by KaTeX from docs/_static/katex (vendored,
   MIT): nothing is loaded from the network.

Each page carries `<meta name="must-nb-sha256">`, the hash of its notebook's cell sources (see `source_hash`);
tests/test_docs_site.py fails when a notebook changed after its page was built (MUST_DOCS_DIR=_docs_build/site
points it at a partial build). Users with Quarto can still run `nbdev_docs` (configuration in nbs/_quarto.yml).
"""
import argparse, base64, hashlib, json, os, posixpath, re, shutil, struct, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NBS, DOCS, CONF = ROOT / 'nbs', ROOT / 'docs', ROOT / 'tools' / 'docs'
CACHE, BUILD = ROOT / '_docs_cache', ROOT / '_docs_build'
SRC = BUILD / 'src'
KEEP_IN_DOCS = {'README.md'}
GIT_URL = 'https://github.com/must-nbdev/must_nbdev'
DOC_URL = 'https://must-nbdev.github.io/must_nbdev/'
TOP_SECTION, API_SECTION = 'Command line and compatibility', 'Reference'   # top-level notebooks; the API page

# ---------------------------------------------------------------------------------------------------- layout

def notebooks():
    "Every notebook under nbs/ (nbdev's recursive = True), without checkpoints and _-prefixed files or folders."
    return sorted(p for p in NBS.rglob('*.ipynb')
                  if not any(x.startswith(('_', '.')) for x in p.relative_to(NBS).parts))

def page_of(path):
    """A notebook's page, nbdev's own name for it (nbdev.doclinks._nbpath2html, what _modidx and nbdev's links use):
    the folder kept, the number prefix dropped: nbs/accounting/10_account.ipynb -> 'accounting/account'."""
    rel = Path(path).resolve().relative_to(NBS.resolve()).with_suffix('')
    return (rel.parent / re.sub(r'^\d+[a-zA-Z0-9]*_', '', rel.name.lower())).as_posix()

def _folder(path):
    rel = Path(path).resolve().relative_to(NBS.resolve()).parts
    return rel[0] if len(rel) > 1 else None

def folder_order(folders):
    """The notebook folders in dependency order, read from the module-level imports between the library's subpackages
    (a folder is the subpackage of the same name; an import inside a function is lazy, not an order): a folder comes
    after every folder it imports from; among those ready, the
    one most others build on first, then the one that builds on most (the main line before side branches)."""
    folders = sorted(folders)
    deps = {f: set() for f in folders}
    for f in folders:
        for py in (ROOT / 'must_nbdev' / f).glob('*.py'):
            # module level
            for m in re.finditer(r'^from\s+(?:\.\.|must_nbdev\.)(\w+)', py.read_text(encoding='utf-8'), re.M):
                if m.group(1) in deps and m.group(1) != f: deps[f].add(m.group(1))
    def closure(f, seen=()):
        out = set()
        for g in deps[f] - set(seen): out |= {g} | closure(g, seen + (f,))
        return out
    below = {f: closure(f) for f in folders}
    above = {f: sum(f in below[g] for g in folders) for f in folders}
    order = []
    while len(order) < len(folders):
        left = [f for f in folders if f not in order]
        ready = [f for f in left if below[f] <= set(order)] or left   # an import cycle: keep going
        order.append(max(ready, key=lambda f: (above[f], len(below[f]), -folders.index(f))))
    return order

def section_title(folder): return folder.replace('_', ' ').capitalize() if folder else TOP_SECTION

def is_subpackage(folder): return (ROOT / 'must_nbdev' / folder / '__init__.py').exists()

def sections(paths):
    """Sidebar sections in reading order: one per folder, those that are no subpackage (the guides) first, then the
    subpackages in dependency order, then the top-level notebooks; no index."""
    secs = {}
    for p in paths:
        if page_of(p) != 'index': secs.setdefault(_folder(p), []).append(p)
    prose = sorted(k for k in secs if k and not is_subpackage(k))
    keys = prose + folder_order([k for k in secs if k and k not in prose]) + ([None] if None in secs else [])
    return [(section_title(k), sorted(secs[k])) for k in keys]

SETUP = r'''
import numpy as _np, matplotlib as _mpl
from matplotlib.figure import Figure as _Figure
_np.set_printoptions(legacy='1.25')   # 0.847, not np.float64(0.847)
_mpl.rcParams.update({'figure.constrained_layout.use': True, 'legend.framealpha': 0.9})
get_ipython().run_line_magic('config', "InlineBackend.figure_formats = ['retina']")
def _must_txt(s): return ' '.join(str(s).replace('$', '').replace('\\', '').split())
def _must_alt(fig):
    "A description of a figure for its alt text: suptitle, then each panel's title or axis labels."
    head = _must_txt(fig._suptitle.get_text()) if getattr(fig, '_suptitle', None) else ''
    panels = []
    for ax in fig.axes:
        t = _must_txt(ax.get_title() or ax.get_title('left'))
        xl, yl = _must_txt(ax.get_xlabel()), _must_txt(ax.get_ylabel())
        if t or xl or yl: panels.append(t or f"{yl or 'value'} against {xl or 'x'}")
    panels = list(dict.fromkeys(panels))
    body = (f"{len(panels)} panels: " if len(panels) > 1 else '') + '; '.join(panels)
    axes = [f"{_must_txt(a.get_ylabel())} against {_must_txt(a.get_xlabel())}" for a in fig.axes
            if (a.get_title() or a.get_title('left')) and a.get_xlabel() and a.get_ylabel()]
    if axes: body += ' (' + '; '.join(dict.fromkeys(axes)) + ')'
    return 'Figure: ' + ' - '.join(p for p in (head, body) if p) if head or body else 'Figure'
_Figure._repr_pretty_ = lambda self, p, cycle: p.text(_must_alt(self))   # the figure's text/plain: its alt text
'''

def source_hash(path):
    "sha256 of a notebook's cell types and sources (outputs and metadata ignored): the page's staleness stamp."
    nb = json.loads(Path(path).read_text(encoding='utf-8'))
    cells = [[c['cell_type'], ''.join(c['source']) if isinstance(c['source'], list) else c['source']]
             for c in nb['cells']]
    return hashlib.sha256(json.dumps(cells, ensure_ascii=False).encode('utf-8')).hexdigest()

def library_hash(modules=None):
    "sha256 of the library's modules (all of them, or the paths in `modules`): what a notebook's execution depends on."
    h = hashlib.sha256()
    for py in sorted((ROOT / 'must_nbdev').rglob('*.py')):
        if py.name == '_modidx.py' or (modules is not None and py not in modules): continue
        h.update(py.relative_to(ROOT).as_posix().encode() + py.read_bytes())
    return h.hexdigest()

_IMPORT = re.compile(r'^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[\w ,\t*]+)|import[ \t]+([\w., \t]+))', re.M)
LIB = ROOT / 'must_nbdev'

def _module_file(dotted):
    "The file of library module `must_nbdev.a.b` (a package's __init__.py), or None."
    parts = dotted.split('.')
    if parts[0] != 'must_nbdev': return None
    base = LIB.joinpath(*parts[1:])
    for f in (base.with_suffix('.py'), base / '__init__.py'):
        if f.is_file(): return f
    return None

def _lazy_names():
    "must_nbdev's lazily exported names -> their modules (the _LAZY table of the hand-written __init__.py)."
    m = re.search(r'^_LAZY = \{(.*?)^\}', (LIB / '__init__.py').read_text(encoding='utf-8'), re.M | re.S)
    return dict(re.findall(r"'(\w+)': '([\w.]+)'", m.group(1))) if m else {}

def _imported(text, package):
    """Library modules a source text imports (at module level or inside functions: lazy imports run too), with
    relative imports resolved against `package`; None when it imports the whole top-level package or a name dynamically
    (then it may use anything)."""
    out, lazy = set(), _lazy_names()
    if re.search(r'import_module\([^)]*(?:must_nbdev|__name__|__package__)', text): return None   # by a computed name
    for m in _IMPORT.finditer(text):
        src, names, plain = m.group(1), m.group(2), m.group(3)
        if plain is not None:
            mods = [x.strip().split(' as ')[0] for x in plain.split(',')]
            if 'must_nbdev' in mods: return None
            out.update(x for x in mods if x.startswith('must_nbdev.'))
            continue
        if src.startswith('.'):
            if package is None: continue
            up = len(src) - len(src.lstrip('.'))
            base = package.split('.')[:len(package.split('.')) - (up - 1)]
            src = '.'.join(base + ([src.lstrip('.')] if src.lstrip('.') else []))
        if not src.startswith('must_nbdev'): continue
        names = [x.strip().split(' as ')[0] for x in names.strip('()').replace('\n', ',').split(',') if x.strip()]
        if src == 'must_nbdev':
            if '*' in names: return None
            for x in names:
                if x in lazy: out.add(f'must_nbdev.{lazy[x]}')
                elif _module_file(f'must_nbdev.{x}'): out.add(f'must_nbdev.{x}')
                else: return None
            continue
        out.add(src)
        out.update(f'{src}.{x}' for x in names if _module_file(f'{src}.{x}'))   # `from pkg import module`
    return out

def code_sources(path) -> list:
    "The sources of a notebook's code cells, in order."
    nb = json.loads(Path(path).read_text(encoding='utf-8'))
    return [''.join(c['source']) if isinstance(c['source'], list) else c['source']
            for c in nb['cells'] if c['cell_type'] == 'code']

def notebook_modules(path):
    """The library files a notebook's execution can run: the modules its code cells import, and what those import in
    turn (module level and lazily), the notebook's own exported module, every package __init__ on the way and
    _compat.py; every module when it imports the top-level package whole or by a dynamic name."""
    code = '\n'.join(code_sources(path))
    every = {p for p in LIB.rglob('*.py') if p.name != '_modidx.py'}
    todo = _imported(code, None)
    if todo is None: return every
    exp = re.search(r'^#\|\s*default_exp\s+([\w.]+)', code, re.M)
    if exp: todo.add(f'must_nbdev.{exp.group(1)}')
    files, todo = {LIB / '__init__.py', LIB / '_compat.py'}, list(todo)
    while todo:
        f = _module_file(todo.pop())
        if f is None or f in files: continue
        files.add(f)
        rel = f.relative_to(ROOT).with_suffix('').parts
        pkg = '.'.join(rel[:-1]) if f.name != '__init__.py' else '.'.join(rel[:-1])
        for i in range(2, len(rel)): files.add(ROOT.joinpath(*rel[:i], '__init__.py'))
        more = _imported(f.read_text(encoding='utf-8'), pkg)
        if more is None: return every
        todo += sorted(more)
    return {f for f in files if f.is_file()}

# ------------------------------------------------------------------------------------------- notebooks' outputs

OUTPUTS_KEY = 'must_outputs'   # notebook metadata: what the outputs stored in nbs/ were computed from
PROVENANCE = 'must_provenance' # cell metadata of the line under a slow cell's stored output (page only)

BENCHMARKS = ROOT / 'benchmarks'

def artefacts_read(path) -> list:
    """The files of benchmarks/ that a notebook's example cells name in quotes, by name or stem (`'TIGHT_BLOCKS'`
    names TIGHT_BLOCKS.json and .md): the recorded artefacts and scripts its outputs display, so they go stale with
    them. Exported cells (library code, whose hints may cite an artefact) are not read."""
    code = '\n'.join(s for s in code_sources(path) if not re.search(r'^#\|\s*export', s, re.M))
    if 'benchmarks' not in code: return []
    named = lambda f: re.search(rf"""['"]{re.escape(f.stem)}(?:\.\w+)?['"]""", code)
    return sorted(f for f in BENCHMARKS.iterdir() if f.is_file() and named(f))

def artefacts_hash(files) -> str:
    "sha256 of the files' names and bytes."
    h = hashlib.sha256()
    for f in files: h.update(f.name.encode('utf-8') + b'\0' + f.read_bytes() + b'\0')
    return h.hexdigest()

def outputs_stamp(path):
    """What a notebook's stored outputs are current for: its sources (`source_hash`, the page's stamp too), the
    library modules its execution can run (`library_hash` of `notebook_modules`) and, for a notebook that displays
    recorded artefacts, those files (`artefacts_read`)."""
    stamp = {'sources': source_hash(path), 'library': library_hash(notebook_modules(path))}
    files = artefacts_read(path)
    if files: stamp['artefacts'] = artefacts_hash(files)
    return stamp

def _kept(output):
    "An executed output as the notebook in nbs/ keeps it (None: not kept): no stderr, no execution count."
    if output.get('output_type') == 'stream' and output.get('name') == 'stderr': return None
    out = dict(output)
    if 'execution_count' in out: out['execution_count'] = None
    return out

def keep_outputs(path, nb):
    """Write the outputs of the execution that renders `path`'s page into the notebook in nbs/ (read on GitHub and in
    Jupyter), stamped with `outputs_stamp`: one execution feeds the page and the notebook, so the two agree. A slow
    cell keeps its stored output with the line naming the command and commit that made it."""
    src = json.loads(path.read_text(encoding='utf-8'))
    text = lambda c: ''.join(c['source']) if isinstance(c['source'], list) else c['source']
    ran = []                                       # executed cells, each slow cell's provenance line as its last output
    for e in nb['cells']:
        if e.get('metadata', {}).get(PROVENANCE):
            ran[-1] = {**ran[-1], 'outputs': list(ran[-1].get('outputs', [])) + [
                {'output_type': 'display_data', 'metadata': {}, 'data': {'text/markdown': text(e)}}]}
        else: ran.append(e)
    if [(c['cell_type'], text(c)) for c in src['cells']] != [(c['cell_type'], text(c)) for c in ran]:
        sys.exit(f'nbs/{path.relative_to(NBS).as_posix()} changed while it was executed: build again')
    for c, e in zip(src['cells'], ran):
        if c['cell_type'] != 'code': continue
        c['outputs'] = [o for o in map(_kept, e.get('outputs', [])) if o is not None]
        c['execution_count'] = None
    src['metadata'][OUTPUTS_KEY] = outputs_stamp(path)
    new = json.dumps(src, indent=1, ensure_ascii=False, sort_keys=True) + '\n'   # nbdev_clean's form
    if new != path.read_text(encoding='utf-8'): path.write_text(new, encoding='utf-8')

# ---------------------------------------------------------------------------------------------------- execution

KERNELSPEC = {'name': 'python3', 'display_name': 'Python 3', 'language': 'python'}

def slow_cells():
    "benchmarks/slow_cells.py, which stores the outputs of the cells flagged `#| slow` (loaded once)."
    global _SLOW
    if _SLOW is None:
        import importlib.util
        spec = importlib.util.spec_from_file_location('slow_cells', ROOT / 'benchmarks' / 'slow_cells.py')
        _SLOW = importlib.util.module_from_spec(spec); spec.loader.exec_module(_SLOW)
    return _SLOW
_SLOW = None

def exports_modules(cell) -> bool:
    "Whether a cell calls `nbdev_export()`: it rewrites every module, while a parallel kernel may be importing one."
    source = cell['source'] if isinstance(cell['source'], str) else ''.join(cell['source'])
    return cell['cell_type'] == 'code' and 'nbdev_export' + '(' in source

def prepared(path, slow=()):
    """The notebook as it is executed: a hidden setup cell first, which names the notebook and the library's hash so
    that jupyter-cache's key (the code cells' sources) changes with the setup, the notebook's code or the library.
    Cells flagged `#| slow` are not executed (the page shows their stored outputs, see `with_stored_outputs`): each
    becomes a comment naming its key (`cell_sha`: the hash of its code, not of its text), except those whose indices
    are in `slow` (benchmarks/slow_cells.py). The closing `nbdev_export()` cell is not run either: with two kernels at
    once it rewrote the modules while the other imported one (05_accountant once failed to import `check_scheme`)."""
    import nbformat
    nb = nbformat.read(path, 4)
    sc = slow_cells()
    for i, c in enumerate(nb.cells):
        if sc.is_slow(c) and i not in slow:
            c.source = f'# slow cell {sc.cell_sha(c)[:16]}: its stored output is shown (benchmarks/slow_cells.py)'
        elif exports_modules(c):   # skipped as nbdev_test skips it (with_stored_outputs puts its source back)
            c.source = '#| hide\n# nbdev_export() is not run in the docs build'
    rel = Path(path).resolve().relative_to(NBS.resolve()).as_posix()
    stamp = outputs_stamp(path)   # a displayed artefact that changed makes the cached execution stale, too
    read = f"; artefacts {stamp['artefacts'][:16]}" if 'artefacts' in stamp else ''
    nb.cells.insert(0, nbformat.v4.new_code_cell(SETUP + f"# docs build of nbs/{rel}; library "
                                                 f"{stamp['library'][:16]}{read}\n"))
    nb.metadata['kernelspec'] = dict(KERNELSPEC)   # part of jupyter-cache's key: the same before and after execution
    return nb

def _run(rel, nb_json, timeout, allow_errors=False):
    "Worker process: run a prepared notebook in its own folder (as nbdev_test does); (rel, executed, seconds, error)."
    import time, nbformat
    from nbclient import NotebookClient
    t = time.time()
    nb = nbformat.reads(nb_json, 4)
    try: NotebookClient(nb, timeout=timeout, kernel_name='python3', record_timing=False, allow_errors=allow_errors,
                        resources={'metadata': {'path': str((NBS / rel).parent)}}).execute()
    except Exception as e: return rel, None, time.time() - t, f'{type(e).__name__}: {e}'[-3000:]
    nb.metadata['kernelspec'] = dict(KERNELSPEC)   # as prepared (nbclient writes the running kernel's)
    for c in nb.cells: c.metadata.pop('execution', None)   # cell metadata is part of the key too
    return rel, nbformat.writes(nb), time.time() - t, None

def _n_errors(nb): return sum(o.get('output_type') == 'error' for c in nb.cells for o in c.get('outputs', []))

def execute_all(paths, jobs, timeout, force=(), cached_only=False, allow_errors=False):
    """Executed notebooks (dicts, setup cell removed) for `paths`, from the jupyter-cache in _docs_cache/ when it has
    the notebook's current code, else executed, `jobs` notebooks at a time (they only import the library, so any two
    are independent), longest first (the duration of the last run is stored with the cache record), and cached.
    With cached_only, notebooks without a cached execution are returned unexecuted and listed in the second value.
    With allow_errors, a failing cell does not stop its notebook (its error is shown on the page; a draft): such an
    execution is cached with its error count and reused only by builds that allow errors."""
    import nbformat
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn
    cache = get_cache(str(CACHE))
    out, todo, missing = {}, [], []
    for p in paths:
        nb = prepared(p)
        if p not in force:
            try:
                pk, merged = cache.merge_match_into_notebook(nb)
                if allow_errors or not (cache.get_cache_record(pk).data or {}).get('errors'): out[p] = merged; continue
            except KeyError: pass
        if cached_only: missing.append(page_of(p)); out[p] = nb
        else: todo.append((p, nb))
    if todo:
        took = {r.uri: (r.data or {}).get('seconds', 0) for r in cache.list_cache_records()}
        rel = {p: p.resolve().relative_to(NBS.resolve()).as_posix() for p, _ in todo}
        todo.sort(key=lambda t: -took.get(rel[t[0]], float('inf')))   # never timed first: it may be the longest
        os.environ['PYTHONPATH'] = os.pathsep.join([str(ROOT)]
                                                   + [q for q in os.environ.get('PYTHONPATH', '').split(os.pathsep)
                                                      if q])
        print(f'executing {len(todo)} notebooks, {jobs} at a time: {", ".join(rel[p] for p, _ in todo)}',
              file=sys.stderr, flush=True)
        errors = {}
        with ProcessPoolExecutor(max_workers=jobs) as ex:
            futs = [ex.submit(_run, rel[p], nbformat.writes(nb), timeout, allow_errors) for p, nb in todo]
            by_rel = {rel[p]: p for p, _ in todo}
            for f in as_completed(futs):
                r, text, secs, err = f.result()
                nb = nbformat.reads(text, 4) if text else None
                n_err = _n_errors(nb) if nb else 0
                print(f'  {r}: {"FAILED" if err else "done"} in {secs:.0f} s'
                      + (f' ({n_err} cells with errors)' if n_err else ''), file=sys.stderr, flush=True)
                if err: errors[r] = err; continue
                cache.cache_notebook_bundle(CacheBundleIn(nb, r, data={'seconds': round(secs, 1), 'errors': n_err}),
                                            check_validity=False, overwrite=True)
                out[by_rel[r]] = nb
        if errors:
            sys.exit('notebooks failed to execute:\n' + '\n'.join(f'--- nbs/{r}\n{e}' for r, e in errors.items()))
    res = {}
    for p in paths:
        nb = out[p]; nb.cells.pop(0)
        res[p] = json.loads(nbformat.writes(nb))
    return res, missing

def with_stored_outputs(nb, path):
    """The executed notebook `nb` (a dict) with each slow cell's source restored and its stored outputs filled in from
    benchmarks/artefacts/, followed by a line naming the command, commit and date that made them; a notebook whose
    artefact is missing or older than a slow cell's source stops the build with the command to run."""
    src = json.loads(Path(path).read_text(encoding='utf-8'))['cells']
    nb = {**nb, 'cells': [{**c, 'source': orig['source']} if exports_modules(orig) else c   # as written, not run
                          for c, orig in zip(nb['cells'], src)]}
    sc = slow_cells()
    if not any(sc.is_slow(c) for c in src): return nb
    key = sc.key_of(path)
    art = sc.load_artefact(key)
    cells = []
    for c, orig in zip(nb['cells'], src):
        if sc.is_slow(orig):
            stored = sc.stored_outputs(orig, art, key)
            c = {**c, 'source': orig['source'], 'outputs': stored['outputs'], 'execution_count': None}
            cells += [c, {'cell_type': 'markdown', 'metadata': {PROVENANCE: True},
                          'source': sc.provenance_line(art, stored)}]
        else: cells.append(c)
    return {**nb, 'cells': cells}

# ---------------------------------------------------------------------------------------------------- nbdev processing

def _split_title_cell(nb):
    "nbdev turns the first '# title / > description' cell into front matter and drops the cell: keep any other text."
    for i, c in enumerate(nb['cells']):
        if c['cell_type'] != 'markdown': continue
        src = ''.join(c['source'])
        m = re.match(r'\s*#\s+[^\n]*\n(?:\s*\n)*(?:>[^\n]*\n?)?', src)
        if m and src[m.end():].strip():
            c['source'] = src[:m.end()]
            nb['cells'].insert(i + 1, {'cell_type': 'markdown', 'metadata': {}, 'source': src[m.end():].strip()})
        return

def _imports_apart(nb):
    """nbdev's show_doc pass runs every cell that imports; a cell that also computes would be re-run there (and fail
    on names from unexecuted cells): run only its imports (a hidden cell) and mark it eval: false for that pass."""
    import ast
    cells = []
    for c in nb['cells']:
        src = ''.join(c['source']) if isinstance(c['source'], list) else c['source']
        if c['cell_type'] == 'code' and not re.search(r'^\s*#\s*\|\s*(export|exporti|exports|hide|eval:)', src, re.M):
            try: tree = ast.parse('\n'.join(l for l in src.split('\n') if not l.lstrip().startswith(('%', '!'))))
            except SyntaxError: tree = None
            imps = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))] if tree else []
            nested = tree is not None and any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in ast.walk(tree))
            if nested and len(imps) < len(tree.body):
                if imps: cells.append({'cell_type': 'code', 'metadata': {}, 'outputs': [], 'execution_count': None,
                                       'source': '#| hide\n' + '\n'.join(ast.unparse(n) for n in imps)})
                c['source'] = '#| eval: false\n' + src
        cells.append(c)
    nb['cells'] = cells

def _module_first(nb):
    """nbdev's show_doc pass runs the notebook's export cells in order, so an annotation naming a class defined in a
    later cell (`-> MechanismPLD` before `class MechanismPLD`) cannot be resolved there: import the notebook's own
    module first (a hidden cell), so every exported name exists from the start; the export cells still redefine them."""
    for c in nb['cells']:
        src = ''.join(c['source']) if isinstance(c['source'], list) else c['source']
        m = c['cell_type'] == 'code' and re.search(r'^\s*#\s*\|\s*default_exp\s+([\w.]+)', src, re.M)
        if m:
            i = next((k for k, d in enumerate(nb['cells']) if d['cell_type'] == 'code'), 0)
            nb['cells'].insert(i, {'cell_type': 'code', 'metadata': {}, 'outputs': [], 'execution_count': None,
                                   'source': f'#| hide\nfrom must_nbdev.{m.group(1)} import *'})
            return

def nbdev_process(nb, path):
    "Run nbdev's documentation processors (FilterDefaults: what nbdev_proc_nbs does) on an executed notebook dict."
    from execnb.nbio import dict2nb, nb2dict
    from nbdev.processors import FilterDefaults
    _split_title_cell(nb); _imports_apart(nb); _module_first(nb)
    nbd = dict2nb(nb)
    nbd.path_ = str(path)   # as execnb's read_nb sets it: nbdev names the page after it
    cwd = os.getcwd(); os.chdir(Path(path).parent)
    if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))
    try: FilterDefaults()(nbd)
    finally: os.chdir(cwd)
    return nb2dict(nbd)

# ---------------------------------------------------------------------------------------------------- Quarto -> MyST-NB

_QUARTO = re.compile(r'^\s*#\|\s*([\w-]+)\s*:\s*(.*?)\s*$')
_SOURCE_LINK = re.compile(r'\[source\]\((\S+?)\)\{target="_blank"[^}]*\}')
_TABLE_LINE = re.compile(r'^\s*\|.*\|\s*$')
_TABLE_SEP = re.compile(r'^\s*\|(\s*:?-+:?\s*\|)+\s*$')
_MODS = {}

def page_of_module():
    "Module name ('accounting.account') -> its notebook's page, from the 'File to edit' header of the generated module."
    if not _MODS:
        lib = ROOT / 'must_nbdev'
        for py in sorted(lib.rglob('*.py')):
            m = re.search(r'File to edit: ([\w./-]+?\.ipynb)', py.read_text(encoding='utf-8'))
            if m:
                _MODS['.'.join(py.relative_to(lib).with_suffix('').parts)] = page_of((py.parent / m.group(1)).resolve())
    return _MODS

_DOC_LINK = re.compile(re.escape(DOC_URL) + r'((?:[\w-]+/)*[\w.-]+?)\.html(#[^\s)"\'<>]*)?')

def _local_links(md):
    "GitHub links nbdev made for line None lose the line; links to the (Quarto) site are resolved in `resolve_links`."
    return md.replace('#LNone)', ')')

def resolve_links(text, page, anchors):
    """Links nbdev made to the published site (DOC_URL + nbdev's page name + '#' + the name in lower case) -> links
    relative to `page` when the target page is part of this build; an anchor that no entry defines is dropped (the
    link goes to the page) and reported. `anchors`: page -> set of ids. Returns (text, dropped anchors)."""
    dropped = []
    def sub(m):
        target, frag = m.group(1), (m.group(2) or '')
        if target not in anchors: return m.group(0)   # not built here (a partial build): the published page
        if frag and frag[1:] not in anchors[target]: dropped.append(f'{target}{frag}'); frag = ''
        rel = posixpath.relpath(f'{target}.html', posixpath.dirname(page) or '.')
        return rel + frag
    return _DOC_LINK.sub(sub, text), dropped

_NB_PAGES = {}

def _link_notebooks(md):
    """A notebook named in prose as code (`core/01_sampling`, `90_cli`) becomes a link to its page (the home page's
    tables name every notebook); code blocks and names already inside a link are left alone."""
    if not _NB_PAGES:
        _NB_PAGES.update({p.resolve().relative_to(NBS.resolve()).with_suffix('').as_posix(): page_of(p)
                          for p in notebooks()})
    names = '|'.join(re.escape(n) for n in sorted(_NB_PAGES, key=len, reverse=True))
    pat = re.compile(r'(?<!\[)`(' + names + r')(?:\.ipynb)?`(?!\])')
    parts = re.split(r'(^```.*?^```)', md, flags=re.S | re.M)
    return ''.join(part if part.startswith('```')
                   else pat.sub(lambda m: f'[`{m.group(1)}`]({DOC_URL}{_NB_PAGES[m.group(1)]}.html)', part)
                   for part in parts)

def registry_terms(page):
    """Index entries for the registries' names on the page whose module defines them: the schemes' display names
    (MUST.ow, Poisson, ...; `SCHEMES`) and the certificates' ('triangle net'; `CERTIFICATES`), so that a search for
    one lists the page that defines it first."""
    import importlib
    terms = []
    for short, pg in page_of_module().items():
        if pg != page: continue
        mod = importlib.import_module(f'must_nbdev.{short}')
        names = getattr(mod, '__all__', ())
        if 'SCHEMES' in names: terms += [getattr(v, 'label', None) for v in mod.SCHEMES.values()]   # defined here
        if 'CERTIFICATES' in names: terms += list(mod.CERTIFICATES)                                 # the certificates
    terms = [t for t in dict.fromkeys(terms) if t]
    return ''.join(f'```{{index}} !single: {t}\n```\n' for t in terms)

def title_terms(nb):
    """Index entries for what a page's title names ("The worst case: dominating pairs" -> both parts): a page defines
    what its title says, so a search for it lists that page first (and the general index is not empty)."""
    src = nb['cells'][0]['source'] if nb['cells'] else ''
    m = re.search(r'^#\s+(.+)$', src, re.M)
    if not m: return ''
    title = re.sub(r'`|\$[^$]*\$|\*', '', m.group(1))
    parts = [t.strip(' .') for t in re.split(r':|;| — | - ', title)]
    return ''.join(f'```{{index}} !single: {t}\n```\n' for t in dict.fromkeys(parts) if len(t) >= 3)

def _nb_title(path):
    nb = json.loads(Path(path).read_text(encoding='utf-8'))
    for c in nb['cells']:
        m = c['cell_type'] == 'markdown' and re.match(r'\s*#\s+(.+)', ''.join(c['source']))
        if m: return m.group(1).strip()
    return page_of(path)

def where_to_start(secs):
    """The home page's first-screen line: where a practitioner, a reader of the theory and an API user begin (the
    practitioner's notebook: the training folder's tutorial, the one that exports no module)."""
    paths = [p for _, ps in secs for p in ps]
    def link(p): return f'[{_nb_title(p)}]({DOC_URL}{page_of(p)}.html)'
    modules = set(page_of_module().values())
    practice = next((p for p in paths if _folder(p) == 'training' and page_of(p) not in modules), None)
    bits = []
    if practice: bits.append(f'to train a model with DP-SGD, {link(practice)}')
    theory = [p for p in paths if _folder(p) and is_subpackage(_folder(p))]
    if theory: bits.append(f'for the theory, {link(theory[0])}, then the sidebar in order')
    bits.append(f'for a function, the [API reference]({DOC_URL}api.html) or search')
    return '{.must-start}\n**Where to start:** ' + '; '.join(bits) + '.\n'

def _split_directives(src):
    lines, dirs = src.split('\n'), {}
    while lines and _QUARTO.match(lines[0]):
        k, v = _QUARTO.match(lines[0]).groups(); dirs[k] = v.strip('"\''); lines.pop(0)
    return dirs, '\n'.join(lines).strip('\n')

_FENCE = re.compile(r'^(```[^\n]*\n)(.*?)(^```)', re.S | re.M)
_MD_LINK = re.compile(r'\[(`?)([^\]`]*)\1\]\([^)\s]*\)')

def _plain_code(md):
    "nbdev's add_links also links names inside code fences (signatures): there they are raw markdown, so unlink them."
    return _FENCE.sub(lambda m: m.group(1) + _MD_LINK.sub(lambda l: l.group(2), m.group(2)) + m.group(3), md)

def _lookup(module, dotted):
    "(owner, object) of `dotted` ('name' or 'Class.method') in `module`: a class's attributes as defined, unbound."
    import inspect
    owner, obj = None, module
    for part in dotted.split('.'):
        owner, obj = obj, (inspect.getattr_static(obj, part, None) if inspect.isclass(obj) else getattr(obj, part, None))
    return owner, getattr(obj, '__func__', obj)                   # staticmethod, classmethod: their function

def _documented(name, page):
    "The function or class a show_doc entry of `page` documents (`name` or `Class.method`), or None (properties...)."
    import importlib, inspect
    for short, pg in page_of_module().items():
        if pg != page or not name: continue
        obj = _lookup(importlib.import_module(f'must_nbdev.{short}'), name)[1]
        if inspect.isfunction(obj) or inspect.isclass(obj): return obj
    return None

_PARAM_LINE = re.compile(r'^(\s+)(\w+)(?::[^=#]*?)?(?:=[^#]*?)?(,?)((?: # .*)?)$')

def written_signature(md, page):
    """nbdev's signature block put back as the source writes it: the bare `*` before keyword-only parameters (nbdev drops
    it, so `account(scheme, sigma)` looked positional and raised TypeError), and each annotation and default as written
    (`max_bins:int=MAX_BINS`, not `2097152`; no `NoneType` where the source has no annotation)."""
    import ast, inspect, textwrap
    fn = _documented(_entry_name(md), page)
    if fn is None: return md
    try: src = textwrap.dedent(inspect.getsource(fn)); tree = ast.parse(src)
    except (OSError, TypeError, SyntaxError): return md
    text = lambda n: None if n is None else ast.get_source_segment(src, n)
    node, fields = (tree.body[0] if tree.body else None), []
    if isinstance(node, ast.ClassDef):     # a class: its own __init__'s parameters, or its dataclass fields
        init = next((n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == '__init__'), None)
        fields = [(n.target.id, n.annotation, n.value) for n in node.body
                  if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)]
        node = init
    params, order, star = [], [], None     # (name, annotation, default) as written; the signature's items in order
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        a = node.args
        pos = a.posonlyargs + a.args
        params = [(x.arg, x.annotation, d) for x, d in zip(pos, [None] * (len(pos) - len(a.defaults)) + a.defaults)]
        kw = [(x.arg, x.annotation, d) for x, d in zip(a.kwonlyargs, a.kw_defaults)]
        star = kw[0][0] if kw and a.vararg is None else None
        order = ([p[0] for p in params] + ([f'*{a.vararg.arg}'] if a.vararg else ['*'] if kw else [])
                 + [p[0] for p in kw] + ([f'**{a.kwarg.arg}'] if a.kwarg else []))
        params += kw
    elif isinstance(fn, type): params = fields
    written = {name: (text(ann), text(default)) for name, ann, default in params}
    if not written: return md
    def render(name):
        "A parameter as the source writes it (`*args`, `**kw` and the bare `*` as they are)."
        if name not in written: return name
        ann, default = written[name]
        return f"{name}{':' + ann if ann else ''}{'=' + default if default else ''}"
    def fix(m):
        out = []
        for line in m.group(2).split('\n'):
            p = _PARAM_LINE.match(line)
            if not p and '#' not in line and ',' in line and order:    # no comments: every parameter on one line
                shown = set(re.findall(r'(?:^|,)\s*\**(\w+)', line.strip()))
                keep = [x for x in order if x == '*' or x.lstrip('*') in shown]
                out.append(re.match(r'\s*', line).group(0) + ', '.join(map(render, keep))); continue
            if not p or p.group(2) not in written: out.append(line); continue
            indent, name = p.group(1), p.group(2)
            if name == star: out.append(f'{indent}*,')
            out.append(f"{indent}{render(name)}{p.group(3) or (',' if name == star else '')}{p.group(4)}")
        body = '\n'.join(out)
        if inspect.isclass(fn): body = re.sub(r'^def ', 'class ', body)       # nbdev writes `def` for a class too
        return m.group(1) + body + m.group(3)
    return re.sub(r'^(```python\n)(.*?)(^```)', fix, md, count=1, flags=re.S | re.M)

def _show_doc_md(md, page=None):
    "nbdev's show_doc markdown (Quarto) as MyST: a real source link, an anchor with nbdev's id, the written signature."
    if page is not None: md = written_signature(md, page)
    md = _plain_code(_local_links(md))
    md = _SOURCE_LINK.sub(lambda m: f'<a class="must-source" href="{m.group(1)}" target="_blank" '
                                    'rel="noopener">source</a>', md)
    # nbdev's id, and an index entry: the general index lists it and a search for it ranks this page first
    def anchor(m):
        name = m.group(2).strip().strip('`').replace('\\_', '_')
        aid = name.lower()
        # MyST gives a heading up to level 3 a GitHub-style slug as a second id: when that is nbdev's id already
        # (make_scheme), another element with it would duplicate the id; a comment records the anchor instead
        slug = re.sub(r'[^\w\- ]', '', aid).replace(' ', '-')
        mark = (f'<!-- must-anchor: {aid} -->' if len(m.group(1)) <= 3 and slug == aid
                else f'<span id="{aid}" class="must-anchor"></span>')
        return f'{mark}\n\n```{{index}} !single: {name}\n```\n{m.group(1)} {m.group(2)}'   # '!': the main entry
    md = re.sub(r'^(#{2,6})\s+(.+)$', anchor, md, count=1, flags=re.M)
    return re.sub(r'^\s*---[ \t]*\n', '', md)   # nbdev's rule above each entry: a section cannot start with one

def _entry_name(md):
    "The documented name of a show_doc markdown block (its first heading)."
    m = re.search(r'^#{2,6}\s+(.+)$', md, re.M)
    return m.group(1).strip().strip('`').replace('\\_', '_') if m else None

def method_entries(page, cls_name, shown):
    """show_doc entries for the public methods of class `cls_name` of `page`'s modules that the notebook does not show
    itself (nbdev documents a class, not its methods): what the API page and nbdev's links (Class.method) point to."""
    import importlib, inspect
    from must_nbdev._modidx import d
    from nbdev.showdoc import show_doc
    from nbdev.doclinks import NbdevLookup
    out = []
    for short, pg in page_of_module().items():
        if pg != page: continue
        mod = f'must_nbdev.{short}'
        cls = getattr(importlib.import_module(mod), cls_name, None)
        if not inspect.isclass(cls): continue
        for full in d['syms'].get(mod, {}):
            name = full[len(mod) + 1:]
            if not name.startswith(cls_name + '.') or name in shown: continue
            meth = name.split('.', 1)[1]
            if meth.startswith('_') or '.' in meth: continue
            fn = inspect.getattr_static(cls, meth, None)
            fn = getattr(fn, 'fget', None) or getattr(fn, '__func__', None) or fn
            if not callable(fn): continue
            try: md = show_doc(fn, name=name)._repr_markdown_()
            except Exception as e: print(f'{page}: no entry for {name} ({e})', file=sys.stderr); continue
            if not (getattr(fn, '__doc__', None) or '').strip():   # show_doc would print `object.__call__`'s docstring
                md = md.replace('\n*Call self as a function.*', '')
            try: md = md.replace('#LNone)', f'#L{inspect.getsourcelines(inspect.unwrap(fn))[1]})')
            except (OSError, TypeError): pass
            out.append(NbdevLookup().linkify(md)); shown.add(name)
    return out

def _stdout_outputs(text):
    "Printed text -> outputs; runs of markdown pipe-table lines (with a separator row) become rendered tables."
    lines, out, buf, i = text.split('\n'), [], [], 0
    def flush():
        if ''.join(buf).strip():
            out.append({'output_type': 'stream', 'name': 'stdout', 'text': '\n'.join(buf).strip('\n') + '\n'})
        buf.clear()
    while i < len(lines):
        j = i
        while j < len(lines) and _TABLE_LINE.match(lines[j]): j += 1
        if j - i >= 2 and _TABLE_SEP.match(lines[i + 1]):
            flush()
            out.append({'output_type': 'display_data', 'metadata': {},
                        'data': {'text/markdown': '\n'.join(l.strip() for l in lines[i:j]) + '\n'}})
            i = j
        else: buf.append(lines[i]); i += 1
    flush()
    return out

WIDE_FIGURE = 2.2   # width/height from which a figure is a row of panels (too small to read at a phone's width)

def _png_size(data):
    w, h = struct.unpack('>II', data[16:24]); return w, h

def _small_png(data):
    "A plot's PNG on white with a 256-colour palette (no dithering): about a third of the bytes, the same picture."
    import io
    from PIL import Image
    im = Image.open(io.BytesIO(data))
    if im.mode in ('RGBA', 'LA', 'P'):
        im = im.convert('RGBA'); bg = Image.new('RGB', im.size, 'white'); bg.paste(im, mask=im.split()[-1]); im = bg
    buf = io.BytesIO()
    im.convert('RGB').quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(buf, 'PNG',
                                                                                                    optimize=True)
    return buf.getvalue() if buf.tell() < len(data) else data

def _figure(o, page, idx, k, alt, figures):
    """A PNG output -> an <img> of a file in figures/ (alt text, shown at the size the retina metadata asks), inside a
    link to the file itself: a wide figure shown narrower than its pixels opens at full size."""
    data = base64.b64decode(o['data']['image/png'])
    name = f"{page.replace('/', '-')}_{idx}_{k}.png"
    w, h = _png_size(data)
    figures[name] = _small_png(data)
    meta = o.get('metadata', {}).get('image/png', {})
    w, h = meta.get('width', w), meta.get('height', h)
    gen = o['data'].get('text/plain', '')
    gen = gen if isinstance(gen, str) else ''.join(gen)
    if gen.startswith('<Figure') or gen.strip() == 'Figure': gen = ''
    alt = alt or gen or f'Figure {k + 1} of this cell'
    esc = alt.replace('&', '&amp;').replace('"', '&quot;').replace('<', '&lt;')
    src = posixpath.relpath(f'figures/{name}', posixpath.dirname(page) or '.')
    link = (f'<a class="must-figure-link" href="{src}" title="Open the figure at full size">'
            f'<img class="must-figure" src="{src}" alt="{esc}" width="{w}" height="{h}" loading="lazy"></a>')
    if w >= WIDE_FIGURE * h:   # a row of panels: on a phone it keeps a readable size and scrolls in its own box
        link = f'<div class="must-figure-wide">{link}</div>'
    return {'output_type': 'display_data', 'metadata': {}, 'data': {'text/html': link}}

def to_myst(nb, page, digest, section='', methods=True):
    "nbdev-processed notebook (Quarto flavour) -> a MyST-NB notebook for `page`, plus the figure files it references."
    cells, figures, description = [], {}, ''
    def asis(c):
        src = ''.join(c['source']) if isinstance(c.get('source'), list) else c.get('source', '')
        if c['cell_type'] != 'code' or _split_directives(src)[0].get('output') != 'asis': return ''
        return '\n'.join(''.join(o['data']['text/markdown']) if isinstance(o['data']['text/markdown'], list)
                         else o['data']['text/markdown'] for o in c.get('outputs', [])
                         if 'text/markdown' in o.get('data', {}))
    shown = {_entry_name(asis(c)) for c in nb['cells']} - {None}
    for idx, c in enumerate(nb['cells']):
        src = ''.join(c['source']) if isinstance(c.get('source'), list) else c.get('source', '')
        if c['cell_type'] == 'raw':
            m = re.search(r'^---\n(.*?)\n---', src, re.S)
            if m:
                import yaml
                fm = yaml.safe_load(m.group(1)) or {}
                title, desc = fm.get('title', page), fm.get('description', '')
                description = desc
                md = f'# {title}\n\n' + (f'{{.must-description}}\n{desc}\n' if desc else '')
                cells.append({'cell_type': 'markdown', 'metadata': {}, 'source': _local_links(md)})
            continue
        if c['cell_type'] == 'markdown':
            cells.append({'cell_type': 'markdown', 'metadata': {},
                          'source': _link_notebooks(_plain_code(_local_links(src)))})
            continue
        dirs, code = _split_directives(src)
        if dirs.get('include') == 'false': continue
        outs = c.get('outputs', [])
        if dirs.get('output') == 'asis':   # show_doc: its markdown becomes part of the page, as in Quarto
            md = '\n'.join(''.join(o['data']['text/markdown']) if isinstance(o['data']['text/markdown'], list)
                           else o['data']['text/markdown'] for o in outs if 'text/markdown' in o.get('data', {}))
            if md.strip(): cells.append({'cell_type': 'markdown', 'metadata': {}, 'source': _show_doc_md(md, page)})
            name = _entry_name(md)
            if name and '.' not in name and name[:1].isupper() and methods:   # a class: its methods follow
                for m in method_entries(page, name, shown):
                    cells.append({'cell_type': 'markdown', 'metadata': {}, 'source': _show_doc_md(m, page)})
            continue
        new, k = [], 0
        if dirs.get('output') != 'false':
            for o in outs:
                if o['output_type'] == 'stream':
                    if o.get('name') == 'stderr': continue   # progress bars and warnings are not documentation
                    text = ''.join(o['text']) if isinstance(o['text'], list) else o['text']
                    new += _stdout_outputs(text)
                # alt: #| fig-alt, else the figure's own description, else the caption
                elif 'image/png' in o.get('data', {}):
                    alt = (dirs.get('fig-alt')
                           or (None if 'Figure:' in str(o['data'].get('text/plain')) else dirs.get('fig-cap')))
                    new.append(_figure(o, page, idx, k, alt, figures)); k += 1
                else:
                    if 'data' in o:
                        o['data'] = {m: v for m, v in o['data'].items() if m != 'text/plain' or len(o['data']) == 1}
                        if 'text/markdown' in o['data']: o['data']['text/markdown'] = _plain_code(_local_links(
                            ''.join(o['data']['text/markdown']) if isinstance(o['data']['text/markdown'], list)
                            else o['data']['text/markdown']))
                    new.append(o)
        if k and dirs.get('fig-cap'):   # Quarto's figure caption, under the cell's figures
            cap = dirs['fig-cap'].replace('&', '&amp;').replace('<', '&lt;')
            new.append({'output_type': 'display_data', 'metadata': {},
                        'data': {'text/html': f'<p class="must-caption">{cap}</p>'}})
        tags = ['remove-input'] if dirs.get('echo') == 'false' or not code.strip() else []
        if not code.strip() and not new: continue
        cells.append({'cell_type': 'code', 'execution_count': None, 'metadata': {'tags': tags}, 'source': code,
                      'outputs': new})
    meta = {'kernelspec': {'name': 'python3', 'display_name': 'Python 3', 'language': 'python'},
            'language_info': {'name': 'python'}, 'must_nb_sha256': digest, 'must_section': section,
            'must_description': ' '.join(re.sub(r'[`*$]|\[([^\]]*)\]\([^)]*\)', r'\1', str(description)).split())}
    for i, c in enumerate(cells): c['id'] = f"{page.replace('/', '-')[-24:]}-{i}"
    return {'nbformat': 4, 'nbformat_minor': 5, 'metadata': meta, 'cells': cells}, figures

# ---------------------------------------------------------------------------------------------------- site pages

def api_markdown(secs, anchors):
    """The API reference page: every public name of the library (methods with their class), by subpackage and module
    in reading order, each linked to its show_doc entry in the notebook that develops it."""
    import importlib
    from must_nbdev._modidx import d
    by_page = {}
    for mod, pg in page_of_module().items(): by_page.setdefault(pg, []).append(mod)
    md = ['# API reference\n\nEvery public name of the library, by subpackage and module in reading order; each links '
          'to its entry in the notebook that develops it.']
    for title, paths in secs:
        part = []
        for p in paths:
            for short in by_page.get(page_of(p), []):
                mod = f'must_nbdev.{short}'
                if mod not in d['syms']: continue
                module = importlib.import_module(mod)
                rel = p.resolve().relative_to(NBS.resolve()).with_suffix('').as_posix()
                part.append(f'\n### {mod}\n\n<a href="{page_of(p)}.html">{rel}</a>: '
                            f'{(module.__doc__ or "").strip()}\n\n| name | summary |\n|---|---|')
                for full in sorted(d['syms'][mod], key=str.lower):
                    name = full[len(mod) + 1:]
                    if any(x.startswith('_') for x in name.split('.')): continue
                    if name.lower() not in anchors.get(page_of(p), ()):
                        if '.' in name: continue   # a method without an entry (a property, an attribute)
                        print(f'api: {name} has no entry on {page_of(p)}', file=sys.stderr)
                    obj = module
                    for x in name.split('.'): obj = getattr(obj, x, None)
                    doc = ((getattr(obj, '__doc__', None) or '').strip().splitlines() or [''])[0]
                    doc = doc.replace('\\|', '\\Vert{}').replace('|', '&#124;')
                    part.append(f'| <a href="{page_of(p)}.html#{name.lower()}"><code>{name}</code></a> | {doc} |')
        if part: md.append(f'\n## {title}\n' + '\n'.join(part))
    return '\n'.join(md) + '\n'

def api_objects(anchors):
    """Every public name with a show_doc entry, as Python-domain objects for Sphinx's inventory (objects.inv): full name
    -> [its kind ('class', 'function', 'method', 'data'), page, anchor], so intersphinx can link to its entry."""
    import importlib, inspect
    from must_nbdev._modidx import d
    out = {}
    for short, page in page_of_module().items():
        mod = f'must_nbdev.{short}'
        if mod not in d['syms']: continue
        module = importlib.import_module(mod)
        for full in d['syms'][mod]:
            name = full[len(mod) + 1:]
            if any(x.startswith('_') for x in name.split('.')) or name.lower() not in anchors.get(page, ()): continue
            owner, obj = _lookup(module, name)
            kind = ('class' if inspect.isclass(obj) else 'method' if inspect.isclass(owner)
                    else 'function' if callable(obj) else 'data')
            out[full] = [kind, page, name.lower()]
    return out

CLI_PAGE = 'cli-reference'

def cli_reference_markdown():
    "The command-line reference page: `must --help` and each subcommand's `--help`, as the parser prints them."
    from must_nbdev.cli import build_parser
    old = os.environ.get('COLUMNS'); os.environ['COLUMNS'] = '100'       # argparse wraps at the terminal's width
    try:
        parser = build_parser()
        subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
        md = ['# Command-line reference', '',
              '{.must-description}', 'Every subcommand of `must` with the help it prints (`must <command> --help`).', '',
              'Each section below is what `must <command> --help` prints; [the command-line notebook](cli.html) shows '
              'how the parser is built and tests it. Bad input exits with status 2 and one line on stderr.', '',
              '```text', parser.format_help().rstrip(), '```']
        for name, sub in subs.items():
            md += ['', f'## must {name}', '', '```text', sub.format_help().rstrip(), '```']
    finally:
        if old is None: os.environ.pop('COLUMNS', None)
        else: os.environ['COLUMNS'] = old
    return '\n'.join(md) + '\n'

def index_toctrees(secs):
    "Hidden toctrees, one per sidebar section, appended to the home page; the API and command-line references last."
    body = [(t, [page_of(p) for p in ps]) for t, ps in secs] + [(API_SECTION, ['api', CLI_PAGE])]
    return '\n'.join(f'```{{toctree}}\n:hidden:\n:caption: {sec}\n\n' + '\n'.join(pages) + '\n```\n'
                     for sec, pages in body)

def select(paths, patterns):
    "The notebooks whose path under nbs/ (no suffix) matches one of the glob patterns (a folder name: all of it)."
    import fnmatch
    if not patterns: return paths
    rel = {p: p.resolve().relative_to(NBS.resolve()).with_suffix('').as_posix() for p in paths}
    return [p for p in paths
            if any(fnmatch.fnmatch(rel[p], pat) or rel[p].startswith(pat.rstrip('/') + '/') for pat in patterns)]

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('notebooks', nargs='*', help="build only these notebooks (globs under nbs/ without .ipynb, or "
                    "folders: index core 'accounting/0[45]*'); such a partial site goes to _docs_build/site unless "
                    "--out is given")
    ap.add_argument('--jobs', '-j', type=int, default=os.cpu_count() or 1,
                    help='notebooks executed at once (default: the number of cores)')
    ap.add_argument('--out', type=Path, default=None,
                    help='where to write the site (default docs/, or _docs_build/site for a partial build)')
    ap.add_argument('--only', default='',
                    help='force re-executing the notebooks whose path under nbs/ or file name starts with this')
    ap.add_argument('--timeout', type=int, default=3600, help='seconds per cell')
    ap.add_argument('--execute-only', action='store_true', help='fill the execution cache and stop')
    ap.add_argument('--allow-errors', action='store_true',
                    help='a failing cell does not stop the build: its error is shown on the page (drafts)')
    ap.add_argument('--cached-only', action='store_true',
                    help='execute nothing: notebooks without a cached execution get pages without outputs (drafts)')
    a = ap.parse_args()
    every = notebooks()
    paths = select(every, a.notebooks)
    if not paths: sys.exit(f'no notebook matches {a.notebooks}')
    # the root page
    if a.notebooks and 'index' not in [page_of(p) for p in paths]: paths = select(every, ['index']) + paths
    dest = a.out or (DOCS if len(paths) == len(every) else BUILD / 'site')
    secs = sections(paths)
    paths = [p for p in paths if page_of(p) == 'index'] + [p for _, ps in secs for p in ps]
    rel = lambda p: p.resolve().relative_to(NBS.resolve()).as_posix()
    force = ({p for p in paths if a.only and (rel(p).startswith(a.only) or p.name.startswith(a.only))}
             if not a.execute_only else set())
    executed, missing = execute_all(paths, max(1, a.jobs), a.timeout, force=force, cached_only=a.cached_only,
                                    allow_errors=a.allow_errors)
    if a.execute_only: return
    executed = {p: with_stored_outputs(nb, p) for p, nb in executed.items()}   # the slow cells' stored outputs
    if not missing and not a.allow_errors:     # the notebooks in nbs/ keep these outputs (not drafts' partial ones)
        for p, nb in executed.items(): keep_outputs(p, nb)
    if SRC.exists(): shutil.rmtree(SRC)
    SRC.mkdir(parents=True)
    title_of = {page_of(p): t for t, ps in secs for p in ps}
    figures, hashes, pages = {}, {}, {}
    for p in paths:
        page = page_of(p)
        digest = source_hash(p)
        nb, figs = to_myst(nbdev_process(executed[p], p), page, digest, title_of.get(page, ''))
        hashes[page] = {'sha256': digest, 'notebook': p.resolve().relative_to(ROOT).as_posix(),
                        'description': nb['metadata'].get('must_description', '')}
        figures.update(figs)
        if page != 'index' and nb['cells']:   # index entries, their ids on the page's title
            nb['cells'][0]['source'] = registry_terms(page) + title_terms(nb) + nb['cells'][0]['source']
        if page == 'index':
            nb['cells'].insert(1, {'cell_type': 'markdown', 'metadata': {}, 'source': where_to_start(secs)})
            nb['cells'].append({'cell_type': 'markdown', 'metadata': {}, 'source': index_toctrees(secs)})
        pages[page] = nb
    anchors = {pg: {a for c in nb['cells'] if c['cell_type'] == 'markdown'
                    for a in re.findall(r'<span id="([^"]+)" class="must-anchor">|<!-- must-anchor: (\S+) -->',
                                        c['source'])
                    for a in a if a} for pg, nb in pages.items()}
    api = api_markdown(secs, anchors)
    anchors['api'], anchors[CLI_PAGE] = set(), set()
    dropped = {}
    for page, nb in pages.items():
        for c in nb['cells']:
            c['source'], d1 = resolve_links(c['source'], page, anchors)
            for o in c.get('outputs', []):
                for mime in ('text/markdown', 'text/html'):
                    if isinstance(o.get('data', {}).get(mime), str):
                        o['data'][mime], d2 = resolve_links(o['data'][mime], page, anchors); d1 += d2
            if d1: dropped.setdefault(page, []).extend(d1)
        out = SRC / f'{page}.ipynb'
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(nb, indent=1, ensure_ascii=False), encoding='utf-8')
    for page, d1 in dropped.items():
        print(f'{page}: links to entries that do not exist, linked to the page instead: {sorted(set(d1))}',
              file=sys.stderr)
    (SRC / 'api.md').write_text(api, encoding='utf-8')
    (SRC / f'{CLI_PAGE}.md').write_text(cli_reference_markdown(), encoding='utf-8')
    extra = BUILD / 'extra'
    if extra.exists(): shutil.rmtree(extra)
    (extra / 'figures').mkdir(parents=True)
    for name, data in figures.items(): (extra / 'figures' / name).write_bytes(data)
    (extra / '.nojekyll').write_text('')
    out = BUILD / 'html'
    if out.exists(): shutil.rmtree(out)
    (BUILD / 'pages.json').write_text(json.dumps(hashes, indent=1, ensure_ascii=False))
    (BUILD / 'objects.json').write_text(json.dumps(api_objects(anchors), indent=1, ensure_ascii=False))
    env = dict(os.environ, MUST_DOCS_EXTRA=str(extra), MUST_DOCS_PAGES=str(BUILD / 'pages.json'),
               MUST_DOCS_OBJECTS=str(BUILD / 'objects.json'),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get('PYTHONPATH', '')]))
    subprocess.run([sys.executable, '-m', 'sphinx', '-b', 'html', '-q', '-c', str(CONF), '-d', str(BUILD / 'doctrees'),
                    str(SRC), str(out)], check=True, env=env)
    for f in out.rglob('*.map'): f.unlink()   # source maps of the theme's bundles: not needed to read the site
    for f in out.glob('_static/scripts/fontawesome.js*'): f.unlink()   # icons from must-icons.css (see conf.py)
    shutil.rmtree(out / '_static' / 'locales', ignore_errors=True)   # the theme's translations: used at build time only
    # empty: page sources are not copied (html_copy_source = False)
    shutil.rmtree(out / '_sources', ignore_errors=True)
    dest.mkdir(parents=True, exist_ok=True)
    for old in dest.iterdir():
        if dest == DOCS and old.name in KEEP_IN_DOCS: continue
        shutil.rmtree(old) if old.is_dir() else old.unlink()
    for f in out.iterdir():
        if f.name in ('.buildinfo', '.doctrees'): continue
        (shutil.copytree if f.is_dir() else shutil.copy2)(f, dest / f.name)
    size = sum(f.stat().st_size for f in dest.rglob('*') if f.is_file())
    print(f'wrote {dest} ({size / 2**20:.1f} MB, {len(pages)} notebook pages)'
          + (f'; pages from unexecuted notebooks: {missing}' if missing else ''), file=sys.stderr)

if __name__ == '__main__': main()
