"""Coarse triangle nets: how tight, how fast. WOR at the DP-SGD size (n = 60,000, batch 256, b = 6000 as in
benchmarks/triangle_net.py and theory_gap.py), 2350 steps, ε(δ = 1e-5), substitution, attack included
(attack_budget = 10 × ADAPTIVE_WORK_BUDGET, as the benchmarks). For each (σ, net_tol, net_coarsen) it runs ONE
`account(..., net=True)` call in a fresh child process (one after the other, never in parallel; clean caches and a
clean peak RSS per setting; BLAS/OpenMP pinned to one thread) and measures:

  * the certified ε of the triangle net, the attack ε, their ratio (the gap), the member count;
  * the wall and CPU time of the whole `account` call and the child's peak RSS (MB, `ru_maxrss`, the whole process:
    the base account's grid and attack are in it too; the row `tol = -` is the same call without the net);
  * where the time goes: timers wrapped (from this script, the library is not edited) around `refine_grid`, the
    attack (`AttackAccountant` + `_adaptive_attack`), `best_composition`, the net's pieces (`triangle_net`,
    `planar_upper_pld` = the members' 2-D PLDs, `whole_steps`, `attack_runs`, `upper_game_dp` = the DP) and, with
    --profile, the DP's rfft / irfft calls and `upper_kernels` (the per-call timers add about 1 µs per FFT);
  * the grid the net runs on: its h, the DP's largest FFT length, the ε span searched (grid points) and the
    members' kernel width (bins).
  * with --active (WOR: one label, whose alternatives are the symmetrised pair and the net), how many DP states
    (over all steps) each net member wins, i.e. gives the largest value of the net's members (ties: the first).

--hmult H runs the net (members and DP) on the grid H·h instead of the account's h, by passing h·H to
`triangle_epsilon` from a wrapper (sound at any h; the answer is rounded up to eps_lo + j·H·h). The members then sit
on the grid coarsen·H·h. `account` has no such option today: this measures what it would give.

    cd research/tight_default && python coarse_net.py                      # σ = 2.62, the default settings list
    python coarse_net.py --sigma 2.62 --settings=1:4,0.5:4,0.5:1          # tol:coarsen pairs
    python coarse_net.py --settings=0.04:1 --hmult 4 --profile            # net on 4h, the DP's FFTs timed
    python coarse_net.py --sigma 1.1 --settings=-                         # the call without the net

(`--settings=` with '=': a list starting with '-' is otherwise read as an option.) Needs `import must_nbdev` to work
(here: PYTHONPATH=<repo root>, since the installed editable package pointed at a missing path). Prints one markdown
table row per setting as it goes and appends one JSON line per run to --out (default coarse_net_out.jsonl). The
machine had 2 cores shared with other work: times are upper-ish (compare CPU s with wall s).
"""
import argparse, json, math, os, resource, subprocess, sys, time
from pathlib import Path

N, M, B, STEPS, DELTA = 60_000, 256, 6000, 2350, 1e-5
DEFAULT = '1:4,1:2,1:1,0.5:4,0.5:2,0.5:1,0.2:4,0.2:2,0.2:1,0.1:4,0.1:2,0.1:1,0.05:4,0.05:2,0.05:1'

