"""Where should `account` ask for the floor at all? Claim 41's floors cost 141 s, mostly where the room was large.
The floor can only skip the net where the fast answer is near the truth, so near the attack: ask for it only where
the fast answer is within a factor g of the attack. For each g, from claim 41's measurements (`net_floor_out.txt`)
and claim 40's replayed queries (their fast gap: `default_cost/replay.jsonl.gz`): how many floors are asked, what
they cost, how many of claim 41's skips (room < 0.5%) they still catch, and the net seconds those skips save.
No query is run again.

    python research/tight_default/floor_gap.py > research/tight_default/floor_gap_out.txt
"""
import collections, gzip, json, re
from pathlib import Path

ROW = re.compile(r"^(.{40}) σ=(\S+)\s+k=(\d+)\s+gain\s+(\S+)%\s+room\s+(\S+)%\s+floor\s+(\S+) s\s+net\s+(\S+) s")

def main():
    here = Path(__file__).parent
    gaps = collections.defaultdict(list)     # (scheme as printed, σ, steps) -> the fast gaps of its calls
    for line in gzip.open(here / 'default_cost' / 'replay.jsonl.gz', 'rt'):
        d = json.loads(line)
        if 'error' in d: continue
        q = d['query']; gaps[(q['scheme'][:40].ljust(40), float(q['sigma']), int(q['steps']))].append(q['gap'])
    rows = []
    for m in filter(None, map(ROW.match, (here / 'net_floor_out.txt').read_text().splitlines())):
        g = gaps.get((m.group(1), float(m.group(2)), int(m.group(3))))
        rows.append(dict(gap=max(g) if g else float('inf'), room=float(m.group(5)) / 100,
                         floor_s=float(m.group(6)), net_s=float(m.group(7))))
    skips = [r for r in rows if r['room'] < 0.005]
    print(f"{len(rows)} queries of claim 41; {len(skips)} skipped at room < 0.5%, saving "
          f"{sum(r['net_s'] for r in skips):.0f} s; every floor asked: {sum(r['floor_s'] for r in rows):.0f} s\n")
    print("| floor asked where fast gap <= | floors | their seconds | skips caught | net seconds saved |")
    print("|---|---|---|---|---|")
    for g in (1.06, 1.08, 1.1, 1.15, 1.2, float('inf')):
        asked = [r for r in rows if r['gap'] <= g]
        caught = [r for r in asked if r['room'] < 0.005]
        print(f"| {g:g} | {len(asked)} | {sum(r['floor_s'] for r in asked):.0f} | {len(caught)} of {len(skips)} | "
              f"{sum(r['net_s'] for r in caught):.0f} |")
    print("\nskips missed at gap <= 1.1 (fast gap, room):",
          sorted((round(r['gap'], 3), round(r['room'], 4)) for r in skips if r['gap'] > 1.1))

if __name__ == '__main__':
    main()
