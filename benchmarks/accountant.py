"""Accountant benchmark: ours against dp_accounting (PLD, and RDP for reference), prv_accountant and fourier_accountant,
each tool in its own process, side by side on the same workloads. Prints time, value, interval width and the time ratio
to dp_accounting's PLD answer (its default 1e-4 grid), and writes a markdown table (default benchmarks/RESULTS.md).

    python benchmarks/accountant.py              # every workload (several minutes on 2 cores)
    python benchmarks/accountant.py --quick      # the small ones only
    python benchmarks/accountant.py --out FILE   # where to write the markdown table

Peers are optional (pip install -e ".[dev]" installs them); a missing peer is reported, not fatal. Times are medians of
`--repeat` runs (default 3) for ours and dp_accounting's PLD (the ratio the targets are stated in) and of
`--peer-repeat` runs (default 1) for the other peers, each in a fresh process per (tool, workload), so imports and
caches do not leak between tools; imports are not timed. Peak memory (max RSS of the process) is reported for ours."""
import argparse, json, statistics, subprocess, sys, time
from pathlib import Path

# (label, scheme, scheme kwargs, sigma, k, relation); Poisson workloads of the issue plus k from 1e2 to 1e6,
# Fig S2's schemes (n=10,000, m=200, b=118, σ=4) and DP-SGD size (n=60,000, m=256, b=6,000, σ=1.1, k=1e4).
POISSON = [(0.02, 1.0, 1000), (0.01, 1.1, 10**4), (0.001, 0.8, 10**5), (0.004, 1.0, 250_000), (0.01, 1.1, 10**6),
           (0.01, 1.1, 100), (0.01, 1.1, 10**5)]
WORKLOADS = ([(f"Poisson q={q:g} σ={s:g} k={k:.0e}", 'poisson', dict(n=10**7, q=q), s, k, 'add_remove')
              for q, s, k in POISSON]
             + [(f"Fig S2 {name} k=1e3", name, dict(n=10_000, m=200, b=118), 4.0,
                 1000, 'substitute') for name in ('must-ow', 'must-ww', 'wr', 'wor')]
             + [(f"DP-SGD {name} {rel} k=1e4", name, dict(n=60_000, m=256, b=6000),
                 1.1, 10**4, rel) for name in ('wor', 'wr', 'must-ow', 'must-wo', 'must-ww')
                for rel in ('substitute', 'add_remove')])
QUICK = {0, 5, 7, 10}
TOOLS = ('ours', 'dp_accounting_pld', 'dp_accounting_rdp', 'prv_accountant_0.1', 'prv_accountant_0.01',
         'fourier_accountant')

