"""`library_state` and `adopt_state` (core/03b_library_state): the code digest changes with code and only with code,
settings travel by value, and reading the state imports nothing."""
import importlib, subprocess, sys, types
import pytest
from must_nbdev.core.library_state import (adopt_state, library_state, module_digest, module_settings, state_key,
                                           user_module)

@pytest.fixture
def probe():
    "A module of the library made here (its name under must_nbdev), removed afterwards."
    module = types.ModuleType('must_nbdev._probe')
    exec("LIMIT = 3\nTABLE = {'a': 1.0}\nclass Box:\n    def __init__(self): self.v = 1\ndef value(): return Box().v",
         module.__dict__)
    sys.modules[module.__name__] = module
    yield module
    del sys.modules[module.__name__]

def test_the_digest_is_the_code_and_the_settings_are_by_value(probe):
    state = library_state()
    digest, settings = state['must_nbdev._probe']
    assert settings == {'LIMIT': 3} and digest == module_digest(probe)
    probe.LIMIT = 4                                   # a setting: the same code
    assert library_state()['must_nbdev._probe'] == (digest, {'LIMIT': 4})
    probe.TABLE['a'] = 2.0                            # a public dict of plain values is code-like: read, not sent
    assert module_digest(probe) != digest
    probe.TABLE['a'] = 1.0
    exec("def __init__(self): self.v = 2", ns := {})
    probe.Box.__init__ = ns['__init__']               # a class's dunder member is its code too
    assert module_digest(probe) != digest

def test_adopting_a_state_sets_settings_and_deletes_nothing(probe):
    state = library_state()
    probe.LIMIT, probe.EXTRA = 9, 'x'
    assert adopt_state(state, {}) == (None, True) and module_settings(probe) == {'LIMIT': 3, 'EXTRA': 'x'}
    assert adopt_state(state, {}) == (None, False)
    probe.LIMIT = held = object()   # held as an object nothing names here: it differs, and is not overwritten
    assert adopt_state(state, {})[0] == 'must_nbdev._probe' and probe.LIMIT is held
    probe.LIMIT = 3
    probe.value = lambda: 2                           # other code: named, never adopted
    assert adopt_state(state, {})[0] == 'must_nbdev._probe'

def test_a_module_reloaded_unchanged_changes_no_digest():
    from must_nbdev.accounting import triangles, triangle_certificate   # noqa: F401 (loaded)
    before = state_key(library_state())
    importlib.reload(triangles)   # triangle_certificate keeps the old function objects: the same code
    assert state_key(library_state()) == before

