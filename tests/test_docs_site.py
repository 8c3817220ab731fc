"""Tests of the committed website in docs/ (built by `python tools/build_docs.py`), or of a partial build
(`python tools/build_docs.py index core accounting`, then MUST_DOCS_DIR=_docs_build/site: only the built pages).

Cheap checks first: every notebook has a page (nbdev's page name: folder kept, number prefix dropped), no page is
stale (each stores the hash of its notebook's sources), nothing is loaded from the network, no script over 500 kB,
every internal href/src resolves to a file and anchor, no duplicate ids, source and "Show source" links name real
files, signatures hold no markdown links, the API page is grouped by subpackage. Then headless Chromium at 1400 px
and 390 px: what a reader sees on every page (no prompts, stderr or Quarto text, sections from the folders,
previous/next, contents, copy buttons, alt text, figures linked at full size, math, icons, no table cell narrower
than its longest word, no sideways scrolling), the sidebar and contents toggles clicked at both widths, searches
that must list the defining page first without page chrome in snippets, and a home page that links every notebook
and says where to start. Screenshots go to test-artifacts/screenshots/. Needs chromium, chromium-driver and
selenium; .ci/run installs them and sets MUST_REQUIRE_BROWSER=1 so that CI fails instead of skipping."""
import functools, hashlib, html.parser, http.server, json, os, posixpath, re, shutil, threading
from pathlib import Path
from urllib.parse import unquote, urlsplit
import pytest

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT / 'nbs'
# MUST_DOCS_DIR: test a partial build instead (python tools/build_docs.py index core accounting writes
# _docs_build/site): only the notebooks that have a page there are checked.
DOCS = Path(os.environ.get('MUST_DOCS_DIR') or ROOT / 'docs').resolve()
PARTIAL = DOCS != (ROOT / 'docs').resolve()
SHOTS = ROOT / 'test-artifacts' / 'screenshots'
WIDE, NARROW = 1400, 390
GIT_BLOB = 'https://github.com/must-nbdev/must_nbdev/blob/main/'
GENERIC_ALT = re.compile(r'^\s*$|No description has been provided|^<Figure size|^Figure$|^image$', re.I)

def _missing_tools():
    missing = [t for t in ('chromium', 'chromedriver') if not shutil.which(t)]
    try: import selenium  # noqa: F401
    except ImportError: missing.append('selenium (pip)')
    return missing

needs_browser = pytest.mark.skipif(bool(_missing_tools()) and not os.environ.get('MUST_REQUIRE_BROWSER'),
                                   reason=f"browser test needs {', '.join(_missing_tools())}")

REFERENCE = ['api', 'cli-reference']   # the generated reference pages, last in the sidebar

def page_name(path):
    "nbdev's page for a notebook (nbdev.doclinks._nbpath2html): nbs/accounting/10_account.ipynb -> accounting/account."
    rel = Path(path).relative_to(NBS).with_suffix('')
    return (rel.parent / re.sub(r'^\d+[a-zA-Z0-9]*_', '', rel.name.lower())).as_posix()

def all_notebooks():
    return {page_name(p): p for p in sorted(NBS.rglob('*.ipynb'))
            if not any(x.startswith(('_', '.')) for x in p.relative_to(NBS).parts)}

def notebook_pages():
    "Pages to check: every notebook's (a partial build: those built), index first."
    pages = [pg for pg in all_notebooks() if not PARTIAL or (DOCS / f'{pg}.html').exists()]
    return sorted(pages, key=lambda pg: (pg != 'index', pg))

def source_hash(path):
    "sha256 of a notebook's cell types and sources, as tools/build_docs.py stamps it into the page."
    nb = json.loads(Path(path).read_text(encoding='utf-8'))
    cells = [[c['cell_type'], ''.join(c['source']) if isinstance(c['source'], list) else c['source']]
             for c in nb['cells']]
    return hashlib.sha256(json.dumps(cells, ensure_ascii=False).encode('utf-8')).hexdigest()

def _nb(page): return json.loads(all_notebooks()[page].read_text(encoding='utf-8'))
def _src(c): return ''.join(c['source']) if isinstance(c['source'], list) else c['source']

def _nb_has_math(page):
    return any(c['cell_type'] == 'markdown' and re.search(r'\$[^$]+\$', _src(c)) for c in _nb(page)['cells'])

def _nb_has_figures(page):
    cells = [_src(c) for c in _nb(page)['cells'] if c['cell_type'] == 'code']   # cells that draw, not that define
    return any(re.search(r'\bplot_\w+\(|plt\.subplots', s) and not re.search(r'^#\|\s*(export|hide)', s, re.M)
               for s in cells)

# Shown code keeps to 96 characters a line, which fit the code column at 1400 px, in every notebook (slow cells too:
# their stored outputs are keyed by their code, not its line breaks, benchmarks/slow_cells.py: source_sha).
CODE_WIDTH = 96
HIDDEN = re.compile(r'^#\|\s*(export|exporti|hide|default_exp|echo:\s*false|include:\s*false)\s*$', re.M)

