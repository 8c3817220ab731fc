"""Tight by default? What `account` and `calibrate_sigma` answer by default at every configuration of the
tight-by-default goal: the certificate that answered, its value, the best attack, the gap, the seconds and the peak
memory, with dp_accounting's PLD on a Poisson query of the same size as the time yardstick (the same run, the same
machine); then σ for (3, 1e-5) at the DP-SGD size for every fixed-size scheme, with the time taken. Two settings
always: *fast* (`net=False`, the fast certificates) and *default* (no `net` given, as the package ships: the quick net
in five blocks, `MUST_DEFAULT_NET` cleared in the children). `--quick` adds the
triangle net's quick setting (`QUICK_NET`) for the schemes named: the tight answer and what it costs (minutes each);
`--blocks B` plays it cut into at most B blocks instead (`net_blocks`, accounting/09b_net_blocks).
Every measurement runs in a fresh child process, one at a time, so its peak memory is its own. Writes
benchmarks/TIGHT_DEFAULT.md and .json.

    python benchmarks/tight_default.py                       # the defaults: a few minutes
    python benchmarks/tight_default.py --quick wor wr        # and the quick net for WOR and WR (about 15 minutes)
    python benchmarks/tight_default.py --quick wor --blocks 5 --out benchmarks/TIGHT_BLOCKS.md   # in 5 blocks
    python benchmarks/tight_default.py --render benchmarks/TIGHT_BLOCKS.json   # its Markdown again, from the record
"""
import argparse, json, math, os, subprocess, sys, time
from pathlib import Path

DPSGD = dict(n=60_000, m=256, b=6000, steps=2350, delta=1e-5)            # ε(δ) at σ = 2.62 and 1.1
FIG_S2 = dict(n=10_000, m=200, b=118, steps=1000, eps=1.0, sigma=4.0)    # δ(ε)
SCHEMES = ('wor', 'wr', 'must-ow', 'must-ww', 'must-wo')                 # the fixed-size schemes of the goal
TARGET = dict(eps=3.0, delta=1e-5)                                       # the calibration's target

PRELUDE = r'''
import json, resource, sys, time
a = json.loads(sys.argv[1]); t0 = time.perf_counter()
def report(**fields):   # one JSON line: the measurement, its wall seconds (imports excluded), the peak memory
    seconds = time.perf_counter() - t0
    from must_nbdev.core.workers import peak_memory_mb   # this process's and its member workers'
    print(json.dumps(dict(fields, seconds=seconds, peak_mb=peak_memory_mb())))
'''
LIBRARY = PRELUDE + r'''
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.triangle_certificate import TightOptions
import scipy.stats   # the package imports it lazily at its first pmf, once a session: an import, excluded too
net = a.pop('net'); scheme = scheme_at(a.pop('name'), a.pop('n'), a.pop('m'), b=a.pop('b'))
options = (dict(net=False) if net == 'fast' else {} if net is None     # fast; the package's default, as it ships
           else dict(net=True, **TightOptions(**net).keywords()))      # an explicit net
'''

ACCOUNT = LIBRARY + r'''
from must_nbdev.accounting.account import account
t0 = time.perf_counter()   # the query, not the import
r = account(scheme, **a, **options)
report(certificate=r.certificate, upper=r.upper, attack=r.lower, gap=r.theory_gap, tighter=r.tighter is not None)
'''

