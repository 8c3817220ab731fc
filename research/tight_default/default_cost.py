"""What would a tight default cost the test run? Every `account` call of the README's test command is logged, then
each distinct query where the net applies and the fast certificate answered above TIGHT_GAP × the attack is asked
again with the quick net in five blocks (`replace(QUICK_NET, blocks=5)`), in a fresh process: the seconds that a
default "quick net wherever the fast gap exceeds TIGHT_GAP" would add, and what it would buy.

    python research/tight_default/default_cost.py log DIR       # nbdev_test and pytest, every account call logged
    python research/tight_default/default_cost.py replay DIR    # the quick net on each such query (minutes)
    python research/tight_default/default_cost.py render DIR    # the tables

The log is written by a `sitecustomize` wrapper around `must_nbdev.accounting.account.account` (the library is not
edited): one JSON line per call with the query, the scheme pickled (base64), the fast answer's gap and seconds.
"""
import base64, gzip, json, os, random, shutil, subprocess, sys, tempfile
from pathlib import Path

HOOK = r'''
import base64, json, os, pickle, time
import must_nbdev.accounting.account as _acc
from must_nbdev.accounting.certificates import run_certificates
_inner = _acc.account
def _logged(scheme, **kw):
    t0 = time.perf_counter(); r = _inner(scheme, **kw)
    relation = r.relation
    row = dict(scheme=str(scheme), pickled=base64.b64encode(pickle.dumps(scheme)).decode(), sigma=r.sigma,
               steps=r.steps, eps=kw.get('eps'), delta=kw.get('delta'), relation=relation, pair=r.pair,
               gap=r.theory_gap, won=r.certificate, tight=bool(kw.get('net')),
               accuracy=kw.get('accuracy', 1.005), max_bins=kw.get('max_bins', 2**21), h=kw.get('h'),
               applies=bool(r.pair == 'worst' and run_certificates(scheme, relation)),
               attack_ran=r.attack_ran, seconds=time.perf_counter() - t0)
    with open(os.environ['MUST_QUERY_LOG'], 'a') as f: f.write(json.dumps(row) + '\n')
    return r
_acc.account = _logged
'''

