"""Random allocation's bracket against the lattice size, one direction and kind at a time (accounting/13_allocation).

Prints ε(1e-5) of the remove/add certificate and attack PLDs composed over E epochs, for each lattice size 2^b.
Run: python attack_tail.py 0.685 235 10 19 21 22 23 > attack_tail_out.txt (about 2 minutes). Before the attack kept
the tilted term's tail beyond the lattice (commit f2a0185) its remove attack read 2.9094 / 2.9234 / 2.9249 at 2^19 /
2^21 / 2^22 points; this run is after it.
"""
import sys, time
from must_nbdev.accounting.allocation import allocation_epoch_plds, compose_bounds

sigma, t, E = float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
for b in [int(x) for x in sys.argv[4:]]:
    t0 = time.time()
    plds = allocation_epoch_plds(sigma, t, bins=1 << b)
    out = {f"{k[0]}-{k[1]}": round(list(compose_bounds({k: p}, E, delta=1e-5).values())[0], 4) for k, p in plds.items()}
    print(f"2^{b} points: {out} ({time.time() - t0:.1f} s)", flush=True)