def child(sigma, tol, coarsen, profile, hmult, active=False):
    "One account call with timers; prints one JSON line."
    import numpy as np
    import must_nbdev.accounting.account as A
    import must_nbdev.accounting.triangle_certificate as T
    import must_nbdev.accounting.triangles as TR
    from must_nbdev.core.sampling import scheme_at
    from must_nbdev.accounting.adaptive import ADAPTIVE_WORK_BUDGET
    t, n, info = {}, {}, {}
    kernels = TR.upper_kernels          # the original, for the kernel widths (outside the timers)
    def timed(mod, name, key=None, hook=None):
        f, key = getattr(mod, name), key or name
        def g(*a, **kw):
            t0 = time.perf_counter()
            try: out = f(*a, **kw)
            finally: t[key] = t.get(key, 0.0) + time.perf_counter() - t0; n[key] = n.get(key, 0) + 1
            if hook: hook(a, kw, out)
            return out
        setattr(mod, name, g)
    timed(A, 'refine_grid'); timed(A, 'AttackAccountant', 'attack_fixed'); timed(A, '_adaptive_attack', 'attack_adaptive')
    timed(A, 'best_composition')
    timed(T, 'triangle_epsilon', 'net_total')
    if hmult != 1:                       # the net alone on the grid hmult·h (sound at any h; ε rounded up to it)
        te = T.triangle_epsilon
        T.triangle_epsilon = lambda *a, h, **kw: te(*a, h=h * hmult, **kw)
    timed(T, 'triangle_net'); timed(T, 'planar_upper_pld', 'member_plds'); timed(T, 'whole_steps')
    timed(T, 'attack_runs'); timed(T, 'unlabelled_members'); timed(T, '_best_ratio'); timed(T, '_per_copy_pays')
    def dp_hook(a, kw, out):
        groups, k, e0, span, h = a[:5]
        info.update(dp_bins=int(out['bins']), span=int(span), e0=float(e0), dp_err=float(out['err']),
                    dp_members=int(sum(len(alt) for _, alts in groups for alt in alts)),
                    whole=len(kw.get('whole', ())))
        ks = [kernels(tuple(p for alt in alts for p in alt), k) for _, alts in groups]
        info['kernel_bins'] = [int(b - a_ + 1) for _, _, a_, b in ks]
    timed(T, 'upper_game_dp', 'dp', dp_hook)
    if profile:
        class Timed:                     # the DP's FFTs (triangles.sfft only: nothing else in the call uses it)
            def __init__(s, real): s._real = real
            def __getattr__(s, name):
                f = getattr(s._real, name)
                if name not in ('rfft', 'irfft'): return f
                def g(*a, **kw):
                    t0 = time.perf_counter(); out = f(*a, **kw)
                    t['dp_' + name] = t.get('dp_' + name, 0.0) + time.perf_counter() - t0
                    n['dp_' + name] = n.get('dp_' + name, 0) + 1
                    return out
                return g
        import scipy.fft
        TR.sfft = Timed(scipy.fft); timed(TR, 'upper_kernels')
    if active:                           # which members attain the net's maximum (one group: WOR), at any state
        import scipy.fft
        st = dict(call=0, w=None, n_out=None, best=None, arg=None, wins=None)
        class Argmax:
            def __getattr__(s, name): return getattr(scipy.fft, name)
            def rfft(s, x, r):
                if st['w'] is not None and len(x) != st['w']: st['n_out'] = len(x) - st['w'] + 1; st['call'] = 0
                return scipy.fft.rfft(x, r)
            def irfft(s, X, r):
                out = scipy.fft.irfft(X, r); i = st['call']; st['call'] += 1
                if i >= 1:               # call 0 of a step is the symmetrised label's PLD, 1.. the net's members
                    v = out[st['w'] - 1:st['w'] - 1 + st['n_out']]
                    if i == 1: st['best'], st['arg'] = v.copy(), np.zeros(len(v), np.int64)
                    else:
                        up = v > st['best']; st['best'][up] = v[up]; st['arg'][up] = i - 1
                    if i == st['members']:   # all states; and states whose value is in (1e-9, 0.999) only
                        st['wins'] += np.bincount(st['arg'], minlength=st['members'])
                        mid = (st['best'] > 1e-9) & (st['best'] < 0.999)
                        st['wins_mid'] += np.bincount(st['arg'][mid], minlength=st['members'])
                return out
        TR.sfft = Argmax(); timed(TR, 'upper_kernels', hook=lambda a, kw, out: (
            st.update(w=int(out[3] - out[2] + 1), members=len(out[0]) - 1, wins=np.zeros(len(out[0]) - 1, np.int64),
                      wins_mid=np.zeros(len(out[0]) - 1, np.int64))
            if len(out[0]) > 1 else None))
    sc = scheme_at('wor', N, M, b=B)
    t0, c0 = time.perf_counter(), time.process_time()
    kw = dict(net=True, net_tol=tol, net_coarsen=coarsen) if tol is not None else {}
    r = A.account(sc, sigma=sigma, steps=STEPS, delta=DELTA, attack_budget=10 * ADAPTIVE_WORK_BUDGET, **kw)
    sec, cpu = time.perf_counter() - t0, time.process_time() - c0
    members = T.net_label_groups(sc, sigma, r.h * hmult, tol, coarsen)[3] if tol is not None else None
    net = r.certificates.get('triangle net') if r.certificates else None
    others = {k: v for k, v in (r.certificates or {}).items() if k != 'triangle net'}
    row = dict(sigma=sigma, tol=tol, coarsen=coarsen, members=members, net_eps=net, attack_eps=r.lower,
               gap=(net / r.lower if net is not None else None), default_eps=min(others.values()),
               default_gap=min(others.values()) / r.lower, certificate=r.certificate, attack=r.attack_name,
               seconds=sec, cpu_seconds=cpu, hmult=hmult, net_h=r.h * hmult,
               peak_rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
               h=r.h, r=r.r, timers={k: round(v, 3) for k, v in t.items()}, calls=n, **info,
               spectra_mb=(info['dp_members'] * (info['dp_bins'] // 2 + 1) * 16 / 2**20 if info else None),
               profile=profile, cpus=os.cpu_count())
    if active:                           # states won per member (over all steps), sorted
        def summary(wins):
            w = np.sort(wins)[::-1]; c = np.cumsum(w) / w.sum()
            return dict(members_ever_max=int((w > 0).sum()), wins_total=int(w.sum()),
                        top_for_90pct=int(np.searchsorted(c, 0.9) + 1),
                        top_for_99pct=int(np.searchsorted(c, 0.99) + 1), top10_wins=w[:10].tolist())
        row.update(active=summary(st['wins']), active_mid=summary(st['wins_mid']))
    print(json.dumps(row), flush=True)

def fmt(row):
    f = lambda x, p: '-' if x is None else f"{x:.{p}f}"
    tm = row['timers']
    att = tm.get('attack_fixed', 0) + tm.get('attack_adaptive', 0)
    return (f"| {row['sigma']:g} | {'-' if row['tol'] is None else format(row['tol'], 'g')} | {row['coarsen']} | "
            f"{row['members'] if row['members'] is not None else '-'} | {f(row['net_eps'], 4)} | "
            f"{row['attack_eps']:.4f} | **{f(row['gap'], 4)}** | {row['seconds']:.1f} | {row['cpu_seconds']:.1f} | "
            f"{row['peak_rss_mb']:.0f} | "
            f"{tm.get('refine_grid', 0):.1f} | {att:.1f} | {tm.get('member_plds', 0):.1f} | {tm.get('dp', 0):.1f} | "
            f"{row['net_h']:.4g} ({row['hmult']}h) | {row.get('dp_bins', '-')} | {row.get('span', '-')} |")

HEAD = ('| σ | tol | coarsen | members | net ε | attack ε | gap | seconds | CPU s | peak RSS MB | refine_grid s | '
        'attack s | member PLDs s | DP s | net h | DP FFT bins | ε span (grid pts) |\n|' + '---|' * 17)

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--sigma', type=float, default=2.62)
    ap.add_argument('--settings', default=DEFAULT, help="comma-separated tol:coarsen ('-' = no net)")
    ap.add_argument('--out', default='coarse_net_out.jsonl')
    ap.add_argument('--profile', action='store_true', help="also time the DP's rfft/irfft (adds overhead)")
    ap.add_argument('--hmult', type=int, default=1, help="the net's grid: hmult × the account's h (default 1)")
    ap.add_argument('--active', action='store_true', help="count the members that attain the net's maximum")
    ap.add_argument('--child', nargs=3, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        s, tol, c = a.child
        return child(float(s), None if tol == '-' else float(tol), int(c), a.profile, a.hmult, a.active)
    print(HEAD, flush=True)
    for st in a.settings.split(','):
        tol, c = (st.split(':') + ['1'])[:2]
        cmd = ([sys.executable, __file__, '--child', str(a.sigma), tol, c, '--hmult', str(a.hmult)]
               + ['--profile'] * a.profile + ['--active'] * a.active)
        env = dict(os.environ, OMP_NUM_THREADS='1', OPENBLAS_NUM_THREADS='1', MKL_NUM_THREADS='1')   # one core
        p = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if p.returncode:
            print(f"| {a.sigma:g} | {tol} | {c} | failed: {p.stderr.strip().splitlines()[-1]} |", flush=True); continue
        row = json.loads(p.stdout.strip().splitlines()[-1])
        row['date'] = time.strftime('%Y-%m-%d %H:%M:%S')
        print(fmt(row), flush=True)
        with open(a.out, 'a') as fh: fh.write(json.dumps(row) + '\n')

if __name__ == '__main__': main()
