"""How far dp_accounting's export (`MustPLDAccountant`) lands from `account`'s bracket, on its default grid and a finer one.

Claim (nbs/training/01_interop, "Composition"): at n = 10,000, m = 100, σ = 3, 2,000 steps and δ = 1e-5, the export's
ε is within about 1.2e-4 relative of `account`'s bracket on its default grid of 1e-3, and 6.6e-4 (WR) to 8.3e-4
(MUST.ow, b = 1,000) below it on a grid of 1e-4: the unlabelled pair is built on each grid, a finer one is tighter. Every export stays above the best attack's ε.
Run: `cd research && python export_gap.py > export_gap_out.txt` (a few minutes; needs dp_accounting).
"""
import dp_accounting
from must_nbdev import MustDpEvent, MustPLDAccountant
from must_nbdev.accounting.account import account
from must_nbdev.core.sampling import make_scheme

print('| scheme | grid | attack ε | account lower | account upper | export ε | (upper − export) / upper |')
print('|---|---|---|---|---|---|---|')
for name, sizes in (('wr', dict(m=100)), ('must-ow', dict(m=100, b=1000))):
    scheme = make_scheme(name, 10_000, **sizes)
    result = account(scheme, sigma=3.0, steps=2000, delta=1e-5)
    (lower, upper), attack = result.bracket, result.attack
    for h in (1e-3, 1e-4):
        export = MustPLDAccountant(value_discretization_interval=h)
        export.compose(dp_accounting.SelfComposedDpEvent(MustDpEvent(scheme, 3.0), 2000))
        eps = export.get_epsilon(1e-5)
        print(f"| {scheme.label} | {h:g} | {attack:.7f} | {lower:.7f} | {upper:.7f} | {eps:.7f} | {(upper - eps) / upper:+.2e} |")