RUNNER = r'''
import json, sys, time
tool, name, kw, sigma, k, rel, query, value = json.loads(sys.argv[1])
kw = {a: b for a, b in kw.items() if b is not None}
def ours():
    from must_nbdev.accounting.account import account
    from must_nbdev.core.sampling import make_scheme, scheme_at
    scheme = make_scheme(name, **kw) if 'q' in kw else scheme_at(name, **kw)    # Poisson by its rate q
    r = account(scheme, sigma=sigma, steps=k, relation=rel, attack_budget=0, net=False,   # the Fourier accountant's own
                **{query: value})   # bracket (the net has none); fixed-mix attack only, as before the adaptive one
    lo, up = r['bound_interval']                  # numerical bracket of the certified bound (the attack is reported apart)
    return up, lo, up
def poisson_only():
    if name != 'poisson': raise NotImplementedError('Poisson only')
    return kw['q']
def dp_pld():
    from dp_accounting import dp_event
    from dp_accounting.pld import pld_privacy_accountant
    a = pld_privacy_accountant.PLDAccountant(); a.compose(dp_event.PoissonSampledDpEvent(poisson_only(), dp_event.GaussianDpEvent(sigma)), k)
    v = a.get_delta(value) if query == 'eps' else a.get_epsilon(value); return v, None, v
def dp_rdp():
    from dp_accounting import dp_event
    from dp_accounting.rdp import rdp_privacy_accountant
    a = rdp_privacy_accountant.RdpAccountant(); a.compose(dp_event.PoissonSampledDpEvent(poisson_only(), dp_event.GaussianDpEvent(sigma)), k)
    v = a.get_delta(value) if query == 'eps' else a.get_epsilon(value); return v, None, v
def prv(err):
    from prv_accountant.dpsgd import DPSGDAccountant
    q = poisson_only()
    if query == 'eps':
        from prv_accountant import PRVAccountant, PoissonSubsampledGaussianMechanism
        a = PRVAccountant(prvs=[PoissonSubsampledGaussianMechanism(noise_multiplier=sigma, sampling_probability=q)],
                          max_self_compositions=[k], eps_error=err, delta_error=1e-10)
        lo, est, up = a.compute_delta(value, [k]); return est, lo, up
    a = DPSGDAccountant(noise_multiplier=sigma, sampling_probability=q, eps_error=err, delta_error=1e-10, max_steps=k)
    lo, est, up = a.compute_epsilon(delta=value, num_steps=k); return est, lo, up
def fourier():
    import fourier_accountant as fa
    q = poisson_only()
    if query == 'eps': v = fa.get_delta_R(target_eps=value, sigma=sigma, q=q, ncomp=k); return v, None, v
    v = fa.get_epsilon_R(target_delta=value, sigma=sigma, q=q, ncomp=k); return v, None, v
fns = dict(ours=ours, dp_accounting_pld=dp_pld, dp_accounting_rdp=dp_rdp, fourier_accountant=fourier,
           **{'prv_accountant_0.1': lambda: prv(0.1), 'prv_accountant_0.01': lambda: prv(0.01)})
import importlib
for mod in dict(ours=['must_nbdev.accounting.account'], dp_accounting_pld=['dp_accounting.pld.pld_privacy_accountant'],
                dp_accounting_rdp=['dp_accounting.rdp.rdp_privacy_accountant'], fourier_accountant=['fourier_accountant'],
                **{'prv_accountant_0.1': ['prv_accountant.dpsgd'], 'prv_accountant_0.01': ['prv_accountant.dpsgd']})[tool]:
    try: importlib.import_module(mod)            # imports are not timed
    except ImportError: pass
t0 = time.perf_counter()
try: v, lo, up = fns[tool](); out = dict(value=float(v), lo=None if lo is None else float(lo), up=None if up is None else float(up))
except ImportError as e: out = dict(error=f"not installed ({e.name})")
except NotImplementedError as e: out = dict(error=str(e))
except Exception as e: out = dict(error=f"{type(e).__name__}: {str(e)[:80]}")
out['seconds'] = time.perf_counter() - t0
import resource
out['peak_mb'] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024    # Linux: KiB
print(json.dumps(out))
'''

