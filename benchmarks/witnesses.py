#!/usr/bin/env python
"""Witnesses of the notebooks' slow cells: for every notebook with cells flagged `#| slow` (full-size computations of
minutes, whose outputs `benchmarks/slow_cells.py` stores as artefacts), a small computation through the same library
functions with the same options (net=True, tol, relation, pair, loss, clip, distinct, adapt, ...) at a size that runs in
seconds, seeded wherever it draws. Its values are stored beside the artefact; `tests/test_artefacts.py` computes them
again, so a library edit that would change the slow cells' numbers changes a witness value too and the test asks for
the artefact to be made again, without re-running minutes of computation on every test run. Witnesses are not small
versions of the results (sizes, steps and grids are chosen for speed, not for meaning); they are fingerprints of the
code paths that produce the results.

    python benchmarks/witnesses.py                          # every page: values and seconds
    python benchmarks/witnesses.py accounting/11_calibrate  # some pages
    python benchmarks/witnesses.py --json 90_cli            # one page's values as one JSON line (slow_cells.py)
"""
import json, math, os, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT / 'nbs'

# ---------------------------------------------------------------------------------------------------- helpers

def _num(v):
    "A witness value: int, float or str (numpy scalars and bools converted)."
    if isinstance(v, str): return v
    if isinstance(v, (bool, int)) or type(v).__name__.startswith(('int', 'uint', 'bool')): return int(v)
    return float(v)

def _put(out:dict, prefix:str, row:dict, keys):
    "Copy row[k] for k in keys into out under 'prefix.k' (skipping keys the row does not have)."
    for k in keys:
        if k in row and row[k] is not None: out[f'{prefix}.{k}'] = _num(row[k])

def _label(row:dict) -> str:
    "A row's scheme label, with its stage-I size where it has one."
    b = row.get('b')
    return f"{row['scheme']}" + ('' if b is None else f" b={b}")

def _notebook_code(key:str, must_define:str) -> str:
    """Top-level imports, function definitions and `_NAME = ...` constants of the first code cell of nbs/<key>.ipynb
    that defines `must_define` (prints, asserts and other statements of the cell are left out)."""
    import ast
    nb = json.loads((NBS / f'{key}.ipynb').read_text(encoding='utf-8'))
    for cell in nb['cells']:
        src = ''.join(cell['source']) if isinstance(cell['source'], list) else cell['source']
        if cell['cell_type'] != 'code' or f'def {must_define}(' not in src: continue
        tree = ast.parse(src)
        keep = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom, ast.FunctionDef))
                or (isinstance(n, ast.Assign) and all(isinstance(t, ast.Name) and t.id.startswith('_')
                                                      for t in n.targets))]
        return ast.unparse(ast.Module(body=keep, type_ignores=[]))
    raise LookupError(f'nbs/{key}.ipynb: no code cell defines {must_define}')

# ---------------------------------------------------------------------------------------------------- witnesses

def witness_cli():
    "90_cli's slow cell (reproduce_all of every artefact at paper size): reproduce_all at quick size on three."
    # Tables 3 and S1 and the Sec 3.4 claim (deterministic, seconds), each with its comparison to the paper; the
    # experiments' tables have witnesses of their own (01_bootstrap to 04_classification). Per CSV: rows, column sums.
    import csv, tempfile
    from must_nbdev.experiments.reproduce import reproduce_all
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        done = reproduce_all(tmp, quick=True, seed=0, show_progress=False, keys=('table3', 'tableS1', 'sec34'))
        for r in done:
            out[f"{r['key']}.files"] = r['files']
            _put(out, r['key'], r, ('compared', 'matching', 'beyond_3se'))
        for path in sorted(Path(tmp).glob('*.csv')):
            rows = list(csv.DictReader(open(path, encoding='utf-8')))
            out[f'{path.stem}.rows'] = len(rows)
            for col in (rows[0] if rows else {}):
                vals = []
                for r in rows:
                    try: vals.append(float(r[col]))
                    except (TypeError, ValueError): pass
                if vals and len(vals) == len(rows): out[f'{path.stem}.sum.{col}'] = math.fsum(vals)
    return out