CALIBRATE = LIBRARY + r'''
from must_nbdev.accounting.calibrate import calibrate_sigma
t0 = time.perf_counter()   # the search, not the import
c = calibrate_sigma(scheme, **a, **options)
seconds = time.perf_counter() - t0
from must_nbdev.core.workers import peak_memory_mb
peak = peak_memory_mb()   # this process's and its member workers'
lo = hi = None
if net == 'fast':   # the attack's σ: the largest σ (to 0.1%) at which the best attack still exceeds the target ε
    from must_nbdev.accounting.account import account   # (the attack is every setting's: measured once, beside fast)
    above = lambda s: account(scheme, sigma=s, steps=a['steps'], delta=a['delta'], net=False).lower > a['eps']
    lo, hi = c.sigma, c.sigma                 # the certified σ meets ε, so the attack's ε there is ≤ ε
    while above(hi): hi *= 1.25               # (never: kept for a certificate the attack beats)
    lo = hi / 1.25
    while not above(lo): hi, lo = lo, lo / 1.25
    while hi / lo > 1.001:
        mid = (lo * hi) ** 0.5
        lo, hi = (mid, hi) if above(mid) else (lo, mid)
print(json.dumps(dict(sigma=c.sigma, certificate=c.result.certificate, upper=c.eps_upper, attack=c.eps_lower,
                      calls=c.calls, attack_sigma=lo, seconds=seconds, peak_mb=peak)))
'''

YARDSTICK = PRELUDE + r'''
from dp_accounting import dp_event
from dp_accounting.pld import pld_privacy_accountant
t0 = time.perf_counter()   # the query, not the import
acc = pld_privacy_accountant.PLDAccountant()
acc.compose(dp_event.PoissonSampledDpEvent(a['m'] / a['n'], dp_event.GaussianDpEvent(a['sigma'])), a['steps'])
report(value=acc.get_epsilon(a['delta']) if 'delta' in a else acc.get_delta(a['eps']))
'''

DEFAULT_OUT = Path(__file__).with_name('TIGHT_DEFAULT.md')   # the record of the quick net over the whole run
SETTINGS = ['fast', 'default']   # every run's: the fast certificates, asked for, and the package's default

def net_of(setting:str, quick:dict):
    "A setting's `net` for the child: 'fast', None (the default, not given) or the quick net's options."
    return {'fast': 'fast', 'default': None, 'quick': quick}[setting]

def child(code:str, spec:dict) -> dict:
    "Run one measurement in a fresh interpreter: its JSON line."
    env = {k: v for k, v in os.environ.items() if k != 'MUST_DEFAULT_NET'}   # the default as the package ships it
    out = subprocess.run([sys.executable, '-c', code, json.dumps(spec)], check=True, capture_output=True, text=True,
                         env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])

def configurations():
    "(size label, query label, spec without the scheme name, scheme names) for every configuration of the goal."
    for sigma in (2.62, 1.1):
        yield f'DP-SGD σ={sigma}', 'ε(δ=1e-05)', dict(DPSGD, sigma=sigma), SCHEMES
    yield 'Fig S2 σ=4', 'δ(ε=1)', dict(FIG_S2), SCHEMES[:4]

def head_commit() -> str:
    "The checked-out commit, short: what a record was measured at."
    return subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True).stdout.strip()

def save(record:dict, out:str, render) -> None:
    "Write a run's record as JSON beside its Markdown `out` (rendered by `render`), and print the Markdown."
    Path(out).with_suffix('.json').write_text(json.dumps(record, indent=1))
    text = render(record)
    Path(out).write_text(text)
    print(text)

def goal_met(row:dict) -> bool:
    "Whether a recorded `account` call meets the goal: its gap, its seconds (5 s WOR and WR, 30 s MUST), 2 GB."
    budget = 5 if row['scheme'] in ('wor', 'wr') else 30
    limit = 1.3 if row['size'].startswith('Fig') else 1.05
    return row['upper'] / row['attack'] <= limit and row['seconds'] <= budget and row['peak_mb'] <= 2048

NAMES = {'wor': 'WOR', 'wr': 'WR', 'must-ow': 'MUST.ow', 'must-ww': 'MUST.ww', 'must-wo': 'MUST.wo'}
GROUPS = (('WOR', ('wor',)), ('WR and MUST.wo', ('wr', 'must-wo')),             # the hints' groups of schemes
          ('MUST.ow and MUST.ww', ('must-ow', 'must-ww')))

