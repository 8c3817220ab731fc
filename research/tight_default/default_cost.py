"""What would a tight default cost the test run? Every `account` call of the README's test command is logged, then
each distinct query where the net applies and the fast certificate answered above TIGHT_GAP × the attack is asked
again with the quick net in five blocks (`replace(QUICK_NET, blocks=5)`), in a fresh process: the seconds that a
default "quick net wherever the fast gap exceeds TIGHT_GAP" would add, and what it would buy.

    python research/tight_default/default_cost.py log DIR       # nbdev_test and pytest, every account call logged
    python research/tight_default/default_cost.py replay DIR    # the quick net on each such query (minutes)
    python research/tight_default/default_cost.py replay DIR '{"tol": 0.2}'   # another net: QUICK_NET's fields changed
    python research/tight_default/default_cost.py render DIR    # the tables
    python research/tight_default/default_cost.py compare OLD NEW   # the same queries' replays, one library against another

The log is written by a `sitecustomize` wrapper around `must_nbdev.accounting.account.account` (the library is not
edited): one JSON line per call with the scheme (its repr, and pickled in base64), every keyword argument, the fast
answer's gap and seconds. Two calls are the same query when the scheme's repr and the arguments that shape the
answer agree; a query is eligible when one of its calls is (net applies, none asked, an attack ran, gap > 1.05).
"""
import gzip, json, os, random, shutil, subprocess, sys, tempfile
from pathlib import Path

HOOK = r'''
import base64, functools, json, os, pickle, time
import numpy as np
import must_nbdev.accounting.account as _acc
from must_nbdev.accounting.certificates import run_certificates
_inner = _acc.account
plain = lambda v: v.item() if isinstance(v, np.generic) else v if isinstance(v, (int, float, str, bool, type(None))) \
    else repr(v)                                  # numpy scalars as numbers, options (TightOptions) as their repr
@functools.wraps(_inner)                          # the docs and signature tests read account's own
def _logged(scheme, **kw):
    t0 = time.perf_counter(); r = _inner(scheme, **kw)
    row = dict(scheme=repr(scheme), pickled=base64.b64encode(pickle.dumps(scheme)).decode(),
               kwargs={k: plain(v) for k, v in kw.items()}, sigma=r.sigma, steps=r.steps, relation=r.relation,
               pair=r.pair, gap=r.theory_gap, won=r.certificate, tight=bool(kw.get('net')),
               applies=bool(r.pair == 'worst' and run_certificates(scheme, r.relation)),
               attack_ran=r.attack_ran, seconds=time.perf_counter() - t0)
    with open(os.environ['MUST_QUERY_LOG'], 'a') as f: f.write(json.dumps(row) + '\n')
    return r
_acc.account = _logged
'''

QUERY_PRELUDE = r'''
import base64, json, pickle, resource, sys, time
from dataclasses import replace
a = json.loads(sys.argv[1])             # one logged query: its scheme and the arguments that shape the answer
from must_nbdev.accounting.account import account
from must_nbdev.accounting.triangle_certificate import QUICK_NET
import scipy.stats                      # the package's lazy import, once a session: not the query's
scheme = pickle.loads(base64.b64decode(a['pickled']))
ASKED = ('sigma', 'steps', 'epochs', 'eps', 'delta', 'relation', 'accuracy', 'h', 'max_bins', 'attack_budget')
kw = ({k: v for k, v in a['kwargs'].items() if k in ASKED} if 'kwargs' in a else    # the call's own arguments
      dict(sigma=a['sigma'], steps=a['steps'], relation=a['relation'], accuracy=a['accuracy'],   # older log: the
           max_bins=a['max_bins'], eps=a['eps'], delta=a['delta'], h=a.get('h')))              # fields it kept
'''

CHILD = QUERY_PRELUDE + r'''
import must_nbdev.accounting.net_blocks as nb
t0 = time.perf_counter(); fast = account(scheme, **kw); fast_s = time.perf_counter() - t0
got, inner = [], nb.block_bound           # the net's certificate record: members, bins, blocks
nb.block_bound = lambda *p, **k: got.append(inner(*p, **k)) or got[-1]
t0 = time.perf_counter()
try:
    r = account(scheme, **kw, net=replace(QUICK_NET, **dict(dict(blocks=5), **json.loads(sys.argv[2]))))
    out = dict(fast_s=fast_s, net_s=time.perf_counter() - t0, fast_gap=fast.theory_gap, net_gap=r.theory_gap,
               won=r.certificate, fast_upper=fast.upper, net_upper=r.upper, h=fast.h,
               members=got[0].members if got else None, unlabelled=got[0].unlabelled_members if got else None)
except Exception as e:
    out = dict(fast_s=fast_s, net_s=time.perf_counter() - t0, error=f"{type(e).__name__}: {e}"[:300])
print(json.dumps(dict(out, peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)))
'''

