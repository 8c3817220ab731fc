#!/usr/bin/env python
"""Offline docs build (no Quarto): execute every notebook, add show_doc API entries, write a static site to docs/.

    python tools/build_docs.py            # execute every notebook (slow cells included) and write docs/
    python tools/build_docs.py --only 02  # just the notebooks whose name starts with 02 (plus index and API pages)

Pages: docs/index.html (from nbs/index.ipynb), one page per notebook in reading order, docs/api.html (every
exported name per module, linked to its show_doc entry). Figures are written as PNG files to docs/figures/,
math is typeset in the browser by KaTeX vendored in docs/assets/katex/ (fetched once from the npm registry with
`npm pack`, then committed: no CDN at view time), code is highlighted by Pygments at build time.
Users with Quarto can instead run `nbdev_docs`; nbs/_quarto.yml is the standard nbdev configuration.
"""
import argparse, ast, hashlib, html, importlib, re, shutil, subprocess, sys, tarfile, tempfile
from pathlib import Path
import nbformat
from nbclient import NotebookClient
from nbconvert import HTMLExporter
from nbconvert.preprocessors import ExtractOutputPreprocessor

ROOT = Path(__file__).resolve().parents[1]
NBS, DOCS = ROOT / 'nbs', ROOT / 'docs'
ASSETS, FIGURES = DOCS / 'assets', DOCS / 'figures'
KATEX_VERSION = '0.19.1'
KATEX_FILES = ('katex.min.js', 'katex.min.css', 'contrib/auto-render.min.js')
DIRECTIVE = re.compile(r'^\s*#\s*\|.*$\n?', re.M)
HEAD_SCRIPT = re.compile(r'<script\b[^>]*>.*?</script>\s*', re.S)   # the template's CDN scripts: require.js, MathJax, mermaid
STYLE = re.compile(r'<style[^>]*>.*?</style>\s*', re.S)

SITE_CSS = """#must-nav{position:fixed;top:0;left:0;width:230px;height:100%;overflow:auto;padding:1rem;box-sizing:border-box;
background:#f6f8fa;border-right:1px solid #ddd;font:14px/1.35 sans-serif}
#must-nav a{display:block;margin:.3rem 0;color:#0550ae;text-decoration:none}#must-nav a.current{font-weight:bold;color:#000}
#must-nav .brand{font-size:16px;margin-bottom:.6rem}
body[data-must-page] main{margin-left:250px}
.katex-display{overflow-x:auto;overflow-y:hidden}
"""
FAVICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0550ae"/><text x="8" y="12" font-size="10" text-anchor="middle" fill="#fff" font-family="sans-serif">M</text></svg>\n'
SITE_JS = """// Typeset $...$ and $$...$$ with the vendored KaTeX; sets window.mustMath = {rendered, errors} when done.
document.addEventListener('DOMContentLoaded', function () {
  var errors = 0;
  renderMathInElement(document.querySelector('main') || document.body, {
    delimiters: [{left: '$$', right: '$$', display: true}, {left: '\\\\[', right: '\\\\]', display: true},
                 {left: '$', right: '$', display: false}, {left: '\\\\(', right: '\\\\)', display: false}],
    ignoredTags: ['script', 'noscript', 'style', 'textarea', 'pre', 'code', 'option'],
    throwOnError: false, errorCallback: function (msg, err) { errors += 1; console.error(msg, err); }
  });
  window.mustMath = {rendered: document.querySelectorAll('.katex').length,
                     errors: errors + document.querySelectorAll('.katex-error').length};
});
"""

