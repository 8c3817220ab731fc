"""The two sizes the research scripts here measure, with the library's reference run at each: Figure S2 (δ at ε = 1)
and the DP-SGD size (ε at δ = 1e-5, σ given). `reference(name, size)` returns (scheme, σ, steps, AccountResult)."""
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account

def reference(name, size):
    "size 's2': Fig S2 (n = 10,000, m = 200, b = 118, σ = 4, 1,000 steps); else σ at n = 60,000, m = 256, b = 6,000."
    if size == 's2':
        sc, sigma, k = scheme_at(name, 10_000, 200, b=118), 4.0, 1000
        return sc, sigma, k, account(sc, sigma=sigma, steps=k, eps=1.0, attack_budget=1.4e10)
    sc, sigma, k = scheme_at(name, 60_000, 256, b=6000), float(size), 2350
    return sc, sigma, k, account(sc, sigma=sigma, steps=k, delta=1e-5, attack_budget=1.4e10)
