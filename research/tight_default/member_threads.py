"""Claim 38: why the members' threads stop near 1.3x on 2 cores, and what a leaner region split buys.

    cd research/tight_default && python member_threads.py > member_threads_out.txt

1. Each numpy or scipy call a member makes, on a chunk-sized array (64 o1 cells x 132 loss levels), timed on one
   thread and as two threads sharing the same number of calls: calls of a few microseconds (exp, where, clip, masks,
   concatenate) run *slower* on two threads than on one, since the threads hand the GIL over about once a call; only
   the long special functions (ndtr, logaddexp) scale, and not to 2x.
2. WR's 513 label-1 members at the DP-SGD size (sigma = 2.62, its label-1 rate and grid in the five-block quick
   setting), built as `_member_plds` builds them: one thread, two threads, two forked processes; twice each.
3. The same members with a leaner region split (the P-masses passed as they are, not as exp(log(p)), and the log
   ratio as one log of p/q instead of two; `planar_upper_pld`'s source edited here, the library untouched): on one
   thread and two, and its largest relative change of any mass.
"""
import math, multiprocessing as mp, time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
import numpy as np
from scipy import special
import must_nbdev.accounting.triangles as T
from must_nbdev.accounting.pld import DiscretePLD

SIGMA, RATE, H = 2.62, 0.004322, 0.0019300702610004186    # captured from `account(..., net=QUICK_NET, blocks=5)`

def per_call_scaling(calls:int=3000):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 132)) * 3; xs = rng.normal(size=2 * 64 * 131)
    j, w = rng.integers(0, 600, size=xs.size), rng.random(xs.size); mask = rng.random((64, 131)) > 0.2
    A = rng.random((64, 131))
    ops = {'special.ndtr': lambda: special.ndtr(-np.abs(x)), 'np.logaddexp': lambda: np.logaddexp(-0.004, x),
           'np.sort': lambda: np.sort(x, axis=None), 'np.bincount': lambda: np.bincount(j, w, minlength=600),
           'np.floor': lambda: np.floor(xs / 0.002), 'boolean mask': lambda: A[mask],
           'np.exp': lambda: np.exp(x), 'np.where': lambda: np.where(x > 0, x, -x),
           'astype(int64)': lambda: xs.astype(np.int64), 'np.clip': lambda: np.clip(xs, 0.0, 1.0),
           'np.concatenate': lambda: np.concatenate([xs, xs])}
    print('| call (64 x 132 elements) | one thread, us a call | two threads sharing the calls: speed-up |')
    print('|---|---|---|')
    for name, f in ops.items():
        t0 = time.perf_counter()
        for _ in range(calls): f()
        t1 = time.perf_counter()
        with ThreadPoolExecutor(2) as pool: list(pool.map(lambda _: [f() for _ in range(calls // 2)], range(2)))
        t2 = time.perf_counter()
        print(f'| `{name}` | {1e6 * (t1 - t0) / calls:.1f} | {(t1 - t0) / (t2 - t1):.2f}x |')

def lean_split(Lmin, Lmax, p, ell, inf_mass:float, h:float) -> DiscretePLD:
    "`_split_regions` given the P-masses p and the log ratio ell = log(p/q) themselves."
    light = p < T.LIGHT
    j_light, p_light = np.ceil(Lmax[light] / h).astype(np.int64), p[light]
    if len(p_light):
        keep = ~light; Lmin, Lmax, p, ell = Lmin[keep], Lmax[keep], p[keep], ell[keep]
    al = T._two_atoms(Lmin, Lmax, np.clip(ell, Lmin, Lmax))
    xs, ps = np.concatenate([Lmin, Lmax]), np.concatenate([p * al, p * (1 - al)])
    g = np.floor(xs / h); g = np.where(g * h > xs, g - 1, np.where((g + 1) * h <= xs, g + 1, g))
    be = np.clip((np.exp(-(xs - g * h)) - math.exp(-h)) / -math.expm1(-h), 0.0, 1.0)
    j = g.astype(np.int64); both = np.concatenate([j, j + 1, j_light])
    j0 = int(both.min()); n = int(both.max()) - j0 + 1
    m = np.bincount(j - j0, ps * be, minlength=n) + np.bincount(j + 1 - j0, ps * (1 - be), minlength=n)
    if len(p_light): m = m + np.bincount(j_light - j0, p_light, minlength=n)
    return DiscretePLD(h, j0, m, float(inf_mass))

def lean_planar_upper_pld():
    "The library's `planar_upper_pld` with `lean_split`: its exp(log(p)) and second log dropped (source edited)."
    import inspect
    src = inspect.getsource(T.planar_upper_pld)
    old = "_split_regions(Lmin[keep], Lmax[keep], np.log(pm[keep]), np.log(qm[keep]), 0.0, h)"
    assert old in src
    src = src.replace(old, "lean_split(Lmin[keep], Lmax[keep], pm[keep], np.log(pm[keep] / qm[keep]), 0.0, h)")
    space = dict(vars(T), lean_split=lean_split); exec(src, space)
    return space['planar_upper_pld']

LEAN = lean_planar_upper_pld()
def lean_member(G): return LEAN(G, q=RATE, sigma=SIGMA, h=H, per_h=1.0)

def build(G): return T.planar_upper_pld(G, q=RATE, sigma=SIGMA, h=H, per_h=1.0)

def timed(label, run):
    t0 = time.perf_counter(); out = run(); dt = time.perf_counter() - t0
    print(f'| {label} | {dt:.2f} s |'); return out, dt

if __name__ == '__main__':
    print('## 1. One call at a time\n'); per_call_scaling()
    net = T.triangle_net(SIGMA, tol=0.02)
    print(f'\n## 2. WR label 1 at sigma = {SIGMA}: {len(net)} members (rate {RATE}, grid {H:.6g}, one level per step)\n')
    print('| how | seconds |'); print('|---|---|')
    for _ in range(2):
        one, t1 = timed('one thread', lambda: list(map(build, net)))
        with ThreadPoolExecutor(2) as pool: two, t2 = timed('two threads (the library)', lambda: list(pool.map(build, net)))
        with ProcessPoolExecutor(2, mp_context=mp.get_context('fork')) as pool:
            procs, t3 = timed('two forked processes (pool started inside)', lambda: list(pool.map(build, net, chunksize=16)))
    same = all(np.array_equal(a.masses, b.masses) and a.j0 == b.j0 and a.inf_mass == b.inf_mass
               for other in (two, procs) for a, b in zip(one, other))
    print(f'\nthreads and processes give the one-thread bits: {same}')
    print('\n## 3. The leaner region split\n'); print('| how | seconds |'); print('|---|---|')
    for _ in range(2):
        lean, _t = timed('lean split, one thread', lambda: list(map(lean_member, net)))
        with ThreadPoolExecutor(2) as pool: timed('lean split, two threads', lambda: list(pool.map(lean_member, net)))
    rel = max(float(np.max(np.abs(a.masses - b.masses) / np.maximum(np.abs(a.masses), 1e-300)))
              for a, b in zip(one, lean))
    print(f'\nsame supports: {all(a.j0 == b.j0 and len(a.masses) == len(b.masses) for a, b in zip(one, lean))}; '
          f'largest relative change of a mass: {rel:.2g}')
