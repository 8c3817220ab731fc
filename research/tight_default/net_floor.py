"""Can a cheap game say where the quick net cannot pay? The net's game with every label's net replaced by the one pair
it must cover, the displacing pair (Gram diag(4, 0): one record moved by 2, the rest still), played exactly as the net
is (same grid, blocks, splits, families, whole-step pairs): its value is what the net would answer if its cover were
perfect, so a fast certificate already at that floor leaves the net nothing to gain. Each query of
`default_cost/replay.jsonl.gz` (claim 40), in a fresh process: the floor, its seconds, and whether the fast answer is
within 0.5% of it, against what the net actually gained there.

    python research/tight_default/net_floor.py > research/tight_default/net_floor_out.txt
"""
import gzip, json, subprocess, sys, tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from default_cost import QUERY_PRELUDE, queries, query_key   # the query as claim 40 replayed it; its queries

CHILD = QUERY_PRELUDE + r'''
import numpy as np
import must_nbdev.accounting.triangle_certificate as tc
DISPLACING = np.diag([4.0, 0.0])        # |a|² = 4, b = 0: the pair every label's net covers
tc._member_plds = lambda net, eta, sigma, h, c, levels: (tc.on_grid(tc.planar_upper_pld(
    DISPLACING, q=eta, sigma=sigma, h=c * h, per_h=levels), c),)
t0 = time.perf_counter()
r = account(scheme, **kw, net=replace(QUICK_NET, blocks=5))
print(json.dumps(dict(floor=r.certificates['triangle net'], fast=r.certificates[min(
    (c for c in r.certificates if c != 'triangle net'), key=r.certificates.get)], seconds=time.perf_counter() - t0)))
'''

def main():
    here = Path(__file__).parent
    cost = {query_key(json.loads(l)['query']): json.loads(l)
            for l in gzip.open(here / 'default_cost' / 'replay.jsonl.gz', 'rt')}
    rows = []
    for d in (cost[k] for k in dict.fromkeys(query_key(r) for r in queries(here / 'default_cost')[1])):
        if 'error' in d: continue
        p = subprocess.run([sys.executable, '-c', CHILD, json.dumps(d['query'])], capture_output=True, text=True,
                           cwd=tempfile.gettempdir())
        if p.returncode: print('error', d['query']['scheme'], p.stderr[-200:]); continue
        f = json.loads(p.stdout.strip().splitlines()[-1])
        gain = 1 - d['net_upper'] / d['fast_upper'] if d['fast_upper'] > 0 else 0.0
        room = 1 - f['floor'] / f['fast'] if f['fast'] > 0 else 0.0    # what a perfect cover could gain
        rows.append(dict(scheme=d['query']['scheme'], sigma=d['query']['sigma'], steps=d['query']['steps'],
                         gain=gain, room=room, floor_s=f['seconds'], net_s=d['net_s'] - d['fast_s']))
        q = rows[-1]
        print(f"{q['scheme'][:40]:40} σ={q['sigma']:<7.3g} k={q['steps']:<5} gain {gain:7.2%}  room {room:7.2%}  "
              f"floor {q['floor_s']:5.1f} s  net {q['net_s']:5.1f} s", flush=True)
    print()
    for cut in (0.002, 0.005, 0.01, 0.02):
        skip = [q for q in rows if q['room'] < cut]
        lost = [q for q in skip if q['gain'] >= 0.005]
        print(f"skip where room < {cut:.1%}: {len(skip)} of {len(rows)} queries, {sum(q['net_s'] for q in skip):.0f} s "
              f"of {sum(q['net_s'] for q in rows):.0f} s of nets saved; {len(lost)} skipped queries had a gain >= 0.5% "
              f"(largest {max([q['gain'] for q in lost], default=0):.2%}); floors cost "
              f"{sum(q['floor_s'] for q in rows):.0f} s in all")
    bad = [q for q in rows if q['gain'] > q['room'] + 1e-3]
    print(f"queries where the net gained more than the floor's room (+0.1%): {len(bad)}")
    for q in bad: print(f"  {q['scheme'][:40]} σ={q['sigma']:.3g} k={q['steps']}: gain {q['gain']:.2%}, "
                        f"room {q['room']:.2%}")

if __name__ == '__main__':
    main()
