"""The practitioner's question: which σ makes 10 epochs of batch 256 on 60,000 records (3, 1e-5)-DP, for every
sampling scheme, random allocation and shuffled epochs included: certified σ, the attack's ε at that σ, and (for the
epoch schemes) the σ below which the attack alone breaks the target. Random allocation is also bracketed by
pld-accounting at the same σ, in the same run, with both times and their ratio. Writes benchmarks/PRACTITIONER.md
and benchmarks/practitioner.png (what training/03_compare shows); minutes.

    python benchmarks/practitioner.py
"""
import argparse, json, subprocess, time
from pathlib import Path
from must_nbdev.core.epochs import make_epoch_scheme
from must_nbdev.accounting.allocation import allocation_bounds, forget_epoch_plds
from must_nbdev.accounting.epoch_account import calibrate_epoch_sigma
from must_nbdev.training.compare import compare_schemes, comparison_table, plot_comparison, reading, short_label

N, BATCH, EPOCHS, EPS, DELTA, B = 60_000, 256, 10, 3.0, 1e-5, 6000

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--out', default=str(Path(__file__).with_name('PRACTITIONER.md')))
    args = ap.parse_args(argv)
    commit = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True).stdout.strip()
    t0 = time.perf_counter()
    rows = compare_schemes(N, BATCH, epochs=EPOCHS, eps=EPS, delta=DELTA, b_values=[B], net=False)   # as recorded
    total = time.perf_counter() - t0
    plot_comparison(rows, path=str(Path(args.out).with_name('practitioner.png')))
    attack_sigma = {short_label(r): calibrate_epoch_sigma(make_epoch_scheme(r.name, N, BATCH), epochs=EPOCHS, eps=EPS,
                                                          delta=DELTA, relation=r.relation, which='attack')
                    for r in rows if r.name in ('allocation', 'shuffle')}
    ra = next(r for r in rows if r.name == 'allocation' and r.relation == 'add_remove')
    t = make_epoch_scheme('allocation', N, BATCH).steps_per_epoch
    forget_epoch_plds()     # the calibration kept this σ's epoch: ours is timed from scratch, as the peer's is
    t1 = time.perf_counter(); ours = allocation_bounds(ra.sigma, t, EPOCHS, delta=DELTA); ours_s = time.perf_counter() - t1
    peer = 'pld-accounting is not installed'
    try:
        from PLD_accounting import gaussian_allocation_epsilon_range
        t1 = time.perf_counter()
        up, lo = gaussian_allocation_epsilon_range(delta=DELTA, sigma=ra.sigma, num_steps=t, num_selected=1,
                                                   num_epochs=EPOCHS)
        their_s = time.perf_counter() - t1
        peer = (f"pld-accounting 2.0 [{lo:.4f}, {up:.4f}] ({up / lo - 1:.1%} wide) in {their_s:.1f} s; ours "
                f"[{ours[0]:.4f}, {ours[1]:.4f}] ({ours[1] / ours[0] - 1:.2%} wide) in {ours_s:.1f} s: "
                f"{their_s / ours_s:.1f}x faster, {((up / lo - 1) / (ours[1] / ours[0] - 1)):.1f}x narrower")
    except ImportError: pass
    lines = ['# σ for (3, 1e-5): 60,000 records, batch 256, 10 epochs, every scheme', '',
             f'`python benchmarks/practitioner.py` at commit `{commit}`, {time.strftime("%Y-%m-%d")}: '
             f'`compare_schemes` in {total:.0f} s. σ is calibrated on each scheme\'s certificate; the attack\'s ε is '
             'at that σ. Per-step schemes run ⌈10·n/m⌉ = 2344 steps, epoch schemes 10 epochs of 235 steps.', '',
             comparison_table(rows), '', reading(rows), '',
             '| epoch scheme | σ certified | σ below which the attack breaks (3, 1e-5) |', '|---|---|---|']
    lines += [f"| {short_label(r)} | {r.sigma:.4g} | {attack_sigma[short_label(r)]:.4g} |" for r in rows
              if short_label(r) in attack_sigma]
    lines += ['', f'Random allocation at σ = {ra.sigma:.4g}, ε(1e-5): {peer}.', '',
              '![σ per scheme](practitioner.png)', '']
    Path(args.out).write_text('\n'.join(lines))
    print('\n'.join(lines))
    Path(args.out).with_suffix('.json').write_text(json.dumps(dict(commit=commit, attack_sigma=attack_sigma,
        rows=[r.__dict__ for r in rows]), indent=1, default=float))

if __name__ == '__main__': main()
