"""`process_map` (core/04_workers): the results of one process, in order, whatever shares the calls; errors are the
calls' own; a dead worker's calls are computed anyway; a worker that imported another library is never used."""
import math, os, threading, time
import numpy as np
import pytest
import must_nbdev.core.workers as workers
from must_nbdev.core.workers import process_map

CALLS = [(float(x),) for x in range(300)]
ROOTS = [math.sqrt(x) for x, in CALLS]

def _wait_ready(pool, seconds=30.0):
    "Until every worker of `pool` has announced itself (math.sqrt is too quick to wait for one)."
    end = time.monotonic() + seconds
    while not all(w.ready for w in pool.workers):
        assert time.monotonic() < end, 'a worker did not start'
        time.sleep(0.01)

@pytest.fixture
def fresh_pool():
    "A pool of this test's own, closed afterwards (the session's pool is left as it was)."
    old = workers._POOL
    workers._POOL = None
    yield workers._pool()
    workers.close_workers()
    workers._POOL = old

@pytest.fixture
def share_user_code(monkeypatch):
    "Share the calls of `tests/_worker_calls.py` (the user's code) with workers: the mechanics, not the state."
    monkeypatch.setattr(workers, 'SHARE_USER_CODE', True)

@pytest.mark.parametrize('processes', [1, 2, 3])
def test_results_are_one_process_s_in_order(processes):
    assert process_map(math.sqrt, CALLS, processes) == ROOTS

def test_calls_that_take_time_are_shared_with_a_worker(fresh_pool):
    assert process_map(time.sleep, [(0.05,)] * 80, 2) == [None] * 80
    assert sum(w.answered for w in fresh_pool.workers) > 0

def test_numpy_results_have_the_same_bits(fresh_pool):
    args = [(np.linspace(-40, 8, 1001) + i / 7,) for i in range(64)]
    process_map(np.exp, args[:2], 2); _wait_ready(fresh_pool)
    shared = process_map(np.exp, args, 2)
    assert sum(w.answered for w in fresh_pool.workers) > 0
    assert all(np.array_equal(a, np.exp(x)) for a, (x,) in zip(shared, args))

def test_an_error_is_the_call_s_own_whichever_process_raised_it(fresh_pool):
    process_map(math.sqrt, CALLS, 2); _wait_ready(fresh_pool)
    for at in (0, 150, 299):   # the worker takes the front, this process the back
        calls = list(CALLS); calls[at] = (-1.0,)
        with pytest.raises(ValueError, match='math domain error'): process_map(math.sqrt, calls, 2)
    assert process_map(math.sqrt, CALLS, 2) == ROOTS   # the pool still works

def test_a_dead_worker_is_replaced_and_its_calls_computed(fresh_pool):
    process_map(math.sqrt, CALLS, 2); _wait_ready(fresh_pool)
    first = fresh_pool.workers[0]
    first.proc.kill(); first.proc.wait()
    assert process_map(math.sqrt, CALLS, 2) == ROOTS
    process_map(math.sqrt, CALLS, 2)
    assert first not in fresh_pool.workers and fresh_pool.workers and not fresh_pool.broken

def test_a_worker_that_imported_another_library_is_never_used(fresh_pool):
    fresh_pool.library = '/elsewhere/must_nbdev/__init__.py'
    assert process_map(math.sqrt, CALLS, 2) == ROOTS
    end = time.monotonic() + 30
    while not fresh_pool.broken:
        assert time.monotonic() < end, 'the pool kept a worker of another library'
        time.sleep(0.01)
    assert process_map(math.sqrt, CALLS, 2) == ROOTS and not any(w.ready for w in fresh_pool.workers)
    end = time.monotonic() + 30
    while any(w.proc.poll() is None for w in fresh_pool.workers):   # stopped and reaped: no process left behind
        assert time.monotonic() < end, 'the worker of another library was not reaped'
        time.sleep(0.01)

def test_what_cannot_travel_is_computed_here(fresh_pool, monkeypatch):
    assert process_map(lambda x: 2 * x, [(1,), (2,)], 2) == [2, 4]          # a lambda pickles by value: not at all
    monkeypatch.setenv(workers.WORKER_FLAG, '1')                             # inside a worker: never more workers
    assert process_map(math.sqrt, CALLS, 2) == ROOTS and not fresh_pool.workers
    monkeypatch.delenv(workers.WORKER_FLAG)
    monkeypatch.setattr(workers, 'WORKER_PROCESSES', False)                  # switched off
    assert process_map(math.sqrt, CALLS, 2) == ROOTS and not fresh_pool.workers

