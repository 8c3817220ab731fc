"""Claim 28: which ε the blocks' stand-in games should rank the label splits at, over every configuration of the goal
in five blocks (quick setting). `TIGHT_BLOCKS.json` at 6bfa2a4 ranked at the public-label certificate's block ε at
δ/b; at 46ceccd at the run's ε over the blocks (the attack's for ε(δ), the query's for δ(ε)). This script ranks at
ε = 0: one `account` per configuration, as `benchmarks/tight_default.py` calls it, with `block_bound`'s rank_eps
forced to 0.

    python research/tight_default/block_rank_rule.py RULE [BLOCKS [SCHEME ...]]   # RULE: zero or library; 5 blocks; all
"""
import json, sys, time
from pathlib import Path
from dataclasses import replace
sys.path.insert(0, str(Path(__file__).parents[2] / 'benchmarks'))
from tight_default import configurations
import must_nbdev.accounting.net_blocks as nb
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting.triangle_certificate import QUICK_NET

rule = sys.argv[1] if len(sys.argv) > 1 else 'library'     # 'zero': rank at ε = 0; 'library': as the library ranks
library = nb.block_bound
if rule == 'zero': nb.block_bound = lambda *a, **k: library(*a, **dict(k, rank_eps=0.0))   # triangle_bound's name
blocks, only = (int(sys.argv[2]) if len(sys.argv) > 2 else 5), sys.argv[3:]
options = dict(net=True, **replace(QUICK_NET, blocks=blocks).keywords())
for size, query, spec, names in configurations():
    for name in [n for n in names if not only or n in only]:
        a = dict(spec); scheme = scheme_at(name, a.pop('n'), a.pop('m'), b=a.pop('b'))
        t0 = time.perf_counter()
        r = account(scheme, **a, **options)
        print(json.dumps(dict(size=size, scheme=name, rank=rule, blocks=blocks, upper=r.upper, attack=r.lower,
                              seconds=round(time.perf_counter() - t0, 1))), flush=True)
