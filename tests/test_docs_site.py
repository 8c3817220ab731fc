"""Browser test of the built site in docs/: headless Chromium loads the home page and every notebook page from a
local server and checks that no local resource is missing, that math was typeset (KaTeX, no errors), and that every
figure loaded. Screenshots go to test-artifacts/screenshots/. Needs chromium, chromium-driver and selenium; .ci/run
installs them and sets MUST_REQUIRE_BROWSER=1 so that CI fails instead of skipping when they are absent."""
import functools, http.server, json, os, re, shutil, threading
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS, NBS = ROOT / 'docs', ROOT / 'nbs'
SHOTS = ROOT / 'test-artifacts' / 'screenshots'

def _missing_tools():
    missing = [t for t in ('chromium', 'chromedriver') if not shutil.which(t)]
    try: import selenium  # noqa: F401
    except ImportError: missing.append('selenium (pip)')
    return missing

pytestmark = pytest.mark.skipif(bool(_missing_tools()) and not os.environ.get('MUST_REQUIRE_BROWSER'),
                                reason=f"browser test needs {', '.join(_missing_tools())}")

def notebook_pages():
    return ['index'] + sorted(p.stem for p in NBS.glob('*.ipynb') if p.stem != 'index')

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
    for a in ('--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--window-size=1400,1000'):
        opts.add_argument(a)
    drv = webdriver.Chrome(service=Service(shutil.which('chromedriver')), options=opts)
    drv.set_page_load_timeout(60)
    yield drv
    drv.quit()

def test_every_notebook_has_a_page():
    missing = [s for s in notebook_pages() if not (DOCS / f'{s}.html').exists()]
    assert not missing, f"docs/ lacks pages for {missing}: run python tools/build_docs.py"

def test_pages_reference_no_remote_scripts_or_styles():
    for s in notebook_pages() + ['api']:
        text = (DOCS / f'{s}.html').read_text(encoding='utf-8')
        remote = re.findall(r'<(?:script|link)\b[^>]*(?:src|href)="(https?:[^"]+)"', text)
        assert not remote, f'{s}.html loads {remote} from the network'

def _nb_has_math(stem):
    nb = json.loads((NBS / f'{stem}.ipynb').read_text(encoding='utf-8'))
    return any(c['cell_type'] == 'markdown' and re.search(r'\$[^$]+\$', ''.join(c['source'])) for c in nb['cells'])

def _nb_has_figures(stem):
    nb = json.loads((NBS / f'{stem}.ipynb').read_text(encoding='utf-8'))
    cells = [''.join(c['source']) for c in nb['cells'] if c['cell_type'] == 'code']   # cells that draw, not that define
    return any(re.search(r'\bplot_\w+\(|plt\.subplots', s) and not re.search(r'^#\|\s*export', s, re.M) for s in cells)

@pytest.mark.parametrize('stem', notebook_pages() + ['api'])
def test_page_renders(stem, site, browser):
    from selenium.webdriver.support.ui import WebDriverWait
    _Handler.failures.clear()
    browser.get(f'{site}/{stem}.html')
    WebDriverWait(browser, 60).until(lambda d: d.execute_script('return document.readyState') == 'complete'
                                     and d.execute_script('return window.mustMath !== undefined'))
    WebDriverWait(browser, 30).until(lambda d: d.execute_script(
        'return Array.from(document.images).every(i => i.complete)'))
    math = browser.execute_script('return window.mustMath')
    imgs = browser.execute_script('return Array.from(document.images).map(i => [i.getAttribute("src"), i.naturalWidth])')
    SHOTS.mkdir(parents=True, exist_ok=True); browser.save_screenshot(str(SHOTS / f'{stem}.png'))
    assert not _Handler.failures, f'{stem}.html: missing local resources {_Handler.failures}'
    assert math['errors'] == 0, f'{stem}.html: {math["errors"]} KaTeX errors'
    if stem != 'api' and _nb_has_math(stem): assert math['rendered'] > 0, f'{stem}.html: no math typeset'
    assert all(w > 0 for _, w in imgs), f'{stem}.html: images failed to load {[s for s, w in imgs if not w]}'
    if stem == 'api':   # one parsed table per module section
        n_sections, n_tables = browser.execute_script('return [document.querySelectorAll("h2").length, document.querySelectorAll("table").length]')
        assert n_sections > 10 and n_tables == n_sections, (n_sections, n_tables)
    if stem not in ('index', 'api') and _nb_has_figures(stem):
        assert any(s and s.startswith('figures/') for s, _ in imgs), f'{stem}.html: no figure files'
