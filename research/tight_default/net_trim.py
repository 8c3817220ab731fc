"""How much of the triangle net's DP is the members' far tails? The DP's FFT length is its loss window plus the union of
the members' supports, and those supports reach far into tails of tiny mass: `upper_kernels` keeps each member's
tails down to NET_TRIM / k of P-mass (moving the rest up: the low tail to its cut, the high tail to +∞), so the
certified δ rises by at most 2 NET_TRIM over the run. WOR at the DP-SGD size (60,000 records, batch 256, 2,350
steps), quick setting, the DP that `account(net=True, **QUICK_NET.keywords())` plays (captured), replayed with larger
NET_TRIM: the union support, the FFT length, the DP's seconds and δ at the account's ε.

    python research/tight_default/net_trim.py > research/tight_default/net_trim_out.txt
"""
import sys, time
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting import triangle_certificate as TC, upper_dp as T

sigma = float(sys.argv[1]) if len(sys.argv) > 1 else 2.62
captured, play = [], TC.upper_game_dp
TC.upper_game_dp = lambda *a, **k: captured.append((a, k)) or play(*a, **k)
r = account(scheme_at('wor', 60000, 256, b=6000), sigma=sigma, steps=2350, delta=1e-5, net=True,
            **TC.QUICK_NET.keywords())
TC.upper_game_dp = play
print(f"WOR, sigma {sigma}: certified eps {r.upper:.6g}, attack {r.lower:.6g}", flush=True)
args, kw = captured[-1]
k = args[1]
base = None
for trim in (T.NET_TRIM, 1e-12, 1e-10, 1e-8):
    T.NET_TRIM = trim
    K, infs, a, b = T.upper_kernels(tuple(p for alt in args[0][0][1] for p in alt), k)
    t0 = time.perf_counter(); d = play(*args, **kw); s = time.perf_counter() - t0
    base = base or (d['values'][0], s)
    print(f"NET_TRIM {trim:g}: union support {b - a + 1} bins, FFT length {d['bins']}, DP {s:.1f} s "
          f"({s / base[1]:.2f}x), delta {d['values'][0]:.8g} ({d['values'][0] - base[0]:+.2e}, at most 2 NET_TRIM)",
          flush=True)