def witness_adaptive():
    "06_adaptive's slow cell (WOR pairs searched against the c-family): one of its configurations, one short start."
    # n = 4, m = 2, σ = 1 (one of the cell's four), the c grid of 41, one Nelder-Mead start of 25 evaluations.
    # The slow cell calls no library function: `_density`, `_hs_curve` and `best_mixture_excess` are defined in the
    # notebook (cell 34), `c_family` and `wor_pair_curve` in the cell itself, so the witness executes those
    # definitions from the notebook (a change to them changes the stored numbers as a library edit would).
    import numpy as np
    from scipy import optimize
    ns = {'np': np, 'math': math}
    exec(_notebook_code('accounting/06_adaptive', 'best_mixture_excess'), ns)
    exec(_notebook_code('accounting/06_adaptive', 'wor_pair_curve'), ns)
    n, m, s = 4, 2, 1.0
    F, rng = ns['c_family'](m / n, s, np.linspace(-1, 1, 41)), np.random.default_rng(n * 10 + m)
    f = lambda u: -ns['best_mixture_excess'](ns['wor_pair_curve'](np.tanh(u), m, s), F)[0]
    r = optimize.minimize(f, rng.normal(0, 1.5, n + 1), method='Nelder-Mead', options=dict(maxfev=25))
    return {'c_family.sum': float(F.sum()), 'c_family.max': float(F.max()), 'excess': float(-r.fun),
            'evaluations': int(r.nfev), 'tanh_x.sum': float(np.tanh(r.x).sum())}

def witness_unlabelled_net():
    "08_unlabelled_net's slow cell (each unlabelled family's game for MUST.ow, Fig S2): the same calls, small sizes."
    # account, attack_runs, unlabelled_members (default 14 cells: 91 members per family) and upper_game_dp with the
    # whole-step pair, on MUST.ow(n=1000, b=50, m=20), σ = 1.95, 10 steps, δ(0.1).
    from must_nbdev.core.sampling import scheme_at
    from must_nbdev.accounting.pld import MAX_BINS
    from must_nbdev.accounting.account import account
    from must_nbdev.accounting.adaptive import attack_runs
    from must_nbdev.accounting.dominating import scheme_gaussian_pld
    from must_nbdev.accounting.profile_pairs import unlabelled_pld
    from must_nbdev.accounting.unlabelled_net import FAMILIES, unlabelled_members
    from must_nbdev.accounting.upper_dp import upper_game_dp
    s2, sigma, k, eps, h = scheme_at('must-ow', 1000, 20, b=50), 1.95, 10, 0.1, 0.05
    ref = account(s2, sigma=sigma, steps=k, eps=eps)             # the attack and the pair, on account's own grid
    # the cell plays the families on ref.h; their members cost ~50 ms each there (182 of them), so the game (and the
    # attack's window) is played on the coarse grid h = 0.05 with its whole-step pair, as the cell does at h_s2
    whole = unlabelled_pld(s2, sigma, 'substitute', h, -scheme_gaussian_pld(s2, sigma, 'substitute', h, MAX_BINS,
                                                                            'worst').upper[0].j0).upper[0]
    window = attack_runs(s2, sigma, 'substitute', h, MAX_BINS)[0]
    out = {'h': ref.h, 'attack': ref.lower, 'pair': ref.upper, 'certificate': ref.certificate,
           'whole.delta': whole.delta(eps)}
    for family, fam in zip(FAMILIES, unlabelled_members(s2, sigma, h)):
        game = upper_game_dp(((1.0, (fam,)),), k, eps, 0, h, window, MAX_BINS, whole=(whole,))['values'][0]
        out[f'{family}.members'] = len(fam)
        out[f'{family}.game'] = float(game)
    return out

