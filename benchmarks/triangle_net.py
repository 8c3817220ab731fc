"""Triangle-net benchmark (issue 23): WOR's third certificate, the exact adaptive game over a Loewner net of triangles
(accounting/07_triangles, `account(net=True)`), next to the public-label certificate and the best real attack, with
the time of the whole `account` call. Writes a markdown table (default benchmarks/TRIANGLE_NET.md); ratios are
measured in the same run, never asserted.

    python benchmarks/triangle_net.py                 # Fig S2 and DP-SGD σ = 2.62 (about 10 min on 2 cores)
    python benchmarks/triangle_net.py --tol 0.005     # a finer net: tighter, slower
    python benchmarks/triangle_net.py --sigma-1.1     # also σ = 1.1 (about 3 CPU-hours: its planar PLDs are wide)
"""
import argparse, time
from pathlib import Path
from must_nbdev.core.sampling import make_scheme
from must_nbdev.accounting.account import account
from must_nbdev.accounting.adaptive import ADAPTIVE_WORK_BUDGET
from must_nbdev.accounting.triangles import NET_TOL, triangle_net

SIZES = [('Fig S2 σ=4, k=1000', 10_000, 200, 4.0, 1000, dict(eps=1.0)),
         ('DP-SGD σ=2.62, k=2350', 60_000, 256, 2.62, 2350, dict(delta=1e-5)),
         ('DP-SGD σ=1.1, k=2350', 60_000, 256, 1.1, 2350, dict(delta=1e-5))]     # only with --sigma-1.1

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--out', default=str(Path(__file__).with_name('TRIANGLE_NET.md')))
    ap.add_argument('--tol', type=float, default=NET_TOL, help=f'net refinement tolerance (default {NET_TOL})')
    ap.add_argument('--sigma-1.1', dest='small', action='store_true', help='also DP-SGD at σ = 1.1 (hours)')
    args = ap.parse_args(argv)
    lines = ['# WOR: the triangle net against public labels and the best attack', '',
             f'`python benchmarks/triangle_net.py` (net_tol = {args.tol:g}): substitution, worst case, WOR. The gap is '
             'certified / attack; *seconds* is one `account(..., net=True)` call, attacks included (the members\' '
             'two-dimensional PLDs are most of it).', '',
             '| size | query | public labels | triangle net | best attack | gap, public labels | gap, net | members | '
             'seconds |', '|---|---|---|---|---|---|---|---|---|']
    for size, n, m, sigma, k, query in SIZES if args.small else SIZES[:2]:
        t0 = time.perf_counter()
        r = account(make_scheme('wor', n, m=m), sigma=sigma, steps=k, attack_budget=10 * ADAPTIVE_WORK_BUDGET,
                    net=True, net_tol=args.tol, **query)
        q = f"ε(δ={query['delta']:g})" if 'delta' in query else f"δ(ε={query['eps']:g})"
        pub, net = r.certificates['public labels'], r.certificates['triangle net']
        line = (f"| {size} | {q} | {pub:.4g} | {net:.4g} | {r.lower:.4g} | {pub / r.lower:.3f} | **{net / r.lower:.3f}** "
                f"| {len(triangle_net(sigma, tol=args.tol))} | {time.perf_counter() - t0:.0f} |")
        print(line, flush=True); lines.append(line)
    Path(args.out).write_text('\n'.join(lines) + '\n', encoding='utf-8')
    print(f"written to {args.out}")

if __name__ == '__main__': main()
