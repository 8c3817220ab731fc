"""Module-level calls for `tests/test_workers.py`, importable by name in a worker process (pytest puts `tests/` on
`sys.path`, and a worker takes its parent's)."""
import os, threading

class OddError(Exception):
    "An error whose `__init__` takes other arguments than it gives `Exception` (a pickle would call it wrongly)."
    def __init__(self, value, why):
        super().__init__(f"{why}: {value}")
        self.value, self.why = value, why

def negative_is_odd(x):
    "x, or an `OddError` if x < 0."
    if x < 0: raise OddError(x, 'negative')
    return x

class LockedError(Exception):
    "An error holding a lock: pickle cannot carry it."
    def __init__(self, value):
        super().__init__(value)
        self.lock = threading.Lock()

def negative_is_locked(x):
    "x, or a `LockedError` if x < 0."
    if x < 0: raise LockedError(x)
    return x

def input_is_null(_) -> bool:
    "True if this process's standard input is the null device (a worker's)."
    return os.path.samestat(os.fstat(0), os.stat(os.devnull))

def seven() -> int:
    "7: a stand-in for a library function replaced at run time."
    return 7

CALLS = 0    # a statistic the calls keep: state of this module, not a setting
_MEMO = {}   # a memo the calls fill: a table like any other, so a worker that holds another is stale

def counted(x):
    "x, counting the call."
    global CALLS
    CALLS += 1
    return x

def memoised(x):
    "x, remembered."
    _MEMO[x] = x
    return x

def warns(x):
    "x, with a UserWarning."
    import warnings
    warnings.warn('a warning from a call')
    return x

WEIGHTS = [1.0, 2.0]   # a table the caller may change in place
_SCALE = 2             # a private setting, changed through `set_scale`

def weighted(x):
    "x times the first weight."
    return x * WEIGHTS[0]

def set_scale(value):
    "Set the scale `scaled` multiplies by."
    global _SCALE
    _SCALE = value

def scaled(x):
    "x times the scale."
    return x * _SCALE

def plus_one(x):
    "x + 1."
    return x + 1

def plus_hundred(x):
    "x + 100."
    return x + 100

OPS = {'op': plus_one}   # a registry of functions the caller may change in place

def operated(x):
    "The registered operation on x."
    return OPS['op'](x)

def adding(k):
    "A function adding k: the same code whatever k it captured."
    def add(x): return x + k
    return add

CLOSED = {'op': adding(1)}   # a registry of closures the caller may change in place

def closed(x):
    "The registered closure on x."
    return CLOSED['op'](x)
