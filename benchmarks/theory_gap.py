"""Theory-gap benchmark: for every fixed-size scheme, each certificate's bound, the winner, the best real
attack and their ratio (the theory gap), with the time and the peak memory of one `account` query; then the σ each
scheme needs for (ε, δ) = (3, 1e-5) over 10 epochs of batch 256 on 60,000 records. The time yardstick is measured in
the same run: dp_accounting's PLD accountant on the Poisson query of the same size. Writes a markdown table (default
benchmarks/THEORY_GAP.md); the ratios are measured in the same run, never asserted.

    python benchmarks/theory_gap.py              # DP-SGD size (σ = 1.1 and 2.62) and Fig S2; then the calibrations
    python benchmarks/theory_gap.py --out FILE   # where to write the markdown table
"""
import argparse, time, tracemalloc
from pathlib import Path
from must_nbdev.core.sampling import make_scheme, scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting.adaptive import ADAPTIVE_WORK_BUDGET, adaptive_epsilon
from must_nbdev.accounting.calibrate import calibrate_sigma

SIZES = [('DP-SGD σ=1.1, k=2350', dict(n=60_000, m=256, b=6000), 1.1, 2350, dict(delta=1e-5)),
         ('DP-SGD σ=2.62, k=2350', dict(n=60_000, m=256, b=6000), 2.62, 2350, dict(delta=1e-5)),
         ('Fig S2 σ=4, k=1000', dict(n=10_000, m=200, b=118), 4.0, 1000, dict(eps=1.0)),
         ('one step σ=1.1, k=1', dict(n=60_000, m=256, b=6000), 1.1, 1, dict(eps=0.5)),
         ('one step σ=1.1, k=1', dict(n=60_000, m=256, b=6000), 1.1, 1, dict(eps=2.0)),
         ('one step, Fig S2 size, σ=4', dict(n=10_000, m=200, b=118), 4.0, 1, dict(eps=0.5)),
         ('one step, Fig S2 size, σ=4', dict(n=10_000, m=200, b=118), 4.0, 1, dict(eps=2.0)),
         ('one step, Fig S2 size, σ=1.1', dict(n=10_000, m=200, b=118), 1.1, 1, dict(eps=0.5)),
         ('one step, Fig S2 size, σ=1.1', dict(n=10_000, m=200, b=118), 1.1, 1, dict(eps=2.0))]
SCHEMES = ('wor', 'wr', 'must-wo', 'must-ow', 'must-ww')

def rows():
    "One row per (size, scheme): the certificates, the winner, the best attack, the gap and the query's wall time."
    for size, g, sigma, k, query in SIZES:
        for name in SCHEMES:
            if name == 'must-wo' and g['m'] > g['b']: continue               # WOR m of b needs m <= b
            sc, t0 = scheme_at(name, g['n'], g['m'], b=g['b']), time.perf_counter()
            r = account(sc, sigma=sigma, steps=k, net=False,   # the fast certificates, as recorded
                        attack_budget=10 * ADAPTIVE_WORK_BUDGET, **query)
            t_all = time.perf_counter() - t0
            t0 = time.perf_counter()
            account(sc, sigma=sigma, steps=k, attack=False, net=False, **query)
            bound_s, fine = time.perf_counter() - t0, None
            tracemalloc.start()                  # numpy reports its buffers to tracemalloc: the query's peak heap
            account(sc, sigma=sigma, steps=k, attack_budget=10 * ADAPTIVE_WORK_BUDGET, net=False, **query)
            peak_mb = tracemalloc.get_traced_memory()[1] / 2 ** 20; tracemalloc.stop()
            if 'delta' in query and k > 1:       # the attack rounds down on r.h: on h/2 it finds more (converged there)
                fine = max(r.lower, adaptive_epsilon(sc, sigma=sigma, steps=k,
                                                     delta=query['delta'], h=r.h / 2, eps_lo=r.lower * 0.995,
                                                     eps_hi=r.upper, rtol=1e-4).value)
            yield dict(size=size, scheme=name,
                       query=f"ε(δ={query['delta']:.0e})".replace('e-0', 'e-') if 'delta' in query
                       else f"δ(ε={query['eps']:g})", labels=r.certificates['public labels'],
                       unlabelled=r.certificates.get('partially unlabelled'), winner=r.certificate, attack=r.lower,
                       adaptive=r.attack_name.startswith('adaptive'), gap=r.upper / r.lower if r.lower > 0 else float('inf'),
                       upper=r.upper, fine=fine, bound_s=bound_s, total_s=t_all, peak_mb=peak_mb)

