"""Helpers shared by test files: the CLI in a subprocess, a strict JSON parser, fuzz-friendly scheme builders, a pair's
δ(ε) from its losses on a fine grid, a counter of the lattice sums' transforms."""
import contextlib, json, subprocess, sys
import numpy as np
from hypothesis import strategies as st
from must_nbdev.core.sampling import make_scheme, scheme_at

def strict_json(text):
    "json.loads that refuses NaN/Infinity tokens."
    def bad(tok): raise ValueError(f"non-JSON token {tok}")
    return json.loads(text, parse_constant=bad)

def run_cli(*argv):
    "Run `must` in a subprocess: (exit status, stdout, stderr)."
    p = subprocess.run([sys.executable, '-c', 'from must_nbdev.cli import _console; _console()', *argv],
                       capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr

FUZZ_SCHEME = st.sampled_from(['poisson', 'wor', 'wr', 'must-ow', 'must-wo', 'must-ww'])

def fuzz_scheme(name, n, m, b):
    "A valid scheme of registry `name` near (n, m, b): sizes clipped to what the scheme allows."
    if name == 'poisson': return make_scheme(name, n, q=min(1.0, m / n))
    if name in ('wor',): return make_scheme(name, n, m=min(m, n))
    if name == 'must-ow': return make_scheme(name, n, m=m, b=min(b, n))
    if name == 'must-wo': return make_scheme(name, n, m=min(m, b), b=b)
    return scheme_at(name, n, m, b=b)

def loss_law_deltas(loss, mass, eps_list, epochs, h):
    "δ(ε) of `epochs` independent copies of a pair given by its losses and P-masses: the loss histogram on the grid h, convolved."
    j = np.round(np.asarray(loss) / h).astype(int); j0 = j.min()
    one = np.bincount(j - j0, mass); law, start = one, j0
    for _ in range(epochs - 1): law, start = np.convolve(law, one), start + j0
    s = (start + np.arange(len(law))) * h
    return [float(np.sum(law * np.maximum(0, -np.expm1(e - s)))) for e in eps_list]

def paragraph(out, start):
    "The CLI paragraph whose first line starts with `start` (after its indent), its wrapped lines joined by spaces."
    lines = out.splitlines()
    i = next(i for i, l in enumerate(lines) if l.strip().startswith(start))
    indent = len(lines[i]) - len(lines[i].lstrip())
    j = i + 1
    while j < len(lines) and len(lines[j]) - len(lines[j].lstrip()) > indent and lines[j].strip(): j += 1
    return ' '.join(l.strip() for l in lines[i:j])

@contextlib.contextmanager
def counted_transforms():
    "Within: every rfft and irfft that `accounting.lattice` calls is recorded as (name, length) in the yielded list."
    from must_nbdev.accounting import lattice
    calls, real = [], lattice.sfft
    class Counting:
        def __getattr__(self, name):
            f = getattr(real, name)
            if name not in ('rfft', 'irfft'): return f
            return lambda *a, **kw: (calls.append((name, a[1])), f(*a, **kw))[1]
    lattice.sfft = Counting()
    try: yield calls
    finally: lattice.sfft = real