def _quick_rows(record:dict, size:str='') -> dict:
    "{(size, scheme): row} of a record's quick-setting calls (those whose size label starts with `size`)."
    return {(r['size'], r['scheme']): r for r in record['rows']
            if r['setting'] == 'quick' and r['size'].startswith(size)}

def _span(values, digits:int=0) -> str:
    "'lo-hi' of values, the low end rounded down and the high end up to `digits` decimals (an 'at most' range)."
    scale = 10 ** digits
    outward = lambda x, f: f(round(x * scale, 9)) / scale        # round(…, 9): 1.02 · 100 is 102.00000000000001
    return f"{outward(min(values), math.floor):.{digits}f}-{outward(max(values), math.ceil):.{digits}f}"

def measured_parts(whole:dict, blocks:dict) -> tuple:
    "(the whole run's gaps and seconds by scheme group; the blocks' share of its time and their most extra ε)."
    run, cut = _quick_rows(whole, 'DP-SGD'), _quick_rows(blocks, 'DP-SGD')
    both = sorted(run.keys() & cut.keys())
    if not both: raise ValueError("the two records share no quick-setting call at the DP-SGD size")
    parts = []
    for label, names in GROUPS:
        rows = [run[k] for k in both if k[1] in names]
        parts.append(f"{label} {_span([r['upper'] / r['attack'] for r in rows], 2)}x"
                     f"{' the attack' if not parts else ''} in {_span([r['seconds'] for r in rows])} s")
    share = _span([100 * cut[k]['seconds'] / run[k]['seconds'] for k in both])
    more = max(0.0, max(100 * (cut[k]['upper'] / run[k]['upper'] - 1) for k in both))
    return ', '.join(parts), f"{share}% of that time for at most {math.ceil(round(10 * more, 9)) / 10:.1f}% more ε"

def measured(whole:dict, blocks:dict) -> tuple:
    "What the hints quote of the quick net at the DP-SGD size (`QUICK_NET_MEASURED`, `QUICK_BLOCKS_MEASURED`)."
    net, cost = measured_parts(whole, blocks)
    return f"at the DP-SGD size: {net}", f"at the DP-SGD size, {cost}"

