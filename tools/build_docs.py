#!/usr/bin/env python
"""Build the docs website in docs/ offline: nbdev's notebook processing, rendered by Sphinx + MyST-NB.

    pip install -e ".[dev,docs]"
    python tools/build_docs.py              # every notebook executed (slow cells included), then the whole site
    python tools/build_docs.py --only 02    # force re-executing notebooks whose name starts with 02

Steps, per notebook in nbs/:
1. execute it with nbclient (full size, as the notebook is written) after a hidden setup cell that prints numpy
   scalars as plain numbers, draws figures with constrained layout at 2x resolution (200 dpi, shown at 1x size)
   and describes each figure (suptitle, panel titles, axis labels) for its alt text; executed notebooks are
   cached in _docs_cache/ under a hash of the notebook's sources and of the library's modules, so a rebuild
   re-executes the notebooks whose text changed, or all of them when library code changed;
2. run nbdev's own processors (nbdev.processors.FilterDefaults, what `nbdev_proc_nbs` runs before Quarto):
   title and description from the first cell, directives honoured (hide, export source hidden, echo: false,
   hide_line, filter_stream...), `show_doc` entries added after exported cells and executed;
3. translate what Quarto would do with the result into MyST-NB: `output: asis` cells (the show_doc entries)
   become markdown, `echo: false` / `include: false` / `output: false` become tags or are dropped, stderr
   (progress bars, warnings) is removed, markdown tables printed to stdout are rendered as tables, figures are
   written to docs/figures/ with alt text (a `#| fig-alt:` directive wins over the generated description);
4. Sphinx (sphinx-book-theme, MyST-NB, sphinx-copybutton; configuration in tools/docs/conf.py) renders all pages,
   the API reference and the full-text search index into docs/. Math is typeset by KaTeX from
   docs/_static/katex (vendored, MIT): nothing is loaded from the network.

Each page carries `<meta name="must-nb-sha256">`, the hash of its notebook's cell sources (see `source_hash`);
tests/test_docs_site.py fails when a notebook changed after its page was built.
Users with Quarto can still run `nbdev_docs` (configuration in nbs/_quarto.yml).
"""
import argparse, base64, hashlib, json, os, re, shutil, struct, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NBS, DOCS, CONF = ROOT / 'nbs', ROOT / 'docs', ROOT / 'tools' / 'docs'
CACHE, BUILD = ROOT / '_docs_cache', ROOT / '_docs_build'
SRC = BUILD / 'src'
KEEP_IN_DOCS = {'README.md'}
GIT_URL = 'https://github.com/must-nbdev/must_nbdev'
DOC_URL = 'https://must-nbdev.github.io/must_nbdev/'

# Sidebar sections, in reading order; a notebook not listed here goes to the section of its number's neighbours
# (90+ to 'Command line', 11+ to 'Companion tutorials', the rest to 'Paper experiments').
SECTIONS = {'Core': ['00_definitions', '01_sampling', '02_amplification', '04_accountant', '05_calibration', '06_dpsgd'],
            'Paper experiments': ['03_proofs', '07_exp_bootstrap', '08_exp_regression', '09_efficiency',
                                  '10_exp_classification'],
            'Training': ['15_interop', '16_training'],
            'Companion tutorials': ['11_limits', '12_accuracy_gains', '13_randomized_response'],
            'Command line': ['90_cli'],
            'Reference': ['api']}

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
SETUP_VERSION = hashlib.sha256(SETUP.encode()).hexdigest()[:12]

def source_hash(path):
    "sha256 of a notebook's cell types and sources (outputs and metadata ignored): the page's staleness stamp."
    nb = json.loads(Path(path).read_text(encoding='utf-8'))
    cells = [[c['cell_type'], ''.join(c['source']) if isinstance(c['source'], list) else c['source']] for c in nb['cells']]
    return hashlib.sha256(json.dumps(cells, ensure_ascii=False).encode('utf-8')).hexdigest()

def library_hash():
    "sha256 of the library's modules: a change to any exported code re-executes every notebook, not just its own."
    h = hashlib.sha256()
    for py in sorted((ROOT / 'must_nbdev').glob('*.py')):
        if py.name != '_modidx.py': h.update(py.name.encode() + py.read_bytes())
    return h.hexdigest()

def section_of(stem):
    for sec, stems in SECTIONS.items():
        if stem in stems: return sec
    num = int(re.match(r'(\d+)', stem).group(1)) if re.match(r'\d+', stem) else 0
    return 'Command line' if num >= 90 else 'Companion tutorials' if num >= 11 else 'Paper experiments'

# ---------------------------------------------------------------------------------------------------- execution

