"""How much the adaptive-orientation attack (a certified *lower* bound) gains on a finer loss grid. `account` runs it
on the certificate's grid h; the attack rounds down, so a finer grid can only find more of the same adversary's
value. argv: scheme sigma h [h ...], DP-SGD size (n = 60,000, m = 256, b = 6000, 2350 steps, δ = 1e-5)."""
import sys, time
from must_nbdev import account
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.adaptive import adaptive_epsilon

name, sigma, hs = sys.argv[1], float(sys.argv[2]), [float(x) for x in sys.argv[3:]]
sc = scheme_at(name, 60_000, 256, b=6000)
r = account(sc, sigma=sigma, steps=2350, delta=1e-5)
print(f"{name} σ={sigma}: account h={r.h:.4g}: attack {r.lower:.5f}, certified {r.upper:.5f}", flush=True)
for h in hs:
    t = time.perf_counter()
    a = adaptive_epsilon(sc, sigma=sigma, steps=2350, delta=1e-5, h=h, eps_lo=r.lower * 0.995, eps_hi=r.upper,
                         rtol=1e-4)
    print(f"  h={h:g}: attack ε ≥ {a.value:.5f} ({a.precision}, {a.bins} bins, {time.perf_counter() - t:.0f} s)",
          flush=True)