def log(out:Path):
    "Run the README's test command (nbdev_test, then pytest) with every account call logged."
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as hook:
        Path(hook, 'sitecustomize.py').write_text(HOOK)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (hook, os.environ.get('PYTHONPATH')) if p))
        for name, cmd in (('notebooks', ['nbdev_test']), ('pytest', ['pytest', '-q', '-p', 'no:cacheprovider'])):
            plain = Path(hook, f'{name}.jsonl')      # appended by every process; compressed once at the end
            p = subprocess.run(cmd, env=dict(env, MUST_QUERY_LOG=str(plain)), capture_output=True, text=True)
            print(name, 'exit', p.returncode, p.stdout.strip().splitlines()[-1:] if p.stdout.strip() else '')
            plain.touch()                            # a run without account calls: an empty log
            with open(plain, 'rb') as f, gzip.open(out / f'{name}.jsonl.gz', 'wb') as g: shutil.copyfileobj(f, g)

SHAPE = ('sigma', 'steps', 'epochs', 'eps', 'delta', 'relation', 'pair', 'accuracy', 'h', 'max_bins', 'attack',
         'attack_budget')            # the arguments that shape the fast answer (the net's are what is replayed)

def query_key(r:dict) -> str:
    "What makes two calls the same query: the scheme's repr and the arguments, not the answer or its seconds."
    if 'kwargs' in r: asked = {k: r['kwargs'].get(k) for k in SHAPE}
    else: asked = {k: r.get(k) for k in ('sigma', 'steps', 'eps', 'delta', 'relation', 'pair', 'accuracy', 'max_bins',
                                         'h')}      # an older log: the fields it kept (attack and its budget unknown)
    return json.dumps([r['scheme'], {k: float(v) if isinstance(v, int) and not isinstance(v, bool) else v
                                     for k, v in asked.items()}], sort_keys=True)    # eps=1 is eps=1.0

def eligible(r:dict, gap:float=1.05) -> bool:
    "This call: the net applies, none was asked, an attack ran and the fast certificate answered above `gap` × it."
    return (r['applies'] and not r['tight'] and r['attack_ran'] and r['gap'] is not None
            and gap < r['gap'] < float('inf'))

def queries(out:Path) -> tuple:
    "(every call, the eligible queries: the first eligible call of each, with the run it came from)."
    rows = [dict(json.loads(l), run=name) for name in ('notebooks', 'pytest')
            for l in gzip.open(out / f'{name}.jsonl.gz', 'rt')]
    seen, todo = set(), []
    for r in rows:
        if eligible(r) and query_key(r) not in seen: seen.add(query_key(r)); todo.append(r)
    return rows, todo

def replay(out:Path, timeout:float=240, net:str='{}'):
    "The quick net in five blocks (with `net`'s fields, JSON, changed) on each eligible distinct query, one fresh process each (appends)."
    done = ({query_key(json.loads(l)['query']) for l in gzip.open(out / 'replay.jsonl.gz', 'rt')}
            if (out / 'replay.jsonl.gz').exists() else set())
    todo = queries(out)[1]
    random.Random(0).shuffle(todo)
    for r in todo:
        q = {k: v for k, v in r.items() if k != 'run'}
        if query_key(q) in done: continue
        try:
            p = subprocess.run([sys.executable, '-c', CHILD, json.dumps(q), net], capture_output=True, text=True,
                               timeout=timeout, cwd=tempfile.gettempdir())
            res = (json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 and p.stdout.strip()
                   else dict(error=p.stderr[-300:] or f'exit {p.returncode}, no output'))
        except subprocess.TimeoutExpired: res = dict(error=f'timeout {timeout:g} s', net_s=timeout)
        with gzip.open(out / 'replay.jsonl.gz', 'at') as f:          # a gzip member per line: appends
            f.write(json.dumps(dict(query=q, run=r['run'], **res, **({'net': json.loads(net)} if net != '{}' else {})))
                    + '\n')
        print(r['scheme'][:44], f"σ={r['sigma']:.3g} k={r['steps']}", res.get('fast_gap'), res.get('net_gap'),
              res.get('net_s'), res.get('error', '')[:60], flush=True)

def added(d:dict) -> float:
    "A replay's seconds added by the net: the net call's over the fast one's (which it repeats)."
    return d.get('net_s', 0) - d.get('fast_s', 0)

def med(xs) -> float:
    "The median of `xs` (nan if empty)."
    xs = sorted(xs); n = len(xs)
    return float('nan') if not n else xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2

