"""Tests of the committed website in docs/ (built by `python tools/build_docs.py`).

Cheap checks first: every notebook has a page, no page is stale (each page stores the hash of its notebook's
sources), nothing is loaded from the network, the site stays under 10 MB. Then headless Chromium loads every page
from a local server at 1400 px and 400 px and checks what a reader sees: no notebook prompts, no Quarto attribute
text, no stderr boxes, previous/next links, the "On this page" contents on wide screens, a copy button on code,
figures loaded with real alt text, math typeset without errors, and at 400 px no horizontal overflow and a text
column at least 300 px wide; full-text search finds "MUST.ow". Screenshots at both widths go to
test-artifacts/screenshots/. Needs chromium, chromium-driver and selenium; .ci/run installs them and sets
MUST_REQUIRE_BROWSER=1 so that CI fails instead of skipping when they are absent."""
import functools, hashlib, http.server, json, os, re, shutil, threading
from pathlib import Path
from urllib.parse import urlsplit
import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS, NBS = ROOT / 'docs', ROOT / 'nbs'
SHOTS = ROOT / 'test-artifacts' / 'screenshots'
WIDE, NARROW = 1400, 400
GENERIC_ALT = re.compile(r'^\s*$|No description has been provided|^<Figure size|^Figure$|^image$', re.I)

def _missing_tools():
    missing = [t for t in ('chromium', 'chromedriver') if not shutil.which(t)]
    try: import selenium  # noqa: F401
    except ImportError: missing.append('selenium (pip)')
    return missing

needs_browser = pytest.mark.skipif(bool(_missing_tools()) and not os.environ.get('MUST_REQUIRE_BROWSER'),
                                   reason=f"browser test needs {', '.join(_missing_tools())}")

def notebook_pages():
    return ['index'] + sorted(p.stem for p in NBS.glob('*.ipynb') if p.stem != 'index')

def source_hash(path):
    "sha256 of a notebook's cell types and sources, as tools/build_docs.py stamps it into the page."
    nb = json.loads(Path(path).read_text(encoding='utf-8'))
    cells = [[c['cell_type'], ''.join(c['source']) if isinstance(c['source'], list) else c['source']] for c in nb['cells']]
    return hashlib.sha256(json.dumps(cells, ensure_ascii=False).encode('utf-8')).hexdigest()

def _nb(stem): return json.loads((NBS / f'{stem}.ipynb').read_text(encoding='utf-8'))
def _src(c): return ''.join(c['source']) if isinstance(c['source'], list) else c['source']

def _nb_has_math(stem):
    return any(c['cell_type'] == 'markdown' and re.search(r'\$[^$]+\$', _src(c)) for c in _nb(stem)['cells'])

def _nb_has_figures(stem):
    cells = [_src(c) for c in _nb(stem)['cells'] if c['cell_type'] == 'code']   # cells that draw, not that define
    return any(re.search(r'\bplot_\w+\(|plt\.subplots', s) and not re.search(r'^#\|\s*(export|hide)', s, re.M) for s in cells)

# ---------------------------------------------------------------------------------------------------- no browser

def test_every_notebook_has_a_page():
    missing = [s for s in notebook_pages() + ['api', 'search'] if not (DOCS / f'{s}.html').exists()]
    assert not missing, f"docs/ lacks pages for {missing}: run python tools/build_docs.py"

@pytest.mark.parametrize('stem', notebook_pages())
def test_page_is_not_stale(stem):
    "The page was built from the notebook as it is now (a notebook edited after the build fails here)."
    m = re.search(r'<meta name="must-nb-sha256" content="([0-9a-f]{64})"', (DOCS / f'{stem}.html').read_text(encoding='utf-8'))
    assert m, f'docs/{stem}.html has no source stamp: rebuild with python tools/build_docs.py'
    assert m.group(1) == source_hash(NBS / f'{stem}.ipynb'), \
        f'docs/{stem}.html is stale: nbs/{stem}.ipynb changed after it was built; run python tools/build_docs.py'