def test_the_state_is_the_library_s_and_user_modules_are_told_apart(tmp_path, monkeypatch):
    "The user's files are never read (a worker cannot be checked against them: `process_map` keeps their calls)."
    import math, numpy, os
    (tmp_path / 'user_calls_probe.py').write_text("def f():\n    return 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import user_calls_probe
    assert 'user_calls_probe' not in library_state() and all(n.startswith('must_nbdev') for n in library_state())
    assert user_module(user_calls_probe) and user_module(types.ModuleType('made_here'))
    assert not any(user_module(m) for m in (math, numpy, os, sys, sys.modules['must_nbdev.core.library_state']))

def test_reading_the_state_imports_nothing_lazy():
    code = ("import sys; from must_nbdev.core import definitions; from must_nbdev.core.library_state import "
            "library_state; library_state(); print('scipy.special' in sys.modules)")
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == 'False', out.stderr

def test_tables_private_constants_and_decorated_code_are_code(probe, monkeypatch):
    from must_nbdev.accounting import compose
    before = module_digest(compose)
    monkeypatch.setitem(compose.UNIT_ROUNDOFF, 'double', compose.UNIT_ROUNDOFF['double'] * 2)   # numpy scalars
    assert module_digest(compose) != before
    monkeypatch.undo()
    digest = module_digest(probe)
    probe._SCALE = 2                                   # a private constant
    assert module_digest(probe) != digest
    del probe._SCALE
    import functools
    def inner(): return 1
    @functools.wraps(inner)
    def wrapper(): return inner()
    probe.decorated = wrapper; wrapper.__module__ = inner.__module__ = probe.__name__
    digest = module_digest(probe)
    exec("def inner(): return 2", ns := {})
    wrapper.__closure__[0].cell_contents = ns['inner']   # the decorated function's code, inside the closure
    assert module_digest(probe) != digest

def test_state_the_module_assigns_itself_and_a_user_s_memos_are_not_code(probe):
    exec("COUNT = 0\n_SEEN = 0\nMEMO = {}\ndef tick():\n    global _SEEN\n    _SEEN += 1", probe.__dict__)
    digest = module_digest(probe)
    probe.tick(); probe.MEMO['x'] = 1   # the library's own tables are code; a module's own counter is not
    assert module_digest(probe) != digest   # (MEMO is the library's here: a table)
    del probe.MEMO['x']
    assert module_digest(probe) == digest   # _SEEN, assigned by the module's code, is its state

def test_a_class_that_names_itself_is_read(probe):
    probe.Box.kind = probe.Box
    assert module_digest(probe)

def test_a_name_the_lazy_package_adds_changes_no_digest():
    "Reproduces the session that went serial after `must_nbdev.MustDpEvent` (a class its home makes on lookup)."
    code = ("import must_nbdev\nfrom must_nbdev.core.library_state import library_state\n"
            "before = library_state()['must_nbdev']\nmust_nbdev.MustDpEvent, must_nbdev.account\n"
            "print(library_state()['must_nbdev'] == before)")
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == 'True', out.stderr

def test_a_global_replaced_by_another_library_function_is_other_code(probe):
    from must_nbdev.core import sampling
    probe.make_scheme = sampling.make_scheme     # imported under its own name: read at home
    digest = module_digest(probe)
    probe.make_scheme = sampling.multistage      # another function of the library in its place
    assert module_digest(probe) != digest


def test_a_table_of_functions_changed_in_place_is_other_code(probe):
    "A registry (a dict of functions or of dataclasses holding them) names its functions by name and bytecode."
    exec("def other(): return 5", probe.__dict__)
    probe.OPS = {'op': probe.value}
    digest = module_digest(probe)
    probe.OPS['op'] = probe.other                     # in place: the same dict, another function
    assert module_digest(probe) != digest
    probe.OPS['op'] = probe.value
    assert module_digest(probe) == digest

def test_a_registered_certificate_is_part_of_the_state():
    "`register_certificate` changes the library's registry in place: a worker without it would answer otherwise."
    from must_nbdev.accounting import certificates
    before = state_key(library_state())
    spare = certificates.CERTIFICATES['public labels']
    toy = certificates.Certificate(**{**{f: getattr(spare, f) for f in spare.__dataclass_fields__}, 'name': 'toy'})
    with certificates.registered(toy, before='public labels'):
        assert state_key(library_state()) != before
    assert state_key(library_state()) == before

def test_an_object_a_setting_holds_is_named_by_its_type_and_stable_repr(probe):
    "A public global that is neither code, plain nor data: its type and its repr when that names no address."
    from fractions import Fraction
    probe.SCALE = Fraction(1)
    digest, settings = library_state()['must_nbdev._probe']
    assert 'SCALE' not in settings
    probe.SCALE = Fraction(7)                         # another value of the same type: its repr differs
    assert module_digest(probe) != digest
    probe.SCALE = 3.0                                 # a plain value now: a setting, no longer code
    assert module_digest(probe) != digest and library_state()['must_nbdev._probe'][1]['SCALE'] == 3.0
    probe.SCALE = Fraction(1)
    assert module_digest(probe) == digest
    probe.LOCK = __import__('threading').Lock()       # its state is nothing a digest reads: unknown, not equal
    with pytest.raises(ValueError, match='must_nbdev._probe.LOCK: a lock'):
        module_digest(probe)
    with pytest.raises(ValueError, match='LOCK'): library_state()

def test_a_registered_closure_is_read_with_what_it_captured():
    "Reproduces the review's certificate made by a factory: ε = 1 and ε = 8 gave one state, a worker the file's."
    from must_nbdev.accounting import certificates
    spare = certificates.CERTIFICATES['public labels']
    fields = {f: getattr(spare, f) for f in spare.__dataclass_fields__}
    def make_bound(eps):
        def run_bound(scheme, **query): return eps
        return run_bound
    def key(eps):
        mine = certificates.Certificate(**{**fields, 'name': 'mine', 'step_pld': None,
                                           'run_bound': make_bound(eps), 'run_floor': None})
        with certificates.registered(mine): return state_key(library_state())
    assert key(1.0) == key(1.0) and key(1.0) != key(8.0)

def test_a_table_s_functions_are_read_with_their_defaults_and_attributes(probe):
    probe.OPS = {'op': lambda x, k=1.0: x * k}
    digest = module_digest(probe)
    probe.OPS['op'] = lambda x, k=100.0: x * k        # the same code, another default
    assert module_digest(probe) != digest
    probe.OPS['op'] = fn = lambda x, k=1.0: x * k
    assert module_digest(probe) == digest
    fn.eps = 9                                         # an attribute the function may read
    assert module_digest(probe) != digest

def test_objects_are_named_by_what_they_hold(probe):
    "A namespace, an instance of a Python class, a dataclass's extra attribute, a defaultdict's factory."
    import collections, dataclasses
    exec("class Config:\n    def __init__(self, eps): self.eps = eps", probe.__dict__)
    probe.__file__ = __file__                           # the class is Python source: its instances' state is vars
    probe.CONFIG, probe.NS = probe.Config(1.0), types.SimpleNamespace(eps=1.0, mech=probe.value)
    probe.DD = collections.defaultdict(float)
    @dataclasses.dataclass
    class Box: a: float = 1.0
    probe.BOX = Box()
    digest = module_digest(probe)
    for change, undo in ((lambda: setattr(probe.CONFIG, 'eps', 8.0), lambda: setattr(probe.CONFIG, 'eps', 1.0)),
                         (lambda: setattr(probe.NS, 'eps', 8.0), lambda: setattr(probe.NS, 'eps', 1.0)),
                         (lambda: setattr(probe.DD, 'default_factory', int),
                          lambda: setattr(probe.DD, 'default_factory', float)),
                         (lambda: setattr(probe.BOX, 'extra', 5.0), lambda: delattr(probe.BOX, 'extra'))):
        change()
        assert module_digest(probe) != digest
        undo()
        assert module_digest(probe) == digest

def test_bound_methods_and_builtins_are_named_by_what_they_run(probe):
    import cmath, math
    exec("class A:\n    def run(self, x): return x + 1\nclass B:\n    def run(self, x): return x + 1000",
         probe.__dict__)
    probe.__file__ = __file__
    probe.OPS = {'method': probe.A().run, 'builtin': math.sqrt}
    digest = module_digest(probe)
    probe.OPS['method'] = probe.B().run                # another class's method of the same name
    assert module_digest(probe) != digest
    probe.OPS['method'] = probe.A().run
    assert module_digest(probe) == digest
    probe.OPS['builtin'] = cmath.sqrt                  # a builtin of the same name in another module
    assert module_digest(probe) != digest

@pytest.mark.parametrize('held', ['lock', 'generator', 'generator method', 'object array', 'masked array',
                                  'list subclass', 'cycle', 'deep'])
def test_an_object_nothing_names_makes_the_state_unreadable(probe, held):
    "Never the type alone: two locks, generators or summarised arrays would digest equal whatever they hold."
    import threading, numpy as np
    class Listed(list): pass
    cycle = []; cycle.append(cycle)
    deep = [1.0]
    for _ in range(9): deep = [deep]
    probe.HELD = {'lock': threading.Lock(), 'generator': np.random.default_rng(1),
                  'generator method': np.random.default_rng(1).normal,
                  'object array': np.array([1, 'a'], dtype=object), 'masked array': np.ma.array([1.0], mask=[1]),
                  'list subclass': Listed([1.0]), 'cycle': cycle, 'deep': deep}[held]
    with pytest.raises(ValueError, match='must_nbdev._probe.HELD'): module_digest(probe)

def test_the_library_names_everything_it_holds_under_any_hash_seed():
    "With every module loaded the library's state is readable (its workers stay on) and the same in every process."
    code = ("import hashlib, importlib, pkgutil, must_nbdev\n"
            "for m in pkgutil.walk_packages(must_nbdev.__path__, 'must_nbdev.'): importlib.import_module(m.name)\n"
            "from must_nbdev.core.library_state import library_state, state_key\n"
            "print(len(library_state()), hashlib.md5(repr(state_key(library_state())).encode()).hexdigest())")
    keys = set()
    for seed in ('1', '2'):
        out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=300,
                             env={**__import__('os').environ, 'PYTHONHASHSEED': seed})
        assert out.returncode == 0, out.stderr[-2000:]
        keys.add(out.stdout.strip())
    assert len(keys) == 1 and int(keys.pop().split()[0]) > 40

