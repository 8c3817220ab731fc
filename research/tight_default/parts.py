"""What each part of the labelled game buys at the quick setting, and what it costs: one `triangle_delta` call per
variant at the DP-SGD size (n = 60,000, batch 256, b = 6,000, 2,350 steps, the net at `net_tol=0.04`, 4h, one level per
grid step: `QUICK_NET`), δ at a fixed ε (finer than ε, which moves in steps of 4h there), one JSON line per variant.

    python research/tight_default/parts.py wr 2.62 0.7319377441858466 base l2tol5 l2tol10 onlyratio nolabel2 > research/tight_default/parts_wr_out.jsonl
    python research/tight_default/parts.py wr 2.62 0.7319377441858466 weighted weighted0.05 >> research/tight_default/parts_wr_out.jsonl
    python research/tight_default/parts.py must-ow 2.62 0.7786 base nolabel2 weighted > research/tight_default/parts_must_out.jsonl
    python research/tight_default/parts.py must-ow 2.62 0.7786 nofamily nopercopy >> research/tight_default/parts_must_out.jsonl
    python research/tight_default/parts.py wr 2.62 0.7319377441858466 lean >> research/tight_default/parts_wr_out.jsonl
    python research/tight_default/parts.py must-ow 2.62 0.7786 onlypercopy >> research/tight_default/parts_must_out.jsonl

Variants (each patches the module for one call; a research probe, not a library path):
base: the library; nolabel2: no net for the labels l >= 2 (`LABEL_NET_MASS` 0.05); l2tolM: their nets at M x tol;
weighted[F]: label l's net at tol x max(1, F / pi_l), F the heaviest label's weight if omitted; onlyratio: only the
chosen label-rate split is played (not the single rate as well; the stand-in search outside the timer); lean: onlyratio and nolabel2 together; onlypercopy: only
the rates-per-copy split; nofamily: no
unlabelled net (08_unlabelled_net); nopercopy: no rates-per-copy split. Seconds are one call's wall time on 2 cores;
the first variant in a process also builds the cached whole-step pairs and unlabelled members (a few seconds).
The lean and onlypercopy lines ran on the library before its `lean` option (commit f7d41b2), which `lean` here mimics;
the library's `triangle_delta(..., lean=True)` plays the same game (the split the stand-in game ranks first, label nets
l >= 2 only where the stand-in game says they pay: for MUST.ow at sigma 2.62 they do, so onlypercopy is its lean game).
"""
import time, sys, json
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting import triangle_certificate as tc
name, sigma, eps = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]); which = sys.argv[4:]
sc = scheme_at(name, 60000, 256, b=6000)
r = account(sc, sigma=sigma, steps=2350, delta=1e-5)
h = r.h * 4
orig_pc = tc._per_copy_pays
orig_best, orig_un, orig_net, orig_groups = tc._best_ratio, tc.unlabelled_members, tc.triangle_net, tc.net_label_groups
def run(tag):
    t = time.perf_counter()
    c = tc.triangle_delta(sc, sigma=sigma, steps=2350, eps=eps, h=h, tol=0.04, levels=1.0)
    print(json.dumps(dict(tag=tag, delta=c.value, members=c.members, un=c.unlabelled_members,
                          ratio=c.label_rate_ratio, s=round(time.perf_counter() - t, 1))), flush=True)
for w in which:
    orig_groups.cache_clear(); tc.LABEL_NET_MASS = 1e-3
    tc._per_copy_pays = orig_pc
    tc._best_ratio, tc.unlabelled_members, tc.triangle_net, tc.net_label_groups = orig_best, orig_un, orig_net, orig_groups
    if w == 'nolabel2': tc.LABEL_NET_MASS = 0.05
    if w == 'noratio': tc._best_ratio = lambda *a: 1
    if w == 'nofamily': tc.unlabelled_members = lambda *a, **k: ((), ())
    if w.startswith('l2tol'):
        m = float(w[5:])
        tc.triangle_net = lambda s, tol: orig_net(s, tol=tol * (m if s < sigma - 1e-9 else 1))
    if w.startswith('weighted'):
        floor = float(w[8:] or 0)     # labels at least this heavy keep the full tol; 0: relative to the heaviest
        import numpy as np
        from functools import lru_cache
        @lru_cache(maxsize=6)
        def nlg(scheme, sg, hh, tol, coarsen=1, ratio=1, levels=2.0, last=0):
            labels, null, left = tc._rated_labels(scheme, sg, ratio)
            top = floor or max(pi for pi, *_ in labels)
            groups, members = [], 0
            for pi, eta, l in labels:
                if pi < tc.CAP_MASS: left += pi; continue
                c = coarsen * l * l
                alts = [(tc.label_pld(eta, 2 * l / sg, hh),)]
                if pi >= tc.LABEL_NET_MASS and sg / l >= tc.LABEL_NET_SIGMA:
                    alts.append(tc._member_plds(orig_net(sg / l, tol=tol * max(1.0, top / pi)), eta, sg / l, hh, c, levels))
                    members += len(alts[-1])
                groups.append((pi, tuple(alts)))
            return tuple(groups), null, left, members
        tc.net_label_groups = nlg
    if w == 'nopercopy': tc._per_copy_pays = lambda *a: False
    if w == 'onlypercopy':             # only the rates-per-copy split (not the single rate as well)
        tc._per_copy_pays = lambda *a: False
        tc.net_label_groups = lambda s, sg, hh, tol, co=1, ratio=1, levels=2, last=0: orig_groups(s, sg, hh, tol, co, tc.PER_COPY, levels, last)
    if w in ('onlyratio', 'lean'):
        best = orig_best(sc, sigma, 2350, eps, h, 2097152)
        if w == 'lean': tc.LABEL_NET_MASS = 0.05     # lean: only the chosen split, and no net for the labels l >= 2
        tc._best_ratio = lambda *a: 1
        tc.net_label_groups = lambda s, sg, hh, tol, co=1, ratio=1, levels=2, last=0: orig_groups(s, sg, hh, tol, co, best, levels, last)
    run(w)