def long_shown_lines(cells, width=CODE_WIDTH):
    "Lines longer than `width` of the code cells a page shows (not exported or hidden; `#|` lines are not shown)."
    return [line for c in cells if c['cell_type'] == 'code' and not HIDDEN.search(_src(c))
            for line in _src(c).split('\n') if len(line) > width and not line.startswith('#|')]

def test_shown_code_keeps_to_96_characters_a_line():
    "In every notebook, no line of a code cell the page shows is longer than 96 characters."
    long = [(pg, line) for pg in all_notebooks() for line in long_shown_lines(_nb(pg)['cells'])]
    assert not long, long[:5]
    # what counts: shown code, slow cells included; not exported or hidden cells, nor directive lines
    code = lambda s: {'cell_type': 'code', 'source': s}
    wide = 'x = ' + '1 + ' * 30 + '1'
    assert long_shown_lines([code(wide), code('#| slow\n' + wide)]) == [wide, wide]
    assert not long_shown_lines([code('#| export\n' + wide), code('#| hide\n' + wide), code('#| ' + 'x' * 99),
                                 {'cell_type': 'markdown', 'source': wide}])

def _shot(page, width): return str(SHOTS / f"{page.replace('/', '-')}-{width}.png")

# ---------------------------------------------------------------------------------------------------- no browser

def test_every_notebook_has_a_page():
    pages = list(all_notebooks()) if not PARTIAL else ['index']
    missing = [s for s in pages + REFERENCE + ['search'] if not (DOCS / f'{s}.html').exists()]
    assert not missing, f"{DOCS} lacks pages for {missing}: run python tools/build_docs.py"

@pytest.mark.parametrize('page', notebook_pages())
def test_page_is_not_stale(page):
    "The page was built from the notebook as it is now (a notebook edited after the build fails here)."
    path = all_notebooks()[page]
    m = re.search(r'<meta name="must-nb-sha256" content="([0-9a-f]{64})"',
                  (DOCS / f'{page}.html').read_text(encoding='utf-8'))
    assert m, f'{page}.html has no source stamp: rebuild with python tools/build_docs.py'
    assert m.group(1) == source_hash(path), \
        f'{page}.html is stale: {path.relative_to(ROOT)} changed after it was built; run python tools/build_docs.py'

def test_pages_reference_no_remote_scripts_or_styles():
    for page in DOCS.rglob('*.html'):
        text = page.read_text(encoding='utf-8')
        remote = re.findall(r'<(?:script|link|img)\b[^>]*(?:src|href)="((?:https?:)?//[^"]+)"', text)
        assert not remote, f'{page.name} loads {remote} from the network'
    for css in DOCS.rglob('*.css'):
        assert not re.search(r'@import\s+url\(\s*["\']?https?:|url\(\s*["\']?https?:',
                             css.read_text(encoding='utf-8')), css

def test_site_is_small_and_self_contained():
    big = [f.name for f in DOCS.rglob('*.js') if f.stat().st_size > 500_000]
    assert not big, f'scripts over 500 kB: {big}'   # pydata's fontawesome.js alone was 1.56 MB of every page
    size = sum(f.stat().st_size for f in DOCS.rglob('*') if f.is_file())   # 65 pages' text and figures: 10.0 MB when
    assert size < 11 * 2**20, f'{DOCS} is {size / 2**20:.1f} MB (limit 11 MB)'   # the net became the default
    assert (DOCS / '_static' / 'katex' / 'katex.min.js').exists() and (DOCS / 'searchindex.js').exists()

class _Links(html.parser.HTMLParser):
    "Every href/src of a page, every id it defines."
    def __init__(self):
        super().__init__(); self.refs, self.ids = [], set()
    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ('href', 'src') and v is not None: self.refs.append((tag, k, v))
            if k in ('id', 'name') and v: self.ids.add(v)

@functools.lru_cache(maxsize=None)
def _parsed(path):
    p = _Links(); p.feed(Path(path).read_text(encoding='utf-8')); return p

def test_internal_links_resolve():
    "Crawl every internal href and src of every page: the file exists, and so does the anchor on an HTML target."
    bad, n = [], 0
    for page in sorted(DOCS.rglob('*.html')):
        if '_static' in page.relative_to(DOCS).parts: continue
        for tag, attr, ref in _parsed(page).refs:
            u = urlsplit(ref)
            if u.scheme or ref.startswith('//') or (not u.path and not u.fragment): continue
            n += 1
            target = (page.parent / unquote(u.path)).resolve() if u.path else page
            if target.is_dir(): target = target / 'index.html'
            where = f'{page.relative_to(DOCS)}: {tag} {attr}="{ref}"'
            if not target.exists(): bad.append(where + ' (no such file)'); continue
            if u.fragment and target.suffix == '.html' and unquote(u.fragment) not in _parsed(target).ids:
                bad.append(where + ' (no such anchor)')
    assert n > 100, n
    assert not bad, f'{len(bad)} dead internal links:\n' + '\n'.join(bad[:40])