def test_a_forked_process_starts_a_pool_of_its_own(fresh_pool, monkeypatch):
    process_map(math.sqrt, CALLS, 2)
    monkeypatch.setattr(fresh_pool, 'pid', -1)   # as seen from a process forked after the pool started
    assert workers._pool() is not fresh_pool
    assert process_map(math.sqrt, CALLS, 2) == ROOTS
    workers.close_workers(); workers._POOL = fresh_pool; fresh_pool.pid = os.getpid()

def test_two_threads_at_once_each_get_their_own_results(fresh_pool):
    out = {}
    def run(k): out[k] = process_map(math.pow, [(float(x), k) for x in range(400)], 2)
    threads = [threading.Thread(target=run, args=(k,)) for k in (2.0, 3.0)]
    for t in threads: t.start()
    for t in threads: t.join()
    assert all(out[k] == [math.pow(float(x), k) for x in range(400)] for k in (2.0, 3.0))

@pytest.mark.parametrize('processes', [True, 2.0, '2'])
def test_processes_must_be_an_integer(processes):
    with pytest.raises(TypeError, match='processes must be an integer'): process_map(math.sqrt, CALLS, processes)
    assert process_map(math.sqrt, CALLS, np.int64(2)) == ROOTS

def test_closing_reaps_the_workers(fresh_pool):
    process_map(math.sqrt, CALLS, 2); _wait_ready(fresh_pool)
    procs = [w.proc for w in fresh_pool.workers]
    workers.close_workers()
    assert procs and all(p.poll() is not None for p in procs) and not fresh_pool.workers

def test_closing_before_a_worker_announced_itself_does_not_turn_the_pool_off(fresh_pool):
    process_map(math.sqrt, CALLS, 2)                 # starts a worker, most likely not ready yet
    early = list(fresh_pool.workers)
    workers.close_workers()
    for w in early: w.proc.wait(30)
    time.sleep(0.2)                                  # its reader sees the pipe close
    assert not fresh_pool.broken
    process_map(math.sqrt, CALLS, 2); _wait_ready(fresh_pool)
    assert fresh_pool.workers and not set(fresh_pool.workers) & set(early)

def test_a_function_of_main_or_one_a_worker_cannot_import_is_computed_here(fresh_pool):
    import sys, types
    def twice(x): return 2 * x
    twice.__module__ = '__main__'                       # a notebook's or script's own: a worker's __main__ is another
    assert process_map(twice, [(1,), (2,)], 2) == [2, 4] and not fresh_pool.workers
    only_here = types.ModuleType('must_nbdev_only_here')   # importable here, not in a fresh interpreter
    twice.__module__ = only_here.__name__; twice.__qualname__ = 'twice'; only_here.twice = twice
    sys.modules[only_here.__name__] = only_here
    try:
        process_map(math.sqrt, CALLS, 2); _wait_ready(fresh_pool)
        calls = [(x,) for x in range(300)]
        assert process_map(twice, calls, 2) == [2 * x for x in range(300)]   # every chunk refused, computed here
        assert process_map(math.sqrt, CALLS, 2) == ROOTS and all(w.alive for w in fresh_pool.workers)
    finally: del sys.modules[only_here.__name__]

def test_an_error_keeps_its_own_type_and_arguments(fresh_pool, share_user_code):
    from _worker_calls import OddError, LockedError, negative_is_odd, negative_is_locked
    process_map(math.sqrt, CALLS, 2); _wait_ready(fresh_pool)
    calls = [(float(x),) for x in range(300)]; calls[0] = (-1.0,)   # the worker's chunk: the front
    with pytest.raises(OddError) as caught: process_map(negative_is_odd, calls, 2)
    assert (caught.value.value, caught.value.why) == (-1.0, 'negative')
    with pytest.raises(LockedError): process_map(negative_is_locked, calls, 2)   # not a RuntimeError
    assert process_map(math.sqrt, CALLS, 2) == ROOTS and fresh_pool.workers[0].alive