def side_by_side(whole:dict, blocks:dict) -> str:
    "The quick net in five blocks beside the whole run, from the two records: gaps, seconds, calibrations (Markdown)."
    calib = lambda rec: {c['scheme']: c for c in rec['calibrations'] if c['setting'] == 'quick'}
    cut, run, cut_cal, run_cal = _quick_rows(blocks), _quick_rows(whole), calib(blocks), calib(whole)
    sizes = list(dict.fromkeys(size for size, _ in cut))
    cell = lambda r: f"{r['upper'] / r['attack']:.3f}×, {r['seconds']:.1f} s" if r else '—'
    calibrated = lambda c: f"{c['sigma']:.4f}, {c['seconds']:.0f} s" if c else '—'
    head = ['scheme', 'run', *sizes, f"σ for ({TARGET['eps']:g}, {TARGET['delta']:g})"]
    at = lambda rec: f"commit `{rec['commit']}`, {rec['date']}"
    when = f"both at {at(blocks)}" if at(blocks) == at(whole) else f"at {at(blocks)} and {at(whole)}"
    lines = [f"`{blocks['command']}` ({blocks['seconds']} s) beside `{whole['command']}` ({whole['seconds']} s), "
             f"{when}, one fresh process per call: certified over the attack and the call's seconds, then the "
             "calibrated σ and the calibration's seconds.", '',
             '| ' + ' | '.join(head) + ' |', '|---' * len(head) + '|']
    for key, name in NAMES.items():
        for first, (run_name, calls, cals) in enumerate((('5 blocks', cut, cut_cal), ('whole run', run, run_cal))):
            lines.append(f"| {'' if first else name} | {run_name} | "
                         + ' | '.join([cell(calls.get((size, key))) for size in sizes] + [calibrated(cals.get(key))])
                         + ' |')
    net, cost = measured_parts(whole, blocks)
    met = [f"{NAMES[r['scheme']]} at {r['size']}" for r in cut.values() if goal_met(r)]
    lines += ['', f"The quick setting over the whole run, at the DP-SGD size: {net}; in five blocks, {cost}. "
              "In five blocks the goal (1.05× at the DP-SGD size, 1.3× at Fig S2, in 5 s for WOR and WR, 30 s for "
              f"MUST, in 2 GB) is met by {', '.join(met) if met else 'no row'}; every tight calibration in five "
              f"blocks took at most {math.ceil(max(c['seconds'] for c in cut_cal.values()))} s."]
    return '\n'.join(lines) + '\n'

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--quick', nargs='*', default=[], choices=SCHEMES, metavar='SCHEME',
                    help='also the quick net (QUICK_NET) for these schemes: one account per configuration and a '
                         'calibration at the DP-SGD size (minutes each)')
    ap.add_argument('--blocks', type=int, default=1,
                    help='the quick net cut into at most this many blocks (net_blocks; default 1: the full DP)')
    ap.add_argument('--tol', type=float, default=None,
                    help="the quick net's refinement tolerance instead of QUICK_NET's (net_tol; a coarser net is faster)")
    ap.add_argument('--out', default=str(DEFAULT_OUT))
    ap.add_argument('--render', metavar='JSON', help="only rewrite the Markdown beside a recorded run's JSON")
    args = ap.parse_args(argv)
    if args.render:
        path = Path(args.render); path.with_suffix('.md').write_text(render(json.loads(path.read_text()))); return
    from must_nbdev.accounting.triangle_certificate import QUICK_NET
    from dataclasses import asdict, replace
    net = replace(QUICK_NET, blocks=args.blocks, **({} if args.tol is None else dict(tol=args.tol)))
    quick = asdict(net)
    commit = head_commit()
    t_all, rows, cals, yard = time.perf_counter(), [], [], []
    for size, query, spec, names in configurations():
        ys = {k: spec[k] for k in ('n', 'm', 'steps', 'sigma', 'delta', 'eps') if k in spec}
        y = child(YARDSTICK, ys); yard.append(dict(size=size, **y)); print(size, 'dp_accounting', y, flush=True)
        for name in names:
            for setting in SETTINGS + ['quick'] * (name in args.quick):
                o = child(ACCOUNT, dict(spec, name=name, net=net_of(setting, quick)))
                rows.append(dict(size=size, query=query, scheme=name, setting=setting, yardstick=y['seconds'], **o))
                print(rows[-1], flush=True)
    for name in SCHEMES:
        for setting in SETTINGS + ['quick'] * (name in args.quick):
            spec = dict(DPSGD, **TARGET, net=net_of(setting, quick))
            cals.append(dict(scheme=name, setting=setting, **child(CALIBRATE, dict(spec, name=name))))
            print(cals[-1], flush=True)
    command = (f'python benchmarks/tight_default.py{" --quick " + " ".join(args.quick) if args.quick else ""}'
               f'{f" --blocks {args.blocks}" if args.blocks > 1 else ""}{f" --tol {args.tol:g}" if args.tol else ""}'
               + ('' if Path(args.out).resolve() == DEFAULT_OUT.resolve()
                  else f' --out {Path(args.out).resolve().relative_to(Path(__file__).resolve().parents[1]).as_posix()}'))
    record = dict(command=command, commit=commit, date=time.strftime('%Y-%m-%d'),
                  seconds=round(time.perf_counter() - t_all), recipe=net.recipe(), quick=quick, rows=rows,
                  yardstick=yard, calibrations=cals)
    save(record, args.out, render)