def ensure_katex():
    "Vendor KaTeX (JS, CSS, auto-render, woff2 fonts) into docs/assets/katex from the npm registry, once."
    dest = ASSETS / 'katex'
    if all((dest / f).exists() for f in KATEX_FILES): return
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(['npm', 'pack', f'katex@{KATEX_VERSION}', '--silent'], cwd=tmp, check=True, stdout=subprocess.DEVNULL)
        with tarfile.open(next(Path(tmp).glob('katex-*.tgz'))) as tar: tar.extractall(tmp, filter='data')
        dist = Path(tmp) / 'package' / 'dist'
        for f in KATEX_FILES:
            (dest / f).parent.mkdir(parents=True, exist_ok=True); shutil.copy(dist / f, dest / f)
        (dest / 'fonts').mkdir(exist_ok=True)
        for font in (dist / 'fonts').glob('*.woff2'): shutil.copy(font, dest / 'fonts' / font.name)
        shutil.copy(Path(tmp) / 'package' / 'LICENSE', dest / 'LICENSE')
    # the stylesheet lists woff2, woff and ttf; browsers stop at woff2, so only those are shipped
    print(f'vendored KaTeX {KATEX_VERSION} into {dest}', file=sys.stderr)

def title_of(nb, stem):
    for c in nb.cells:
        if c.cell_type == 'markdown':
            m = re.search(r'^#\s+(.+)$', c.source, re.M)
            if m: return m.group(1).strip()
    return stem

def add_show_docs(nb):
    "After each exported cell, a show_doc cell for each public function/class it defines (as nbdev's processor does)."
    cells = [nbformat.v4.new_code_cell('#| hide\nfrom nbdev.showdoc import show_doc')]
    for c in nb.cells:
        cells.append(c)
        if c.cell_type == 'code' and re.search(r'^\s*#\s*\|\s*export\b', c.source, re.M):
            tree = ast.parse(DIRECTIVE.sub('', c.source))
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith('_'):
                    cells.append(nbformat.v4.new_code_cell(f'show_doc({node.name})'))
    nb.cells = cells
    return nb

def prepare(nb):
    "Drop hidden/export-only plumbing cells and directive comments, as the nbdev site does."
    keep = []
    for c in nb.cells:
        if c.cell_type == 'code':
            if re.search(r'^\s*#\s*\|\s*(hide|default_exp)\b', c.source, re.M): continue
            c.source = DIRECTIVE.sub('', c.source)
        keep.append(c)
    nb.cells = keep
    return nb

def shared_css(css):
    "Write `css` once to a content-hashed file under assets/ and return its name."
    name = f"style-{hashlib.sha256(css.encode()).hexdigest()[:10]}.css"
    (ASSETS / name).write_text(css, encoding='utf-8')
    return name

def page(body_html, nav, title, stem):
    "Strip CDN scripts and inline styles from the template head, link the shared assets, add the sidebar."
    head, rest = body_html.split('</head>', 1)
    css = '\n'.join(re.sub(r'^<style[^>]*>|</style>\s*$', '', b) for b in STYLE.findall(head))
    head = HEAD_SCRIPT.sub('', STYLE.sub('', head)).replace('<title>Notebook</title>', f'<title>{html.escape(title)} · must_nbdev</title>')
    links = ('<link rel="icon" href="assets/favicon.svg" type="image/svg+xml">\n'
             f'<link rel="stylesheet" href="assets/{shared_css(css)}">\n<link rel="stylesheet" href="assets/site.css">\n'
             '<link rel="stylesheet" href="assets/katex/katex.min.css">\n<script defer src="assets/katex/katex.min.js"></script>\n'
             '<script defer src="assets/katex/contrib/auto-render.min.js"></script>\n<script defer src="assets/site.js"></script>\n')
    nav = nav.replace(f'href="{stem}.html"', f'href="{stem}.html" class="current"')
    rest = re.sub(r'<body([^>]*)>', lambda m: f'<body{m.group(1)} data-must-page="1"><nav id="must-nav">{nav}</nav>', rest, count=1)
    return head + links + '</head>' + rest

def write_figures(stem, resources):
    "Write the extracted figure outputs of one notebook to docs/figures/ (old ones of that notebook removed)."
    for old in FIGURES.glob(f'{stem}_*'): old.unlink()
    for name, data in resources.get('outputs', {}).items():
        (DOCS / name).write_bytes(data)

