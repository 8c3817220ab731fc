"""How far is the tight certificate from the best attack the package computes? `account`'s attack runs its adaptive
DP only within `attack_budget` (about 2 s of work by default; the CLI gives it ten times that). At every configuration
of the tight-by-default goal this measures the attack at both budgets and the work the adaptive DP needs, then sets
the recorded quick-net certificates (benchmarks/TIGHT_DEFAULT.json: the whole run; TIGHT_BLOCKS.json: five blocks)
against the best attack. The attack is a real adaptive adversary on real datasets, so a stronger one is a certified
lower bound that narrows the gap from below; no certificate is recomputed. Writes benchmarks/BEST_ATTACK.md and .json.

    python benchmarks/best_attack.py                              # about a minute on 2 cores
    python benchmarks/best_attack.py --render benchmarks/BEST_ATTACK.json   # its Markdown again, from the record
"""
import argparse, json, sys, time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))   # its sibling, also when loaded by path (the tests)
from tight_default import PRELUDE, child, configurations, head_commit, save
ATTACK = PRELUDE + r'''
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
import scipy.stats   # the package imports it lazily at its first pmf, once a session: an import, excluded
scheme = scheme_at(a.pop('name'), a.pop('n'), a.pop('m'), b=a.pop('b'))
t0 = time.perf_counter()   # the query, not the import
r = account(scheme, **a, net=False)   # the fast certificates, as recorded: the attack is what is measured
report(attack=r.lower, attack_name=r.attack_name, upper=r.upper, certificate=r.certificate)
'''

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--out', default=str(HERE / 'BEST_ATTACK.md'))
    ap.add_argument('--render', metavar='JSON', help="only rewrite the Markdown beside a recorded run's JSON")
    args = ap.parse_args(argv)
    if args.render:
        path = Path(args.render); path.with_suffix('.md').write_text(render(json.loads(path.read_text()))); return
    from must_nbdev.accounting.adaptive import ADAPTIVE_WORK_BUDGET
    commit = head_commit()
    t_all, rows = time.perf_counter(), []
    for size, query, spec, names in configurations():
        for name in names:
            row = dict(size=size, query=query, scheme=name)
            for label, budget in (('default', ADAPTIVE_WORK_BUDGET), ('cli', 10 * ADAPTIVE_WORK_BUDGET)):
                row[label] = child(ATTACK, dict(spec, name=name, attack_budget=budget))
            rows.append(row); print(row, flush=True)
    record = dict(command='python benchmarks/best_attack.py', commit=commit, date=time.strftime('%Y-%m-%d'),
                  seconds=round(time.perf_counter() - t_all), budget=ADAPTIVE_WORK_BUDGET, rows=rows)
    save(record, args.out, render)

def _quick(path:Path) -> dict:
    "(size, scheme) → (certified, recorded attack, commit) of a recorded tight_default run's quick rows."
    rec = json.loads(path.read_text())
    return {(r['size'], r['scheme']): (r['upper'], r['attack'], rec['commit'])
            for r in rec['rows'] if r['setting'] == 'quick'}

def _how(name:str) -> str:
    "The attack's kind in a word or two, with the adaptive DP's work where it was skipped."
    if name.startswith('adaptive'): return 'adaptive DP'
    return 'fixed mixes' + (f" (DP needs {name.split('skipped: ')[1].split(' work')[0]})" if 'skipped: ' in name
                            and 'work units' in name else '')

def render(record:dict) -> str:
    "The Markdown artefact of one run's record (the JSON written beside it)."
    whole, blocks = _quick(HERE / 'TIGHT_DEFAULT.json'), _quick(HERE / 'TIGHT_BLOCKS.json')
    commits = sorted({v[2] for v in (*whole.values(), *blocks.values())})
    lines = ['# The best attack the package computes, against the tight certificates', '',
             f"`{record['command']}` at commit `{record['commit']}`, {record['date']}, {record['seconds']} s in all, "
             "one fresh process per measurement (seconds: the `account` call alone, imports excluded). *default*: "
             f"`account`'s `attack_budget` ({record['budget']:.2g} FFT work units); *CLI*: ten times that, as "
             "`must account` gives it. Where the adaptive DP needs more work than the budget, the attack is the "
             "fixed orientation mixes. Every attack is a real adaptive adversary on real datasets, so it is a "
             "certified lower bound; the higher one is the best known. *quick*: the quick net's certificate as "
             "recorded in benchmarks/TIGHT_DEFAULT.json (whole run) and TIGHT_BLOCKS.json (five blocks), "
             f"commit{'s' if len(commits) > 1 else ''} {', '.join(f'`{c}`' for c in commits)}; no certificate is "
             "recomputed here. *gap*: certificate over "
             "the best attack. The goal: 1.05× at the DP-SGD size, 1.3× at Fig S2.", '',
             '| size | query | scheme | attack, default | how | seconds | attack, CLI | how | seconds | '
             'quick, whole | gap | quick, 5 blocks | gap |', '|---|---|---|---|---|---|---|---|---|---|---|---|---|']
    for r in record['rows']:
        d, c = r['default'], r['cli']
        best = max(d['attack'], c['attack'])
        cells = []
        for table in (whole, blocks):
            got = table.get((r['size'], r['scheme']))
            cells += [f"{got[0]:.4g}", f"{got[0] / best:.3f}"] if got else ['—', '—']
        lines.append(f"| {r['size']} | {r['query']} | {r['scheme']} | {d['attack']:.6g} | {_how(d['attack_name'])} | "
                     f"{d['seconds']:.1f} | {c['attack']:.6g} | {_how(c['attack_name'])} | {c['seconds']:.1f} | "
                     + ' | '.join(cells) + ' |')
    return '\n'.join(lines) + '\n'

if __name__ == '__main__': main()
