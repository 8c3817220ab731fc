"""What the net's floor costs where it skips nothing: the DP-SGD size at σ = 1.1, where WR's and MUST.ow's fast
answers are within 1.1× of the attack (so `account` would ask for a floor). The quick net in five blocks (470 steps
a block), ε(δ = 1e-5), each in a fresh process: without any floor (FLOOR_GAP = 0), and with the floor offered
whatever the block's length (FLOOR_STEPS = inf), the rule of claim 42 before the length limit. Then, at σ = 2.62,
what the floor says a perfect cover could reach: the floor's ε next to the quick net's and the attack's.

    python research/tight_default/floor_cost.py > research/tight_default/floor_cost_out.txt
    python research/tight_default/floor_cost.py headroom >> research/tight_default/floor_cost_out.txt
"""
import json, subprocess, sys, tempfile

CHILD = r'''
import json, math, sys, time
from dataclasses import replace
import must_nbdev.accounting.account as A
import must_nbdev.accounting.net_blocks as nb
from must_nbdev.accounting.triangle_certificate import QUICK_NET
from must_nbdev.core.sampling import make_scheme
name, floor = sys.argv[1], sys.argv[2] == 'floor'
A.FLOOR_GAP, nb.FLOOR_STEPS = (1.1, math.inf) if floor else (0.0, nb.FLOOR_STEPS)
sc = make_scheme(name, 60_000, m=256, **(dict(b=6000) if name.startswith('must') else {}))
t0 = time.perf_counter()
r = A.account(sc, sigma=1.1, steps=2350, delta=1e-5, net=replace(QUICK_NET, blocks=5))
print(json.dumps(dict(seconds=time.perf_counter() - t0, eps=r.upper, certificate=r.certificate,
                      skipped=r.skipped)))
'''

def main():
    for name in ('wr', 'must-ow'):
        out = {}
        for mode in ('none', 'floor'):
            p = subprocess.run([sys.executable, '-c', CHILD, name, mode], capture_output=True, text=True,
                               cwd=tempfile.gettempdir(), check=True)
            out[mode] = json.loads(p.stdout.strip().splitlines()[-1])
        a, b = out['none'], out['floor']
        print(f"{name:8} σ=1.1: no floor {a['seconds']:5.1f} s, ε {a['eps']:.6g} ({a['certificate']}); with the floor "
              f"{b['seconds']:5.1f} s (+{b['seconds'] / a['seconds'] - 1:.0%}), ε {b['eps']:.6g}, skipped "
              f"{b['skipped']}")

HEADROOM = r'''
import json, math, sys
from dataclasses import replace
import must_nbdev.accounting.net_blocks as nb
from must_nbdev.accounting.account import account
from must_nbdev.accounting.triangle_certificate import QUICK_NET
from must_nbdev.core.sampling import make_scheme
nb.FLOOR_STEPS = math.inf
name, o = sys.argv[1], replace(QUICK_NET, blocks=5)
sc = make_scheme(name, 60_000, m=256, **(dict(b=6000) if name.startswith('must') else {}))
r = account(sc, sigma=2.62, steps=2350, delta=1e-5, net=o)
floor = nb.net_floor(sc, sigma=2.62, steps=2350, h=r.h, delta=1e-5, options=o)
print(json.dumps(dict(attack=r.lower, net=r.certificates['triangle net'], floor=floor)))
'''

def headroom():
    for name in ('wor', 'wr', 'must-ow'):
        p = subprocess.run([sys.executable, '-c', HEADROOM, name], capture_output=True, text=True,
                           cwd=tempfile.gettempdir(), check=True)
        d = json.loads(p.stdout.strip().splitlines()[-1])
        print(f"{name:8} σ=2.62: attack ε {d['attack']:.4f}, floor {d['floor']:.4f} ({d['floor'] / d['attack']:.3f}x), "
              f"quick net {d['net']:.4f} ({d['net'] / d['attack']:.3f}x): the cover costs "
              f"{d['net'] / d['floor'] - 1:.1%}")

if __name__ == '__main__':
    main() if sys.argv[1:] != ['headroom'] else headroom()
