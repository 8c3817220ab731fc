"""The subpackages are layered in dependency order (core → accounting → training → experiments → companions → the
command line: its reports, its commands, its parser): no module imports, even lazily inside a function, from a layer
above its own."""
import ast
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / 'must_nbdev'
LAYERS = ['core', 'accounting', 'training', 'experiments', 'companions', 'reports', 'commands', 'cli']

def layer_of(dotted):
    "The layer index of a module of the package ('must_nbdev.accounting.pld' -> 1), or None outside the layers."
    parts = dotted.split('.')
    if parts[0] != 'must_nbdev' or len(parts) < 2: return None
    return LAYERS.index(parts[1]) if parts[1] in LAYERS else None

def imported(tree, mod=''):
    "The package modules an AST imports (absolute names; `mod` resolves relative imports), at any depth."
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import): out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = mod.split('.')[:-node.level]
                name = '.'.join(base + ([node.module] if node.module else []))
            else: name = node.module or ''
            out.add(name)
            out |= {f'{name}.{a.name}' for a in node.names}   # `from ..experiments import efficiency`
    return {m for m in out if m.startswith('must_nbdev.')}

def imports(path):
    "The package modules a file imports (absolute names), module-level and inside functions alike."
    mod = 'must_nbdev.' + '.'.join(path.relative_to(PKG).with_suffix('').parts)
    return imported(ast.parse(path.read_text(encoding='utf-8')), mod)

MODULES = [p for p in sorted(PKG.rglob('*.py')) if layer_of('must_nbdev.' + '.'.join(p.relative_to(PKG).with_suffix('').parts)) is not None]

@pytest.mark.parametrize('path', MODULES, ids=lambda p: p.relative_to(PKG).as_posix())
def test_no_import_from_a_layer_above(path):
    own = layer_of('must_nbdev.' + '.'.join(path.relative_to(PKG).with_suffix('').parts))
    above = sorted(m for m in imports(path) if (layer_of(m) or 0) > own)
    assert not above, f'{path.relative_to(ROOT)} imports from a layer above its own: {above}'

@pytest.mark.parametrize('path', MODULES, ids=lambda p: p.relative_to(PKG).as_posix())
def test_module_level_imports_of_the_package_are_relative(path):
    # nbdev writes a notebook's `from must_nbdev.x import y` as `from .x import y`; an absolute one at module level is an
    # import it did not rewrite, unlike its neighbours (lazy imports inside functions stay absolute on purpose)
    tree = ast.parse(path.read_text(encoding='utf-8'))
    absolute = [f'line {n.lineno}' for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom)) and
                not getattr(n, 'level', 0) and any(m.startswith('must_nbdev') for m in
                ([n.module or ''] if isinstance(n, ast.ImportFrom) else [a.name for a in n.names]))]
    assert not absolute, f'{path.relative_to(ROOT)} imports the package absolutely at module level: {absolute}'

def test_the_check_sees_lazy_imports():
    src = PKG / 'core' / 'amplification.py'
    assert all(layer_of(m) == 0 for m in imports(src))
    assert layer_of('must_nbdev.experiments.efficiency') == 3 and layer_of('must_nbdev._compat') is None
    assert layer_of('must_nbdev.reports') < layer_of('must_nbdev.commands') < layer_of('must_nbdev.cli')

NBS = ROOT / 'nbs'
NOTEBOOKS = [p for p in sorted(NBS.glob('*/*.ipynb')) if p.parent.name in LAYERS]

def notebook_imports(path):
    "The package modules the code cells of a notebook import (cells that do not parse, e.g. with magics, skipped)."
    import json
    out = set()
    for cell in json.loads(path.read_text(encoding='utf-8'))['cells']:
        if cell['cell_type'] != 'code': continue
        lines = ''.join(cell['source']).splitlines(True)
        try: out |= imported(ast.parse(''.join(l for l in lines if not l.lstrip().startswith(('%', '!')))))
        except SyntaxError: continue
    return out

@pytest.mark.parametrize('path', NOTEBOOKS, ids=lambda p: p.relative_to(NBS).as_posix())
def test_no_notebook_uses_a_layer_above_its_folder(path):
    # read in order, a notebook can only use what the notebooks before it defined
    own = LAYERS.index(path.parent.name)
    above = sorted(m for m in notebook_imports(path) if (layer_of(m) or 0) > own)
    assert not above, f'{path.relative_to(ROOT)} imports from a layer above its folder: {above}'