def test_no_duplicate_ids():
    "An id names one element of a page (a link to a duplicated id lands on whichever comes first)."
    for page in sorted(DOCS.rglob('*.html')):
        if '_static' in page.relative_to(DOCS).parts: continue
        ids = re.findall(r'\sid="([^"]+)"', page.read_text(encoding='utf-8'))
        dup = sorted({i for i in ids if ids.count(i) > 1})
        assert not dup, f'{page.relative_to(DOCS)}: duplicate ids {dup[:10]}'

def test_signatures_and_meta():
    "Signature blocks are code, not raw markdown links; each page has a description; the general index is not empty."
    for pg in notebook_pages():
        text = (DOCS / f'{pg}.html').read_text(encoding='utf-8')
        for pre in re.findall(r'<pre[^>]*>(.*?)</pre>', text, re.S):
            plain = re.sub(r'<[^>]+>', '', pre)
            assert not re.search(r'\[`?[\w.]+`?\]\((?:https?:|[\w/]+\.html)', plain), (
                f'{pg}.html: markdown link in a code block: {plain[:200]}')
        assert re.search(r'<meta name="description" content="[^"]{10,}"',
                         text) or pg == 'index' and 'og:title' in text, f'{pg}.html: no description'
    entries = re.findall(r'<li><a href="[^"]+#index-\d+">', (DOCS / 'genindex.html').read_text(encoding='utf-8'))
    assert len(entries) > 20, f'the general index has {len(entries)} entries'

def _signature(pg, name):
    "The plain text of the signature block of `name` on page `pg` (the first code block that defines it)."
    text = (DOCS / f'{pg}.html').read_text(encoding='utf-8')
    for pre in re.findall(r'<pre[^>]*>(.*?)</pre>', text, re.S):
        plain = html.unescape(re.sub(r'<[^>]+>', '', pre))
        if re.match(rf'\s*def {name}\(', plain): return plain
    raise AssertionError(f'{pg}.html has no signature of {name}')

def test_signatures_are_written_as_the_source_writes_them():
    "Keyword-only parameters follow a bare `*` (they looked positional) and defaults read as written, never NoneType."
    acc = _signature('accounting/account', 'account')
    assert re.search(r'scheme:Scheme,[^\n]*\n\s*\*,\n\s*sigma:float', acc), acc
    assert 'max_bins:int=MAX_BINS' in acc and '2097152' not in acc
    assert re.search(r'\n\s*\*,\n\s*delta:float', _signature('training/compare', 'compare_schemes'))
    assert 'rng=None' in _signature('core/samplers', 'as_generator')
    for pg in notebook_pages():
        text = (DOCS / f'{pg}.html').read_text(encoding='utf-8')
        assert 'NoneType' not in text, f'{pg}.html shows a NoneType annotation'

def test_cli_reference_prints_every_subcommands_help(monkeypatch):
    "The command-line reference shows `must --help` and, for each subcommand, exactly what its --help prints."
    import argparse
    from must_nbdev.cli import build_parser
    text = html.unescape(re.sub(r'<[^>]+>', '', (DOCS / 'cli-reference.html').read_text(encoding='utf-8')))
    monkeypatch.setenv('COLUMNS', '100')
    parser = build_parser()
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert len(subs) >= 6
    for name, sub in [('', parser)] + list(subs.items()):
        if name: assert f'must {name}' in text
        for line in sub.format_help().strip().splitlines():
            assert line.strip() in text, (name, line)

def _inventory(path) -> dict:
    "objects.inv in Sphinx's format 2, read with zlib alone (the test run does not install Sphinx): {kind: {name: uri}}."
    import zlib
    *head, body = path.read_bytes().split(b'\n', 4)
    assert head[0] == b'# Sphinx inventory version 2' and b'zlib' in head[3], head
    out = {}
    for line in zlib.decompress(body).decode('utf-8').splitlines():
        m = re.match(r'(.+?)\s+(\S+?:\S+)\s+(-?\d+)\s+(\S*)\s+(.*)$', line)   # name kind priority uri display
        if m: out.setdefault(m[2], {})[m[1]] = m[4][:-1] + m[1] if m[4].endswith('$') else m[4]
    return out

def test_inventory_lists_the_api_at_its_entries():
    "objects.inv holds the public names as Python objects (for intersphinx), each at an anchor its page has."
    inv = _inventory(DOCS / 'objects.inv')
    py = {name: uri for kind in ('py:function', 'py:class', 'py:method') for name, uri in inv.get(kind, {}).items()}
    for name in ('must_nbdev.accounting.account.account', 'must_nbdev.core.sampling.make_scheme',
                 'must_nbdev.accounting.accountant.PrivacyAccountant', 'must_nbdev.accounting.calibrate.calibrate_sigma'):
        assert name in py, f'{name} is not in objects.inv'
    assert len(py) > 200, len(py)
    for name, uri in py.items():
        page, _, anchor = uri.partition('#')
        assert anchor and anchor in _parsed(DOCS / page).ids, (name, uri)

TRACKER = re.compile(r"\bissues? \d+|\bthe issue\b|\ba helper'?s?\b|\bitem \d+\b", re.I)

