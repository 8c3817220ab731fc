#!/usr/bin/env python
"""Offline docs build (no Quarto): execute every notebook, add show_doc API entries, write static HTML to docs/.

    python tools/build_docs.py            # execute every notebook (slow cells included) and write docs/
    python tools/build_docs.py --only 02  # just the notebooks whose name starts with 02 (plus the index)

Users with Quarto can instead run `nbdev_docs`; nbs/_quarto.yml is the standard nbdev configuration.
"""
import argparse, ast, hashlib, html, re, sys
from pathlib import Path
import nbformat
from nbclient import NotebookClient
from nbconvert import HTMLExporter

ROOT = Path(__file__).resolve().parents[1]
NBS, DOCS = ROOT / 'nbs', ROOT / 'docs'
DIRECTIVE = re.compile(r'^\s*#\s*\|.*$\n?', re.M)

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

STYLE = re.compile(r'<style[^>]*>.*?</style>\s*', re.S)

def share_css(page_html):
    "Move the template's inline <style> blocks to one content-hashed stylesheet shared by every page."
    head_end = page_html.index('</head>')
    blocks = STYLE.findall(page_html[:head_end])
    if not blocks: return page_html
    css = '\n'.join(re.sub(r'^<style[^>]*>|</style>\s*$', '', b) for b in blocks)
    name = f"style-{hashlib.sha256(css.encode()).hexdigest()[:10]}.css"
    (DOCS / name).write_text(css, encoding='utf-8')
    head = STYLE.sub('', page_html[:head_end])
    return head + f'<link rel="stylesheet" href="{name}">\n' + page_html[head_end:]

def page(body_html, nav, title):
    return body_html.replace('<body', '<body data-must-page="1"', 1).replace(
        '</head>', '<style>#must-nav{position:fixed;top:0;left:0;width:230px;height:100%;overflow:auto;padding:1rem;'
        'background:#f6f8fa;border-right:1px solid #ddd;font:14px sans-serif}#must-nav a{display:block;margin:.3rem 0}'
        'body[data-must-page] main, body[data-must-page] > div{margin-left:250px}</style></head>', 1).replace(
        '<body data-must-page="1">', f'<body data-must-page="1"><nav id="must-nav"><b>must_nbdev</b>{nav}</nav>', 1).replace(
        '<title>Notebook</title>', f'<title>{html.escape(title)}</title>')

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--only', default='', help='prefix of the notebooks to build (default: all)')
    ap.add_argument('--timeout', type=int, default=3600, help='seconds per cell')
    a = ap.parse_args()
    nbs = sorted(p for p in NBS.glob('*.ipynb'))
    nbs = [p for p in nbs if p.stem == 'index'] + [p for p in nbs if p.stem != 'index']
    titles = {p.stem: title_of(nbformat.read(p, 4), p.stem) for p in nbs}
    nav = ''.join(f'<a href="{("index" if s == "index" else s)}.html">{html.escape("Home" if s == "index" else t)}</a>' for s, t in titles.items())
    DOCS.mkdir(exist_ok=True)
    if not a.only:
        for old in DOCS.glob('style-*.css'): old.unlink()   # stale shared stylesheets
    exporter = HTMLExporter(template_name='lab')
    for p in nbs:
        if a.only and p.stem != 'index' and not p.stem.startswith(a.only): continue
        print(f'executing {p.name} ...', file=sys.stderr, flush=True)
        nb = add_show_docs(nbformat.read(p, 4))
        NotebookClient(nb, timeout=a.timeout, kernel_name='python3', resources={'metadata': {'path': str(NBS)}}).execute()
        body, _ = exporter.from_notebook_node(prepare(nb))
        (DOCS / f'{p.stem}.html').write_text(page(share_css(body), nav, titles[p.stem]), encoding='utf-8')
    print(f'wrote {DOCS}', file=sys.stderr)

if __name__ == '__main__': main()