def witness_triangle_certificate():
    "09_triangle_certificate's slow cells (Fig S2's WOR, WR and MUST.ow: attack, certificates, triangle nets): small."
    from must_nbdev.core.sampling import make_scheme, scheme_at
    from must_nbdev.accounting.account import account
    from must_nbdev.accounting.adaptive import adaptive_delta
    from must_nbdev.accounting.triangles import triangle_net
    from must_nbdev.accounting.triangle_certificate import triangle_delta
    out = {}
    # Small schemes, 10-20 steps, coarse grids (a net member costs >= 15 ms on any grid, ~0.3 s on account's own).
    # WOR: attack, public labels, the net at tol 0.2; the default tol's net (416 members at σ = 4, ~7 s of members)
    # enters through its Gram matrices
    wor, kw = make_scheme('wor', 1000, m=100), dict(sigma=4.0, steps=20, eps=0.3, h=0.03)
    att = adaptive_delta(wor, **kw)
    pub = account(wor, **kw, attack=False)
    coarse = triangle_delta(wor, **kw, tol=0.2)
    fine_net = triangle_net(4.0)
    out.update({'wor.attack': att.value, 'wor.attack_policy': att.policy_at_start, 'wor.public': pub.upper,
                'wor.net_0.2': coarse.value, 'wor.net_0.2.members': coarse.members,
                'wor.default_tol_net.members': len(fine_net), 'wor.default_tol_net.gram_sum': float(fine_net.sum())})
    # WR (rates per label, the y family of the unlabelled net); the attack on account's own grid, as in the cell
    wr = make_scheme('wr', 1000, m=20)
    hw = account(wr, sigma=1.95, steps=10, eps=0.1, attack=False).h
    att_wr = adaptive_delta(wr, sigma=1.95, steps=10, eps=0.1, h=hw)
    cert_wr = account(wr, sigma=1.95, steps=10, eps=0.1, h=0.1, attack=False)
    # the unlabelled nets' default 14 cells per side (91 members of ~50 ms each per family) are witnessed by 08's
    # witness (unlabelled_members, both families); here 3 cells (3 members) keep their place in the game
    coarse_wr = triangle_delta(wr, sigma=1.95, steps=10, eps=0.1, h=0.1, tol=0.2, cells=3)
    out.update({'wr.h': hw, 'wr.attack': att_wr.value, 'wr.public': cert_wr.upper, 'wr.net_0.2': coarse_wr.value,
                'wr.net_0.2.members': coarse_wr.members, 'wr.net_0.2.ratio': coarse_wr.label_rate_ratio,
                'wr.net_0.2.unlabelled_members': coarse_wr.unlabelled_members})
    # MUST.ow through account(net=True, net_tol=0.2) (the cell lets account pick h: fixed here, for speed)
    ow = scheme_at('must-ow', 1000, 20, b=50)
    res_ow = account(ow, sigma=1.95, steps=10, eps=0.1, net=True, net_tol=0.2, h=0.1, net_cells=3)
    # (its attack, on that coarse grid, is ~1e-9, a rounding floor rather than a value: left out)
    out.update({'ow.upper': res_ow.upper, 'ow.certificate': res_ow.certificate,
                **{f'ow.certificates.{k}': v for k, v in res_ow.certificates.items()}})
    return out

def witness_calibrate():
    "11_calibrate's slow cell (σ for Fig S2's WOR without and with the triangle net): the same two calls, 10 steps."
    # calibrate_sigma with tol 0.01, plain and with net=True, net_tol=0.2, for WOR(n=10,000, m=200), ε = 0.2, δ = 1e-5.
    from must_nbdev.core.sampling import make_scheme
    from must_nbdev.accounting.calibrate import calibrate_sigma
    sc, kw = make_scheme('wor', 10_000, m=200), dict(steps=10, eps=0.2, delta=1e-5, tol=0.01)
    plain = calibrate_sigma(sc, **kw)
    # calibrate_sigma's grid is account's (h ≈ 1.5e-3 here), on which a net member costs ~0.3 s: the members are
    # built on the grid 16h instead (net_coarsen, a documented knob of the same code path)
    netted = calibrate_sigma(sc, **kw, net=True, net_tol=0.2, net_coarsen=16)
    return {'plain.sigma': plain.sigma, 'plain.sigma_infeasible': plain.sigma_infeasible, 'plain.calls': plain.calls,
            'plain.eps_upper': plain.eps_upper, 'plain.eps_lower': plain.eps_lower,
            'net.sigma': netted.sigma, 'net.sigma_infeasible': netted.sigma_infeasible, 'net.calls': netted.calls,
            'net.eps_upper': netted.eps_upper, 'net.certificate': netted.result.certificate,
            **{f'net.certificates.{k}': v for k, v in netted.result.certificates.items()}}

def witness_accuracy_gains():
    "01_accuracy_gains' slow cell (Figs 8 and 13 at T = 1000): median_mse_by_rate, both populations, T = 20."
    # the cell's populations and seeds (4 and 5), at two of its rates and two of its ε.
    import numpy as np
    from must_nbdev.companions.accuracy_gains import POPULATION_BOUNDS, make_population, median_mse_by_rate
    out = {}
    for kind, seed in (('lognormal', 4), ('bimodal', 5)):
        rows = median_mse_by_rate(make_population(kind, seed=0), POPULATION_BOUNDS[kind], rates=(0.01, 0.5),
                                  eps_values=(0.1, 1.0), T=20, rng=np.random.default_rng(seed))
        for r in rows:
            _put(out, f"{kind} rate={r['rate']:g} eps={r['eps']:g}", r, ('n', 'log_mse', 'log_mse_population'))
    return out

