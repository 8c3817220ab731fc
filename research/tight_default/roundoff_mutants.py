#!/usr/bin/env python
"""Which single round-off charge of the one-step upper PLDs can the tests detect? (claim 46)

Each mutant removes one charge from `accounting/pld.py` (`upper_pld`) or `accounting/dominating.py`
(`add_symmetric_label`) in a copy of the package, then runs the round-off tests of `tests/test_pld.py` and
`tests/test_dominating.py` against that copy. A mutant that the tests let pass is a charge whose removal no tested
case exposes: the measured error it bounds stays below what the other charges leave over.

    python research/tight_default/roundoff_mutants.py > research/tight_default/roundoff_mutants_out.txt
"""
import os, shutil, subprocess, sys, tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = {'pld.py': ('tests/test_pld.py', 'dp_sgd_size or exact_construction'),
         'dominating.py': ('tests/test_dominating.py', 'symmetric_label_lies'),
         'triangles.py': ('tests/test_triangles.py', 'split_regions_dominates or cell_mass_errors or region_masses')}
SPLIT = "    top, bottom = b + e_b, (p - b) + e_b + p * (rP + 2 * u)"
MUTANTS = {   # name: (module, what it removes, old text, new text)
    'split slack': ('pld.py', "the split's slack",
                    "    slack = np.where(np.isnan(slack), np.inf, slack)\n",
                    "    slack = 0 * np.where(np.isnan(slack), np.inf, slack)\n"),
    "split slack's loss error": ('pld.py', "the loss's error in the slack",
                                 "slack = (np.expm1(E) * np.exp(lift + E) + np.expm1(lift))", "slack = (np.expm1(lift))"),
    'lift charge': ('pld.py', "the raised losses' share", "+ np.expm1(lift)) * (1 + 4 * u)", ") * (1 + 4 * u)"),
    'mass raise': ('pld.py', "the P-masses' raise", "p = np.exp(c.lA) * np.exp(c.lA_err + 12 * u)", "p = np.exp(c.lA)"),
    'bin rounding': ('pld.py', "each bin's sum rounded up", "    m *= 1 + (terms + 4) * u\n", "\n"),
    'edge widening': ('pld.py', "the edges' loss widened",
                      "    w = c.L_err + 4 * u * (1 + np.abs(np.append(c.L0, c.L1[-1:])))", "    w = 0 * c.L_err"),
    'low tail': ('pld.py', "the line's low tail", "    m[j_tail - j0] += low_tail * (1 + 2 * u)\n", "\n"),
    'P slivers': ('dominating.py', "the edges' P-slivers in rP", "+ (sl_p[:-1] + sl_p[1:]) / p_raw", ""),
    'Q slivers': ('dominating.py', "the edges' Q-slivers in rQ", "+ (sl_q[:-1] + sl_q[1:]) / np.exp(lq)", ""),
    'edge error tau': ('dominating.py', "the edges' error τ", "    tau[0] = 0.0  ", "    tau[:] = 0.0  "),
    'e_b': ('dominating.py', "the split's error e_b, both points", SPLIT,
            "    top, bottom = b, (p - b) + p * (rP + 2 * u)"),
    'no e_b on the top': ('dominating.py', "e_b on the top point (kept below)", SPLIT,
                       "    top, bottom = b, (p - b) + e_b + p * (rP + 2 * u)"),
    'no e_b on the bottom': ('dominating.py', "e_b on the bottom point (kept on top)", SPLIT,
                          "    top, bottom = b + e_b, (p - b) + p * (rP + 2 * u)"),
    'half e_b': ('dominating.py', "half of e_b on each point", SPLIT,
                 "    top, bottom = b + e_b / 2, (p - b) + e_b / 2 + p * (rP + 2 * u)"),
    "bottom's mass raise": ('dominating.py', "the bottom's p(rP + 2u)", "(p - b) + e_b + p * (rP + 2 * u)", "(p - b) + e_b"),
    'mirror rounding': ('dominating.py', "the mirror's e^{-jh} rounding", "[::-1] * (1 + (8 + 2 * J * h) * u)", "[::-1]"),
    'member mass raise': ('triangles.py', "a region's P-mass raise", "p = pm * (1 + MASS_ROUNDING * u); p += p_err * (1 + 16 * u);", "p = pm * 1.0;"),
    'member fraction slack': ('triangles.py', "the two-atom fraction's error", "    al += E; np.fmax(al, 0.0, out=al)",
                              "    np.fmax(al, 0.0, out=al)"),
    "member fraction's rounding": ('triangles.py', "the quotient's and log's rounding in E", "E += 1.40 * (2 * MASS_ROUNDING * u + 8 * u * (reach + 1));", ""),
    'member grid split': ('triangles.py', "the grid split's rounding",
                          "    t -= (u * (reach + 2 * h + 18) / -math.expm1(-h) + 10 * u) * (1 + 4 * u); np.maximum(t, 0.0, out=t)\n",
                          "\n"),
    'member grid point': ('triangles.py', "the exact check of the grid point above", "g += t <= xs + 2 * u * (reach + h)",
                          "g += t <= xs"),
    'member bin rounding': ('triangles.py', "each grid point's sum rounded up", "    m *= 1 + (terms[:n] + 6) * u\n",
                            "    m *= 1\n"),
    'member light grid point': ('triangles.py', "the light regions' quotient outward", "np.ceil(y + 4 * u * (np.abs(y) + 1))",
                                "np.ceil(y)"),
    'member cell errors': ('triangles.py', "ndtr's error in the cell masses", "ev *= v\n", "ev *= 0 * v\n"),
    'member product term': ('triangles.py', "one term of a product's error, (1 − q) x0 d0",
                            "np.multiply(d0, A0, out=wd); p_err += wd; ", ""),
    'member underflow': ('triangles.py', "the products' underflow", "p_err += UNDERFLOW; q_err += UNDERFLOW", "pass"),
}

def run(name, module, old, new, work):
    pkg = Path(work) / name.replace(' ', '_').replace("'", '') / 'must_nbdev'
    shutil.copytree(ROOT / 'must_nbdev', pkg)
    path = pkg / 'accounting' / module
    text = path.read_text(); assert text.count(old) == 1, name
    path.write_text(text.replace(old, new))
    test, select = TESTS[module]
    env = dict(os.environ, PYTHONPATH=str(pkg.parent))
    out = subprocess.run([sys.executable, '-m', 'pytest', '-q', '-n', '0', '-p', 'no:cacheprovider', str(ROOT / test),
                          '-k', select], cwd=work, env=env, capture_output=True, text=True).stdout
    failed = [l.split('::')[-1].split(' ')[0] for l in out.splitlines() if l.startswith('FAILED')]
    return failed, out.strip().splitlines()[-1]

if __name__ == '__main__':
    commit = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=ROOT, capture_output=True, text=True).stdout
    print(f'library and tests at {commit.strip()}; each row: one charge removed, the round-off tests run on the copy')
    print('| mutant | removes | tests that fail |\n|---|---|---|')
    with tempfile.TemporaryDirectory() as work:
        for name, (module, what, old, new) in MUTANTS.items():
            failed, _ = run(name, module, old, new, work)
            print(f"| {name} ({module}) | {what} | {', '.join(failed) if failed else 'none: survives'} |", flush=True)
