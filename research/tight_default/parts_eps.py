"""The same probe as `parts.py`, as ε(1e-5) on the quick setting's grid 4h (`triangle_epsilon` between the attack
and the default certificate), for WR at σ = 2.62: base, no label-2 net, no label-rate split, no unlabelled net.

    python research/tight_default/parts_eps.py wr 2.62 base nolabel2 noratio nofamily > research/tight_default/parts_eps_wr_out.jsonl
"""
import time, sys, json
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting import triangle_certificate as tc
name, sigma = sys.argv[1], float(sys.argv[2]); which = sys.argv[3:]
sc = scheme_at(name, 60000, 256, b=6000)
r = account(sc, sigma=sigma, steps=2350, delta=1e-5)
h = r.h * 4
orig_best, orig_un = tc._best_ratio, tc.unlabelled_members
def run(tag):
    t = time.perf_counter()
    c = tc.triangle_epsilon(sc, sigma=sigma, steps=2350, delta=1e-5, h=h, eps_lo=r.lower, eps_hi=r.upper, tol=0.04, levels=1.0)
    print(json.dumps(dict(tag=tag, eps=c.value, gap=c.value / r.lower, members=c.members, un=c.unlabelled_members,
                          ratio=c.label_rate_ratio, s=round(time.perf_counter() - t, 1))), flush=True)
for w in which:
    tc.net_label_groups.cache_clear(); tc.LABEL_NET_MASS = 1e-3
    tc._best_ratio, tc.unlabelled_members = orig_best, orig_un
    if w == 'nolabel2': tc.LABEL_NET_MASS = 0.05
    if w == 'noratio': tc._best_ratio = lambda *a: 1
    if w == 'nofamily': tc.unlabelled_members = lambda *a, **k: ((), ())
    run(w)