def witness_bootstrap():
    "01_bootstrap's slow cell (Table 4 at paper size): bootstrap_experiment with 4 datasets and T = 10, seed 0."
    from must_nbdev.experiments.bootstrap import bootstrap_experiment, compare_with_paper
    rows = bootstrap_experiment(n_datasets=4, T=10, seed=0)
    out = {}
    for r in rows: _put(out, _label(r), r, ('sigma_mean', 'sigma_var', 'mu', 'mu_sd', 'tau2', 'tau2_sd',
                                            'tau2_expected', 'mu_diff', 'tau2_diff'))
    for c in compare_with_paper(rows, n_datasets=4):
        _put(out, f'{_label(c)}.vs_paper', c, ('z_mu', 'z_tau2', 'z_mu_diff', 'z_tau2_diff'))
    return out

def witness_regression():
    "02_regression's slow cells (Tables 5, S2 and the loss readings at paper size): 3 datasets, T = 20, seed 0."
    # the adopted reading (squared loss, clipped) and the two others of the second slow cell (half; half, unclipped).
    from must_nbdev.experiments.regression import regression_experiment
    out = {}
    for label, kw in (('squared', dict()), ('half', dict(loss='half')), ('half_noclip', dict(loss='half', clip=None))):
        res = regression_experiment(n_datasets=3, T=20, seed=0, **kw)
        for r in res['table5']:
            _put(out, f"{label}.t5.{r['eps_prime']}.{r['scheme']}", r, ('sigma', 'delta_prime', 'rmse', 'rmse_sd'))
        for r in res['tableS2']:
            _put(out, f"{label}.s2.{r['eps_prime']}.{r['scheme']}", r, ('bias0', 'rmse0', 'rmse2'))
    return out

def witness_efficiency():
    "03_efficiency's slow cell (Table 7 at paper size): efficiency_table, experiments 1 and 2, 200 draws, seed 0."
    # Adult's and MNIST's sizes cost seconds per scheme in the (wall-clock) timing blocks alone; 3 timing repeats.
    from must_nbdev.experiments.efficiency import TABLE7_SETTINGS, efficiency_table
    out = {}
    settings = {k: TABLE7_SETTINGS[k] for k in ('1', '2')}
    for r in efficiency_table(settings, draws=200, repeats=3, seed=0):   # timing columns left out: wall clock
        _put(out, f"{r['experiment']}.{r['scheme']}", r, ('m0_min', 'm0_mean', 'm0_max', 'm0_expected',
                                                           'gradient_saving_pct'))
    return out

def witness_classification():
    "04_classification's slow cells (MNIST, the σ sweep, digits, Adult's δ_c): the same calls, subsets, a few steps."
    # One seed and a few steps each; the wall-clock columns (seconds) are left out.
    import numpy as np
    from must_nbdev.core.sampling import scheme_at
    from must_nbdev.training.dpsgd import MLP, dpsgd
    from must_nbdev.accounting.account import account
    from must_nbdev.experiments.accounting_figures import adult_delta_c
    from must_nbdev.training.datasets import load_adult, load_digits, load_mnist_10k
    from must_nbdev.experiments.classification import classification_settings, linear_default_init, run_classification
    out = {}
    keys = ('sigma', 'accuracy', 'grad_evals', 'copies')
    def rows(prefix, res):
        _put(out, prefix, res['settings'], ('n', 'm', 'b', 'T', 'lr', 'clip', 'eps_prime'))
        for r in res['rows']: _put(out, f"{prefix}.{r['scheme']}", r, keys)
        for s, c in res['loss'].items():
            c = np.asarray(c, float); c = c[np.isfinite(c)]
            if len(c): out[f'{prefix}.{s}.loss_last'] = float(c[-1])
    mn = load_mnist_10k()
    sub = lambda d, n, t: dict(d, X_train=d['X_train'][:n], y_train=d['y_train'][:n], X_test=d['X_test'][:t],
                               y_test=d['y_test'][:t])
    # MNIST, scaled setting (on 1,000 of the 8,000 training digits: m = 33, b = 50)
    rows('mnist_scaled', run_classification(sub(mn, 1000, 200), seeds=1, T=3))
    # MNIST, the paper's batch and σ (adapt='paper-batch': needs n >= b = 3000; m = 2000 per step, so one step)
    rows('mnist_paper_batch', run_classification(sub(mn, 3000, 200), seeds=1, T=1, adapt='paper-batch',
                                                 schemes=('wor', 'must-ww')))
    # the σ sweep: dpsgd directly, WOR in the scaled setting, the sweep's noiseless and one noisy σ, 2 steps
    cfg = classification_settings('mnist-10k', len(mn['y_train']))
    model, sc_wor = MLP([784, 128, 128, 10]), scheme_at('wor', 8000, cfg['m'], cfg['b'])
    for sig in (0.0, 0.05):
        rng_s = np.random.default_rng(100)
        r = dpsgd(model, mn['X_train'], mn['y_train'], sc_wor, sig, 2.0 if sig else None, 0.3, 2, rng_s, loss_every=0,
                  params0=linear_default_init(model, 1, rng_s))
        out[f'sweep.sigma={sig}.accuracy'] = float(np.mean(model.log_proba(r.params, mn['X_test'][:500]).argmax(1)
                                                          == mn['y_test'][:500]))
        out[f'sweep.sigma={sig}.param_sum'] = float(r.params.sum())
    # digits: one gradient per distinct record, and per copy (distinct=False) for the cell's three schemes
    digits = load_digits()
    rows('digits', run_classification(digits, seeds=1, T=5))
    rows('digits_per_copy', run_classification(digits, seeds=1, T=5, distinct=False, schemes=('wr', 'must-ow',
                                                                                              'must-ww')))
    # Adult's δ_c(2) as calibrated and as run, worst case and the paper's pair, on 20 steps (MUST.ww left out: it
    # costs 3 s and takes MUST.ow's path)
    n_adult = len(load_adult()['y_train'])
    for r in adult_delta_c(schemes=('poisson', 'wor', 'wr', 'must-ow'), k=20):
        sc = scheme_at(r['scheme'], n_adult, 100, 200)
        actual = account(sc, sigma=r['sigma'] * 100 / n_adult, steps=20, eps=2.0, relation='substitute')
        paper = account(sc, sigma=r['sigma'] * 100 / n_adult, steps=20, eps=2.0, relation='substitute', pair='paper')
        out.update({f"adult.{r['scheme']}.sigma": r['sigma'], f"adult.{r['scheme']}.delta_upper": r['delta_upper'],
                    f"adult.{r['scheme']}.actual.lower": actual['delta_lower'],
                    f"adult.{r['scheme']}.actual.upper": actual['delta_upper'],
                    f"adult.{r['scheme']}.paper.upper": paper['delta_upper']})
    return out