def test_a_user_module_s_private_tables_and_objects_its_setter_assigns_are_code():
    "The review's user module: `_TABLE` changed in place and `MODE = {...}` set by its setter were in no state."
    module = types.ModuleType('user_state_probe')
    exec("_TABLE = {'eps': 1.0}\nMODE = {'eps': 1.0}\n_N = 0\ndef set_mode(m):\n    global MODE, _N\n"
         "    MODE = m; _N = 1", module.__dict__)
    digest = module_digest(module, {'user_state_probe'})
    module._TABLE['eps'] = 8.0
    assert module_digest(module, {'user_state_probe'}) != digest
    module._TABLE['eps'] = 1.0
    module.set_mode({'eps': 8.0})                      # an object the setter assigns: code; _N, plain: a setting
    assert module_digest(module, {'user_state_probe'}) != digest and module_settings(module)['_N'] == 1
    module.set_mode({'eps': 1.0}); module._N = 0
    assert module_digest(module, {'user_state_probe'}) == digest

def test_adopting_a_setting_overwrites_an_object_held_under_its_name(probe):
    "A worker whose file holds Fraction(1) where the sender set 3.0 through a setter takes 3.0."
    from fractions import Fraction
    exec("def set_scale(v):\n    global SCALE\n    SCALE = v", probe.__dict__)
    probe.set_scale(3.0)
    state = library_state()
    probe.set_scale(Fraction(1))
    assert adopt_state(state, {}) == (None, True) and probe.SCALE == 3.0 and type(probe.SCALE) is float

