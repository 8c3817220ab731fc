"""The other knobs with the triangle net: the most steps (`calibrate_steps`) and the largest batch size
(`calibrate_batch_size`) certified (3, 1e-5)-DP at the DP-SGD size, with the fast certificates and with the net's quick
setting (`QUICK_NET`), each with the seconds, the accountant calls and the peak memory. σ is the fast calibration's σ
for 2,350 steps of batch 256 (`benchmarks/TIGHT_DEFAULT.md`), so the fast answers sit near 2,350 steps and 256
records and the net's show what it adds at the same σ. Every measurement runs in a fresh child process, one at a
time. Writes benchmarks/TIGHT_KNOBS.md.

    python benchmarks/tight_knobs.py              # WOR and WR (about 15 minutes on 2 cores)
    python benchmarks/tight_knobs.py wor must-ow  # the schemes named
"""
import argparse, json, subprocess, sys, time
from pathlib import Path

SIZE = dict(n=60_000, m=256, b=6000, steps=2350)         # the DP-SGD size of the tight-by-default goal
TARGET = dict(eps=3.0, delta=1e-5)
SIGMA = {'wor': 1.4518, 'wr': 1.4874, 'must-wo': 1.4874,  # the fast calibration's σ (TIGHT_DEFAULT.md)
         'must-ow': 1.7739, 'must-ww': 1.8063}

CODE = r'''
import json, resource, sys, time
a = json.loads(sys.argv[1])
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.calibrate import calibrate_steps, calibrate_batch_size
from must_nbdev.accounting.triangle_certificate import QUICK_NET
from must_nbdev.core.workers import peak_memory_mb   # this process's and its member workers'
net = QUICK_NET if a['net'] else False
t0 = time.perf_counter()   # the search, not the import
if a['knob'] == 'steps':
    c = calibrate_steps(scheme_at(a['name'], a['n'], a['m'], b=a['b']), sigma=a['sigma'], eps=a['eps'],
                        delta=a['delta'], net=net)
else:
    two_stage = a['name'].startswith('must')
    c = calibrate_batch_size(a['name'], n=a['n'], sigma=a['sigma'], steps=a['steps'], eps=a['eps'], delta=a['delta'],
                             b_per_m=a['b'] / a['m'] if two_stage else None, net=net)
print(json.dumps(dict(value=c.value, infeasible=c.value_infeasible, upper=c.eps_upper, attack=c.eps_lower,
                      certificate=None if c.result is None else c.result.certificate, calls=c.calls,
                      seconds=time.perf_counter() - t0, peak_mb=peak_memory_mb())))
'''

def child(spec:dict) -> dict:
    "Run one calibration in a fresh interpreter: its JSON line."
    out = subprocess.run([sys.executable, '-c', CODE, json.dumps(spec)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('schemes', nargs='*', help=f'schemes among {sorted(SIGMA)} (default: wor wr)')
    ap.add_argument('--out', default=str(Path(__file__).with_name('TIGHT_KNOBS.md')))
    args = ap.parse_args(argv)
    args.schemes = args.schemes or ['wor', 'wr']
    if not set(args.schemes) <= set(SIGMA): ap.error(f'schemes must be among {sorted(SIGMA)}, got {args.schemes}')
    commit = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True).stdout.strip()
    rows, t0 = [], time.perf_counter()
    for name in args.schemes:
        for knob in ('steps', 'batch size'):
            for net in (False, True):
                r = child(dict(SIZE, **TARGET, name=name, sigma=SIGMA[name], knob=knob, net=net))
                rows.append(dict(r, name=name, knob=knob, setting='quick net' if net else 'fast'))
                print(json.dumps(rows[-1]), flush=True)
    lines = ['# The other knobs with the triangle net: steps and batch size at the DP-SGD size', '',
             f'`python benchmarks/tight_knobs.py {" ".join(args.schemes)}` at commit `{commit}`, '
             f'{time.strftime("%Y-%m-%d")}, {time.perf_counter() - t0:.0f} s in all, one fresh process per '
             f'calibration. 60,000 records, batch 256 (MUST: b = 6,000, i.e. b = 23.4375 m for the batch size), '
             f'target (3, 1e-5); σ is the fast `calibrate_sigma`\'s for 2,350 steps (`TIGHT_DEFAULT.md`). *steps*: '
             f'`calibrate_steps` at that σ; *batch size*: `calibrate_batch_size` at that σ and 2,350 steps. *quick '
             f'net*: `net=QUICK_NET`. *fails at*: the next value searched, which the certificate misses (or the '
             f'attack rules out). *seconds*: the search alone, imports excluded.', '',
             '| scheme | σ | knob | setting | answer | fails at | certified ε | attack ε | certificate | calls | '
             'seconds | peak MB |', '|---|---|---|---|---|---|---|---|---|---|---|---|']
    for r in rows:
        attack = '' if r['attack'] is None else f"{r['attack']:.4f}"
        lines.append(f"| {r['name']} | {SIGMA[r['name']]} | {r['knob']} | {r['setting']} | {r['value']:,} | "
                     f"{'—' if r['infeasible'] is None else format(r['infeasible'], ',')} | {r['upper']:.4f} | {attack} | {r['certificate'] or 'fast'} | "
                     f"{r['calls']} | {r['seconds']:.1f} | {r['peak_mb']:.0f} |")
    Path(args.out).write_text('\n'.join(lines) + '\n')

if __name__ == '__main__':
    main()
