"""Triangle-net benchmark: the third certificate, the exact adaptive game over Loewner nets of triangles
(accounting/09_triangle_certificate, `account(net=True)`; for WR and MUST the game with the copy count public), next to the best
earlier certificate and the best real attack, with the time of the whole `account` call. Writes a markdown table
(default benchmarks/TRIANGLE_NET.md); a run replaces the rows it measures and keeps the others. Ratios are measured
in the same run, never asserted.

    python benchmarks/triangle_net.py                       # WOR at Fig S2 and DP-SGD σ = 2.62 (about 10 min)
    python benchmarks/triangle_net.py --schemes wr --sizes s2   # WR at Fig S2 (about 7 min)
    python benchmarks/triangle_net.py --tol 0.005           # a finer net: tighter, slower
    python benchmarks/triangle_net.py --sizes 1.1 --coarsen 4   # DP-SGD σ = 1.1: members on the grid 4h (minutes;
                                                                # on the grid h they take hours: their losses are wide)
"""
import argparse, time
from pathlib import Path
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting.adaptive import ADAPTIVE_WORK_BUDGET
from must_nbdev.accounting.triangles import NET_TOL
from must_nbdev.accounting.triangle_certificate import net_label_groups

SIZES = {'s2': ('Fig S2 σ=4, k=1000', 10_000, 200, 118, 4.0, 1000, dict(eps=1.0)),
         '2.62': ('DP-SGD σ=2.62, k=2350', 60_000, 256, 6000, 2.62, 2350, dict(delta=1e-5)),
         '1.1': ('DP-SGD σ=1.1, k=2350', 60_000, 256, 6000, 1.1, 2350, dict(delta=1e-5))}
HEADER = ['# The triangle net against the best earlier certificate and the best attack', '',
          '`python benchmarks/triangle_net.py`: substitution, worst case. *earlier*: the best certificate without the '
          'net (public labels for WOR, partially unlabelled for WR and MUST); *net*: the triangle net (WR, MUST: the '
          'labelled game of Lemma 5); the gap is certified / attack. *seconds* is one `account(..., net=True)` call, '
          'attacks included (the members\' two-dimensional PLDs and the DP are most of it). *coarsen*: the members\' '
          'PLDs were built on the grid coarsen·h (sound; a little looser, much faster).', '',
          '| size | scheme | query | earlier | triangle net | best attack | gap, earlier | gap, net | winner | '
          'members | net_tol | coarsen | seconds |', '|---|---|---|---|---|---|---|---|---|---|---|---|---|']

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--out', default=str(Path(__file__).with_name('TRIANGLE_NET.md')))
    ap.add_argument('--tol', type=float, default=NET_TOL, help=f'net refinement tolerance (default {NET_TOL})')
    ap.add_argument('--coarsen', type=int, default=1, help="members' PLDs on the grid coarsen·h (default 1)")
    ap.add_argument('--schemes', default='wor', help='comma-separated registry names (default wor)')
    ap.add_argument('--sizes', default='s2,2.62', help=f'comma-separated, from {sorted(SIZES)} (default s2,2.62)')
    args = ap.parse_args(argv)
    out = Path(args.out)
    rows, notes = {}, []                                 # (size, scheme) -> line: earlier rows and notes are kept
    if out.exists():
        lines = out.read_text(encoding='utf-8').splitlines()
        last = max([i for i, line in enumerate(lines) if line.startswith('|')], default=len(lines))
        notes = [line for line in lines[last + 1:]]
        for line in lines:
            cells = [c.strip() for c in line.strip('|').split('|')]
            if line.startswith('| ') and len(cells) in (12, 13) and cells[0] in {s[0] for s in SIZES.values()}:
                if len(cells) == 12: cells.insert(11, '1')          # rows written before the coarsen column
                rows[cells[0], cells[1]] = '| ' + ' | '.join(cells) + ' |'
    for name in args.schemes.split(','):
        for key in args.sizes.split(','):
            size, n, m, b, sigma, k, query = SIZES[key]
            t0 = time.perf_counter()
            sc = scheme_at(name, n, m, b=b)
            r = account(sc, sigma=sigma, steps=k, attack_budget=10 * ADAPTIVE_WORK_BUDGET, net=True, net_tol=args.tol,
                        net_coarsen=args.coarsen, **query)
            q = f"ε(δ={query['delta']:g})" if 'delta' in query else f"δ(ε={query['eps']:g})"
            net = r.certificates.pop('triangle net')
            earlier = min(r.certificates.values())
            members = net_label_groups(sc, sigma, r.h, args.tol, args.coarsen)[3]
            line = (f"| {size} | {name} | {q} | {earlier:.4g} | {net:.4g} | {r.lower:.4g} | {earlier / r.lower:.3f} | "
                    f"**{net / r.lower:.3f}** | {r.certificate} | {members} | {args.tol:g} | {args.coarsen} | "
                    f"{time.perf_counter() - t0:.0f} |")
            print(line, flush=True); rows[size, name] = line
    order = {s[0]: i for i, s in enumerate(SIZES.values())}
    body = [rows[key] for key in sorted(rows, key=lambda kk: (order[kk[0]], kk[1]))]
    out.write_text('\n'.join(HEADER + body + notes) + '\n', encoding='utf-8')
    print(f"written to {out}")

if __name__ == '__main__': main()
