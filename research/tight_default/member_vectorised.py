"""What the members' vectorised log-mixture and in-place split buy: the library at two commits, same machine, same run.

    python research/tight_default/member_vectorised.py OLD NEW > research/tight_default/member_vectorised_out.txt

Each commit's `must_nbdev` is unpacked by `git archive` into a temporary folder and run in fresh child processes, the
two commits alternating: (1) every 2nd member of WOR's quick net at σ = 1.1 (290 members, the DP-SGD rate 256/60000,
h = 0.008, one level per step, the allocator settled as `net_dp` does), the best of three one-thread passes, CPU
seconds; (2) WOR's and MUST.ww's quick five-block `account` call at the DP-SGD size, σ = 1.1: the call, the members and
the DP, wall seconds, and ε. The members' bits are compared in (1).
"""
import json, subprocess, sys, tempfile
from pathlib import Path

MEMBERS = r'''
import hashlib, json, time
from must_nbdev.accounting import triangles as T
from must_nbdev.accounting.triangle_certificate import settle_allocator
settle_allocator()
net, best, digest = T.triangle_net(1.1, tol=0.02)[::2], 1e9, hashlib.sha256()
for rep in range(3):
    t = time.process_time()
    plds = [T.planar_upper_pld(G, q=256 / 60000, sigma=1.1, h=0.008, per_h=1.0) for G in net]
    best = min(best, time.process_time() - t)
for p in plds: digest.update(p.masses.tobytes()); digest.update(repr((p.j0, p.inf_mass)).encode())
print(json.dumps(dict(members=len(net), seconds=best, bits=digest.hexdigest()[:16], library=T.__file__)))
'''

CALL = r'''
import json, sys, time
from dataclasses import replace
from must_nbdev.accounting import triangle_certificate as tc
from must_nbdev.accounting.account import account
from must_nbdev.core.sampling import scheme_at
import scipy.stats
spent = {}
def timed(name):
    f = getattr(tc, name)
    def g(*a, **k):
        t = time.perf_counter(); out = f(*a, **k); spent[name] = spent.get(name, 0) + time.perf_counter() - t
        return out
    setattr(tc, name, g)
timed('_member_plds'); timed('upper_game_dp')
t = time.perf_counter()
r = account(scheme_at(sys.argv[1], 60000, 256, b=6000), sigma=1.1, steps=2350, delta=1e-5,
            net=replace(tc.QUICK_NET, blocks=5))
print(json.dumps(dict(library=tc.__file__, scheme=sys.argv[1], eps=r.upper, gap=r.upper / r.lower, call=time.perf_counter() - t,
                      members=spent['_member_plds'], dp=spent['upper_game_dp'])))
'''

def run(root, code, *args):
    out = subprocess.run([sys.executable, '-c', code, *args], capture_output=True, text=True, check=True, cwd=root,
                         env={'PYTHONPATH': str(root), 'PATH': '/usr/bin:/bin'})   # cwd: `-c` puts it first on sys.path
    return json.loads(out.stdout.strip().splitlines()[-1])

if __name__ == '__main__':
    commits = sys.argv[1:3]
    with tempfile.TemporaryDirectory() as tmp:
        roots = {}
        for c in commits:
            roots[c] = Path(tmp) / c; roots[c].mkdir()
            archive = subprocess.run(['git', 'archive', c, 'must_nbdev'], capture_output=True, check=True).stdout
            subprocess.run(['tar', '-x', '-C', str(roots[c])], input=archive, check=True)
        print('members, one thread (best of 3 passes, CPU s):')
        for rep in range(3):
            for c in commits: print(c, run(roots[c], MEMBERS), flush=True)
        print('quick five-block calls at the DP-SGD size, sigma = 1.1 (wall s):')
        for scheme in ('wor', 'wor', 'must-ww'):
            for c in commits: print(c, run(roots[c], CALL, scheme), flush=True)