def test_prose_speaks_of_the_package_not_of_its_tracker():
    "Notebooks and pages speak of the package, its proofs and its measurements: no issue numbers or items, no helpers."
    found = []
    for path in all_notebooks().values():
        for c in json.loads(path.read_text(encoding='utf-8'))['cells']:
            found += [(path.name, m.group(0)) for m in TRACKER.finditer(_src(c))]
    for pg in notebook_pages() + REFERENCE:
        raw = re.sub(r'<script.*?</script>|<style.*?</style>', '', (DOCS / f'{pg}.html').read_text(encoding='utf-8'),
                     flags=re.S)
        found += [(pg, m.group(0)) for m in TRACKER.finditer(html.unescape(re.sub(r'<[^>]+>', ' ', raw)))]
    for f in (DOCS / '_static').glob('must*'):
        found += [(f.name, m.group(0)) for m in TRACKER.finditer(f.read_text(encoding='utf-8'))]
    assert not found, found

def test_every_page_shows_the_version():
    "The package's version (settings.ini) is on every page, in the title the sidebar shows."
    version = next(l.split('=', 1)[1].strip() for l in (ROOT / 'settings.ini').read_text().splitlines()
                   if l.startswith('version'))
    for pg in notebook_pages() + REFERENCE:
        text = (DOCS / f'{pg}.html').read_text(encoding='utf-8')
        assert f'must_nbdev {version}' in text, f'{pg}.html does not show version {version}'

def test_prose_keeps_options_as_written():
    "No smart punctuation made from what prose writes: `--out` stays two hyphens, never an en dash (–out)."
    for pg in notebook_pages() + REFERENCE:
        plain = html.unescape(re.sub(r'<[^>]+>', '', (DOCS / f'{pg}.html').read_text(encoding='utf-8')))
        assert not re.findall(r'(?<![\w–-])[–—][a-z][\w-]+', plain), (pg, re.findall(r'.{30}[–—][a-z][\w-]+', plain)[:3])

_INTRODUCES = re.compile(r'<(?:ul|ol|dl|table|pre|figure|img|blockquote|p><strong|div class="[^"]*(?:cell|highlight|math|'
                         r'output|table|docutils|admonition|pst-scrollable))|<span class="math')

def test_no_sentence_introduces_what_the_page_hides():
    "A paragraph ending in ':' is followed by what it introduces (code, output, list, table, math, a run-in heading)."
    dangling = []
    for pg in notebook_pages() + REFERENCE:
        text = (DOCS / f'{pg}.html').read_text(encoding='utf-8')
        for m in re.finditer(r'<p>((?:(?!</p>).)*?):\s*</p>\s*(<[^>]*>(?:<[^>]*>)?)', text, re.S):
            if not _INTRODUCES.match(m.group(2)):
                dangling.append((pg, html.unescape(re.sub(r'<[^>]+>', '', m.group(1)))[-80:]))
    assert not dangling, dangling

def test_prose_cross_references_are_live_links():
    "nbdev's links from backticked names in prose point into this site, never to '#page.html' or a 404."
    for pg in notebook_pages():
        text = (DOCS / f'{pg}.html').read_text(encoding='utf-8')
        assert not re.search(r'href="#[^"]*\.html', text), f'{pg}.html has links of the form #page.html'
    idx = (DOCS / 'index.html').read_text(encoding='utf-8')
    entries = re.findall(r'href="(\w+/\w+\.html#[\w.]+)"', idx)
    assert PARTIAL or len(set(entries)) >= 5, f'the home page links few names to their entries: {entries}'

def test_source_links_point_to_module_files():
    "Each entry's [source] link names a module file of the library and a line inside it."
    n = 0
    for pg in notebook_pages():
        for ref in re.findall(r'<a class="must-source" href="([^"]+)"',
                              (DOCS / f'{pg}.html').read_text(encoding='utf-8')):
            n += 1
            assert ref.startswith(GIT_BLOB), ref
            path, _, line = ref[len(GIT_BLOB):].partition('#L')
            f = ROOT / path
            assert f.exists() and f.suffix == '.py' and path.startswith('must_nbdev/'), (
                f'{pg}.html: source link to {path}')
            if line: assert int(line) <= len(f.read_text(encoding='utf-8').splitlines()), ref
        shown = re.findall(re.escape(GIT_BLOB) + r'(nbs/[^"?#]+)', (DOCS / f'{pg}.html').read_text(encoding='utf-8'))
        assert shown and all((ROOT / x).exists() for x in shown), f'{pg}.html: "Show source" opens {shown}'
    assert n > 10, n

def test_api_page_by_subpackage():
    "The API reference groups modules by subpackage (one h2 each) and links every name to an existing entry."
    api = (DOCS / 'api.html').read_text(encoding='utf-8')
    h2 = re.findall(r'<h2>(.*?)<a class="headerlink"', api)
    assert h2 and h2[0] == 'Core', h2
    assert (re.search(r'<code>PrivacyAccountant\.step</code>', api) or PARTIAL
            and 'accounting/accountant' not in notebook_pages())
    links = re.findall(r'href="([\w/]+\.html)#([^"]+)"', api)
    assert len(links) > 30, len(links)
    for page, anchor in links:
        assert anchor in _parsed(DOCS / page).ids, f'api.html links to {page}#{anchor}, which does not exist'

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