def run(tool, workload, query, value, repeat, timeout=900):
    "Median time and the last result of `repeat` fresh processes."
    label, name, kw, sigma, k, rel = workload
    outs = []
    for _ in range(repeat):
        try: p = subprocess.run([sys.executable, '-c', RUNNER,
                                 json.dumps([tool, name, kw, sigma, k, rel, query, value])],
                                capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired: outs.append(dict(error=f'timeout after {timeout} s', seconds=None)); break
        try: outs.append(json.loads(p.stdout.strip().splitlines()[-1]))
        except (IndexError, json.JSONDecodeError):
            outs.append(dict(error=(p.stderr.strip().splitlines() or ['no output'])[-1][:80], seconds=None))
        if 'error' in outs[-1]: break
    res = outs[-1]
    times = [o['seconds'] for o in outs if o.get('seconds') is not None and 'error' not in o]
    res['median_seconds'] = statistics.median(times) if times else None
    return res

def summary(rows, ours) -> str:
    "The targets of the speed issue, checked on this run."
    ratios = [float(r['ratio']) for r in rows if r['tool'] == 'ours' and r['ratio']]
    def worst(prefix):
        ts = [(t, w[0], q) for w, q, t, r in ours if w[0].startswith(prefix) and t is not None]
        return max(ts) if ts else None
    peak = max((r.get('peak_mb') or 0) for _, _, _, r in ours) if ours else 0
    out = ["## Summary", ""]
    if ratios: out.append(f"* Poisson, ours / dp_accounting PLD: max ratio **{max(ratios):.2f}** (target ≤ 0.5) over "
                          f"{len(ratios)} queries; median {statistics.median(ratios):.2f}.")
    scale = [float(r['seconds']) for r in rows if r['tool'] == 'dp_accounting_pld' and r['seconds']]
    scale = statistics.median(scale) if scale else None     # the machine's speed in this run (it varies about 2x)
    for prefix, target in (('DP-SGD', 0.5), ('Fig S2', 0.3)):
        wst = worst(prefix)
        rel = f"; {wst[0] / scale:.2f}× dp_accounting PLD's median Poisson query in this run" if wst and scale else ''
        if wst:
            out.append(f"* {prefix}, slowest query: **{wst[0]:.3f} s** ({wst[1]}, {wst[2]}; target ≤ {target} s{rel}).")
    if scale: out.append(f"* Machine speed: dp_accounting PLD's median Poisson query took {scale:.3f} s in this run "
                         f"(0.49 s on 2026-11-22, when the targets were set); absolute seconds scale with it.")
    out.append(f"* Peak memory of any of our runs: **{peak:.0f} MB** (target ≤ 1 GB).")
    return '\n'.join(out) + '\n'

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--quick', action='store_true', help='only a few small workloads')
    ap.add_argument('--repeat', type=int, default=3, help='runs per (tool, workload); the median time is reported')
    ap.add_argument('--timeout', type=float, default=120, help='seconds before a peer run is reported as a timeout')
    ap.add_argument('--peer-repeat', type=int, default=1,
                    help='runs per workload for the peers other than dp_accounting PLD')
    ap.add_argument('--out', default=str(Path(__file__).with_name('RESULTS.md')), help='markdown file to write')
    args = ap.parse_args(argv)
    rows, ours = [], []
    for i, w in enumerate(WORKLOADS):
        if args.quick and i not in QUICK: continue
        for query, value in (('eps', 1.0), ('delta', 1e-5)):
            res = {t: run(t, w, query, value, args.repeat if t in ('ours', 'dp_accounting_pld') else args.peer_repeat,
                          None if t == 'ours' else args.timeout) for t in TOOLS if w[1] == 'poisson' or t == 'ours'}
            ref = res.get('dp_accounting_pld', {}).get('median_seconds')
            for tool, r in res.items():
                q = 'δ(ε=1)' if query == 'eps' else 'ε(δ=1e-5)'
                width = (f"{(r['up'] - r['lo']) / r['up'] * 100:.3f}%" if r.get('lo') is not None and r.get('up')
                         else '')
                t = r.get('median_seconds')
                rows.append(dict(workload=w[0], query=q, tool=tool, seconds=f"{t:.3f}" if t is not None else '',
                                 value=f"{r['value']:.6g}" if 'value' in r else r.get('error', ''), interval=(
                                     f"[{r['lo']:.6g}, {r['up']:.6g}]" if r.get('lo') is not None else ''), width=width,
                                 ratio=f"{t / ref:.2f}" if t is not None and ref else '',
                                 peak=f"{r['peak_mb']:.0f}" if tool == 'ours' and r.get('peak_mb') else ''))
                if tool == 'ours': ours.append((w, q, t, r))
                print(' | '.join(str(v) for v in rows[-1].values()), flush=True)
    cols = ['workload', 'query', 'tool', 'seconds', 'value', 'interval', 'width', 'ratio', 'peak']
    lines = ['| ' + ' | '.join(cols[:-2] + ['time / dp_accounting PLD', 'peak MB']) + ' |', '|' + '---|' * len(cols)]
    lines += ['| ' + ' | '.join(r[c] for c in cols) + ' |' for r in rows]
    head = (f"# Accountant benchmark\n\n`python benchmarks/accountant.py{' --quick' if args.quick else ''}` on this "
            f"machine, {time.strftime('%Y-%m-%d')}; medians of {args.repeat} fresh processes per cell for ours and "
            f"dp_accounting PLD, {args.peer_repeat} for the other peers. Ours: certified worst-case interval "
            "(ratio target 1.005); dp_accounting PLD at its default grid; prv_accountant with eps_error 0.1 and "
            "0.01.\n\n"
            + summary(rows, ours) + "\n")
    Path(args.out).write_text(head + '\n'.join(lines) + '\n', encoding='utf-8')
    print(f"wrote {args.out}")

if __name__ == '__main__':
    main()
