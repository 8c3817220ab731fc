"""Members built in worker processes instead of threads: what the GIL costs the members at the DP-SGD size.

    python member_processes.py MODE SIGMA BLOCKS     (MODE: threads, one, processes)
"""
import sys, time, os
from dataclasses import replace
from concurrent.futures import ProcessPoolExecutor
import multiprocessing as mp
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting import triangle_certificate as TC
from must_nbdev.accounting.triangle_certificate import QUICK_NET

def build(args):
    G, eta, sigma, h, c, levels = args
    return TC.on_grid(TC.planar_upper_pld(G, q=eta, sigma=sigma, h=c * h, per_h=levels), c)

def by_processes(net, eta, sigma, h, c, levels):
    with ProcessPoolExecutor(os.cpu_count(), mp_context=mp.get_context('fork')) as pool:
        return tuple(pool.map(build, [(G, eta, sigma, h, c, levels) for G in net], chunksize=4))

if __name__ == '__main__':
    mode, sigma, blocks = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    inner = {'threads': TC._member_plds, 'processes': by_processes}.get(mode)
    if mode == 'one': TC.worker_threads = lambda: 1; inner = TC._member_plds   # (TC.FFT_WORKERS = 1 before 07's worker_threads)
    spent = [0.0, 0.0]
    def timed(*a, **kw):
        t0, c0 = time.perf_counter(), time.process_time(); out = inner(*a, **kw)
        spent[0] += time.perf_counter() - t0; spent[1] += time.process_time() - c0; return out
    TC._member_plds = timed
    account(scheme_at('wor', 6000, 256, b=600), sigma=sigma, steps=10, delta=1e-5)        # imports warm
    t0 = time.perf_counter()
    r = account(scheme_at('wor', 60000, 256, b=6000), sigma=sigma, steps=2350, delta=1e-5,
                net=replace(QUICK_NET, blocks=blocks))
    print(f"wor sigma={sigma} blocks={blocks} members by {mode}: eps={r.upper:.7g} total {time.perf_counter() - t0:.2f} s,"
          f" members {spent[0]:.2f} s (main process CPU {spent[1]:.2f} s)", flush=True)