def test_computing_leaves_the_library_s_state_as_it_was():
    "Reproduces the spurious stale state of lazy proxies (`special`, `sfft`) read by their attributes, filled on use."
    code = ("import importlib, pkgutil, must_nbdev\n"
            "for m in pkgutil.walk_packages(must_nbdev.__path__, 'must_nbdev.'): importlib.import_module(m.name)\n"
            "from must_nbdev.core.library_state import library_state\n"
            "from must_nbdev import account\nfrom must_nbdev.core.sampling import scheme_at\n"
            "from must_nbdev.accounting.triangles import triangle_net\n"
            "from must_nbdev.accounting.members import member_plds\n"
            "before = library_state()\n"
            "member_plds(triangle_net(2.0, tol=0.3), 0.02, 2.0, 2e-3, 1, 1.0)\n"
            "account(scheme_at('wor', 1000, 10), sigma=1.0, steps=10, delta=1e-5)\n"
            "print(library_state() == before)")
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == 'True', out.stderr[-2000:]

def test_the_bytecode_scan_finds_the_globals_dis_finds():
    "`_rebound` reads the bytecode itself (a 100× faster first state): the same names as `dis` for the library's code."
    import dis, pkgutil, must_nbdev
    from must_nbdev.core.library_state import _rebound
    for m in pkgutil.walk_packages(must_nbdev.__path__, 'must_nbdev.'): importlib.import_module(m.name)
    codes = []
    def walk(code):
        codes.append(code)
        for const in code.co_consts:
            if isinstance(const, types.CodeType): walk(const)
    for module in [m for n, m in list(sys.modules.items()) if n.startswith('must_nbdev') and m is not None]:
        for value in list(vars(module).values()):
            for member in [value, *(vars(value).values() if isinstance(value, type) else ())]:
                code = getattr(getattr(member, '__func__', member), '__code__', None)
                if isinstance(code, types.CodeType): walk(code)
    body = "".join(f"    a{i} = g{i}\n" for i in range(300))   # 300 globals read first: Z's index needs EXTENDED_ARG
    ns = {}; exec("def far():\n    global X, Y, Z\n    X = 1\n    del Y\n" + body + "    Z = 2\n", ns)
    far = ns['far'].__code__
    assert far.co_names.index('Z') > 255 and _rebound(far) == {'X', 'Y', 'Z'}
    walk(far)
    assert len(codes) > 1000 and any(_rebound(c) for c in codes)
    for code in codes:
        assert _rebound(code) == {i.argval for i in dis.get_instructions(code)
                                  if i.opname in ('STORE_GLOBAL', 'DELETE_GLOBAL')}, code