def execute(path, timeout, force=False):
    "Execute one notebook (cached under its source hash and the setup cell's version); returns the notebook dict."
    import nbformat
    from nbclient import NotebookClient
    key = f'{source_hash(path)}-{SETUP_VERSION}-{library_hash()[:12]}'
    cached = CACHE / f'{path.stem}.ipynb'
    if cached.exists() and not force:
        nb = json.loads(cached.read_text(encoding='utf-8'))
        if nb['metadata'].get('must_docs_key') == key: return nb
    print(f'executing {path.name} ...', file=sys.stderr, flush=True)
    nb = nbformat.read(path, 4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(SETUP))
    os.environ['PYTHONPATH'] = os.pathsep.join([str(ROOT)] + [p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep) if p])
    NotebookClient(nb, timeout=timeout, kernel_name='python3', resources={'metadata': {'path': str(NBS)}}).execute()
    nb.cells.pop(0)
    nb.metadata['must_docs_key'] = key
    CACHE.mkdir(exist_ok=True)
    nbformat.write(nb, cached)
    return json.loads(cached.read_text(encoding='utf-8'))

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

def nbdev_process(nb, path):
    "Run nbdev's documentation processors (FilterDefaults: what nbdev_proc_nbs does) on an executed notebook dict."
    from execnb.nbio import dict2nb, nb2dict
    from nbdev.processors import FilterDefaults
    _split_title_cell(nb); _imports_apart(nb)
    nbd = dict2nb(nb)
    nbd.path_ = str(path)   # as execnb's read_nb sets it: nbdev names the page after it
    cwd = os.getcwd(); os.chdir(NBS)
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

def _page_of_module():
    "nbdev page name (module name) -> notebook stem, from the 'File to edit' header of each generated module."
    if not _MODS:
        for py in (ROOT / 'must_nbdev').glob('*.py'):
            m = re.search(r'File to edit: \.\./nbs/(\w+)\.ipynb', py.read_text(encoding='utf-8'))
            if m: _MODS[py.stem] = m.group(1)
    return _MODS

def _local_links(md):
    "Links nbdev made to the (Quarto) doc site or to GitHub line None -> this site's pages."
    mods = _page_of_module()
    md = re.sub(re.escape(DOC_URL) + r'(\w+)\.html', lambda m: f'{mods.get(m.group(1), m.group(1))}.html', md)
    return md.replace('#LNone)', ')')

def _split_directives(src):
    lines, dirs = src.split('\n'), {}
    while lines and _QUARTO.match(lines[0]):
        k, v = _QUARTO.match(lines[0]).groups(); dirs[k] = v.strip('"\''); lines.pop(0)
    return dirs, '\n'.join(lines).strip('\n')

def _show_doc_md(md):
    "nbdev's show_doc markdown (Quarto flavour) as MyST: a real source link, an anchor with nbdev's id."
    md = _local_links(md)
    md = _SOURCE_LINK.sub(lambda m: f'<a class="must-source" href="{m.group(1)}" target="_blank" rel="noopener">source</a>', md)
    def anchor(m):
        name = m.group(2).strip().strip('`').replace('\\_', '_')
        return f'<span id="{name.lower()}" class="must-anchor"></span>\n\n{m.group(1)} {m.group(2)}'
    md = re.sub(r'^(#{2,6})\s+(.+)$', anchor, md, count=1, flags=re.M)
    return re.sub(r'^\s*---[ \t]*\n', '', md)   # nbdev's rule above each entry: a section cannot start with one

def _stdout_outputs(text):
    "Printed text -> outputs; runs of markdown pipe-table lines (with a separator row) become rendered tables."
    lines, out, buf, i = text.split('\n'), [], [], 0
    def flush():
        if ''.join(buf).strip(): out.append({'output_type': 'stream', 'name': 'stdout', 'text': '\n'.join(buf).strip('\n') + '\n'})
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
    im.convert('RGB').quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(buf, 'PNG', optimize=True)
    return buf.getvalue() if buf.tell() < len(data) else data

def _figure(o, stem, idx, k, alt, figures):
    "A PNG output -> an <img> of a file in figures/ (alt text, shown at the size the retina metadata asks)."
    data = base64.b64decode(o['data']['image/png'])
    name = f'{stem}_{idx}_{k}.png'
    w, h = _png_size(data)
    figures[name] = _small_png(data)
    meta = o.get('metadata', {}).get('image/png', {})
    w, h = meta.get('width', w), meta.get('height', h)
    gen = o['data'].get('text/plain', '')
    gen = gen if isinstance(gen, str) else ''.join(gen)
    if gen.startswith('<Figure') or gen.strip() == 'Figure': gen = ''
    alt = alt or gen or f'Figure {k + 1} of this cell'
    esc = alt.replace('&', '&amp;').replace('"', '&quot;').replace('<', '&lt;')
    return {'output_type': 'display_data', 'metadata': {},
            'data': {'text/html': f'<img class="must-figure" src="figures/{name}" alt="{esc}" width="{w}" height="{h}" loading="lazy">'}}