CHILD = r'''
import base64, json, pickle, resource, sys, time
from dataclasses import replace
a = json.loads(sys.argv[1])
from must_nbdev.accounting.account import account
from must_nbdev.accounting.triangle_certificate import QUICK_NET
import must_nbdev.accounting.net_blocks as nb
import scipy.stats                      # the package's lazy import, once a session: not the query's
scheme = pickle.loads(base64.b64decode(a['pickled']))
kw = dict(sigma=a['sigma'], steps=a['steps'], relation=a['relation'], accuracy=a['accuracy'],
          max_bins=a['max_bins'], eps=a['eps'], delta=a['delta'], h=a.get('h'))
t0 = time.perf_counter(); fast = account(scheme, **kw); fast_s = time.perf_counter() - t0
got, inner = [], nb.block_bound           # the net's certificate record: members, bins, blocks
nb.block_bound = lambda *p, **k: got.append(inner(*p, **k)) or got[-1]
t0 = time.perf_counter()
try:
    r = account(scheme, **kw, net=replace(QUICK_NET, blocks=5))
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
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([hook, os.environ.get('PYTHONPATH', '')]))
        for name, cmd in (('notebooks', ['nbdev_test']), ('pytest', ['pytest', '-q', '-p', 'no:cacheprovider'])):
            plain = Path(hook, f'{name}.jsonl')      # appended by every process; compressed once at the end
            p = subprocess.run(cmd, env=dict(env, MUST_QUERY_LOG=str(plain)), capture_output=True, text=True)
            print(name, 'exit', p.returncode, p.stdout.strip().splitlines()[-1:] if p.stdout.strip() else '')
            with open(plain, 'rb') as f, gzip.open(out / f'{name}.jsonl.gz', 'wb') as g: shutil.copyfileobj(f, g)

QUERY = ('pickled', 'sigma', 'steps', 'eps', 'delta', 'relation', 'pair', 'accuracy', 'max_bins', 'h')

def query_key(r:dict) -> str:
    "What makes two calls the same query: the scheme and the arguments, not the answer or its seconds."
    return json.dumps([r.get(k) for k in QUERY])

def queries(out:Path) -> tuple:
    "(every call, the distinct queries: each the first call that asked it) of both logs."
    rows = [dict(json.loads(l), run=name) for name in ('notebooks', 'pytest')
            for l in gzip.open(out / f'{name}.jsonl.gz', 'rt')]
    seen, distinct = set(), []
    for r in rows:
        if query_key(r) not in seen: seen.add(query_key(r)); distinct.append(r)
    return rows, distinct

def eligible(r:dict, gap:float=1.05) -> bool:
    "The net applies, none was asked, an attack ran and the fast certificate answered above `gap` × it."
    return (r['applies'] and not r['tight'] and r['attack_ran'] and r['gap'] is not None
            and gap < r['gap'] < float('inf'))

def replay(out:Path, timeout:float=240):
    "The quick net in five blocks on each eligible distinct query, one fresh process each (appends)."
    done = ({query_key(json.loads(l)['query']) for l in gzip.open(out / 'replay.jsonl.gz', 'rt')}
            if (out / 'replay.jsonl.gz').exists() else set())
    todo = [r for r in queries(out)[1] if eligible(r)]
    random.Random(0).shuffle(todo)
    for r in todo:
        q = {k: v for k, v in r.items() if k != 'run'}
        if query_key(q) in done: continue
        try:
            p = subprocess.run([sys.executable, '-c', CHILD, json.dumps(q)], capture_output=True, text=True,
                               timeout=timeout, cwd=tempfile.gettempdir())
            res = json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 else dict(error=p.stderr[-300:])
        except subprocess.TimeoutExpired: res = dict(error=f'timeout {timeout:g} s', net_s=timeout)
        with gzip.open(out / 'replay.jsonl.gz', 'at') as f:          # a gzip member per line: appends
            f.write(json.dumps(dict(query=q, run=r['run'], **res)) + '\n')
        print(r['scheme'][:44], f"σ={r['sigma']:.3g} k={r['steps']}", res.get('fast_gap'), res.get('net_gap'),
              res.get('net_s'), res.get('error', '')[:60], flush=True)

def render(out:Path):
    "The tables: what the logs hold, and what the quick net added and bought on the eligible queries."
    rows, distinct = queries(out)
    done = [json.loads(l) for l in gzip.open(out / 'replay.jsonl.gz', 'rt')]
    cost, key = {query_key(d['query']): d for d in done}, query_key
    med = lambda xs: sorted(xs)[len(xs) // 2] if xs else float('nan')
    print('| run | account calls | their seconds | distinct queries | net applies | fast gap > 1.05 (distinct) | '
          'replayed | net seconds, sum (distinct) | net seconds, sum (every call) | median / max net s | '
          'errors |')
    print('|---|---|---|---|---|---|---|---|---|---|---|')
    for run in ('notebooks', 'pytest'):
        calls = [r for r in rows if r['run'] == run]; dist = [r for r in distinct if r['run'] == run]
        el = [r for r in dist if eligible(r)]
        got = [cost[key(r)] for r in el if key(r) in cost]
        ok = [g for g in got if 'error' not in g]
        every = sum(cost[key(r)].get('net_s', 0) for r in calls if eligible(r) and key(r) in cost)
        secs = [g['net_s'] for g in ok]
        print(f"| {run} | {len(calls)} | {sum(r['seconds'] for r in calls):.0f} | {len(dist)} | "
              f"{sum(r['applies'] and r['pair'] == 'worst' for r in dist)} | {len(el)} | {len(got)} | "
              f"{sum(g.get('net_s', 0) for g in got):.0f} | {every:.0f} | {med(secs):.1f} / {max(secs):.1f} | "
              f"{len(got) - len(ok)} |")
    ok = [d for d in done if 'error' not in d]
    print()
    print('| fast gap | queries | median fast gap | median gap with the quick net | at most 1.05 with the net | '
          'median net s | median fast s |')
    print('|---|---|---|---|---|---|---|')
    for lo, hi in ((1.05, 1.2), (1.2, 2.0), (2.0, float('inf'))):
        b = [d for d in ok if lo < d['fast_gap'] <= hi]
        if not b: continue
        print(f"| ({lo:g}, {hi:g}] | {len(b)} | {med([d['fast_gap'] for d in b]):.3f} | "
              f"{med([d['net_gap'] for d in b]):.3f} | {sum(d['net_gap'] <= 1.05 for d in b)} | "
              f"{med([d['net_s'] for d in b]):.1f} | {med([d['fast_s'] for d in b]):.2f} |")
    for d in done:
        if 'error' in d: print(f"- error: {d['query']['scheme']} σ={d['query']['sigma']:.3g} "
                               f"k={d['query']['steps']}: {d['error'][:120]}")

if __name__ == '__main__':
    what, out = sys.argv[1], Path(sys.argv[2])
    dict(log=log, replay=replay, render=render)[what](out)
