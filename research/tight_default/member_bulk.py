"""How far out must a member's fine quadrature reach? `planar_upper_pld` places fine cells and loss levels within
Z_BULK σ of the means (4× finer within Z_CORE σ) and 40 coarse ones out to Z_FAR σ (+∞ beyond). Every setting gives
an upper PLD (a region's mass goes to the two atoms at its loss range's ends), so each run below is a certificate;
the question is what a narrower fine band costs in ε and saves in the members' time.

    python member_bulk.py SCHEME SIGMA BLOCKS Z_BULK Z_CORE      (one fresh process per setting)

SIGMA a number: the DP-SGD size (n = 60,000, batch 256, b = 6000, k = 2350, ε(1e-5)); SIGMA 's2': Figure S2's
(n = 10,000, m = 200, b = 118, σ = 4, k = 1000, δ(ε = 1)). The quick setting, cut into BLOCKS blocks."""
import sys, time
from dataclasses import replace
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting import triangles as T
from must_nbdev.accounting import triangle_certificate as TC
from must_nbdev.accounting.triangle_certificate import QUICK_NET

name, size, blocks, zb, zc = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
T.Z_BULK, T.Z_CORE = zb, zc
spent = [0.0]
inner = TC._member_plds                      # timed around each call (not cached)
def timed(*a, **kw):
    t0 = time.perf_counter(); out = inner(*a, **kw); spent[0] += time.perf_counter() - t0; return out
TC._member_plds = timed
if size == 's2': sc, sigma, query = scheme_at(name, 10_000, 200, b=118), 4.0, dict(steps=1000, eps=1.0)
else: sc, sigma, query = scheme_at(name, 60_000, 256, b=6000), float(size), dict(steps=2350, delta=1e-5)
t0 = time.perf_counter()
r = account(sc, sigma=sigma, **query, net=replace(QUICK_NET, blocks=blocks))
print(f"{name} {'Fig S2' if size == 's2' else 'DP-SGD'} sigma={sigma} blocks={blocks} Z_BULK={zb} Z_CORE={zc}: value={r.upper:.5g} attack={r.lower:.5f} "
      f"gap={r.upper / r.lower:.4f} seconds={time.perf_counter() - t0:.1f} members_s={spent[0]:.1f}", flush=True)
