"""Write README.md from the markdown cells of nbs/index.ipynb (nbdev_readme needs Quarto, which is not available
offline).

    python tools/make_readme.py         # README.md from nbs/index.ipynb
    python tools/make_readme.py --run   # first re-run the examples and store their outputs in the notebooks

`--run` executes every console example (`$ must ...` inside a plain ``` block, except `must reproduce all`, whose
output is a full-size run) and every ```python block followed by its output block, and replaces the shown outputs, in
nbs/index.ipynb and in the guides (nbs/guides/*.ipynb, the pages README links to for the longer examples).
`fenced_blocks`, `console_chunks` and `example_pages` are also what tests/test_readme_examples.py checks them with.
"""
import contextlib, io, json, pathlib, re, shlex, sys
ROOT = pathlib.Path(__file__).resolve().parents[1]
INDEX = ROOT / 'nbs' / 'index.ipynb'
GUIDES = ROOT / 'nbs' / 'guides'
FENCE = re.compile(r'^```([a-z]*)\n(.*?)^```\s*$', re.S | re.M)
SKIP = ('must reproduce all',)   # console examples shown but not re-run (a full-size run of every experiment)

def fenced_blocks(text:str) -> list:
    "(match, language, body, the plain output block that follows it or None) for each fenced block of `text`."
    found, out = list(FENCE.finditer(text)), []
    for i, m in enumerate(found):
        nxt = found[i + 1] if i + 1 < len(found) else None
        follows = (nxt is not None and text[m.end():nxt.start()].strip() in ('', 'prints', 'prints:')
                   and nxt.group(1) == '')
        out.append((m, m.group(1), m.group(2), nxt if follows else None))
    return out

def console_chunks(body:str) -> list:
    "(command without '$ ', shown output) for each `$ ` line of a console block."
    out = []
    for chunk in re.split(r'^(?=\$ )', body, flags=re.M):
        if chunk.strip():
            cmd, _, shown = chunk.partition('\n'); out.append((cmd[2:].strip(), shown))
    return out

def _markdown(path) -> str:
    nb = json.loads(pathlib.Path(path).read_text(encoding='utf-8'))
    return '\n\n'.join(''.join(c['source']) for c in nb['cells'] if c['cell_type'] == 'markdown')

def example_pages() -> list:
    "(name, markdown) of each text whose examples are checked: README.md, then each guide's markdown cells."
    return ([('README.md', (ROOT / 'README.md').read_text(encoding='utf-8'))]
            + [(p.relative_to(ROOT).as_posix(), _markdown(p)) for p in sorted(GUIDES.glob('*.ipynb'))])

def _capture(fn) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf): fn()
    return buf.getvalue()

def _rerun_console(body:str) -> str:
    from must_nbdev.cli import main
    out = []
    for cmd, shown in console_chunks(body):
        if cmd.startswith(SKIP): out.append(f'$ {cmd}\n{shown}'); continue
        argv, rc = shlex.split(cmd), []
        if argv[0] != 'must': raise SystemExit(f"README example is not a `must` command: {cmd}")
        text = _capture(lambda: rc.append(main(argv[1:])))
        if rc != [0]: raise SystemExit(f"README example failed (exit {rc}): {cmd}")
        out.append(f'$ {cmd}\n{text}')
    return ''.join(out)

def _rerun(text:str, name:str='README.md') -> str:
    "The markdown with every example's shown output replaced by a fresh run."
    repl = []                                          # (match whose body is replaced, new body)
    for m, lang, body, after in fenced_blocks(text):
        if not lang and body.startswith('$ '): repl.append((m, _rerun_console(body)))
        elif lang == 'python' and after is not None:
            repl.append((after, _capture(lambda: exec(compile(body, name, 'exec'), {'__name__': '__readme__'}))))
    for m, new in sorted(repl, key=lambda t: t[0].start(), reverse=True):
        text = text[:m.start(2)] + new + text[m.end(2):]
    return text

def main(argv) -> None:
    if '--run' in argv:
        for path in [INDEX] + sorted(GUIDES.glob('*.ipynb')):
            nb = json.loads(path.read_text(encoding='utf-8'))
            for c in nb['cells']:
                if c['cell_type'] == 'markdown' and '```' in ''.join(c['source']):
                    c['source'] = _rerun(''.join(c['source']), path.name).splitlines(keepends=True)
            path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
            print(f'{path.relative_to(ROOT).as_posix()} examples re-run')
    (ROOT / 'README.md').write_text(_markdown(INDEX) + '\n', encoding='utf-8')
    print('README.md written')

if __name__ == '__main__': main(sys.argv[1:])
