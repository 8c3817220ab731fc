"""How large the one-step PLDs' round-off is, and what charging it costs: the claim behind 03_dominating's and
01_pld's "Round-off, charged upward".

    python research/tight_default/split_roundoff.py OLD NEW > research/tight_default/split_roundoff_out.txt

(1) With the NEW library: WOR's heaviest public label at the DP-SGD size (n = 60,000, m = 256, σ = 1.1, h = 10⁻³): the
connect-the-dots split b = (P − e^s Q)/(1 − e^{−W}) as computed in float64 (the formula both commits use), against
40-digit mpmath on the exact cells t(ih), for the 150 heaviest cells; and the mass-weighted size of the bounds that
`add_symmetric_label` charges. (2) Each commit's `must_nbdev`, unpacked by `git archive`, in a fresh child process:
the total mass of one step's upper PLD and the composed δ(ε = 1) of 2350 steps, for WOR at σ = 1.1 and 2.62, WR at
σ = 1.1 (h = 10⁻³) and Poisson under add/remove at σ = 1.1 (h = 10⁻⁴).
"""
import json, math, subprocess, sys, tempfile
from pathlib import Path

SPLIT = r'''
import json, math
import numpy as np, mpmath as mp
from must_nbdev.core.sampling import make_scheme
from must_nbdev.accounting.dominating import dominating_labels, _label_cells
from must_nbdev.accounting.pld import CAP_MASS
from must_nbdev.accounting.pairs import U_DOUBLE as u
mp.mp.dps = 40
eta, labels, _ = dominating_labels(make_scheme('wor', 60000, m=256), 1.1, 'substitute')
pi, theta = [l for l in labels if l[0] > CAP_MASS and l[1] > 0][0]
W = 1e-3
lp, lq, s, tail, ep, eq, slp, slq = _label_cells(eta, theta, W, math.log(CAP_MASS / pi))
p, q = np.exp(lp), np.exp(lq); ell = lp - lq
b = np.clip(p * -np.expm1(s[:-1] - ell) / -math.expm1(-W), 0, p)
E, T = mp.mpf(eta), mp.mpf(theta)
t_of = lambda x: (mp.log(mp.expm1(x) + E) - mp.log(E) + T ** 2 / 2) / T
worst, total, signed = 0.0, 0.0, 0.0
idx = [int(i) for i in np.argsort(-p)[:150]]
for i in idx:
    a, c = (t_of(i * mp.mpf(W)) if i else T / 2), t_of((i + 1) * mp.mpf(W))
    Q = mp.ncdf(-a) - mp.ncdf(-c); P = (1 - E) * Q + E * (mp.ncdf(T - a) - mp.ncdf(T - c))
    exact = (P - mp.e ** (i * mp.mpf(W)) * Q) / (1 - mp.e ** (-mp.mpf(W)))
    d = float(b[i] - exact); worst = max(worst, abs(d) / p[i]); total += abs(d); signed += d
w = p / p.sum()
rP = np.expm1(ep + 4 * u) + 4 * u + (slp[:-1] + slp[1:]) / p
rQ = np.expm1(eq + 4 * u) + 4 * u + (slq[:-1] + slq[1:]) / q
print(json.dumps(dict(cells=len(idx), mass=float(p[idx].sum()), split_worst_rel=worst, split_abs_sum=total,
                      split_signed_sum=signed, weighted_log_mass_err_P=float(w @ ep), weighted_rP=float(w @ rP),
                      weighted_rQ=float(w @ rQ), weighted_split_charge=float(w @ ((rP + rQ) / -math.expm1(-W))))))
'''

COMPOSED = r'''
import json
from must_nbdev.accounting.dominating import scheme_gaussian_pld
from must_nbdev.accounting.compose import compose_plds
from must_nbdev.core.sampling import make_scheme
out = {}
for name, kw, sigma, relation, h in [('wor', dict(m=256), 1.1, 'substitute', 1e-3), ('wor', dict(m=256), 2.62, 'substitute', 1e-3),
                                     ('wr', dict(m=256), 1.1, 'substitute', 1e-3),
                                     ('poisson', dict(q=256 / 60000), 1.1, 'add_remove', 1e-4)]:
    mech = scheme_gaussian_pld(make_scheme(name, 60000, **kw), sigma, relation, h=h)
    delta = max(compose_plds([(u, 2350)]).delta_bounds(1.0)[1] for u in mech.upper)
    out[f'{name} {sigma}'] = dict(step_mass=max(float(u.masses.sum() + u.inf_mass) for u in mech.upper), delta=delta)
print(json.dumps(out))
'''

def run(root, code):
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True, cwd=root,
                         env={'PYTHONPATH': str(root), 'PATH': '/usr/bin:/bin'})   # cwd: `-c` puts it first on sys.path
    return json.loads(out.stdout.strip().splitlines()[-1])

if __name__ == '__main__':
    old, new = sys.argv[1:3]
    with tempfile.TemporaryDirectory() as tmp:
        roots = {}
        for c in (old, new):
            roots[c] = Path(tmp) / c; roots[c].mkdir()
            archive = subprocess.run(['git', 'archive', c, 'must_nbdev'], capture_output=True, check=True).stdout
            subprocess.run(['tar', '-x', '-C', str(roots[c])], input=archive, check=True)
        print(f'(1) the split against mpmath, and the charged bounds (library at {new}):')
        print(json.dumps(run(roots[new], SPLIT), indent=1), flush=True)
        print('(2) one step\'s total upper mass and the composed delta(eps = 1) of 2350 steps:')
        res = {c: run(roots[c], COMPOSED) for c in (old, new)}
        for key in res[old]:
            a, b = res[old][key], res[new][key]
            print(f'{key}: step mass {a["step_mass"]!r} -> {b["step_mass"]!r}; delta {a["delta"]!r} -> {b["delta"]!r} '
                  f'({b["delta"] / a["delta"] - 1:+.2e} relative)')