def to_myst(nb, stem, digest):
    "nbdev-processed notebook (Quarto flavour) -> a MyST-NB notebook, plus the figure files it references."
    cells, figures = [], {}
    for idx, c in enumerate(nb['cells']):
        src = ''.join(c['source']) if isinstance(c.get('source'), list) else c.get('source', '')
        if c['cell_type'] == 'raw':
            m = re.search(r'^---\n(.*?)\n---', src, re.S)
            if m:
                import yaml
                fm = yaml.safe_load(m.group(1)) or {}
                title, desc = fm.get('title', stem), fm.get('description', '')
                md = f'# {title}\n\n' + (f'{{.must-description}}\n{desc}\n' if desc else '')
                cells.append({'cell_type': 'markdown', 'metadata': {}, 'source': _local_links(md)})
            continue
        if c['cell_type'] == 'markdown':
            cells.append({'cell_type': 'markdown', 'metadata': {}, 'source': _local_links(src)})
            continue
        dirs, code = _split_directives(src)
        if dirs.get('include') == 'false': continue
        outs = c.get('outputs', [])
        if dirs.get('output') == 'asis':   # show_doc: its markdown becomes part of the page, as in Quarto
            md = '\n'.join(''.join(o['data']['text/markdown']) if isinstance(o['data']['text/markdown'], list)
                           else o['data']['text/markdown'] for o in outs if 'text/markdown' in o.get('data', {}))
            if md.strip(): cells.append({'cell_type': 'markdown', 'metadata': {}, 'source': _show_doc_md(md)})
            continue
        new, k = [], 0
        if dirs.get('output') != 'false':
            for o in outs:
                if o['output_type'] == 'stream':
                    if o.get('name') == 'stderr': continue   # progress bars and warnings are not documentation
                    text = ''.join(o['text']) if isinstance(o['text'], list) else o['text']
                    new += _stdout_outputs(text)
                elif 'image/png' in o.get('data', {}):   # alt: #| fig-alt, else the figure's own description, else the caption
                    alt = dirs.get('fig-alt') or (None if 'Figure:' in str(o['data'].get('text/plain')) else dirs.get('fig-cap'))
                    new.append(_figure(o, stem, idx, k, alt, figures)); k += 1
                else:
                    if 'data' in o:
                        o['data'] = {m: v for m, v in o['data'].items() if m != 'text/plain' or len(o['data']) == 1}
                        if 'text/markdown' in o['data']: o['data']['text/markdown'] = _local_links(
                            ''.join(o['data']['text/markdown']) if isinstance(o['data']['text/markdown'], list) else o['data']['text/markdown'])
                    new.append(o)
        if k and dirs.get('fig-cap'):   # Quarto's figure caption, under the cell's figures
            cap = dirs['fig-cap'].replace('&', '&amp;').replace('<', '&lt;')
            new.append({'output_type': 'display_data', 'metadata': {}, 'data': {'text/html': f'<p class="must-caption">{cap}</p>'}})
        tags = ['remove-input'] if dirs.get('echo') == 'false' or not code.strip() else []
        if not code.strip() and not new: continue
        cells.append({'cell_type': 'code', 'execution_count': None, 'metadata': {'tags': tags}, 'source': code, 'outputs': new})
    meta = {'kernelspec': {'name': 'python3', 'display_name': 'Python 3', 'language': 'python'},
            'language_info': {'name': 'python'}, 'must_nb_sha256': digest, 'must_section': section_of(stem)}
    for i, c in enumerate(cells): c['id'] = f'{stem[:20]}-{i}'
    return {'nbformat': 4, 'nbformat_minor': 5, 'metadata': meta, 'cells': cells}, figures

# ---------------------------------------------------------------------------------------------------- site pages

def api_markdown(stems):
    "The API reference page: every public name of the library by module, linked to its show_doc entry."
    import importlib
    from must_nbdev._modidx import d
    mods = {v: k for k, v in _page_of_module().items()}
    md = ['# API reference\n\nEvery public name of the library, by module in reading order; each links to its entry '
          'in the notebook that develops it.']
    for stem in stems:
        mod = f'must_nbdev.{mods[stem]}' if stem in mods else None
        if mod not in d['syms']: continue
        module = importlib.import_module(mod)
        md.append(f'\n## {mod}\n\n[{stem}]({stem}.ipynb): {(module.__doc__ or "").strip()}\n\n| name | summary |\n|---|---|')
        for full in sorted(d['syms'][mod], key=str.lower):
            name = full[len(mod) + 1:]
            if '.' in name or name.startswith('_'): continue   # methods are documented with their class
            doc = ((getattr(getattr(module, name, None), '__doc__', None) or '').strip().splitlines() or [''])[0]
            doc = doc.replace('\\|', '\\Vert{}').replace('|', '&#124;')
            md.append(f'| <a href="{stem}.html#{name.lower()}"><code>{name}</code></a> | {doc} |')
    return '\n'.join(md) + '\n'

