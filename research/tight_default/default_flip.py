"""What would a flipped default do to the notebooks? `nbdev_test` run twice on the quiet machine: as the package ships,
then with `account` playing the quick net in five blocks wherever a run certificate applies and no `net` keyword was
given (a `sitecustomize` wrapper on `PYTHONPATH`; the library is not edited), the simplest flip of the default. Every
wrapped call is logged (scheme, whether it was flipped, seconds, the certificate that answered).

    python research/tight_default/default_flip.py run DIR      # both runs (about 20 minutes on 2 cores)
    python research/tight_default/default_flip.py render DIR   # the summary
    python research/tight_default/default_flip.py calibration DIR   # 11_calibrate's MUST.ow calibration, flipped (2 min)

The wrapper changes what every caller of `account` gets, the calibrators' own searches included, so a notebook check
that fails under it shows where a flip must change a door or a check, not a defect of the library as it ships.
"""
import gzip, json, os, re, shutil, subprocess, sys, tempfile, time
from pathlib import Path

HOOK = r'''
import functools, json, os, time
import must_nbdev.accounting.account as _acc
from must_nbdev.accounting.certificates import run_certificates
from must_nbdev.accounting.net_options import QUICK_BLOCKS_NET
_inner = _acc.account
@functools.wraps(_inner)
def _tight(scheme, **kw):
    rel = kw.get('relation') or scheme.relation
    flip = 'net' not in kw and kw.get('pair', 'worst') == 'worst' and bool(run_certificates(scheme, rel))
    t0 = time.perf_counter()
    r = _inner(scheme, **(dict(kw, net=QUICK_BLOCKS_NET) if flip else kw))
    with open(os.environ['MUST_TIGHT_LOG'], 'a') as f:
        f.write(json.dumps(dict(scheme=repr(scheme), flip=flip, attack=kw.get('attack', True),
                                seconds=time.perf_counter() - t0, won=r.certificate)) + '\n')
    return r
_acc.account = _tight
'''

def _flipped_env(hook:str) -> tuple:
    "(environment, call log) of a process run with the flip: the wrapper written into `hook`, put on `PYTHONPATH`."
    Path(hook, 'sitecustomize.py').write_text(HOOK); log = Path(hook, 'calls.jsonl'); log.touch()
    return dict(os.environ, MUST_TIGHT_LOG=str(log),
                PYTHONPATH=os.pathsep.join(p for p in (hook, os.environ.get('PYTHONPATH')) if p)), log

def _nbdev_test(env:dict) -> dict:
    "One `nbdev_test` run: its wall seconds, exit code and the notebooks it names as failed."
    t0 = time.perf_counter()
    p = subprocess.run(['nbdev_test'], env=env, capture_output=True, text=True)
    failed = re.findall(r'^\t(\S+\.ipynb)$', p.stdout + p.stderr, re.M)
    checks = re.findall(r'^    (assert .*)$', p.stdout + p.stderr, re.M)
    return dict(seconds=time.perf_counter() - t0, rc=p.returncode, failed=failed, checks=checks)

def run(out:Path):
    "nbdev_test as shipped, then with the flip; the records and the flipped run's call log in `out`."
    out.mkdir(parents=True, exist_ok=True)
    plain = _nbdev_test(dict(os.environ))
    with tempfile.TemporaryDirectory() as hook:
        env, log = _flipped_env(hook)
        flipped = _nbdev_test(env)
        with open(log, 'rb') as f, gzip.open(out / 'calls.jsonl.gz', 'wb') as g: shutil.copyfileobj(f, g)
    (out / 'runs.json').write_text(json.dumps(dict(plain=plain, flipped=flipped), indent=1))

CALIBRATION = r'''
import json
from must_nbdev.core.sampling import make_scheme
from must_nbdev.accounting.calibrate import calibrate_sigma
cal = calibrate_sigma(make_scheme('must-ow', 60_000, m=256, b=6000), steps=10 * 60_000 // 256, eps=3.0, delta=1e-5)
print(json.dumps(dict(sigma=cal.sigma, sigma_infeasible=cal.sigma_infeasible, eps_upper=cal.eps_upper,
                      eps_lower=cal.eps_lower, certificate=cal.result.certificate, calls=cal.calls)))
'''

def calibration(out:Path):
    "11_calibrate's MUST.ow calibration (10 epochs at the DP-SGD size, (3, 1e-5)) under the flip: `calibration.json`."
    with tempfile.TemporaryDirectory() as hook:
        p = subprocess.run([sys.executable, '-c', CALIBRATION], env=_flipped_env(hook)[0], capture_output=True,
                           text=True, check=True)
    (out / 'calibration.json').write_text(p.stdout.strip().splitlines()[-1] + '\n')
    print(p.stdout.strip().splitlines()[-1])

def render(out:Path):
    "The two runs side by side, and what the flipped calls cost."
    runs = json.loads((out / 'runs.json').read_text())
    calls = [json.loads(l) for l in gzip.open(out / 'calls.jsonl.gz', 'rt')]
    f = [c for c in calls if c['flip']]
    print('| nbdev_test | wall s | exit | failed notebooks |'); print('|---|---|---|---|')
    for name in ('plain', 'flipped'):
        r = runs[name]
        print(f"| {name} | {r['seconds']:.0f} | {r['rc']} | {', '.join(r['failed']) or '—'} |")
    print()
    print(f"account calls: {len(calls)}; flipped: {len(f)} ({sum(not c['attack'] for c in f)} of them with "
          f"attack=False), {sum(c['seconds'] for c in f):.0f} s of call time against "
          f"{sum(c['seconds'] for c in calls if not c['flip']):.0f} s for the others; the flipped calls answered by: "
          + ', '.join(f"{k} {v}" for k, v in sorted({c['won']: sum(d['won'] == c['won'] for d in f)
                                                     for c in f}.items())))
    print(); print('failed checks:'); print('\n'.join(f"- `{c}`" for c in runs['flipped']['checks']))

if __name__ == '__main__':
    what, out = sys.argv[1], Path(sys.argv[2])
    dict(run=run, render=render, calibration=calibration)[what](out)