_STATE = r"""
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
  icons: Array.from(document.querySelectorAll('.primary-toggle i, .theme-switch-button i, .search-button i')).filter(vis)
         .map(i => [i.className, getComputedStyle(i, '::before').content, i.getBoundingClientRect().width]),
  figlinks: Array.from(art.querySelectorAll('img.must-figure')).map(i => [i.getAttribute('src'),
            i.closest('a') ? i.closest('a').getAttribute('href') : null]),
  // contents links drawn whole, long outputs in a scroll box, plain reprs wrapped
  toc_clipped: Array.from(document.querySelectorAll('.bd-sidebar-secondary .page-toc a')).filter(vis)
               .filter(a => a.scrollWidth > a.clientWidth + 1 || a.getBoundingClientRect().right >
                            a.closest('.bd-sidebar-secondary').getBoundingClientRect().right + 1).map(a => a.innerText),
  tall_outputs: Array.from(art.querySelectorAll('.cell_output pre')).filter(vis)
                .filter(p => p.getBoundingClientRect().height > 36 * 16 + 40).length,
  wide_reprs: Array.from(art.querySelectorAll('.cell_output .output.text_plain pre')).filter(vis)
              .filter(p => p.scrollWidth > p.clientWidth + 1).length,
  // printed outputs wrap at the column; the article is wide; figures say a click enlarges them
  wide_streams: Array.from(art.querySelectorAll('.cell_output .output.stream pre')).filter(vis)
                .filter(p => p.scrollWidth > p.clientWidth + 1).length,
  // code cells whose longest line runs past the column (a box that scrolls sideways)
  wide_code: Array.from(art.querySelectorAll('div.cell_input pre')).filter(vis)
             .filter(p => p.scrollWidth > p.clientWidth + 1)
             .map(p => p.innerText.split('\n').reduce((a, b) => b.length > a.length ? b : a, '')),
  height: document.documentElement.scrollHeight,
  article: art.getBoundingClientRect().width,
  fig_hints: Array.from(art.querySelectorAll('a.must-figure-link')).filter(vis)
             .map(a => getComputedStyle(a, '::after').content),
  panel_rows: Array.from(art.querySelectorAll('.must-figure-wide')).filter(vis)
              .map(b => [b.querySelector('img').getBoundingClientRect().width, b.scrollWidth > b.clientWidth + 1]),
  squeezed: (() => {   // table cells narrower than their longest word (a word broken over lines)
    const out = [];
    for (const cell of Array.from(art.querySelectorAll('td, th')).slice(0, 400)) {
      if (!vis(cell)) continue;
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        // a line may break at spaces and after a hyphen or dash between words, never inside a number or a name
        const words = n.textContent.split(/\s+/).flatMap(w => /^[-+]?[\d.]+(e[-+]?\d+)?[,;%]?$/i.test(w) ? [w] : w.split(/(?<=[A-Za-z][-\u2013\u2014])(?=[A-Za-z\d])|(?<=\d[\u2013\u2014])/));
        const word = words.reduce((a, b) => b.length > a.length ? b : a, '');
        if (word.length < 2) continue;
        const probe = document.createElement('span');
        probe.style.whiteSpace = 'nowrap'; probe.textContent = word;
        n.parentElement.appendChild(probe);
        const need = probe.getBoundingClientRect().width; probe.remove();
        const box = n.parentElement.getBoundingClientRect().width;
        if (need > box + 1) { out.push(word); break; }
      }
    }
    return out;
  })(),
};
"""

def _sections():
    "The sidebar sections the folders give (the generator's own rule), then the API reference."
    b = _builder()
    return [t for t, _ in b.sections([all_notebooks()[pg] for pg in notebook_pages()])] + [b.API_SECTION]

