"""Write README.md from the markdown cells of nbs/index.ipynb (nbdev_readme needs Quarto, which is not available offline).

    python tools/make_readme.py         # README.md from nbs/index.ipynb
    python tools/make_readme.py --run   # first re-run README's examples and store their outputs in nbs/index.ipynb

`--run` executes every console example (`$ must ...` inside a plain ``` block, except `must reproduce all`, whose
output is a full-size run) and every ```python block followed by its output block, exactly as
tests/test_readme_examples.py checks them, and replaces the shown outputs.
"""
import contextlib, io, json, pathlib, re, shlex, sys
ROOT = pathlib.Path(__file__).resolve().parents[1]
INDEX = ROOT / 'nbs' / 'index.ipynb'
FENCE = re.compile(r'^```([a-z]*)\n(.*?)^```\s*$', re.S | re.M)

def _capture(fn) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf): fn()
    return buf.getvalue()

def _rerun_console(body:str) -> str:
    from must_nbdev.cli import main
    out = []
    for chunk in re.split(r'^(?=\$ )', body, flags=re.M):
        if not chunk.strip(): continue
        cmd, _, shown = chunk.partition('\n')
        if cmd[2:].startswith('must reproduce all'): out.append(chunk); continue
        argv, rc = shlex.split(cmd[2:]), []
        if argv[0] != 'must': raise SystemExit(f"README example is not a `must` command: {cmd}")
        text = _capture(lambda: rc.append(main(argv[1:])))
        if rc != [0]: raise SystemExit(f"README example failed (exit {rc}): {cmd}")
        out.append(cmd + '\n' + text)
    return ''.join(out)

def _rerun(text:str) -> str:
    "The markdown with every example's shown output replaced by a fresh run."
    found = list(FENCE.finditer(text)); repl = {}
    for i, m in enumerate(found):
        lang, body = m.group(1), m.group(2)
        if not lang and body.startswith('$ '): repl[i] = _rerun_console(body)
        elif lang == 'python' and i + 1 < len(found):
            nxt = found[i + 1]
            if text[m.end():nxt.start()].strip() in ('', 'prints', 'prints:') and nxt.group(1) == '':
                repl[i + 1] = _capture(lambda: exec(compile(body, 'README.md', 'exec'), {'__name__': '__readme__'}))
    for i in sorted(repl, reverse=True):
        m = found[i]; text = text[:m.start(2)] + repl[i] + text[m.end(2):]
    return text

nb = json.loads(INDEX.read_text(encoding='utf-8'))
if '--run' in sys.argv[1:]:
    for c in nb['cells']:
        if c['cell_type'] == 'markdown' and '```' in ''.join(c['source']):
            c['source'] = _rerun(''.join(c['source'])).splitlines(keepends=True)
    INDEX.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
    print('nbs/index.ipynb examples re-run')
text = '\n\n'.join(''.join(c['source']) for c in nb['cells'] if c['cell_type'] == 'markdown')
(ROOT / 'README.md').write_text(text + '\n', encoding='utf-8')
print('README.md written')
