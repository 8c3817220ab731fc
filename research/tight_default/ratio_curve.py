"""The stand-in game's δ(ε) at every label-rate ratio of `LABEL_RATE_RATIOS` (`_best_ratio`'s search, 09_triangle_certificate),
WR on the quick setting's grid (4 × the grid `account` picks): is the curve unimodal in the ratio, so that a search
doubling the ratio until δ rises would pick the same ratio with fewer stand-in games? One line per configuration: the
ratios' δ, the chosen ratio, the games a doubling search would play, and the seconds of the full search.

    python research/tight_default/ratio_curve.py > research/tight_default/ratio_curve_out.txt
"""
import time
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting import triangle_certificate as tc

CONFIGS = [('DP-SGD σ=2.62', (60000, 256, 6000), 2.62, 2350, dict(delta=1e-5), 0.7339),
           ('DP-SGD σ=1.1', (60000, 256, 6000), 1.1, 2350, dict(delta=1e-5), 8.4435),
           ('Fig S2 σ=4', (10000, 200, 118), 4.0, 1000, dict(eps=1.0), 1.0)]
for label, (n, m, b), sigma, steps, query, eps in CONFIGS:
    sc = scheme_at('wr', n, m, b=b)
    h = account(sc, sigma=sigma, steps=steps, attack=False, **query).h * 4
    t0 = time.perf_counter()
    d = {r: tc._proxy_delta(sc, sigma, steps, eps, h, r, tc.MAX_BINS) for r in tc.LABEL_RATE_RATIOS}
    seconds = time.perf_counter() - t0
    best = min(d, key=lambda r: (d[r], r))
    played = 1
    for prev, r in zip(tc.LABEL_RATE_RATIOS, tc.LABEL_RATE_RATIOS[1:]):
        played += 1
        if d[r] >= d[prev]: break
    rises = [r for prev, r in zip(tc.LABEL_RATE_RATIOS, tc.LABEL_RATE_RATIOS[1:]) if d[r] >= d[prev]]
    unimodal = all(r in rises for r in tc.LABEL_RATE_RATIOS if r > min(rises, default=10**9))
    print(f"{label} (ε = {eps}): " + ', '.join(f"{r}: {d[r]:.6g}" for r in d) +
          f" | chosen {best}; unimodal {unimodal}; a doubling search plays {played} of {len(d)} | {seconds:.1f} s",
          flush=True)
