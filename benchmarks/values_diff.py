"""Do the numbers change between two commits? Runs `must reproduce all` and the accountant benchmark's values for
`ours` at each commit (a git worktree each, both side by side) and prints every CSV cell that differs, apart from
the columns that are wall-clock timings.

    python benchmarks/values_diff.py BASE [HEAD] [--quick] [--keep DIR]

BASE and HEAD are commits (HEAD defaults to HEAD). --quick runs `must reproduce all --quick` (minutes instead of the
full size's ~40 minutes per commit). The result of the last full run is in benchmarks/VALUES_DIFF.md.
"""
import argparse, csv, json, subprocess, sys, tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# columns that are measured times (they differ run to run), or verdicts computed from them (Table 8's "faster than WOR?")
TIMING = {'seconds', 'seconds_sd', 'time_vs_wor', 'time_one_us', 'time_increase_pct', 'time_increase_block_pct'}
TIMED_TABLES = {'table8_vs_paper'}                # every cell of it compares a measured time with the paper's
ACCOUNTANT = r'''
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location('bench', sys.argv[1]); b = importlib.util.module_from_spec(spec)
sys.argv = ['x']; spec.loader.exec_module(b)
for w in b.WORKLOADS:
    for query, value in (('eps', 1.0), ('delta', 1e-5)):
        r = b.run('ours', w, query, value, 1)
        print(json.dumps(dict(workload=w[0], query=query, value=r.get('value'), lo=r.get('lo'), error=r.get('error'))))
'''

def worktree(commit:str, where:Path) -> Path:
    "A detached worktree of `commit` at `where`."
    subprocess.run(['git', '-C', str(ROOT), 'worktree', 'add', '--detach', '-f', str(where), commit], check=True,
                   capture_output=True)
    return where

def start(tree:Path, out:Path, quick:bool) -> list:
    "Start the reproduction and the accountant values of one worktree (its own package on PYTHONPATH)."
    env = {**__import__('os').environ, 'PYTHONPATH': str(tree)}
    repro = [sys.executable, '-c', 'from must_nbdev.cli import _console; _console()', 'reproduce', 'all',
             '--out', str(out / 'reproduce')] + (['--quick'] if quick else [])
    return [subprocess.Popen(repro, cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
            # this checkout's benchmark runner at both commits: one procedure, each commit's library
            subprocess.Popen([sys.executable, '-c', ACCOUNTANT, str(ROOT / 'benchmarks' / 'accountant.py')], cwd=tree, env=env,
                             stdout=open(out / 'accountant.jsonl', 'w'), stderr=subprocess.DEVNULL)]

def csv_diffs(a:Path, b:Path) -> list:
    "Cells that differ between the CSVs of two reproductions, timing columns left out: (file, row, column, a, b)."
    out = []
    for fa in sorted(a.glob('*.csv')):
        fb = b / fa.name
        if not fb.exists(): out.append((fa.name, None, None, 'present', 'missing')); continue
        if fa.stem in TIMED_TABLES: continue
        ra, rb = list(csv.DictReader(open(fa))), list(csv.DictReader(open(fb)))
        if len(ra) != len(rb): out.append((fa.name, None, 'rows', len(ra), len(rb))); continue
        for i, (x, y) in enumerate(zip(ra, rb)):
            out += [(fa.name, i, k, x[k], y.get(k)) for k in x if k not in TIMING and x[k] != y.get(k)]
    return out

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('base'); ap.add_argument('head', nargs='?', default='HEAD')
    ap.add_argument('--quick', action='store_true', help='`must reproduce all --quick`')
    ap.add_argument('--keep', help='directory for the worktrees and outputs (default: a temporary one)')
    args = ap.parse_args(argv)
    tmp = Path(args.keep or tempfile.mkdtemp(prefix='values-diff-'))
    runs = {}
    for side, commit in (('base', args.base), ('head', args.head)):
        out = tmp / side; out.mkdir(parents=True, exist_ok=True)
        runs[side] = start(worktree(commit, tmp / f'{side}-tree'), out, args.quick)
    for procs in runs.values():
        for p in procs: p.wait()
    diffs = csv_diffs(tmp / 'base' / 'reproduce', tmp / 'head' / 'reproduce')
    acc = [[json.loads(l) for l in open(tmp / s / 'accountant.jsonl')] for s in ('base', 'head')]
    acc_diffs = [(x, y) for x, y in zip(*acc) if (x['value'], x['lo'], x['error']) != (y['value'], y['lo'], y['error'])]
    print(f"reproduce all{' --quick' if args.quick else ''}: {len(diffs)} cells differ (timing columns left out)")
    for d in diffs: print('  ', *d)
    print(f"accountant benchmark, ours: {len(acc_diffs)} of {len(acc[0])} values differ")
    for x, y in acc_diffs: print('  ', x, '->', y)
    for side in ('base', 'head'):
        subprocess.run(['git', '-C', str(ROOT), 'worktree', 'remove', '--force', str(tmp / f'{side}-tree')],
                       capture_output=True)
    return 0

if __name__ == '__main__': sys.exit(main())
