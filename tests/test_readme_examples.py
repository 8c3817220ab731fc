"""README's code blocks, and those of the guides it links to (nbs/guides/*.ipynb), run and print what they show
(timings masked, numbers compared to 6 significant digits).

Console blocks (`$ must ...` lines, each followed by its output) run through the CLI's `main`; a ```python block runs
as a script and must be followed (after at most the word "prints") by a plain block holding its output. Install/test
commands (```bash) are what CI itself runs, so they are not re-run here; `must reproduce all` (80+ s at full size) is
checked by 90_cli's slow cell.
"""
import contextlib, importlib.util, io, math, re, shlex
from pathlib import Path
import pytest
from must_nbdev.cli import main

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location('make_readme', ROOT / 'tools' / 'make_readme.py')
make_readme = importlib.util.module_from_spec(_spec); _spec.loader.exec_module(make_readme)   # the one README parser
TIME = re.compile(r'\b\d+(?:\.\d+)?\s?s\b')
NUMBER = re.compile(r'[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?')

def blocks(pages=None):
    "(page, language, body, following plain output block or None) for each fenced block of README and the guides."
    for page, text in pages or make_readme.example_pages():
        for m, lang, body, after in make_readme.fenced_blocks(text):
            yield page, lang, body, (after.group(2) if after is not None else None)

def console_examples(pages=None):
    return [c for _, lang, body, _ in blocks(pages) if not lang and body.startswith('$ ')
            for c in make_readme.console_chunks(body)]

def python_examples(pages=None):
    return [(body, after) for _, lang, body, after in blocks(pages) if lang == 'python']

def _readme(): return make_readme.example_pages()[:1]

@pytest.fixture(autouse=True)
def the_package_default(monkeypatch):
    "README and the guides show what a user gets: the package's default certificate, not the tests' fast ones."
    monkeypatch.delenv('MUST_DEFAULT_NET', raising=False)

def same(actual:str, expected:str) -> bool:
    "Equal up to timings, trailing spaces and numbers within 1e-6 relative (last printed digit)."
    norm = lambda s: [TIME.sub('<time>', l.rstrip()) for l in s.strip().splitlines()]
    a, e = norm(actual), norm(expected)
    if len(a) != len(e): return False
    for la, le in zip(a, e):
        if NUMBER.sub('#', la) != NUMBER.sub('#', le): return False
        for x, y in zip(NUMBER.findall(la), NUMBER.findall(le)):
            fx, fy = float(x), float(y)
            if not math.isclose(fx, fy, rel_tol=1e-6, abs_tol=0.0) and not (x == y): return False
    return True

def test_readme_has_console_and_python_examples():
    "README keeps the five lines, the Opacus run and the scheme table; the guides keep the longer examples."
    assert len(console_examples(_readme())) >= 1 and len(python_examples(_readme())) >= 2
    assert len(console_examples()) >= 8 and len(python_examples()) >= 4
    pages = {page for page, lang, body, _ in blocks() if lang == 'python' or body.startswith('$ ')}
    assert {'README.md', 'nbs/guides/00_training.ipynb', 'nbs/guides/01_command_line.ipynb'} <= pages, pages

@pytest.mark.parametrize('cmd,expected', [c for c in console_examples() if not c[0].startswith(make_readme.SKIP)],
                         ids=lambda x: x[:60])
def test_console_example_prints_what_readme_shows(cmd, expected):
    argv = shlex.split(cmd)
    assert argv[0] == 'must'
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf): rc = main(argv[1:])
    assert rc == 0 and same(buf.getvalue(), expected), (
        f"$ {cmd}\n--- shown ---\n{expected}\n--- actual ---\n{buf.getvalue()}")

@pytest.mark.parametrize('code,expected', python_examples(), ids=lambda x: (x or '')[:40])
def test_python_example_prints_what_readme_shows(code, expected):
    assert expected is not None, "a README Python block must be followed by a plain block with its output"
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf): exec(compile(code, 'README.md', 'exec'), {'__name__': '__readme__'})
    assert same(buf.getvalue(), expected), f"--- shown ---\n{expected}\n--- actual ---\n{buf.getvalue()}"

def test_the_comparison_catches_a_changed_number():
    assert same("delta <= 1.423980e-01; 1.007 s", "delta <= 1.423980e-01; 0.5 s")
    assert not same("delta <= 1.4240e-01", "delta <= 1.4230e-01") and not same("a 1", "b 1") and not same("1\n2", "1")
