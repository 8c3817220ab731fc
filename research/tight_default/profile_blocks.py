"""cProfile of one `account(..., net=QUICK_NET with net_blocks=5)` call at the DP-SGD size (attack included): where
the five-block quick net's seconds go for WOR against WR, the schemes whose budget is 5 s.

    cd research/tight_default && python profile_blocks.py wor 2.62 wr 2.62 > profile_blocks_out.txt

Each call runs in a fresh child process (imports excluded). cProfile sees the main thread: the members are built on
helper threads, so their time shows as the main thread waiting (`result_iterator`); the DP's correlations also use
helper threads (`correlation_pool`). Printed per call: the certified and attack ε, the wall seconds, the profiled
seconds, and the functions of the package with the largest cumulative times.
"""
import subprocess, sys

CHILD = r'''
import cProfile, io, pstats, sys, time
from dataclasses import replace
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting.triangle_certificate import QUICK_NET
name, sigma = sys.argv[1], float(sys.argv[2])
sc, net = scheme_at(name, 60_000, 256, b=6000), replace(QUICK_NET, blocks=5)
pr = cProfile.Profile(); t0 = time.perf_counter(); pr.enable()
r = account(sc, sigma=sigma, steps=2350, delta=1e-5, net=net)
pr.disable(); wall = time.perf_counter() - t0
print(f"{name} σ = {sigma}: certified {r.upper:.5g}, attack {r.lower:.5g} ({r.upper / r.lower:.4f}x), {wall:.2f} s wall")
out = io.StringIO(); st = pstats.Stats(pr, stream=out); st.sort_stats('cumulative')
st.print_stats(r'must_nbdev|result_iterator', 30); print(out.getvalue())
'''

if __name__ == '__main__':
    args = sys.argv[1:] or ['wor', '2.62', 'wr', '2.62']
    for name, sigma in zip(args[::2], args[1::2]):
        out = subprocess.run([sys.executable, '-c', CHILD, name, sigma], capture_output=True, text=True)
        print(out.stdout if out.returncode == 0 else f"{name} {sigma}: failed: {out.stderr.strip()[-500:]}", flush=True)