def render(record:dict) -> str:
    "The Markdown artefact of one run's record (the JSON written beside it)."
    lines = ['# Tight by default? What the doors answer by default, next to the attack and the time yardstick', '',
             f"`{record['command']}` at commit `{record['commit']}`, {record['date']}, {record['seconds']} s in all, "
             'one fresh process per measurement; *seconds*: the call alone, imports excluded (the package\'s lazy `scipy.stats` too, '
             '0.3–0.5 s once a session). *default*: '
             '`account(...)` as it ships (attack included)' + (
                 ", the quick net in five blocks (`net='quick-blocks'`) where it applies; *fast*: `account(..., "
                 "net=False)`, the fast certificates" if any(r['setting'] == 'fast' for r in record['rows'])
                 else ', the fast certificates then') + (
                 f"; *quick*: with the triangle net's quick setting `{record['recipe']}`"
                 if any(r['setting'] == 'quick' for r in record['rows']) else '') + '. '
             "*gap* = certified / attack, the answer a user gets over "
             "the best attack (the JSON's `gap` is the result's `theory_gap`: the two brackets' nearest ends, up to "
             "0.5% lower). *yardstick*: "
             'dp_accounting\'s PLD accountant on a Poisson query of the same size (rate m/n, σ, steps), in the same '
             'run. The goal: within 1.05× of the attack at the DP-SGD size and 1.3× at Fig S2, in 5 s (WOR, WR) '
             'or 30 s (MUST), in 2 GB.', '',
             '| size | query | scheme | setting | certificate | certified | attack | gap | seconds | '
             '× yardstick | peak MB | goal met |', '|---|---|---|---|---|---|---|---|---|---|---|---|']
    for r in record['rows']:
        gap, met = r['upper'] / r['attack'], goal_met(r)
        lines.append(f"| {r['size']} | {r['query']} | {r['scheme']} | {r['setting']} | {r['certificate']} | "
                     f"{r['upper']:.4g} | {r['attack']:.4g} | {gap:.3f} | {r['seconds']:.1f} | "
                     f"{r['seconds'] / r['yardstick']:.1f} | {r['peak_mb']:.0f} | {'yes' if met else 'no'} |")
    lines += ['', '| size | dp_accounting PLD, Poisson | seconds | peak MB |', '|---|---|---|---|']
    lines += [f"| {y['size']} | {y['value']:.4g} | {y['seconds']:.2f} | {y['peak_mb']:.0f} |"
              for y in record['yardstick']]
    lines += ['', f"σ for ({TARGET['eps']:g}, {TARGET['delta']:g}) at the DP-SGD size ({DPSGD['n']:,} records, "
              f"batch {DPSGD['m']}, b = {DPSGD['b']:,}, {DPSGD['steps']:,} steps), `calibrate_sigma`:", '',
              '| scheme | setting | σ | certificate | certified ε | attack ε at σ | gap | calls | seconds | peak MB | '
              "attack's σ | σ over it |", '|---|---|---|---|---|---|---|---|---|---|---|---|']
    truth = {c['scheme']: c['attack_sigma'] for c in record['calibrations'] if c.get('attack_sigma')}
    lines += [f"| {c['scheme']} | {c['setting']} | {c['sigma']:.5g} | {c['certificate']} | {c['upper']:.4f} | "
              f"{c['attack']:.4f} | {c['upper'] / c['attack']:.3f} | {c['calls']} | {c['seconds']:.1f} | "
              f"{c['peak_mb']:.0f} | "
              + (f"{truth[c['scheme']]:.5g} | +{100 * (c['sigma'] / truth[c['scheme']] - 1):.1f}% |"
                 if c['scheme'] in truth else '— | — |') for c in record['calibrations']]
    if truth:
        lines += ['', "*attack's σ*: the largest σ (to 0.1%, found by bisection with `account`'s attack bracket) at "
                  "which the best attack's certified lower ε(δ) still exceeds the target, so every σ at or below "
                  "it is proven too small for the target: the truth (the smallest σ any exact accountant would "
                  "certify) lies between it and the certified σ, and *σ over it* bounds how much more noise than "
                  "necessary a setting asks for (seconds and calls: the calibration alone)."]
    return '\n'.join(lines) + '\n'

if __name__ == '__main__': main()
