"""The recorded accountant at training scale: one `step()` per training step, 10^5 steps, then `history()` every 10^4 steps.

Prints the time of recording and of the history for Poisson and MUST.ow, and, for Poisson, dp_accounting's PLD
accountant answering the same ten prefixes in the same run (ratio = ours / theirs). Not a timed test: the numbers
depend on the machine; run `python benchmarks/history_steps.py`.
"""
import time
from must_nbdev import make_scheme, PrivacyAccountant

STEPS, EVERY, DELTA = 100_000, 10_000, 1e-5

def ours(scheme, sigma):
    t0 = time.perf_counter(); run = PrivacyAccountant(net=False)
    for _ in range(STEPS): run.step(scheme, sigma=sigma)          # what an Opacus-style loop does
    t1 = time.perf_counter(); rows = run.history(delta=DELTA, every=EVERY); t2 = time.perf_counter()
    return rows, t1 - t0, t2 - t1

def dp_accounting_prefixes(q, sigma):
    import dp_accounting
    t0 = time.perf_counter(); out = []
    for k in range(EVERY, STEPS + 1, EVERY):
        acc = dp_accounting.pld.PLDAccountant()
        acc.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)), k)
        out.append(acc.get_epsilon(DELTA))
    return out, time.perf_counter() - t0

if __name__ == '__main__':
    po = make_scheme('poisson', 50_000, m=512)
    rows, rec, hist = ours(po, 1.0)
    print(f"Poisson q={po.rate:g} sigma=1.0: {STEPS} step() calls in {rec:.2f} s, history of {len(rows)} rows in "
          f"{hist:.2f} s")
    try:
        theirs, t = dp_accounting_prefixes(po.rate, 1.0)
        worst = max(abs(r['upper'] / e - 1) for r, e in zip(rows, theirs))
        print(f"  dp_accounting PLD, the same {len(theirs)} prefixes: {t:.2f} s; time ratio ours/theirs "
              f"{(rec + hist) / t:.2f}; largest relative difference in eps {worst:.2e}")
    except ImportError: print("  dp_accounting not installed: pip install \"must_nbdev[dev]\"")
    ow = make_scheme('must-ow', 50_000, m=512, b=4096)
    rows, rec, hist = ours(ow, 2.0)
    print(f"MUST.ow b=4096 sigma=2.0: {STEPS} step() calls in {rec:.2f} s, history of {len(rows)} rows in {hist:.2f} "
          f"s; eps after {rows[-1]['steps']} steps {rows[-1]['upper']:.4g}")