def index_toctrees(order):
    "Hidden toctrees, one per sidebar section, appended to the home page."
    secs = {}
    for stem in order: secs.setdefault(section_of(stem), []).append(stem)
    secs = {s: secs[s] for s in list(SECTIONS) + [s for s in secs if s not in SECTIONS] if s in secs}
    return '\n'.join(f'```{{toctree}}\n:hidden:\n:caption: {sec}\n\n' + '\n'.join(stems) + '\n```\n' for sec, stems in secs.items())

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--only', default='', help='force re-executing the notebooks whose name starts with this (the others: cache when current)')
    ap.add_argument('--timeout', type=int, default=3600, help='seconds per cell')
    ap.add_argument('--execute-only', action='store_true', help='fill the execution cache and stop')
    ap.add_argument('--cached-only', action='store_true',
                    help='execute nothing: notebooks without a cached execution get pages without outputs (drafts)')
    a = ap.parse_args()
    paths = sorted(NBS.glob('*.ipynb'))
    paths = [p for p in paths if p.stem == 'index'] + [p for p in paths if p.stem != 'index']
    if SRC.exists(): shutil.rmtree(SRC)
    SRC.mkdir(parents=True)
    figures, missing, hashes = {}, [], {}
    for p in paths:
        force = bool(a.only) and p.stem.startswith(a.only)
        if a.cached_only and not (CACHE / f'{p.stem}.ipynb').exists():
            missing.append(p.stem); nb = json.loads(p.read_text(encoding='utf-8'))
        else: nb = execute(p, a.timeout, force=force and not a.execute_only)
        if a.execute_only: continue
        hashes[p.stem] = digest = source_hash(p)
        nb, figs = to_myst(nbdev_process(nb, p), p.stem, digest)
        figures.update(figs)
        if p.stem == 'index':
            nb['cells'].append({'cell_type': 'markdown', 'metadata': {}, 'source': index_toctrees([q.stem for q in paths[1:]] + ['api'])})
        (SRC / f'{p.stem}.ipynb').write_text(json.dumps(nb, indent=1, ensure_ascii=False), encoding='utf-8')
    if a.execute_only: return
    (SRC / 'api.md').write_text(api_markdown([p.stem for p in paths]), encoding='utf-8')
    extra = BUILD / 'extra'
    if extra.exists(): shutil.rmtree(extra)
    (extra / 'figures').mkdir(parents=True)
    for name, data in figures.items(): (extra / 'figures' / name).write_bytes(data)
    (extra / '.nojekyll').write_text('')
    out = BUILD / 'html'
    if out.exists(): shutil.rmtree(out)
    (BUILD / 'hashes.json').write_text(json.dumps(hashes, indent=1))
    env = dict(os.environ, MUST_DOCS_EXTRA=str(extra), MUST_DOCS_HASHES=str(BUILD / 'hashes.json'), PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get('PYTHONPATH', '')]))
    subprocess.run([sys.executable, '-m', 'sphinx', '-b', 'html', '-q', '-c', str(CONF), '-d', str(BUILD / 'doctrees'),
                    str(SRC), str(out)], check=True, env=env)
    for f in out.rglob('*.map'): f.unlink()   # source maps of the theme's bundles: not needed to read the site
    shutil.rmtree(out / '_static' / 'locales', ignore_errors=True)   # the theme's translations: used at build time only
    shutil.rmtree(out / '_sources', ignore_errors=True)   # empty: page sources are not copied (html_copy_source = False)
    for old in DOCS.iterdir():
        if old.name in KEEP_IN_DOCS: continue
        shutil.rmtree(old) if old.is_dir() else old.unlink()
    for f in out.iterdir():
        if f.name in ('.buildinfo', '.doctrees'): continue
        (shutil.copytree if f.is_dir() else shutil.copy2)(f, DOCS / f.name)
    size = sum(f.stat().st_size for f in DOCS.rglob('*') if f.is_file())
    print(f'wrote {DOCS} ({size / 2**20:.1f} MB)' + (f'; pages from unexecuted notebooks: {missing}' if missing else ''), file=sys.stderr)

if __name__ == '__main__': main()