def api_page(stems):
    "Markdown notebook for docs/api.html: every exported name of every module, linked to its show_doc entry."
    from must_nbdev._modidx import d
    md = ['# API reference\n\nEvery public name of the library, by module, in reading order; each links to its entry in the notebook that develops it.']
    by_nb = {}
    for mod, syms in d['syms'].items():
        src = (ROOT / (mod.replace('.', '/') + '.py')).read_text(encoding='utf-8')
        m = re.search(r'File to edit: \.\./nbs/(\w+)\.ipynb', src)
        if m: by_nb[m.group(1)] = (mod, syms)
    for stem in stems:
        if stem not in by_nb: continue
        mod, syms = by_nb[stem]; module = importlib.import_module(mod)
        md.append(f'\n## `{mod}` — [{stem}]({stem}.html)\n\n{(module.__doc__ or "").strip()}\n\n| name | summary |\n|---|---|')
        for full in sorted(syms, key=lambda s: s.lower()):
            name = full.rsplit('.', 1)[1]
            if '.' in full[len(mod) + 1:] or name.startswith('_'): continue   # methods are documented with their class
            obj = getattr(module, name, None)
            doc = ((getattr(obj, '__doc__', None) or '').strip().splitlines() or [''])[0]
            doc = doc.replace('\\|', '\\Vert{}').replace('|', '&#124;')   # a bar must not end the table cell, even in math
            md.append(f'| [`{name}`]({stem}.html#{name}) | {doc} |')
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell('\n'.join(md))])

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--only', default='', help='prefix of the notebooks to build (default: all)')
    ap.add_argument('--timeout', type=int, default=3600, help='seconds per cell')
    a = ap.parse_args()
    nbs = sorted(p for p in NBS.glob('*.ipynb'))
    nbs = [p for p in nbs if p.stem == 'index'] + [p for p in nbs if p.stem != 'index']
    titles = {p.stem: title_of(nbformat.read(p, 4), p.stem) for p in nbs}
    nav = '<div class="brand"><b>must_nbdev</b></div>' + ''.join(
        f'<a href="{s}.html">{html.escape("Home" if s == "index" else t.replace("`", ""))}</a>' for s, t in titles.items()) + '<a href="api.html">API reference</a>'
    for d in (DOCS, ASSETS, FIGURES): d.mkdir(exist_ok=True)
    ensure_katex()
    if not a.only:
        for old in ASSETS.glob('style-*.css'): old.unlink()   # stale shared stylesheets
    (ASSETS / 'favicon.svg').write_text(FAVICON, encoding='utf-8')
    (ASSETS / 'site.css').write_text(SITE_CSS, encoding='utf-8'); (ASSETS / 'site.js').write_text(SITE_JS, encoding='utf-8')
    exporter = HTMLExporter(template_name='lab')
    exporter.register_preprocessor(ExtractOutputPreprocessor(extract_output_types={'image/png', 'image/jpeg', 'image/svg+xml'}), enabled=True)
    for p in nbs:
        if a.only and p.stem != 'index' and not p.stem.startswith(a.only): continue
        print(f'executing {p.name} ...', file=sys.stderr, flush=True)
        nb = add_show_docs(nbformat.read(p, 4))
        NotebookClient(nb, timeout=a.timeout, kernel_name='python3', resources={'metadata': {'path': str(NBS)}}).execute()
        body, res = exporter.from_notebook_node(prepare(nb), resources={'unique_key': p.stem, 'output_files_dir': 'figures'})
        write_figures(p.stem, res)
        (DOCS / f'{p.stem}.html').write_text(page(body, nav, titles[p.stem], p.stem), encoding='utf-8')
    body, _ = exporter.from_notebook_node(api_page([p.stem for p in nbs]))
    (DOCS / 'api.html').write_text(page(body, nav, 'API reference', 'api'), encoding='utf-8')
    print(f'wrote {DOCS}', file=sys.stderr)

if __name__ == '__main__': main()