def render(out:Path):
    "The tables: what the logs hold, and what the quick net added and bought on the eligible queries."
    rows, todo = queries(out)
    done = [json.loads(l) for l in gzip.open(out / 'replay.jsonl.gz', 'rt')]
    cost = {query_key(d['query']): d for d in done}
    print('| run | account calls | their seconds | distinct queries | eligible (distinct) | replayed | errors | '
          'added s, sum (distinct) | added s, sum (every eligible call) | median / max added s |')
    print('|---|---|---|---|---|---|---|---|---|---|')
    for run in ('notebooks', 'pytest'):
        calls = [r for r in rows if r['run'] == run]
        firsts = {}
        for r in rows: firsts.setdefault(query_key(r), r['run'])
        el = [r for r in todo if r['run'] == run]
        got = [cost[query_key(r)] for r in el if query_key(r) in cost]
        ok = [g for g in got if 'error' not in g]
        every = sum(added(cost[query_key(r)]) for r in calls if eligible(r) and query_key(r) in cost)
        secs = [added(g) for g in ok] or [float('nan')]
        print(f"| {run} | {len(calls)} | {sum(r['seconds'] for r in calls):.0f} | "
              f"{sum(1 for v in firsts.values() if v == run)} | {len(el)} | {len(got)} | {len(got) - len(ok)} | "
              f"{sum(added(g) for g in ok):.0f} | {every:.0f} | {med(secs):.1f} / {max(secs):.1f} |")
    ok = [cost[k] for k in dict.fromkeys(query_key(r) for r in todo) if k in cost and 'error' not in cost[k]]
    print()
    print('| fast gap on replay | queries | median fast gap | median gap with the quick net | at most 1.05 with the '
          'net | gain < 0.5% | median added s | median fast s |')
    print('|---|---|---|---|---|---|---|---|')
    for lo, hi in ((1.0, 1.05), (1.05, 1.2), (1.2, 2.0), (2.0, float('inf'))):
        b = [d for d in ok if lo < d['fast_gap'] <= hi or (lo == 1.0 and d['fast_gap'] == 1.0)]
        if not b: continue
        print(f"| ({lo:g}, {hi:g}] | {len(b)} | {med([d['fast_gap'] for d in b]):.3f} | "
              f"{med([d['net_gap'] for d in b]):.3f} | {sum(d['net_gap'] <= 1.05 for d in b)} | "
              f"{sum(d['net_upper'] > d['fast_upper'] * 0.995 for d in b)} | {med([added(d) for d in b]):.1f} | "
              f"{med([d['fast_s'] for d in b]):.2f} |")
    for d in done:
        if 'error' in d: print(f"- error: {d['query']['scheme']} σ={d['query']['sigma']:.3g} "
                               f"k={d['query']['steps']}: {d['error'][:120]}")

def compare(old:Path, new:Path):
    "The same queries replayed at two libraries (NEW's logs copied from OLD): added seconds and gaps, side by side."
    load = lambda d: {query_key(r['query']): r for r in map(json.loads, gzip.open(d / 'replay.jsonl.gz', 'rt'))}
    a, b = load(old), load(new)
    both = [k for k in a if k in b and 'error' not in a[k] and 'error' not in b[k]]
    family = lambda k: a[k]['query']['scheme'].split('(')[0]
    print(f"{len(both)} queries replayed without error at both; errors: {sum('error' in a[k] for k in a)} then, "
          f"{sum('error' in b[k] for k in b)} now")
    print()
    print('| queries | n | added s then, sum | added s now, sum | now / then | median added s then / now | '
          'median net gap then / now | net ε moved > 0.1% |')
    print('|---|---|---|---|---|---|---|---|')
    groups = [('all', both)] + [(f, [k for k in both if family(k) == f]) for f in sorted({family(k) for k in both})]
    groups += [('two steps (n ≤ 5)', [k for k in both if a[k]['query']['steps'] <= 2]),
               ('σ ≤ 1.1', [k for k in both if a[k]['query']['sigma'] <= 1.1])]
    for name, ks in groups:
        if not ks: continue
        sa, sb = sum(added(a[k]) for k in ks), sum(added(b[k]) for k in ks)
        moved = sum(abs(b[k]['net_upper'] - a[k]['net_upper']) > 1e-3 * abs(a[k]['net_upper']) for k in ks)
        print(f"| {name} | {len(ks)} | {sa:.0f} | {sb:.0f} | {sb / sa:.2f} | {med([added(a[k]) for k in ks]):.1f} / "
              f"{med([added(b[k]) for k in ks]):.1f} | {med([a[k]['net_gap'] for k in ks]):.3f} / "
              f"{med([b[k]['net_gap'] for k in ks]):.3f} | {moved} |")

if __name__ == '__main__':
    what, out = sys.argv[1], Path(sys.argv[2])
    if what == 'compare': compare(out, Path(sys.argv[3]))
    elif what == 'replay': replay(out, net=sys.argv[3] if len(sys.argv) > 3 else '{}')
    else: dict(log=log, render=render)[what](out)
