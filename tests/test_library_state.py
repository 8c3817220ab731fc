"""`library_state` and `adopt_state` (core/03b_library_state): the code digest changes with code and only with code,
settings travel by value, and reading the state imports nothing."""
import importlib, subprocess, sys, types
import pytest
from must_nbdev.core.library_state import adopt_state, library_state, module_digest, module_settings, state_key

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
    probe.LIMIT = held = object()   # held as another kind of object here: it differs, and is not overwritten
    assert adopt_state(state, {})[0] == 'must_nbdev._probe' and probe.LIMIT is held
    probe.LIMIT = 3
    probe.value = lambda: 2                           # other code: named, never adopted
    assert adopt_state(state, {})[0] == 'must_nbdev._probe'

def test_a_module_reloaded_unchanged_changes_no_digest():
    from must_nbdev.accounting import triangles, triangle_certificate   # noqa: F401 (loaded)
    before = state_key(library_state())
    importlib.reload(triangles)   # triangle_certificate keeps the old function objects: the same code
    assert state_key(library_state()) == before

def test_the_called_function_s_module_is_in_the_state(tmp_path, monkeypatch):
    (tmp_path / 'user_calls_probe.py').write_text("def f():\n    return 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import user_calls_probe
    assert 'user_calls_probe' in library_state(user_calls_probe.f)
    assert 'math' not in library_state(__import__('math').sqrt)   # not a Python file: nothing to compare

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
    probe.LOCK = __import__('threading').Lock()       # a repr with an address: the type alone, the same each time
    first = module_digest(probe)
    probe.LOCK = __import__('threading').Lock()
    assert module_digest(probe) == first
