"README.md stands alone but must say what nbs/index.ipynb (the docs home page) says."
from pathlib import Path
import nbformat

ROOT = Path(__file__).resolve().parents[1]

def test_every_home_page_markdown_cell_is_in_the_readme():
    readme = (ROOT / 'README.md').read_text(encoding='utf-8')
    for cell in nbformat.read(ROOT / 'nbs' / 'index.ipynb', 4).cells:
        if cell.cell_type == 'markdown': assert cell.source.strip() in readme, cell.source[:80]

def test_ci_runs_the_readme_test_command():
    readme = (ROOT / 'README.md').read_text(encoding='utf-8')
    ci = (ROOT / '.ci' / 'run').read_text(encoding='utf-8')
    assert 'nbdev_test && pytest' in readme and 'nbdev_test && pytest' in ci
    assert 'pip install -e ".[dev,opacus]"' in readme and '-e ".[dev,opacus]"' in ci   # real Opacus: never skipped

DOC_URL = 'https://must-nbdev.github.io/must_nbdev/'

def _page(path):
    "nbdev's page of a notebook: folder kept, number prefix dropped (nbs/guides/03_errata.ipynb -> guides/errata)."
    import re
    rel = path.relative_to(ROOT / 'nbs').with_suffix('')
    return (rel.parent / re.sub(r'^\d+[a-zA-Z0-9]*_', '', rel.name)).as_posix()

def _pages():
    return {_page(p) for p in (ROOT / 'nbs').rglob('*.ipynb') if not any(x.startswith(('_', '.'))
                                                                     for x in p.relative_to(ROOT / 'nbs').parts)}

def test_readme_links_are_absolute_and_name_real_pages():
    "README's links work on GitHub: absolute URLs, the docs ones to pages the site has (a notebook's, API, CLI)."
    import re
    readme = (ROOT / 'README.md').read_text(encoding='utf-8')
    links = re.findall(r'\]\(([^)\s]+)\)', readme)
    assert links and all(l.startswith('https://') for l in links), [l for l in links if not l.startswith('https://')]
    site = _pages() | {'api', 'cli-reference'}
    docs = [l[len(DOC_URL):].split('#')[0].removesuffix('.html') for l in links if l.startswith(DOC_URL)]
    assert docs and not [d for d in docs if d not in site], [d for d in docs if d not in site]
    guides = {_page(p) for p in (ROOT / 'nbs' / 'guides').glob('*.ipynb')}
    assert guides and guides <= set(docs), guides - set(docs)   # every guide, so the moved sections are reachable

def test_readme_keeps_the_errata_list():
    "README lists every erratum of the errata page, one line each, linking to the notebook that shows it."
    import re
    readme = (ROOT / 'README.md').read_text(encoding='utf-8')
    short = readme.split('\n## Errata\n', 1)[1].split('\n## ', 1)[0]
    items = re.findall(r'^\* \*\*(.+?)\*\*: (.*)$', short, re.M)
    full = ''.join(c.source for c in nbformat.read(ROOT / 'nbs' / 'guides' / '03_errata.ipynb', 4).cells
                   if c.cell_type == 'markdown')
    assert len(items) == len(re.findall(r'^\* \*\*', full, re.M)) >= 20, len(items)
    for title, line in items:
        assert re.search(r'\]\(' + re.escape(DOC_URL) + r'[\w/]+\.html\)\)\.$', line), (title, line)

CODE_WIDTH = 96   # the docs' code column at 1400 px, as for the notebooks' code (tests/test_docs_site.py)

def long_code_lines(text, width=CODE_WIDTH):
    """(language, line) for each line of `text`'s fenced blocks longer than `width`: ```python and ```bash code,
    console blocks (commands and what the CLI prints: its prose wraps at the same width, commands.CLI_WIDTH), the
    output blocks of python examples."""
    import importlib.util
    spec = importlib.util.spec_from_file_location('make_readme', ROOT / 'tools' / 'make_readme.py')
    make_readme = importlib.util.module_from_spec(spec); spec.loader.exec_module(make_readme)  # the README parser
    out = []
    for _, lang, body, _ in make_readme.fenced_blocks(text):
        out += [(lang or 'plain', l) for l in body.split('\n') if len(l) > width]
    return out

def test_readme_code_keeps_to_96_characters_a_line():
    "README's code blocks fit the code column a reader sees on the docs home page at 1400 px."
    long = long_code_lines((ROOT / 'README.md').read_text(encoding='utf-8'))
    assert not long, long[:5]
    # the check can fail: a long line of code, of an install command, of a console command or its output
    assert long_code_lines('```python\nx = 1' + ' ' * 92 + '# why\n```\n') == [('python', 'x = 1' + ' ' * 92 + '# why')]
    assert long_code_lines('```bash\npip install ' + 'a' * 90 + '\n```\n')
    assert long_code_lines('```\n$ must account ' + '--eps 1 ' * 11 + '\nout\n```\n')
    assert long_code_lines('```\n$ must compare\n' + 'o' * 200 + '\n```\n')