def test_pages_reference_no_remote_scripts_or_styles():
    for page in DOCS.rglob('*.html'):
        text = page.read_text(encoding='utf-8')
        remote = re.findall(r'<(?:script|link|img)\b[^>]*(?:src|href)="((?:https?:)?//[^"]+)"', text)
        assert not remote, f'{page.name} loads {remote} from the network'
    for css in DOCS.rglob('*.css'):
        assert not re.search(r'@import\s+url\(\s*["\']?https?:|url\(\s*["\']?https?:', css.read_text(encoding='utf-8')), css

def test_site_is_small_and_self_contained():
    size = sum(f.stat().st_size for f in DOCS.rglob('*') if f.is_file())
    assert size < 10 * 2**20, f'docs/ is {size / 2**20:.1f} MB (limit 10 MB)'
    assert (DOCS / '_static' / 'katex' / 'katex.min.js').exists() and (DOCS / 'searchindex.js').exists()

def test_api_links_reach_entries():
    "Every link of the API reference points to an anchor that exists on its page."
    api = (DOCS / 'api.html').read_text(encoding='utf-8')
    links = re.findall(r'href="(\d\w+\.html)#([^"]+)"', api)
    assert len(links) > 50, len(links)
    ids = {}
    for page, anchor in links:
        if page not in ids: ids[page] = set(re.findall(r'\bid="([^"]+)"', (DOCS / page).read_text(encoding='utf-8')))
        assert anchor in ids[page], f'api.html links to {page}#{anchor}, which does not exist'

# ---------------------------------------------------------------------------------------------------- browser

class _Handler(http.server.SimpleHTTPRequestHandler):
    failures = []
    def log_message(self, *a): pass
    def send_error(self, code, *a, **k):
        _Handler.failures.append((code, self.path)); super().send_error(code, *a, **k)

@pytest.fixture(scope='module')
def site():
    handler = functools.partial(_Handler, directory=str(DOCS))
    srv = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f'http://127.0.0.1:{srv.server_address[1]}'
    srv.shutdown()

@pytest.fixture(scope='module')
def browser():
    missing = _missing_tools()
    if missing: pytest.fail(f"MUST_REQUIRE_BROWSER is set but {', '.join(missing)} is missing")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions(); opts.binary_location = shutil.which('chromium')
    for a in ('--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--hide-scrollbars',
              f'--window-size={WIDE},1000'):
        opts.add_argument(a)
    drv = webdriver.Chrome(service=Service(shutil.which('chromedriver')), options=opts)
    drv.set_page_load_timeout(60)
    yield drv
    drv.quit()

def _load(browser, url, width):
    from selenium.webdriver.support.ui import WebDriverWait
    browser.set_window_size(width, 1000)
    browser.get(url)
    WebDriverWait(browser, 60).until(lambda d: d.execute_script('return document.readyState') == 'complete'
                                     and d.execute_script('return window.mustMath !== undefined'))
    WebDriverWait(browser, 30).until(lambda d: d.execute_script(
        'document.querySelectorAll("img[loading=lazy]").forEach(i => i.loading = "eager");'
        'return Array.from(document.images).every(i => i.complete)'))

_STATE = """
const art = document.querySelector('article.bd-article') || document.querySelector('main');
const vis = e => !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
const paras = Array.from(art.querySelectorAll('p')).filter(vis);
return {
  text: art.innerText,
  stderr: document.querySelectorAll('.stderr, .output_stderr, [data-mime-type*="stderr"], .output.stderr').length,
  overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  column: paras.length ? Math.max(...paras.map(p => p.getBoundingClientRect().width)) : 0,
  prev: !!document.querySelector('a.left-prev'), next: !!document.querySelector('a.right-next'),
  toc: vis(document.querySelector('.bd-sidebar-secondary nav.page-toc')),
  nav_sections: Array.from(document.querySelectorAll('.bd-sidebar-primary p.caption')).map(e => e.innerText.trim()),
  code_cells: art.querySelectorAll('div.cell_input').length, copy: art.querySelectorAll('button.copybtn').length,
  imgs: Array.from(art.querySelectorAll('img')).map(i => [i.getAttribute('src'), i.naturalWidth, i.getAttribute('alt') || '']),
  math: window.mustMath, title: document.title,
};
"""

