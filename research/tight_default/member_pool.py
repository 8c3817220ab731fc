"""Do WOR's members build faster in processes than in the thread pool? The 490 members of the quick setting's net at the
DP-SGD size (σ = 1.1, grid 4h, levels 1) built one at a time, on two threads, and on two processes (fork and
forkserver), with the processes' PLDs checked bit for bit against the single thread's.

    cd research/tight_default && python member_pool.py 1.1 > member_pool_out.txt"""
import time, sys, os
from functools import partial
from concurrent.futures import ThreadPoolExecutor, ProcessPoolExecutor
import multiprocessing as mp
import numpy as np
from must_nbdev.accounting.triangles import triangle_net, planar_upper_pld
from must_nbdev.core.sampling import make_scheme
from must_nbdev.accounting.account import account
if __name__ == '__main__':
    sigma = float(sys.argv[1])
    sc = make_scheme('wor', 60_000, m=256)
    h = account(sc, sigma=sigma, steps=2350, delta=1e-5, attack=False).h * 4
    net = triangle_net(sigma, tol=0.04); q = 256 / 60000
    build = partial(planar_upper_pld, q=q, sigma=sigma, h=h, per_h=1.0)
    t = time.perf_counter(); one = list(map(build, net)); print('1 thread', time.perf_counter() - t, flush=True)
    t = time.perf_counter()
    with ThreadPoolExecutor(2) as p: two = list(p.map(build, net))
    print('2 threads', time.perf_counter() - t, flush=True)
    for method in ('fork', 'forkserver'):
        t = time.perf_counter()
        with ProcessPoolExecutor(2, mp_context=mp.get_context(method)) as p: pr = list(p.map(build, net, chunksize=8))
        print(method, '2 processes', time.perf_counter() - t,
              all(np.array_equal(a.masses, b.masses) and a.j0 == b.j0 and a.inf_mass == b.inf_mass for a, b in zip(one, pr)), flush=True)