@needs_browser
@pytest.mark.parametrize('stem', notebook_pages() + REFERENCE)
def test_page_renders(stem, site, browser):
    SHOTS.mkdir(parents=True, exist_ok=True)
    _Handler.failures.clear()
    _load(browser, f'{site}/{stem}.html', WIDE)
    wide = browser.execute_script(_STATE)
    browser.save_screenshot(_shot(stem, WIDE))
    _load(browser, f'{site}/{stem}.html', NARROW)
    narrow = browser.execute_script(_STATE)
    browser.save_screenshot(_shot(stem, NARROW))
    assert not _Handler.failures, f'{stem}.html: missing local resources {_Handler.failures}'
    # no notebook-export artefacts
    for bad in (r'\{target=', r'\bIn \[\d*\]:', r'\bOut\[\d*\]:', r'np\.float64\(', 'No description has been provided'):
        assert not re.search(bad, wide['text']), f'{stem}.html shows {bad!r}'
    assert wide['stderr'] == 0, f'{stem}.html has {wide["stderr"]} stderr outputs'
    # navigation: sections in the sidebar, previous/next, contents on wide screens, one title
    assert wide['nav_sections'] == _sections(), wide['nav_sections']   # the folders, in dependency order
    assert wide['next'] == (stem != REFERENCE[-1]) and wide['prev'] == (stem != 'index'), (stem, wide['prev'],
                                                                                           wide['next'])
    assert wide['toc'], f'{stem}.html: no "On this page" contents at {WIDE} px'
    assert wide['title'].count('must_nbdev') == 1, wide['title']
    # code: copy buttons
    if wide['code_cells']: assert wide['copy'] >= 1, f'{stem}.html: code cells without copy buttons'
    # figures: loaded, with real alt text
    assert all(w > 0 for _, w, _ in wide['imgs']), (
        f'{stem}.html: images failed to load {[s for s, w, _ in wide["imgs"] if not w]}')
    generic = [s for s, _, alt in wide['imgs'] if GENERIC_ALT.search(alt)]
    assert not generic, f'{stem}.html: images without a description {generic}'
    if stem not in ['index'] + REFERENCE and _nb_has_figures(stem):
        assert any(s and 'figures/' in s for s, _, _ in wide['imgs']), f'{stem}.html: no figure files'
    # the theme's icons are drawn (from the web font, without fontawesome.js)
    assert wide['icons'] and all(c not in ('none', 'normal', '""') and w >= 8 for _, c, w in wide['icons']), (
        wide['icons'])
    # figures open at full size: each is a link to its own file
    assert all(src == href for src, href in wide['figlinks']), (
        f'{stem}.html: figures without a full-size link {wide["figlinks"]}')
    # tables: no cell narrower than its longest word (wide tables scroll instead), at both widths
    assert not wide['squeezed'] and not narrow['squeezed'], (
        f'{stem}.html: words broken in table cells {narrow["squeezed"][:5]} {wide["squeezed"][:5]}')
    # contents column, long outputs, reprs
    assert not wide['toc_clipped'], f'{stem}.html: contents links clipped {wide["toc_clipped"][:3]}'
    assert wide['tall_outputs'] == 0 and narrow['tall_outputs'] == 0, (
        f'{stem}.html: outputs taller than 36rem, not boxed')
    assert wide['wide_reprs'] == 0 and narrow['wide_reprs'] == 0, f'{stem}.html: plain-text outputs run off the edge'
    assert wide['wide_streams'] == 0 and narrow['wide_streams'] == 0, f'{stem}.html: printed outputs scroll sideways'
    if stem in all_notebooks():   # every notebook's shown code fits the column
        over = wide['wide_code']
        assert not over, f'{stem}.html: code lines scroll sideways at {WIDE} px: {over[:3]}'
    assert wide['article'] >= 900, f'{stem}.html: the article is {wide["article"]:.0f} px wide at {WIDE} px'
    assert all('full size' in h for h in wide['fig_hints']), f'{stem}.html: a figure without its enlarge hint'
    # a row of panels keeps a readable width on a phone, in a box that scrolls (the page does not), and fits when wide
    assert all(w >= 900 and scrolls for w, scrolls in narrow['panel_rows']), (stem, narrow['panel_rows'])
    assert all(w <= wide['article'] and not scrolls for w, scrolls in wide['panel_rows']), (stem, wide['panel_rows'])
    console = [e['message'] for e in browser.get_log('browser') if 'invalid theme mode' in e['message']]
    assert not console, f'{stem}.html: {console}'
    # math
    assert wide['math']['errors'] == 0, f'{stem}.html: {wide["math"]["errors"]} KaTeX errors'
    if stem not in REFERENCE and _nb_has_math(stem): assert wide['math']['rendered'] > 0, f'{stem}.html: no math typeset'
    # a phone-sized window: no sideways scrolling, a readable column
    assert narrow['overflow'] <= 0, f'{stem}.html overflows by {narrow["overflow"]} px at {NARROW} px'
    assert narrow['column'] >= 300, f'{stem}.html: text column {narrow["column"]:.0f} px at {NARROW} px'
    if stem == 'api':   # one table per module
        n_modules, n_tables = browser.execute_script(
            'return [document.querySelectorAll("article h3").length, document.querySelectorAll("article '
            'table").length]')
        assert n_modules >= 3 and n_tables == n_modules, (n_modules, n_tables)

SEARCHES = {'MUST.ow': 'core/sampling', 'calibrate_sigma': 'accounting/calibrate',
            'dominating pair': 'accounting/dominating', 'PrivacyAccountant': 'accounting/accountant'}
CHROME = re.compile(r'Repository|Show source|Open issue|System Settings|\bLight\b.*\bDark\b|Toggle (primary|secondary)',
                    re.S)