def witness_compare():
    "03_compare's slow cell (every scheme at n = 50,000, m = 512, 20 epochs, ε = 4): compare_schemes at n = 40, m = 5."
    # 10 steps; the default stage-I sizes (2m, 8m and n/4, those below n) reduce to b = 10 there: seven rows.
    from must_nbdev.training.compare import compare_schemes, short_label
    out = {}
    for r in compare_schemes(40, 5, epochs=1.25, eps=4.0, delta=1e-5):
        _put(out, short_label(r), r.__dict__, ('sigma', 'eps', 'eps_attack', 'certificate', 'distinct', 'steps'))
    return out

WITNESSES = {
    '90_cli': witness_cli,
    'accounting/06_adaptive': witness_adaptive,
    'accounting/08_unlabelled_net': witness_unlabelled_net,
    'accounting/09_triangle_certificate': witness_triangle_certificate,
    'accounting/11_calibrate': witness_calibrate,
    'companions/01_accuracy_gains': witness_accuracy_gains,
    'experiments/01_bootstrap': witness_bootstrap,
    'experiments/02_regression': witness_regression,
    'experiments/03_efficiency': witness_efficiency,
    'experiments/04_classification': witness_classification,
    'training/03_compare': witness_compare,
}

def run(page): return WITNESSES[page]()

if __name__ == '__main__':
    # one BLAS thread: the same rounding whatever the machine's load or the caller's environment (set before numpy)
    for var in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS'): os.environ[var] = '1'
    sys.path.insert(0, str(ROOT))
    args = sys.argv[1:]
    as_json = '--json' in args
    pages = [a for a in args if a != '--json'] or list(WITNESSES)
    if as_json:
        if len(pages) != 1: sys.exit('witnesses.py --json takes one page')
        import contextlib, io
        with contextlib.redirect_stdout(io.StringIO()):              # the last line is the JSON: nothing else there
            values = run(pages[0]) if pages[0] in WITNESSES else {}
        print(json.dumps(values, sort_keys=True))
    else:
        unknown = [p for p in pages if p not in WITNESSES]
        if unknown: sys.exit(f"witnesses.py: no witness for {', '.join(unknown)} (pages: {', '.join(WITNESSES)})")
        total = 0.0
        for page in pages:
            t0 = time.perf_counter(); values = run(page); secs = time.perf_counter() - t0; total += secs
            print(f'== {page}: {len(values)} values, {secs:.1f} s')
            for k, v in values.items(): print(f'   {k} = {v!r}')
        print(f'all: {total:.1f} s')
