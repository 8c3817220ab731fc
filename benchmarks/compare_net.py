"""`must compare` as README shows it, and with `--net` at the triangle net's quick setting: what the tight certificate
changes in the scheme table and what each row costs. Both runs go through the command line (the door users call), in
fresh processes, one after the other. Writes benchmarks/COMPARE_NET.md and .json.

    python benchmarks/compare_net.py     # about 20 minutes on 2 cores: the net's rows take minutes each
"""
import json, shlex, subprocess, sys, time
from pathlib import Path

ARGS = '--n 60000 --batch-size 256 --epochs 10 --sigma 1.5 --delta 1e-5 --b 6000 --quiet --json'   # README's table

def run(extra:str) -> tuple:
    "One `must compare` run: its rows (JSON) and wall seconds."
    t0 = time.perf_counter()
    door = 'import sys; from must_nbdev.cli import main; sys.exit(main(sys.argv[1:]))'     # the `must` script
    out = subprocess.run([sys.executable, '-c', door, 'compare', *shlex.split(ARGS + extra)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out), time.perf_counter() - t0

def main():
    from must_nbdev.accounting.triangle_certificate import QUICK_NET
    net = ' --net ' + QUICK_NET.recipe(cli=True)
    commit = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True).stdout.strip()
    (fast, t_fast), (tight, t_tight) = run(''), run(net)
    key = lambda r: (r['name'], r['relation'], r['b'])
    by = {key(r): r for r in fast}
    lines = ["# `must compare` with the triangle net's quick setting", '',
             f"`python benchmarks/compare_net.py` at commit `{commit}`, {time.strftime('%Y-%m-%d')}: "
             f"`must compare {ARGS}` ({t_fast:.0f} s) and the same with `{net.strip()}` ({t_tight:.0f} s), "
             "README's configuration (60,000 records, batch 256, 10 epochs = 2,344 steps, σ = 1.5, ε(δ = 1e-5)). "
             "The net covers the fixed-size rows (substitution); Poisson keeps its exact pair, and the epoch rows "
             "(their own accountant) are the same in both runs. *gap* = certified / attack.", '',
             '| scheme | attack ε | default ε | gap | certificate | --net ε | gap | certificate | row seconds |',
             '|---|---|---|---|---|---|---|---|---|']
    for r in tight:
        f = by[key(r)]
        label = r['scheme'] + (f" b={r['b']}" if r['b'] else '') + (' (add/remove)' if r['relation'] == 'add_remove'
                                                                      else '')
        lines.append(f"| {label} | {r['eps_attack']:.4g} | {f['eps']:.4g} | {f['theory_gap']:.3f} | "
                     f"{f['certificate']} | {r['eps']:.4g} | {r['theory_gap']:.3f} | {r['certificate']} | "
                     f"{r['seconds']:.0f} |")
    Path(__file__).with_name('COMPARE_NET.md').write_text('\n'.join(lines) + '\n')
    Path(__file__).with_name('COMPARE_NET.json').write_text(json.dumps(
        dict(commit=commit, args=ARGS, net=net.strip(), seconds=dict(default=t_fast, net=t_tight), default=fast,
             net_rows=tight), indent=1))
    print('\n'.join(lines))

if __name__ == '__main__': main()