def yardstick(sigma:float, steps:int=2350, q:float=256 / 60_000, delta:float=1e-5):
    "dp_accounting's PLD accountant on Poisson (rate q, add/remove, its default discretisation): (ε, seconds), or None."
    try: import dp_accounting
    except ImportError: return None
    t0 = time.perf_counter()
    acc = dp_accounting.pld.PLDAccountant()
    acc.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)), steps)
    return acc.get_epsilon(delta), time.perf_counter() - t0

def calibrations():
    "σ for (3, 1e-5) after 10 epochs of batch 256 on 60,000 records, substitution, each scheme (Poisson for reference)."
    for name in ('poisson', 'wor', 'wr', 'must-ow', 'must-ww'):
        sc = (make_scheme('poisson', 60_000, q=256 / 60_000) if name == 'poisson'
              else scheme_at(name, 60_000, 256, b=6000))
        c = calibrate_sigma(sc, epochs=10, eps=3.0, delta=1e-5, relation='substitute', net=False)
        yield dict(scheme=name, sigma=c.sigma, steps=c.steps, eps_upper=c.eps_upper, attack=c.eps_lower,
                   certificate=c.result.certificate, seconds=c.seconds)

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--out', default=str(Path(__file__).with_name('THEORY_GAP.md')))
    args = ap.parse_args(argv)
    fmt = lambda v: '—' if v is None else f"{v:.4g}"
    lines = ['# Theory gap: certified bound against the best real attack', '',
             '`python benchmarks/theory_gap.py`: substitution, worst case. *public labels*: the dominating pair of '
             'accounting/03_dominating; *partially unlabelled*: accounting/04_unlabelled; the certified bound is the '
             'smaller. Attack: the best of the fixed orientation mixes and (where it fits 10 × ADAPTIVE_WORK_BUDGET) '
             'the adaptive-orientation DP of accounting/06_adaptive. Gap = certified / attack. *attack on h/2*: the '
             'adaptive attack, a lower bound that rounds down on the grid h, on a grid twice as fine (ε(δ) rows; it '
             'has converged there: research/multicopy/attack_grid_out.txt), and the gap against it. *bound s*: one '
             '`account` query without attacks; *total s*: with them (not the h/2 attack); *peak MB*: the largest '
             'heap the query with its attacks held (tracemalloc, numpy buffers included).', '']
    for sigma in (1.1, 2.62):
        y = yardstick(sigma)
        line = ('Time yardstick, same run: dp_accounting is not installed.' if y is None else
                f"Time yardstick, same run: dp_accounting's PLD accountant, Poisson q = 256/60,000, σ = {sigma}, "
                f"2350 steps, add/remove: ε(1e-5) = {y[0]:.4g} in {y[1]:.2f} s.")
        print(line, flush=True); lines += [line, '']
    lines += ['| size | scheme | query | public labels | partially unlabelled | winner | best attack | adaptive | gap | '
              'attack on h/2 | gap (h/2) | bound s | total s | peak MB |',
              '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|']
    for r in rows():
        fine_gap = '—' if r['fine'] is None else f"**{r['upper'] / r['fine']:.3f}**"
        line = (f"| {r['size']} | {r['scheme']} | {r['query']} | {fmt(r['labels'])} | {fmt(r['unlabelled'])} | "
                f"{r['winner']} | {fmt(r['attack'])} | {'yes' if r['adaptive'] else 'no'} | **{r['gap']:.3f}** | "
                f"{fmt(r['fine'])} | {fine_gap} | "
                f"{r['bound_s']:.2f} | {r['total_s']:.2f} | {r['peak_mb']:.0f} |")
        print(line, flush=True); lines.append(line)
    lines += ['', '## σ for (ε, δ) = (3, 1e-5), 10 epochs of batch 256 on 60,000 records (2344 steps), substitution',
              '', '| scheme | σ | certified ε | attack ε at that σ | certificate | seconds |',
              '|---|---|---|---|---|---|']
    for c in calibrations():
        line = (f"| {c['scheme']} | **{c['sigma']:.4g}** | {c['eps_upper']:.4f} | {c['attack']:.4f} | "
                f"{c['certificate']} | {c['seconds']:.1f} |")
        print(line, flush=True); lines.append(line)
    lines += ['', '## Where the rest of the gap is', '',
              'WOR is tight for one step (Balle et al.), so its gap is composition: the symmetrised pair against an '
              'adversary who may switch orientation. The adaptive DP over the *c-family* (the others\' gradients at c '
              'in [-1, 1]; c = -1, +1: the displacing pair and its reverse) gives the same value as over the two '
              'orientations at Fig S2 (WOR 3.05e-4, MUST.ow 4.008e-2), so a better attack is not in that family. The '
              'conjecture that every real one-step pair is dominated by a revealed mixture of the two orientations is '
              'false (accounting/06_adaptive: excess 0.015 in H_alpha at q = 1/3), and so is the c-family one: at '
              'tiny n with a large rate, off-line triangles beat every collinear configuration (accounting/06_adaptive, '
              '"Conjecture 2 is false"; benchmarks/TINY_N_GAPS.md). It is proved for WOR when every other record lies on the '
              'segment between the two differing records (a Gaussian kernel maps a member onto the step); open off '
              'the segment. The exact worst case of WOR is the adaptive DP over *triangles* of gradients, and a '
              'step\'s value is monotone in the triangle\'s Gram matrix (Loewner order), so a finite net of '
              'triangles covering the feasible ones from above is a certificate that needs no conjecture: '
              'accounting/07_triangles builds it (`account(net=True)`, minutes per query; '
              'benchmarks/TRIANGLE_NET.md): at Fig S2 WOR it gives 3.39e-4 against the attack\'s 3.05e-4 (gap 1.11, '
              '1.035 with a finer net) instead of 1.148e-3, and at the DP-SGD size with σ = 2.62 ε 0.702 against '
              '0.692 (gap 1.015) instead of 0.847, and with σ = 1.1 ε 6.88 against 6.76 (gap 1.018; members on a '
              '4 times coarser grid, `net_coarsen=4`) instead of 7.49. WR and MUST draw a record several times, but a '
              'step is a public mixture over the copy count l of triangles scaled by l (Lemma 5 of '
              'accounting/09_triangle_certificate), so one net per count certifies them, and each step may also '
              'take the partially unlabelled pair\'s value where it '
              'is smaller; for WR, whose slots hold i.i.d. records, each count may also carry its own rate: at Fig '
              'S2 WR gives 3.73e-4 (gap 1.17) instead of 1.206e-3, and at σ = 2.62 ε 0.723 (gap 1.04) instead of '
              '0.849 (MUST.ow and MUST.ww at σ = 2.62 with the labelled game alone: 0.854 and 0.861, gap 1.20); for '
              'MUST.ow at Fig S2 the public count costs more than symmetrising in every state (0.122 against the '
              'partially unlabelled 0.064). The unlabelled nets of accounting/08_unlabelled_net keep the count hidden '
              'and do not symmetrise: the partially unlabelled theorem at the distances of one step\'s triangle (the '
              'differing records and one other record), one asymmetric member per triangle. MUST.ow and MUST.ww then '
              'certify 0.768 and 0.773 at σ = 2.62 (gap 1.08 with the default 14 cells per side; with 60 cells 0.748 '
              'and 0.753, gap 1.047 and 1.0499 against the attack on a grid twice as fine: research/multicopy) and '
              '0.0506 and 0.0546 at Fig S2 (gap 1.26-1.29). The exact multi-copy game, with a free triangle per '
              'label, is open.',
              '',
              'One step (k = 1): at the DP-SGD size every scheme is within 0.1 % of the displacing attack. At Fig '
              'S2\'s sizes (b = 118: another record takes the slot in 82 % of the reference) the matched plan feeds '
              'the short low labels from the labels above, which makes σ = 4 exact too; at σ = 1.1 high labels are '
              'short as well and cannot be fed, and MUST.ow/ww stay 1.4-2.6 % above. No transport plan closes that '
              '(the best, found numerically in research/k1_gap, leaves 1.0-1.9 %); the lemma that would is the '
              'Y-averaged one of research/k1_gap §4. At that size with σ = 4 the one-step δ of WOR and WR is below '
              '1e-12 (ε = 0.5) or the attack underflows to 0 (ε = 2, gap ∞): those rows measure the accountant\'s '
              'absolute error floor (the FFT\'s charges, about 1e-15; below them the moments\' bound of '
              'accounting/02_compose and the mass the discretisation charges at +∞), not the theory.', '',
              'A second certificate for WOR (Rényi, composed additively) needs the per-step maximiser over clipped '
              'configurations to be the displacing one; Lebeda, Regehr, Kamath & Steinke (2024) state it as a '
              'conjecture; Birrell et al.\'s FS-RDP is a proved bound whose leading term is that of the side-2 '
              'triangle, a configuration the unit ball excludes, so it is looser. accounting/06_adaptive, "What the '
              'literature says", has the details and a second-order check.']
    Path(args.out).write_text('\n'.join(lines) + '\n', encoding='utf-8')
    print(f"written to {args.out}")

if __name__ == '__main__': main()
