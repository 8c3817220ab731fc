"""Rates per copy (09_triangle_certificate, "Rates per copy"): label l at rate q/l with weight l·w_l/q, q = m/n, played
beside Lemma 5's single rate (the smaller sum at every state), against the single rate alone. The prototype ran with
its own copy of the labels before the library had them; this version calls the library's `PER_COPY` split (the same
formula). argv: scheme size tol coarsen, size in {s2, 2.62, 1.1}."""
import sys, time
import numpy as np
from must_nbdev import account
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting import triangle_certificate as tc
from must_nbdev.accounting.pld import MAX_BINS

SIZES = {'s2': (10_000, 200, 118, 4.0, 1000, dict(eps=1.0)), '2.62': (60_000, 256, 6000, 2.62, 2350, dict(delta=1e-5)),
         '1.1': (60_000, 256, 6000, 1.1, 2350, dict(delta=1e-5))}

def game(sc, sigma, k, e0, span, h, tol, coarsen, splits):
    "The labelled game's upper DP with the given label splits, each step also at most the partially unlabelled pair's."
    groups, null, left, members = tc.net_label_groups(sc, sigma, h, tol, coarsen, splits[0])
    more = []
    for s in splits[1:]:
        *alt, extra = tc.net_label_groups(sc, sigma, h, tol, coarsen, s); more.append(tuple(alt)); members += extra
    window = tc.attack_runs(sc, sigma, 'substitute', h, MAX_BINS)[0]
    d = tc.upper_game_dp(groups, k, e0, span, h, window, MAX_BINS, null=null, left=left, more=tuple(more),
                     whole=tc.whole_steps(sc, sigma, h, MAX_BINS))
    return d, members

if __name__ == '__main__':
    name, size, tol, coarsen = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
    n, m, b, sigma, k, qry = SIZES[size]
    sc = scheme_at(name, n, m, b=b)
    r = account(sc, sigma=sigma, steps=k, **qry)
    print(f"{name} {size}: h={r.h:.4g}, certified {r.upper:.6g} ({r.certificate}), attack {r.lower:.6g}", flush=True)
    for split, tag in ((tc.PER_COPY, 'per copy'), (1, 'single  ')):
        for pi, eta, l in tc._rated_labels(sc, sigma, split)[0][:4]:
            print(f"  {tag}: label {l} weight {pi:.5g} rate {eta:.5g}")
    for splits in ((1,), (1, tc.PER_COPY)):
        t = time.perf_counter()
        if 'eps' in qry:
            d, mem = game(sc, sigma, k, qry['eps'], 0, r.h, tol, coarsen, splits); v = float(d['values'][0])
        else:
            span = int(np.ceil((r.upper - r.lower) / r.h))
            d, mem = game(sc, sigma, k, r.lower, span, r.h, tol, coarsen, splits)
            ok = np.flatnonzero(d['values'] <= qry['delta']); v = r.lower + ok[0] * r.h if len(ok) else np.inf
        print(f"  splits {splits}: {v:.6g} (gap {v / r.lower:.4f}), {mem} members, {time.perf_counter() - t:.0f} s",
              flush=True)