@needs_browser
@pytest.mark.parametrize('query', list(SEARCHES))
def test_search_finds_the_defining_page_first(query, site, browser):
    "A search lists the page that defines the name first, with snippets of page text (no buttons or theme chrome)."
    from selenium.webdriver.support.ui import WebDriverWait
    browser.set_window_size(WIDE, 1000)
    browser.get(f'{site}/search.html?q={query}')
    WebDriverWait(browser, 60).until(lambda d: d.execute_script(
        'return document.querySelectorAll("#search-results ul.search li a").length > 0 '
        '|| /did not match|no documents/i.test((document.querySelector("#search-results")||{}).innerText||"")'))
    WebDriverWait(browser, 60).until(lambda d: d.execute_script(   # snippets are fetched after the list
        'return /Search finished|did not match/i.test((document.querySelector("#search-results '
        'p.search-summary")||{}).innerText||"")'))
    import time; time.sleep(1)
    res = browser.execute_script('return Array.from(document.querySelectorAll("#search-results ul.search li")).map('
                                 'l => [l.querySelector("a").href, (l.querySelector("p.context")||{}).innerText||""])')
    slug = re.sub(r'\W+', '_', query)
    browser.save_screenshot(str(SHOTS / f'search-{slug}-{WIDE}.png'))
    assert res, f'searching for {query} found nothing'
    assert res[0][1].strip(), f'no snippet under the first result for {query}'
    first = urlsplit(res[0][0]).path.lstrip('/')
    if SEARCHES[query] in notebook_pages():
        assert first == SEARCHES[query] + '.html', (query, [urlsplit(h).path for h, _ in res[:5]])
    dirty = [(h, t[:120]) for h, t in res[:12] if CHROME.search(t)]
    assert not dirty, f'search snippets show page chrome: {dirty}'
    titles = browser.execute_script('return Array.from(document.querySelectorAll("#search-results ul.search li > a"))'
                                    '.map(a => a.innerText.trim())')
    from collections import Counter
    assert max(Counter(titles).values()) <= 2, f'one title repeats in the results: {Counter(titles).most_common(2)}'
    latex = [(h, t[:120]) for h, t in res if re.search(r'\\[()\[\]]|\\[a-z]{2,}', t)]
    assert not latex, f'search snippets show raw LaTeX: {latex[:3]}'
    if '.' in query:   # a dotted name is searched whole: every result page holds it (never only "must" and "ow")
        for h, _ in res:
            page = urlsplit(h).path.lstrip('/')
            text = html.unescape(re.sub(r'<[^>]+>', '', (DOCS / page).read_text(encoding='utf-8')))
            assert query.lower() in text.lower(), (query, page)
    # the query is typed right of the magnifier, never under it
    glass, field = browser.execute_script(
        'const f = Array.from(document.querySelectorAll("form.bd-search")).find(f => f.getClientRects().length);'
        'const i = f.querySelector("i, svg"), inp = f.querySelector("input");'
        'return [i.getBoundingClientRect().right, inp.getBoundingClientRect().left + parseFloat(getComputedStyle(inp).paddingLeft)];')
    assert field >= glass, f'the query starts at {field:.0f} px, under the magnifier (to {glass:.0f} px)'

_VISIBLE = 'const vis = e => !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";'

@needs_browser
@pytest.mark.parametrize('width', [NARROW, WIDE])
def test_general_index_fits_the_screen(width, site, browser):
    "The general index (genindex.html) scrolls down, never sideways: at 390 px its columns stack."
    _load(browser, f'{site}/genindex.html', width)
    over = browser.execute_script('return document.documentElement.scrollWidth - document.documentElement.clientWidth')
    assert over <= 1, f'genindex.html is {over} px wider than the screen at {width} px'

@needs_browser
def test_sidebar_shows_the_current_page(site, browser):
    "A page far down the sidebar opens with its link in view, even after the theme restores the last page's scroll."
    b = _builder()
    far = b.page_of(b.sections([all_notebooks()[pg] for pg in notebook_pages()])[-1][1][-1])   # last in the sidebar
    _load(browser, f'{site}/index.html', WIDE)
    browser.execute_script('sessionStorage.setItem("sidebar-scroll-top", "0")')   # as after a page read at its top
    _load(browser, f'{site}/{far}.html', WIDE)
    import time; time.sleep(0.5)
    top, bottom, link, window = browser.execute_script(
        'const s = document.querySelector(".bd-sidebar-primary"), r = s.getBoundingClientRect();'
        'const a = s.querySelector("a.current.reference, li.current > a").getBoundingClientRect();'
        'return [r.top, r.bottom, a.top, window.scrollY];')
    assert top <= link <= bottom - 20 and window == 0, (far, top, link, bottom, window)

