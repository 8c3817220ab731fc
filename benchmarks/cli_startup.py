"""`must --help` and `import must_nbdev` against `import numpy`, measured in the same run: the ratio is the target
(`must --help` ≤ 3× importing numpy), seconds only describe this machine.

    python benchmarks/cli_startup.py            # prints the table and rewrites benchmarks/CLI_STARTUP.md
    python benchmarks/cli_startup.py --repeat 9 # fresh processes per command (median; default 7)
"""
import argparse, datetime, os, shutil, statistics, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = 3.0   # `must --help` at most this many times `python -c "import numpy"`

def commands():
    "(label, argv) of each timed command; the baseline first."
    py = sys.executable
    must = shutil.which('must')
    return [('python -c "import numpy"', [py, '-c', 'import numpy']),
            ('python -c "import must_nbdev"', [py, '-c', 'import must_nbdev']),
            ('must --help', [must, '--help'] if must else [py, '-m', 'must_nbdev.cli', '--help'])]

def median_seconds(argv, repeat:int) -> float:
    "Median wall time of `repeat` fresh processes (one warm-up run first: the files are in the page cache)."
    subprocess.run(argv, capture_output=True, check=True)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter(); subprocess.run(argv, capture_output=True, check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--repeat', type=int, default=7, help='fresh processes per command (median)')
    ap.add_argument('--no-write', action='store_true', help='print only; do not rewrite benchmarks/CLI_STARTUP.md')
    a = ap.parse_args()
    rows = [(label, median_seconds(argv, a.repeat)) for label, argv in commands()]
    base = rows[0][1]
    lines = [f'# Start-up time: `must --help` against importing numpy', '',
             f'`python benchmarks/cli_startup.py` on {datetime.date.today()}, {os.cpu_count()} cores; median of '
             f'{a.repeat} fresh processes each, measured in the same run. Target: `must --help` ≤ {TARGET:g}× '
             '`import numpy`.', '', '| command | seconds | × import numpy |', '|---|---|---|']
    lines += [f'| `{label}` | {s:.3f} | {s / base:.2f} |' for label, s in rows]
    ratio = rows[-1][1] / base
    lines += ['', f'`must --help` / `import numpy`: **{ratio:.2f}** (target ≤ {TARGET:g}: '
              f'{"met" if ratio <= TARGET else "missed"}).']
    text = '\n'.join(lines) + '\n'
    print(text)
    if not a.no_write: (ROOT / 'benchmarks' / 'CLI_STARTUP.md').write_text(text, encoding='utf-8')
    return 0 if ratio <= TARGET else 1

if __name__ == '__main__': sys.exit(main())