def test_the_error_raised_is_the_first_failing_call_s_whatever_the_timing(fresh_pool, share_user_code):
    from _worker_calls import OddError, negative_is_odd
    process_map(math.sqrt, CALLS, 2); _wait_ready(fresh_pool)
    for first, second in ((3, 290), (150, 151), (10, 11), (280, 299)):
        calls = [(float(x),) for x in range(300)]; calls[first] = (-1.0 - first,); calls[second] = (-1.0 - second,)
        for _ in range(3):
            with pytest.raises(OddError) as caught: process_map(negative_is_odd, calls, 2)
            assert caught.value.value == -1.0 - first

def test_a_setting_assigned_at_run_time_is_the_one_every_call_sees(fresh_pool, monkeypatch):
    from must_nbdev.accounting import compose, upper_dp
    from must_nbdev.core import definitions
    process_map(math.sqrt, CALLS, 2); _wait_ready(fresh_pool)
    first, calls = fresh_pool.workers[0], [()] * 2000
    for value in (7, 3, -1):   # a worker imports the library with FFT_WORKERS = -1: it adopts each
        monkeypatch.setattr(compose, 'FFT_WORKERS', value)
        before = first.answered
        assert process_map(upper_dp.worker_threads, calls, 2) == [upper_dp.worker_threads()] * 2000
        assert first.answered > before and first.alive and not fresh_pool.unmatched
    with definitions.memory_budget(definitions.MEMORY_BUDGET // 2):   # as the CLI runs every command
        before = first.answered
        assert process_map(math.sqrt, CALLS, 2) == ROOTS and first.answered > before

def test_code_replaced_at_run_time_is_run_here_alone(fresh_pool, monkeypatch):
    from _worker_calls import seven
    from must_nbdev.accounting import upper_dp
    process_map(math.sqrt, CALLS, 2); _wait_ready(fresh_pool)
    first, calls = fresh_pool.workers[0], [()] * 2000
    monkeypatch.setattr(upper_dp, 'usable_cores', seven)   # code no fresh import has
    assert process_map(upper_dp.worker_threads, calls, 2) == [7] * 2000   # the worker answered stale
    assert not first.alive and not fresh_pool.unmatched
    process_map(math.sqrt, CALLS, 2); _wait_ready(fresh_pool)   # a new worker, started under that code
    assert process_map(upper_dp.worker_threads, calls, 2) == [7] * 2000
    assert fresh_pool.unmatched                                   # its files cannot give it: this process alone
    monkeypatch.undo()
    process_map(math.sqrt, CALLS, 2); _wait_ready(fresh_pool)
    before = sum(w.answered for w in fresh_pool.workers)
    assert process_map(upper_dp.worker_threads, calls, 2) == [upper_dp.worker_threads()] * 2000
    assert sum(w.answered for w in fresh_pool.workers) > before   # the library's own code is shared again

def test_numpy_s_error_handling_and_warnings_are_the_caller_s(fresh_pool):
    process_map(math.sqrt, CALLS, 2); _wait_ready(fresh_pool)
    args = [(np.array([0.0, 1.0]),)] * 200
    with np.errstate(divide='raise'):
        with pytest.raises(FloatingPointError): process_map(np.log, args, 2)
    with np.errstate(divide='warn'):
        with pytest.warns(RuntimeWarning): process_map(np.log, args, 2)
    with np.errstate(divide='ignore'):
        assert all(np.array_equal(r, [-np.inf, 0.0]) for r in process_map(np.log, args, 2))

EDITS = {   # a file edited after this process imported it: (module, function called, old text, new text)
    'a library function': ('must_nbdev.accounting.upper_dp', 'worker_threads', 'def worker_threads() -> int:',
                           'def worker_threads() -> int:\n    return 99'),
    "a user module's class __init__": ('user_calls', 'value', 'self.v = 1', 'self.v = 99'),
    "a user module's private constant": ('user_calls', 'scaled', '_SCALE = 1', '_SCALE = 99'),   # (by value)
    "a user module's decorated function": ('user_calls', 'decorated', 'return 1  # inner', 'return 99'),
}
USER_CALLS = """
class Box:
    def __init__(self):
        self.v = 1
def value():
    return Box().v
_SCALE = 1
def scaled():
    return _SCALE
import functools
def _logged(f):
    @functools.wraps(f)
    def wrapper(*args):
        return f(*args)
    return wrapper
@_logged
def decorated():
    return 1  # inner
"""

@pytest.mark.parametrize('edit', list(EDITS))
def test_a_file_edited_after_import_is_not_run_by_workers(tmp_path, edit):
    import shutil, subprocess, sys
    shutil.copytree(os.path.dirname(workers.__file__).rsplit(os.sep, 1)[0], tmp_path / 'must_nbdev',
                    ignore=shutil.ignore_patterns('__pycache__'))
    (tmp_path / 'user_calls.py').write_text(USER_CALLS)
    module, name, old, new = EDITS[edit]
    script = f"""
import importlib, math, sys, time
sys.path.insert(0, {str(tmp_path)!r})
from must_nbdev.core import workers
module = importlib.import_module({module!r})
assert module.__file__.startswith({str(tmp_path)!r})
workers.process_map(math.sqrt, [(2.0,)] * 100, 2)
while not all(w.ready for w in workers._pool().workers): time.sleep(0.01)
first = workers._pool().workers[0]
text = open(module.__file__).read()   # the file changes on disk; this process keeps the code it imported
assert {old!r} in text
with open(module.__file__, 'w') as f: f.write(text.replace({old!r}, {new!r}, 1))
fn = getattr(module, {name!r})
print(sorted(set(workers.process_map(fn, [()] * 2000, 2))), fn(),
      not first.alive or first.answered > 0 or not workers._shareable(fn))   # (the user's: computed here)
"""
    out = subprocess.run([sys.executable, '-c', script], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert out.returncode == 0, out.stderr
    values, here, checked = out.stdout.rsplit(None, 2)[0], *out.stdout.split()[-2:]
    assert values == f'[{here}]' and checked == 'True' and here != '99'   # stale, or computed with this value

@pytest.mark.skipif(not hasattr(os, 'fork'), reason='POSIX fork')
def test_a_forked_child_lets_go_of_the_parent_s_workers(fresh_pool):
    process_map(math.sqrt, CALLS, 2); _wait_ready(fresh_pool)
    pipes = [w.proc.stdin.fileno() for w in fresh_pool.workers] + [w.proc.stdout.fileno() for w in fresh_pool.workers]
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:   # the child: its copies of the pipes are the null device, and it has no pool
        null = os.stat(os.devnull)
        os.write(write, b'1' if workers._POOL is None and all(os.path.samestat(os.fstat(p), null) for p in pipes)
                 else b'0')
        os._exit(0)
    os.close(write); said = os.read(read, 1); os.close(read); os.waitpid(pid, 0)
    assert said == b'1' and pipes
    assert process_map(math.sqrt, CALLS, 2) == ROOTS and all(w.alive for w in fresh_pool.workers)

def test_a_worker_s_standard_input_is_the_null_device(fresh_pool, share_user_code):
    from _worker_calls import input_is_null
    process_map(math.sqrt, CALLS, 2); _wait_ready(fresh_pool)
    answers = process_map(input_is_null, [(i,) for i in range(2000)], 2)
    assert any(answers[:10])   # the worker's chunk, the front

def test_usable_cores_counts_this_process_s_affinity():
    expected = len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()
    assert workers.usable_cores() == max(1, expected or 1)

def test_calls_that_keep_statistics_or_private_memos_are_shared(fresh_pool, share_user_code):
    "Shared user code: a counter or a memo the calls fill are their process's own (the state never reads them)."
    import _worker_calls
    process_map(math.sqrt, CALLS, 2); _wait_ready(fresh_pool)
    try:
        for fn in (_worker_calls.counted, _worker_calls.memoised, _worker_calls.counted, _worker_calls.memoised):
            before = sum(w.answered for w in fresh_pool.workers)
            assert process_map(fn, [(i,) for i in range(2000)], 2) == list(range(2000))
            assert sum(w.answered for w in fresh_pool.workers) > before and not fresh_pool.unmatched
    finally: _worker_calls._MEMO.clear()

def test_a_warning_the_caller_ignores_is_ignored_on_the_worker(fresh_pool, share_user_code):
    import warnings
    from _worker_calls import warns
    process_map(math.sqrt, CALLS, 2); _wait_ready(fresh_pool)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        before = sum(w.answered for w in fresh_pool.workers)
        assert process_map(warns, [(i,) for i in range(2000)], 2) == list(range(2000))
        assert sum(w.answered for w in fresh_pool.workers) > before
    with pytest.warns(UserWarning, match='a warning from a call'):   # shown: the caller computes and warns
        process_map(warns, [(i,) for i in range(2000)], 2)

def _change(name):
    "A change to `tests/_worker_calls.py`'s state in this process, and its undoing (the review's reproducers)."
    import threading, _worker_calls as calls
    return {'table in place': (lambda: calls.WEIGHTS.__setitem__(0, 7.0), lambda: calls.WEIGHTS.__setitem__(0, 1.0)),
            'registry in place': (lambda: calls.OPS.__setitem__('op', calls.plus_hundred),
                                  lambda: calls.OPS.__setitem__('op', calls.plus_one)),
            'closure in place': (lambda: calls.CLOSED.__setitem__('op', calls.adding(100)),
                                 lambda: calls.CLOSED.__setitem__('op', calls.adding(1))),
            'private setting': (lambda: calls.set_scale(5), lambda: calls.set_scale(2)),
            'a lock': (lambda: setattr(calls, 'HELD', threading.Lock()), lambda: delattr(calls, 'HELD'))}[name]

@pytest.mark.parametrize('change', ['table in place', 'registry in place', 'closure in place', 'private setting',
                                    'a lock'])
def test_the_user_s_function_runs_here_whatever_its_module_holds(fresh_pool, change):
    "No worker can be checked against the user's runtime state: their function's calls run in this process."
    import _worker_calls as calls
    process_map(math.sqrt, CALLS, 2); _wait_ready(fresh_pool)
    before = {id(w): w.answered for w in fresh_pool.workers}
    do, undo = _change(change)
    do()
    try:
        for fn in (calls.weighted, calls.operated, calls.closed, calls.scaled):
            assert process_map(fn, [(float(i),) for i in range(2000)], 2) == [fn(float(i)) for i in range(2000)]
        assert all(w.answered == before.get(id(w), 0) for w in fresh_pool.workers)
        assert all(w.alive for w in fresh_pool.workers) and not fresh_pool.unmatched
    finally: undo()

def test_an_argument_of_the_user_s_code_keeps_the_calls_here(fresh_pool):
    "A library or builtin function called on an object of the user's class: the worker would unpickle the file's."
    import _worker_calls
    process_map(math.sqrt, CALLS, 2); _wait_ready(fresh_pool)
    before = {id(w): w.answered for w in fresh_pool.workers}
    errors = [(_worker_calls.OddError(i, 'odd'),) for i in range(2000)]
    assert process_map(str, errors, 2) == [str(e) for e, in errors]
    assert all(w.answered == before.get(id(w), 0) for w in fresh_pool.workers)
    before = sum(w.answered for w in fresh_pool.workers)
    assert process_map(time.sleep, [(0.01,)] * 200, 2) == [None] * 200   # plain arguments: shared
    assert sum(w.answered for w in fresh_pool.workers) > before

def test_shared_user_code_runs_on_workers_as_its_file_defines(fresh_pool, share_user_code):
    "SHARE_USER_CODE: the user's function on workers, on their word that the file holds what this process runs."
    import _worker_calls
    process_map(math.sqrt, CALLS, 2); _wait_ready(fresh_pool)
    before = sum(w.answered for w in fresh_pool.workers)
    assert process_map(_worker_calls.weighted, [(float(i),) for i in range(2000)], 2) == [float(i) for i in range(2000)]
    assert sum(w.answered for w in fresh_pool.workers) > before

def test_a_warning_category_a_worker_cannot_import_does_not_stop_it(fresh_pool):
    import warnings
    class LocalWarning(UserWarning): pass
    LocalWarning.__module__ = '__main__'   # a script's own: a worker's __main__ has no such class
    process_map(math.sqrt, CALLS, 2); _wait_ready(fresh_pool)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', LocalWarning)
        before = sum(w.answered for w in fresh_pool.workers)
        assert process_map(math.sqrt, CALLS * 10, 2) == ROOTS * 10
        assert sum(w.answered for w in fresh_pool.workers) > before