@needs_browser
@pytest.mark.parametrize('width', [NARROW, WIDE])
def test_nav_toggles_open_the_drawers(width, site, browser):
    "Click the visible sidebar and 'On this page' toggles like a reader: the drawer opens (wide: the sidebar toggles)."
    from selenium.webdriver.common.by import By
    page = next((pg for pg in notebook_pages() if pg != 'index'), 'index')
    _load(browser, f'{site}/{page}.html', width)
    def visible(sel): return [e for e in browser.find_elements(By.CSS_SELECTOR, sel) if e.is_displayed()]
    def state():
        return browser.execute_script(_VISIBLE + """
          const links = sel => Array.from(document.querySelectorAll(sel)).filter(vis).length;
          return {pmodal: document.getElementById('pst-primary-sidebar-modal').open,
                  smodal: document.getElementById('pst-secondary-sidebar-modal').open,
                  nav: links('.bd-sidebar-primary a.reference, #pst-primary-sidebar-modal a.reference'),
                  toc: links('.bd-sidebar-secondary nav.page-toc a, #pst-secondary-sidebar-modal nav.page-toc a')};""")
    prim = visible('.primary-toggle')
    assert prim, f'no visible sidebar toggle at {width} px'
    before = state()
    prim[0].click()
    import time; time.sleep(0.8)   # the theme animates the drawer
    after = state()
    if width == NARROW:
        assert not before['nav'] and after['pmodal'] and after['nav'] > 3, (before, after)
        browser.execute_script("document.getElementById('pst-primary-sidebar-modal').close()")
        sec = visible('.secondary-toggle')
        assert sec, f'no visible "On this page" toggle at {width} px'
        sec[0].click(); time.sleep(0.8)
        opened = state()
        assert opened['smodal'] and opened['toc'] > 0, opened
        # a tap on one of its links closes the drawer (it stayed open over the page it had scrolled)
        visible('#pst-secondary-sidebar-modal nav.page-toc a')[0].click(); time.sleep(0.8)
        assert not state()['smodal'], 'the contents drawer stays open after a tap on its link'
    else:   # the sidebar is open: the toggle hides it, a second click brings it back
        assert before['nav'] > 3 and after['nav'] == 0, (before, after)
        visible('.primary-toggle')[0].click(); time.sleep(0.8)
        assert state()['nav'] > 3
        assert before['toc'] > 0, before
    browser.save_screenshot(_shot(page, f'{width}-toggles'))

def _links(browser):
    from selenium.webdriver.common.by import By
    return {urlsplit(a.get_attribute('href')).path.lstrip('/')
            for a in browser.find_elements(By.CSS_SELECTOR, 'article a[href]')}

@needs_browser
def test_home_page_is_a_way_in(site, browser):
    """The home page is an introduction: short, linking every guide and both references, and saying where to start;
    the notebooks guide links every notebook. Screenshots at both widths."""
    for width in (NARROW, WIDE):
        _load(browser, f'{site}/index.html', width)
        browser.save_screenshot(_shot('home', width))
    height = browser.execute_script('return document.documentElement.scrollHeight')
    assert height < 6000, f'the home page is {height} px tall at {WIDE} px'
    hrefs = _links(browser)
    built = all_notebooks() if not PARTIAL else notebook_pages()
    guides = [pg for pg in built if pg.startswith('guides/')]
    missing = [pg for pg in guides + REFERENCE if f'{pg}.html' not in hrefs]
    assert not missing, f'the home page does not link {missing}'
    if 'guides/notebooks' in built:
        _load(browser, f'{site}/guides/notebooks.html', WIDE)
        hrefs = _links(browser)
        missing = [pg for pg in built if pg != 'index' and not pg.startswith('guides/') and f'{pg}.html' not in hrefs]
        assert not missing, f'the notebooks guide does not link {missing}'
    _load(browser, f'{site}/index.html', NARROW)
    start = browser.execute_script('const e = document.querySelector(".must-start"); return e ? e.innerText : ""')
    assert re.search(r'where to start', start, re.I), start
    top = browser.execute_script('return document.querySelector(".must-start").getBoundingClientRect().top')
    assert top < 1000, f'"where to start" is {top:.0f} px down the home page, below the first screen'

# ---------------------------------------------------------------------------------------------------- the generator

def _builder():
    import importlib.util
    spec = importlib.util.spec_from_file_location('build_docs', ROOT / 'tools' / 'build_docs.py')
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    return mod

def test_generator_stamps_the_same_hash_as_the_test():
    assert _builder().source_hash(NBS / 'index.ipynb') == source_hash(NBS / 'index.ipynb')

def test_generator_names_pages_as_nbdev_does():
    "Page names are nbdev's (as _modidx and nbdev's links use), and the folders give the sections in dependency order."
    from nbdev.doclinks import _nbpath2html
    b = _builder()
    for pg, path in all_notebooks().items():
        assert b.page_of(path) == pg == _nbpath2html(path.relative_to(NBS)).with_suffix('').as_posix()
    folders = {p.relative_to(NBS).parts[0] for p in all_notebooks().values() if p.parent != NBS}
    order = b.folder_order(folders)
    assert sorted(order) == sorted(folders) and order[0] == 'core', order
    if {'core', 'accounting', 'training', 'experiments', 'companions'} <= folders:
        assert order[:5] == ['core', 'accounting', 'training', 'experiments', 'companions'], order
    titles = [t for t, _ in b.sections(list(all_notebooks().values()))]
    prose = sorted(f for f in folders if not (ROOT / 'must_nbdev' / f / '__init__.py').exists())   # the guides
    assert titles[:len(prose)] == [b.section_title(f) for f in prose], titles
    assert titles[len(prose)] == 'Core' and titles[-1] == b.TOP_SECTION, titles

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
    out, figs = b.to_myst(nb, 'sub/x', 'abc')
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
    assert 'src="../figures/sub-x_2_0.png"' in img and 'alt="Figure: Fig 1: a title (y against x)"' in img
    assert img.startswith('<a class="must-figure-link" href="../figures/sub-x_2_0.png"')   # reachable at full size
    assert 'A caption' in cells[2]['outputs'][3]['data']['text/html'] and list(figs) == ['sub-x_2_0.png']
    assert len(cells) == 3 and out['metadata']['must_nb_sha256'] == 'abc'