@needs_browser
@pytest.mark.parametrize('stem', notebook_pages() + ['api'])
def test_page_renders(stem, site, browser):
    pages = notebook_pages() + ['api']
    SHOTS.mkdir(parents=True, exist_ok=True)
    _Handler.failures.clear()
    _load(browser, f'{site}/{stem}.html', WIDE)
    wide = browser.execute_script(_STATE)
    browser.save_screenshot(str(SHOTS / f'{stem}-{WIDE}.png'))
    _load(browser, f'{site}/{stem}.html', NARROW)
    narrow = browser.execute_script(_STATE)
    browser.save_screenshot(str(SHOTS / f'{stem}-{NARROW}.png'))
    assert not _Handler.failures, f'{stem}.html: missing local resources {_Handler.failures}'
    # no notebook-export artefacts
    for bad in (r'\{target=', r'\bIn \[\d*\]:', r'\bOut\[\d*\]:', r'np\.float64\(', 'No description has been provided'):
        assert not re.search(bad, wide['text']), f'{stem}.html shows {bad!r}'
    assert wide['stderr'] == 0, f'{stem}.html has {wide["stderr"]} stderr outputs'
    # navigation: sections in the sidebar, previous/next, contents on wide screens, one title
    assert {'Core', 'Paper experiments', 'Companion tutorials', 'Command line'} <= set(wide['nav_sections']), wide['nav_sections']
    assert wide['next'] == (stem != pages[-1]) and wide['prev'] == (stem != 'index'), (stem, wide['prev'], wide['next'])
    assert wide['toc'], f'{stem}.html: no "On this page" contents at {WIDE} px'
    assert wide['title'].count('must_nbdev') == 1, wide['title']
    # code: copy buttons
    if wide['code_cells']: assert wide['copy'] >= 1, f'{stem}.html: code cells without copy buttons'
    # figures: loaded, with real alt text
    assert all(w > 0 for _, w, _ in wide['imgs']), f'{stem}.html: images failed to load {[s for s, w, _ in wide["imgs"] if not w]}'
    generic = [s for s, _, alt in wide['imgs'] if GENERIC_ALT.search(alt)]
    assert not generic, f'{stem}.html: images without a description {generic}'
    if stem not in ('index', 'api') and _nb_has_figures(stem):
        assert any(s and s.startswith('figures/') for s, _, _ in wide['imgs']), f'{stem}.html: no figure files'
    # math
    assert wide['math']['errors'] == 0, f'{stem}.html: {wide["math"]["errors"]} KaTeX errors'
    if stem != 'api' and _nb_has_math(stem): assert wide['math']['rendered'] > 0, f'{stem}.html: no math typeset'
    # a phone-sized window: no sideways scrolling, a readable column
    assert narrow['overflow'] <= 0, f'{stem}.html overflows by {narrow["overflow"]} px at {NARROW} px'
    assert narrow['column'] >= 300, f'{stem}.html: text column {narrow["column"]:.0f} px at {NARROW} px'
    if stem == 'api':   # one table per module section
        n_sections, n_tables = browser.execute_script(
            'return [document.querySelectorAll("article h2").length, document.querySelectorAll("article table").length]')
        assert n_sections > 10 and n_tables == n_sections, (n_sections, n_tables)

