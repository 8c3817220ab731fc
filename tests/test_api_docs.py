"The public API documents itself: a one-line docstring and an nbdev parameter comment for every parameter."
import importlib, inspect, pkgutil
import pytest
from fastcore.docments import docments
import must_nbdev

# every module of every subpackage (core.sampling, accounting.account, ...), not only the top-level package
MODULES = sorted(m.name.removeprefix('must_nbdev.') for m in pkgutil.walk_packages(must_nbdev.__path__, 'must_nbdev.')
                 if not m.ispkg and not m.name.rsplit('.', 1)[1].startswith('_'))
assert len(MODULES) >= 24, MODULES   # 24 public modules in 0.2 (+ _compat, _modidx)

def public(mod):
    "Functions and classes a module exports."
    for name in getattr(mod, '__all__', []):
        obj = getattr(mod, name)
        if inspect.isfunction(obj) or inspect.isclass(obj): yield name, obj

@pytest.mark.parametrize('module', MODULES)
def test_every_parameter_has_a_comment(module):
    mod = importlib.import_module(f'must_nbdev.{module}')
    missing = []
    for name, obj in public(mod):
        sig_params = inspect.signature(obj).parameters      # a class: its constructor's (*args, **kwargs exempt)
        varkw = {p for p, v in sig_params.items() if v.kind in (v.VAR_KEYWORD, v.VAR_POSITIONAL)}
        if inspect.isclass(obj) and not sig_params: varkw = {'args', 'kwargs'}   # no constructor of its own (object's)
        docs = docments(obj)
        if inspect.isclass(obj):                            # a subclass's inherited dataclass fields: the base's comments
            for base in obj.__mro__[1:-1]:
                docs = {p: c or docments(base).get(p) for p, c in docs.items()}
        missing += [f"{name}({p})" for p, c in docs.items() if p not in ('return', 'self') and p not in varkw and not c]
    assert not missing, f"parameters without an nbdev comment in {module}: {missing}"

@pytest.mark.parametrize('module', MODULES)
def test_every_export_has_a_one_line_docstring(module):
    mod = importlib.import_module(f'must_nbdev.{module}')
    bad = [name for name, obj in public(mod) if not obj.__doc__ or '\n' in obj.__doc__.strip()]
    assert not bad, f"exports without a one-line docstring in {module}: {bad}"
