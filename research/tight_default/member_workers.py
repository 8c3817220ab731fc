"""Claim 52: the net's members on worker processes (core/04_workers, landed) against the threads they replaced.

One quick-setting `account` call in five blocks at the DP-SGD size (n = 60,000, batch 256, b = 6000, 2350 steps,
ε at δ = 1e-5), in a fresh interpreter per run, alternating the two libraries three times per setting:
- *threads*: the library before the change (a checkout of OLD, put first on PYTHONPATH), members on a thread per core;
- *processes*: the library of this checkout, members shared with one worker process (2 cores).
The script times `_member_plds` from outside (the library is not edited) and prints ε with every digit, the call's
seconds, the members' seconds and the peak memory (processes: this process plus its worker, `peak_memory_mb`).

    git worktree add /tmp/old ec68261
    python research/tight_default/member_workers.py /tmp/old > research/tight_default/member_workers_out.txt
"""
import json, os, subprocess, sys

RUN = r'''
import json, resource, sys, time
from dataclasses import replace
import scipy.stats   # the package imports it at its first pmf: an import, not the query
import must_nbdev.accounting.triangle_certificate as tc
from must_nbdev.accounting.account import account
from must_nbdev.core.sampling import scheme_at
spent, inner = [0.0], tc._member_plds
def timed(*a):
    t = time.perf_counter(); r = inner(*a); spent[0] += time.perf_counter() - t; return r
tc._member_plds = timed
name, sigma = sys.argv[1], float(sys.argv[2])
options = replace(tc.QUICK_NET, blocks=5).keywords()
t0 = time.perf_counter()
r = account(scheme_at(name, 60000, 256, b=6000), sigma=sigma, steps=2350, delta=1e-5, net=True, **options)
seconds = time.perf_counter() - t0
try:
    from must_nbdev.core.workers import peak_memory_mb; peak = peak_memory_mb()
except ImportError: peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(dict(eps=repr(r.upper), seconds=round(seconds, 2), members=round(spent[0], 2), peak_mb=round(peak))))
'''

def run(library:str, name:str, sigma:float) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [library, os.environ.get('PYTHONPATH')])))
    out = subprocess.run([sys.executable, '-c', RUN, name, str(sigma)], env=env, cwd='/tmp', check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])

if __name__ == '__main__':
    old = os.path.abspath(sys.argv[1])
    new = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    commit = lambda d: subprocess.run(['git', '-C', d, 'rev-parse', '--short', 'HEAD'], capture_output=True,
                                      text=True).stdout.strip()
    print(f"threads: library at {commit(old)}; processes: library at {commit(new)}; {os.cpu_count()} cores")
    print('| scheme | σ | run | threads: ε, call s, members s, MB | processes: ε, call s, members s, MB |')
    print('|---|---|---|---|---|')
    for name, sigma in (('wor', 2.62), ('wor', 1.1), ('wr', 2.62), ('must-ow', 1.1), ('must-ww', 1.1)):
        for i in range(3):
            a, b = run(old, name, sigma), run(new, name, sigma)
            cell = lambda r: f"{r['eps']}, {r['seconds']}, {r['members']}, {r['peak_mb']}"
            print(f"| {name} | {sigma} | {i + 1} | {cell(a)} | {cell(b)} |", flush=True)