@needs_browser
def test_search_finds_must_ow(site, browser):
    from selenium.webdriver.support.ui import WebDriverWait
    browser.set_window_size(WIDE, 1000)
    browser.get(f'{site}/search.html?q=MUST.ow')
    WebDriverWait(browser, 60).until(lambda d: d.execute_script(
        'return document.querySelectorAll("#search-results ul.search li a").length > 0 '
        '|| /did not match|no documents/i.test((document.querySelector("#search-results")||{}).innerText||"")'))
    links = browser.execute_script('return Array.from(document.querySelectorAll("#search-results ul.search li a")).map(a => a.href)')
    browser.save_screenshot(str(SHOTS / f'search-{WIDE}.png'))
    assert links, 'searching for MUST.ow found nothing'
    pages = {urlsplit(h).path.rsplit('/', 1)[-1] for h in links}
    assert pages & {f'{s}.html' for s in notebook_pages()}, pages

# ---------------------------------------------------------------------------------------------------- the generator

def _builder():
    import importlib.util
    spec = importlib.util.spec_from_file_location('build_docs', ROOT / 'tools' / 'build_docs.py')
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    return mod

def test_generator_stamps_the_same_hash_as_the_test():
    assert _builder().source_hash(NBS / 'index.ipynb') == source_hash(NBS / 'index.ipynb')

def test_generator_translates_quarto_output_for_myst():
    b = _builder()
    sd = ('---\n\n[source](https://github.com/must-nbdev/must_nbdev/blob/main/must_nbdev/x.py#L3){target="_blank" '
          'style="float:right; font-size:smaller"}\n\n### Foo.bar\n\n```python\ndef bar(a:int=1):\n```\n\n*Doc.*\n')
    png = ('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==')
    nb = {'cells': [
        {'cell_type': 'raw', 'metadata': {}, 'source': '---\ndescription: What it does.\ntitle: The title\n---\n'},
        {'cell_type': 'code', 'metadata': {}, 'source': '#| output: asis\n#| echo: false\nshow_doc(Foo.bar)',
         'outputs': [{'output_type': 'display_data', 'metadata': {}, 'data': {'text/markdown': sd}}]},
        {'cell_type': 'code', 'metadata': {}, 'source': '#| fig-cap: "A caption"\nrun()', 'outputs': [
            {'output_type': 'stream', 'name': 'stderr', 'text': 'progress 10%\n'},
            {'output_type': 'stream', 'name': 'stdout', 'text': 'took 1 s\n| a | b |\n|---|---|\n| 1 | 2 |\n'},
            {'output_type': 'display_data', 'metadata': {'image/png': {'width': 1, 'height': 1}},
             'data': {'image/png': png, 'text/plain': 'Figure: Fig 1: a title (y against x)'}}]},
        {'cell_type': 'code', 'metadata': {}, 'source': '#| include: false\nsecret()', 'outputs': []}]}
    out, figs = b.to_myst(nb, '99_x', 'abc')
    cells = out['cells']
    assert cells[0]['source'].startswith('# The title') and 'What it does.' in cells[0]['source']
    doc = cells[1]['source']
    assert cells[1]['cell_type'] == 'markdown' and '{target=' not in doc and not doc.lstrip().startswith('---')
    assert '<a class="must-source" href="https://github.com/must-nbdev/must_nbdev/blob/main/must_nbdev/x.py#L3"' in doc
    assert '<span id="foo.bar"' in doc and '### Foo.bar' in doc
    kinds = [(o['output_type'], o.get('name') or list(o['data'])[0]) for o in cells[2]['outputs']]
    assert kinds == [('stream', 'stdout'), ('display_data', 'text/markdown'), ('display_data', 'text/html'),
                     ('display_data', 'text/html')], kinds
    assert cells[2]['outputs'][1]['data']['text/markdown'].startswith('| a | b |')
    img = cells[2]['outputs'][2]['data']['text/html']
    assert 'src="figures/99_x_2_0.png"' in img and 'alt="Figure: Fig 1: a title (y against x)"' in img
    assert 'A caption' in cells[2]['outputs'][3]['data']['text/html'] and list(figs) == ['99_x_2_0.png']
    assert len(cells) == 3 and out['metadata']['must_nb_sha256'] == 'abc'
