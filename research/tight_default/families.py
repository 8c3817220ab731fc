"""Which of MUST's two unlabelled families answers, in the quick net's five-block game: ε (DP-SGD size) or δ (Figure
S2) with both families played, with family 0 alone and with family 1 alone. A family left out is sound (the step is
the least over fewer upper bounds); what the comparison shows is whether the other one ever sets the value. It backs
the resting splits of `accounting/07b_upper_dp` (`SPLIT_IDLE`): run with the library at `fa090a4`, where they have
landed, so 'both' is that library's answer (the same to 1e-10 as before them, `benchmarks/TIGHT_BLOCKS.md`).

    cd research/tight_default && python families.py > families_out.txt

One fresh process per row; the seconds are not a measurement (the run shared the cores with other work).
"""
import subprocess, sys

CHILD = r'''
import sys
from dataclasses import replace
import must_nbdev.accounting.triangle_certificate as TC
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
name, sigma, keep, size = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
every = TC.unlabelled_members
def some(*a, **k):
    families = every(*a, **k)
    return families if keep == 'both' else tuple(f if i == int(keep) else () for i, f in enumerate(families))
TC.unlabelled_members = some
net = replace(TC.QUICK_NET, blocks=5)
if size == 'dpsgd':
    r = account(scheme_at(name, 60_000, 256, b=6000), sigma=sigma, steps=2350, delta=1e-5, net=net)
else:
    r = account(scheme_at(name, 10_000, 200, b=118), sigma=sigma, steps=1000, eps=1.0, net=net)
print(f"{name:8s} σ = {sigma:<5g} {size:6s} families {keep:5s}: certified {r.upper:.7g}, attack {r.lower:.6g}, "
      f"{r.upper / r.lower:.4f}x")
'''

ROWS = [('must-ww', '1.1', 'dpsgd'), ('must-ow', '1.1', 'dpsgd'), ('must-ow', '2.62', 'dpsgd'), ('must-ow', '4', 'figS2')]

if __name__ == '__main__':
    for name, sigma, size in ROWS:
        for keep in ('both', '0', '1'):
            out = subprocess.run([sys.executable, '-c', CHILD, name, sigma, keep, size], capture_output=True, text=True)
            print(out.stdout.strip() if out.returncode == 0 else f"{name} {sigma} {keep}: {out.stderr[-300:]}",
                  flush=True)
