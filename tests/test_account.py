"""`must_nbdev.accounting.account`: the keyword-only API, the `AccountResult` contract, the misuse regressions
(positional calls that used to answer a different question without a word), the regressions that
go through `account` (crashes, a false infinite bound, unbounded memory) and its fuzz test (valid inputs give finite,
ordered, JSON-able bounds or a ValueError naming the parameter to change)."""
import json, math, os, subprocess, sys
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
import must_nbdev as mn
from must_nbdev import account, calibrate_sigma, calibrate_steps, calibrate_batch_size, make_scheme, PrivacyAccountant
from must_nbdev.accounting.account import AccountResult, delta_over_k, epsilon_over_steps
from must_nbdev.core.sampling import occurrence_pmf
from _helpers import FUZZ_SCHEME, fuzz_scheme

SC = make_scheme('wor', 1000, m=10)


def test_top_level_package_exposes_the_main_api():
    for name in ('make_scheme', 'amplify', 'account', 'PrivacyAccountant', 'calibrate_sigma', 'MustBatchSampler'):
        assert callable(getattr(mn, name)), name


@pytest.mark.parametrize('call', [
    lambda: calibrate_sigma(SC, 20, 4, 1e-5),                 # 20 meant as epochs used to calibrate 20 *steps*
    lambda: account(SC, 1.8, 1954, 1e-5),                     # used to answer δ(ε = 1e-5)
    lambda: PrivacyAccountant().step(SC, 1.0, 5),             # `n` used to mean steps here, records elsewhere
    lambda: calibrate_steps(SC, 1.0, 2.0, 1e-5),
    lambda: calibrate_batch_size('wor', 1000, 1.0, 10, 1.0, 1e-5),
    lambda: epsilon_over_steps(SC, 1.0, [1, 2], 1e-5),
    lambda: delta_over_k(SC, 1.0, [1, 2], 1.0),
])
def test_regression_positional_misuse_raises_type_error(call):
    with pytest.raises(TypeError):
        call()


def test_regression_account_scheme_must_be_a_scheme():
    with pytest.raises(TypeError, match='scheme must be a Scheme'):
        account('wor', sigma=1.0, steps=10, eps=1.0)


@pytest.mark.parametrize('kw, msg',
                         [(dict(steps=10), 'exactly one of eps'),
                          (dict(steps=10, eps=1.0, delta=1e-5), 'exactly one of eps'),
                          (dict(eps=1.0), 'exactly one of steps'),
                          (dict(steps=10, epochs=1, eps=1.0), 'exactly one of steps')])
def test_account_needs_exactly_one_query_and_one_length(kw, msg):
    with pytest.raises(ValueError, match=msg):
        account(SC, sigma=1.0, **kw)


def test_epochs_use_the_registry_rule():
    for sc, epochs in ((SC, 3), (make_scheme('poisson', 60_000, q=0.004), 0.5),
                       (make_scheme('must-ow', 60_000, m=256, b=6000), 10)):
        r = account(sc, sigma=2.0, epochs=epochs, eps=1.0, attack=False)
        assert r.steps == max(1, math.ceil(epochs / sc.rate - 1e-9)) == sc.steps_for_epochs(epochs)


def test_account_result_fields_keep_their_meaning():
    d = account(SC, sigma=1.0, steps=100, eps=1.0)           # δ asked at ε = 1
    e = account(SC, sigma=1.0, steps=100, delta=d.upper)      # ε asked at that δ
    assert isinstance(d, AccountResult) and d.query == 'delta' and e.query == 'eps'
    assert d.eps == 1.0 and d.delta == d.upper and float(d) == d.upper          # (ε, δ): one given, one certified
    assert e.delta == d.upper and e.eps == e.upper and float(e) == e.upper
    assert d.lower <= d.upper and d.bound_interval[0] <= d.upper == d.bound_interval[1]
    assert d.attack_interval[0] == d.lower and d.theory_gap >= 1
    assert e.upper >= 1.0 * (1 - 1e-3)                         # certifying the same δ needs about the same ε
    with pytest.raises(Exception):
        d.eps = 2.0                                           # frozen


def test_account_result_to_dict_is_json_and_keeps_the_cli_keys():
    r = account(SC, sigma=1.0, steps=100, eps=1.0)
    d = r.to_dict()
    json.dumps(d, allow_nan=False)
    for key in ('delta_lower', 'delta_upper', 'delta', 'eps', 'pair', 'guarantee', 'bound_interval', 'attack_interval',
                'theory_gap', 'seconds', 'L', 'r', 'relation', 'k'):
        assert key in d, key
    assert r['delta_upper'] == d['delta_upper'] == r.upper and d['k'] == r.steps
    with pytest.raises(KeyError):
        r['eps_upper']                                        # a δ query has no ε bounds
    assert 'δ(ε=1)' in repr(r) and 'certified' in repr(r)


def test_paper_pair_result_says_it_is_not_worst_case():
    r = account(SC, sigma=1.0, steps=10, eps=1.0, pair='paper')
    assert r.bound_interval is None and 'NOT' in r.guarantee and 'NOT worst case' in repr(r)
    assert 'bound_interval' not in r.to_dict()


def test_curves_take_steps_lists_and_refuse_bad_ones():
    out = delta_over_k(SC, sigma=1.0, steps=[10, 20], eps=1.0)
    assert len(out) == 2 and out[0].upper <= out[1].upper
    for bad in ([], [0]):
        with pytest.raises(ValueError, match='steps'):
            delta_over_k(SC, sigma=1.0, steps=bad, eps=1.0)
    with pytest.raises(TypeError, match='steps'):      # a string is no list of steps
        delta_over_k(SC, sigma=1.0, steps='abc', eps=1.0)


# ---------------------------------------------------------------- regressions
@pytest.mark.parametrize('name,n,m', [('wor', 1000, 10), ('wr', 10000, 117)])
def test_regression_no_zero_division_when_eps_bound_is_zero(name, n, m):
    r = account(make_scheme(name, n, m=m), sigma=1.0, steps=1, delta=0.01)
    assert 0 <= r['eps_lower'] <= r['eps_upper'] < math.inf


def test_regression_huge_eps_is_bracketed_not_infinite():
    # plain Gaussian (every record always sampled once), θ = 2/σ = 20 per step: ε(1e-5) = 202696.357 (closed form)
    r = account(make_scheme('wor', 10, m=10), sigma=0.1, steps=1000, delta=1e-5)
    assert r['eps_lower'] <= 202696.3572 <= r['eps_upper'] < 202697


def _peak_rss_gb(code):
    # VmHWM is this process image's own peak; ru_maxrss also keeps the forking parent's RSS on Linux, so a pytest worker
    # grown by earlier tests (the triangle nets) made every child look that large (CI 2026-11-25: 3.88 GB both ways)
    peak = ("import re; print(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1))"
            if os.path.exists('/proc/self/status') else
            "import resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    out = subprocess.run([sys.executable, '-c', code + '\n' + peak], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-500:]
    return int(out.stdout.split()[-1]) / 2 ** 20


@pytest.mark.parametrize('code', [
    "from must_nbdev.accounting.account import account; from must_nbdev.core.sampling import make_scheme\n"
    "r = account(make_scheme('must-ww', 100, m=30, b=10), sigma=0.3, steps=1, eps=5); assert 0 <= r['delta_lower'] <= "
    "r['delta_upper'] <= 1",
    "from must_nbdev.accounting.account import account; from must_nbdev.core.sampling import make_scheme\n"
    "r = account(make_scheme('must-ow', 100, m=10, b=20), sigma=0.1, steps=1000, eps=1); assert 0 <= r['delta_lower'] "
    "<= r['delta_upper'] <= 1",
])
def test_regression_memory_stays_under_2_gb(code):
    assert _peak_rss_gb(code) < 2.0


def test_regression_bad_input_is_a_value_error_naming_the_argument():
    with pytest.raises(ValueError, match='pair'):
        account(make_scheme('wr', 100, m=10), sigma=1.0, steps=10, eps=1.0, pair='best')


# ---------------------------------------------------------------- fuzz
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=FUZZ_SCHEME, n=st.integers(2, 10**5), m=st.integers(1, 60), b=st.integers(1, 80), sigma=st.floats(0.3, 20),
       k=st.integers(1, 3000), query=st.sampled_from(['eps', 'delta']), value=st.floats(1e-9, 0.9),
       relation=st.sampled_from([None, 'substitute', 'add_remove']), pair=st.sampled_from(['worst', 'paper']))
def test_fuzz_account_valid_inputs(name, n, m, b, sigma, k, query, value, relation, pair):
    sc = fuzz_scheme(name, n, m, b)
    try: r = account(sc, sigma=sigma, steps=k, relation=relation, pair=pair,
                     **{'eps': value * 10} if query == 'eps' else {'delta': value})
    except ValueError as e:                     # allowed only when it says which parameter to change
        assert any(w in str(e) for w in ('max_bins', 'sigma', ' h')), e; return
    lo, up = (r['delta_lower'], r['delta_upper']) if query == 'eps' else (r['eps_lower'], r['eps_upper'])
    assert 0 <= lo <= up * (1 + 1e-9) and not math.isnan(up)
    if query == 'eps': assert up <= 1
    # AccountResult's dict form (`in` and json.dumps need it)
    d = r.to_dict()
    assert r['certified_accuracy'] or 'reason' in d
    json.dumps(d)                                # plain values only


def test_regression_curves_over_steps_keep_one_composition_in_memory():
    # regression: epsilon_over_steps over 60 step counts kept 60 compositions alive (9.9 GB); now one at a time.
    # A shorter list of the same shape: the peak must not grow with the number of step counts.
    code = ("from must_nbdev.accounting.account import epsilon_over_steps; from must_nbdev.core.sampling import "
            "make_scheme\nsc = make_scheme('poisson', 10_000, q=0.02)\n"
            "out = epsilon_over_steps(sc, sigma=1.0, steps=list(range(1, {k})), delta=1e-5)\n"
            "assert all(b.lower <= b.upper for b in out)")
    few, many = _peak_rss_gb(code.format(k=3)), _peak_rss_gb(code.format(k=81))
    assert many < 2 and many < few + 0.015, (few, many)   # kept alive, 80 compositions added ~45 MB here


def _more_private(a, b):
    "b is at least as private as a (more noise, fewer steps or a larger ε): b's bound may exceed a's only by b's floor."
    assert b.delta_floor is not None and 0 <= b.delta_floor <= b.upper
    assert b.upper <= a.upper * 1.005 + b.delta_floor + 1e-300, (a, b, b.delta_floor)   # 1.005: the requested accuracy

def test_regression_wr_floor_not_monotone_in_sigma():
    "WR n=100,000, m=15, 797 steps, ε=0.733: 6.9e-14 at σ=5.254 but 7.6e-14 at σ=5.516, both FFT floor; now the moments."
    sc = make_scheme('wr', 100_000, m=15)
    lo, hi = (account(sc, sigma=s, steps=797, eps=0.733, attack=False) for s in (5.254, 5.516))
    assert hi.upper <= lo.upper < 1e-20                     # monotone, and far below the FFT's floor
    assert hi.upper <= 2 * hi.delta_floor                  # what is left is the mass at +∞, reported as the floor


def test_regression_wor_public_label_floor_rose_with_sigma():
    "WOR n=3,478, m=9, 124 steps, δ(5.948): 5.2e-20 at σ=7.08 but 1.2e-19 at σ=10.6, all mass at +∞ (a fuzz of the doors)."
    sc = make_scheme('wor', 3478, m=9)
    ups = [account(sc, sigma=s, steps=124, eps=5.948, attack=False) for s in (7.08, 8.0, 9.0, 10.6, 14.0)]
    assert all(b.upper <= a.upper for a, b in zip(ups, ups[1:])), [r.upper for r in ups]
    assert all(r.upper <= 2 * r.delta_floor and r.upper < 1e-20 for r in ups)   # all floor, and below the old one


def test_regression_must_ww_round_off_floor_rose_with_sigma():
    "MUST.ww n=3,000, m=27, b=24, 60 steps, δ(4): the FFT's round-off floor, 9.95e-15 at σ=6.91 but 1.009e-14 at 7.37."
    sc = make_scheme('must-ww', 3000, m=27, b=24)
    ups = [account(sc, sigma=s, steps=60, eps=4.0, attack=False) for s in (6.5, 6.91, 7.37, 8.38, 10.16)]
    assert all(b.upper <= a.upper for a, b in zip(ups, ups[1:])), [r.upper for r in ups]
    # the cut moments: 60 steps × the level (1e-17 at a ladder of 1,000×; 1e-18 since it has every power of ten)
    assert ups[2].upper < 1e-16 and ups[-1].upper / ups[2].upper > 0.9


def test_regression_poisson_band_floor_rose_with_sigma():
    "Poisson n=150, m=1, one step, δ(8.4243): 1.0158e-18 at σ=1.466 but 1.0336e-18 at σ=1.484, all mass above the band."
    sc = make_scheme('poisson', 150, m=1)
    ups = [account(sc, sigma=s, steps=1, eps=8.4243, attack=False).upper for s in (1.466, 1.47, 1.475, 1.48, 1.484)]
    assert all(b <= a for a, b in zip(ups, ups[1:])), ups
    assert max(ups) < 1.01e-18   # the band's bound, CAP_MASS and the line's tail with their room, at every σ


def test_regression_poisson_line_tail_floor_rose_with_sigma():
    "Poisson under substitution, δ past the line's highest loss: the tail past 9.5σ, 1.5e-24 at σ=1.419, 3.3e-24 at 1.661."
    for n, m, k, eps, sigmas in ((43_593, 25, 1, 1.0564, (1.4194, 1.5, 1.6606)), (125, 6, 300, 4.9523, (3.8358, 4.4876))):
        sc = make_scheme('poisson', n, m=m)
        ups = [account(sc, sigma=s, steps=k, eps=eps, relation='substitute', attack=False).upper for s in sigmas]
        assert all(b <= a for a, b in zip(ups, ups[1:])), (n, ups)


def test_regression_a_top_mass_past_half_a_cut_level_raised_delta_with_sigma():
    "MUST.wo n=417, m=108, b=123, 100 steps, δ(3.6): 6.96e-19 at σ=13.94 but 1.33e-18 at 14.06 (cut levels 1,000× apart)."
    sc = make_scheme('must-wo', 417, m=108, b=123)
    ups = [account(sc, sigma=s, steps=100, eps=3.5997, attack=False).upper for s in (13.9428, 14.0618, 17.3541)]
    assert all(b <= a for a, b in zip(ups, ups[1:])) and ups[0] < 1e-18, ups


def test_regression_auto_precision_stayed_in_float64_where_the_moments_answered():
    "MUST.wo n=707, m=118, b=142, 10 steps, δ(163.36): 8.59e-16 at σ=1.2997 (80-bit) but 9.71e-16 at 1.3106 (float64)."
    sc = make_scheme('must-wo', 707, m=118, b=142)
    ups = [account(sc, sigma=s, steps=10, eps=163.3595032605317, relation='add_remove', attack=False).upper
           for s in (1.2996760286076732, 1.3105824008757099)]
    assert ups[1] <= ups[0] < 8.6e-16, ups


@pytest.mark.parametrize('name,m,k,eps,sigmas', [('wr', 15, 797, 0.3, (3.0, 3.1, 3.2, 3.4, 3.7, 4.0, 5.0)),
                                                  ('wor', 256, 2350, 1.5, (2.4, 2.6, 2.8, 2.9, 3.0, 3.2)),
                                                  ('poisson', 256, 2350, 2.0, (2.4, 2.6, 2.7, 2.8, 3.0))])
def test_delta_is_monotone_in_sigma_through_the_floor(name, m, k, eps, sigmas):
    "Sweeps of σ from δ ≈ 1e-10 down through the FFT's round-off floor: the certified δ never rises (it used to, by 11%)."
    n = 100_000 if name == 'wr' else 60_000
    sc = make_scheme(name, n, q=m / n) if name == 'poisson' else make_scheme(name, n, m=m)
    ups = [account(sc, sigma=s, steps=k, eps=eps, attack=False).upper for s in sigmas]
    assert all(b <= a for a, b in zip(ups, ups[1:])), ups


def test_monotone_up_to_the_floor_in_sigma_steps_and_eps():
    "Random configurations, including ones deep in the floor: more privacy never raises δ beyond the floor."
    import numpy as np
    from must_nbdev.core.sampling import scheme_at
    rng = np.random.default_rng(27)
    for _ in range(6):
        name = rng.choice(['wor', 'wr', 'must-ow', 'poisson'])
        n = int(rng.integers(2_000, 50_000)); m = int(rng.integers(5, 60))
        sc = make_scheme('poisson', n, q=m / n) if name == 'poisson' else scheme_at(name, n, m, b=4 * m)
        sigma, k, eps = float(rng.uniform(0.8, 6.0)), int(rng.integers(10, 800)), float(rng.uniform(0.1, 2.0))
        base = account(sc, sigma=sigma, steps=k, eps=eps, attack=False)
        _more_private(base, account(sc, sigma=sigma * float(rng.uniform(1.01, 1.2)), steps=k, eps=eps, attack=False))
        _more_private(base, account(sc, sigma=sigma, steps=max(1, k - int(rng.integers(1, k))), eps=eps, attack=False))
        _more_private(base, account(sc, sigma=sigma, steps=k, eps=eps + float(rng.uniform(0.01, 0.5)), attack=False))


def test_regression_curves_and_max_bins_under_an_address_space_limit():
    """Two memory reproducers in a subprocess limited to 3 GiB of address space: curves over steps finish, an absurd
    max_bins is refused in one line before anything is allocated (they used 9.9 GB and ran into MemoryError)."""
    code = (
        "import resource\n"
        "resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))\n"
        "from must_nbdev import make_scheme\n"
        "from must_nbdev.accounting.account import epsilon_over_steps, account\n"
        "out = epsilon_over_steps(make_scheme('must-ow', 10000, m=200, b=118), sigma=1.0, steps=list(range(1, 61, 6)),"
        " delta=1e-5)\n"
        "assert len(out) == 10 and all(b.upper >= b.lower for b in out)\n"
        "try: account(make_scheme('poisson', 10000, q=0.01), sigma=0.05, steps=10, delta=1e-5, max_bins=10**30)\n"
        "except ValueError as e: print('refused:', str(e).splitlines()[0])\n"
        "else: raise SystemExit('not refused')\n"
        "print('ok')\n")
    env = dict(__import__('os').environ, OPENBLAS_NUM_THREADS='1', OMP_NUM_THREADS='1', MKL_NUM_THREADS='1')
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env=env, timeout=900)
    assert r.returncode == 0 and r.stdout.rstrip().endswith('ok') and 'refused: max_bins' in r.stdout, (
        r.stdout, r.stderr[-2000:])


def test_every_public_path_fits_under_an_address_space_limit():
    """Issue 27 property: the other public paths in a 3 GiB address space: a recorded run with max_bins=None (the
    budget's cap), a calibrator, the samplers (a large chunk refused, the default chunks finish) and
    the dp_accounting export (an absurd grid refused) — each answers or refuses in one line, none dies of
    MemoryError."""
    code = (
        "import resource\n"
        "resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))\n"
        "from must_nbdev import make_scheme, PrivacyAccountant, MustBatchSampler, calibrate_sigma\n"
        "from must_nbdev.core.samplers import sample_many\n"
        "run = PrivacyAccountant(max_bins=None)\n"
        "for _ in range(2000): run.step(make_scheme('wr', 60000, m=256), sigma=1.0)\n"
        "print('run', run.epsilon(1e-5).upper)\n"
        "print('calibrated', calibrate_sigma(make_scheme('wr', 60000, m=256), epochs=1, eps=3, delta=1e-5).sigma)\n"
        "big = make_scheme('wr', 10**6, m=10**5)\n"
        "print('batches', sum(len(b) for b in MustBatchSampler(big, 30, seed=0)))\n"
        "for f in (lambda: sample_many(big, 10**5), lambda: MustBatchSampler(big, 10**5, chunk=10**5)):\n"
        "    try: f()\n"
        "    except ValueError as e: print('refused:', str(e).splitlines()[0][:60])\n"
        "try:\n"
        "    from must_nbdev.training.interop import must_dp_accounting_pld\n"
        "    must_dp_accounting_pld(make_scheme('wor', 1000, m=10), 1.0, h=1e-9, max_bins=10**30)\n"
        "except ImportError: print('refused: (dp_accounting not installed)')\n"
        "except ValueError as e: print('refused:', str(e).splitlines()[0][:60])\n"
        "print('ok')\n")
    env = dict(__import__('os').environ, OPENBLAS_NUM_THREADS='1', OMP_NUM_THREADS='1', MKL_NUM_THREADS='1')
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env=env, timeout=900)
    assert r.returncode == 0 and r.stdout.rstrip().endswith('ok'), (r.stdout, r.stderr[-2000:])
    assert r.stdout.count('refused:') == 3 and 'batches 3000000' in r.stdout, r.stdout


def test_a_fast_answer_far_from_the_attack_says_how_to_ask_for_the_tight_one():
    "The fast certificate's distance to the attack and the way to the net travel with the result, in every form."
    sc = make_scheme('wor', 10_000, m=200)
    r = account(sc, sigma=4.0, steps=200, eps=0.5)
    assert r.theory_gap > 1.05 and f"{r.theory_gap:.3g}x the best attack" in r.tighter and 'net=True' in r.tighter
    assert r.to_dict()['tighter'] == r.tighter and "tighter: net='quick'" in repr(r)
    from must_nbdev.accounting.net_options import QUICK_NET, QUICK_BLOCKS, QUICK_BLOCKS_NET
    assert "net='quick' is its quick setting" in r.tighter and QUICK_NET.recipe(cli=True) in r.tighter
    assert f"net='quick-blocks' plays it in {QUICK_BLOCKS} blocks" in r.tighter          # and the blocks it offers
    assert '(CLI --net quick:' in r.tighter and '(CLI --net quick-blocks;' in r.tighter
    tight = account(sc, sigma=4.0, steps=200, eps=0.5, accuracy=1.05, net=True, net_tol=1.0)
    assert tight.tighter is None and 'tighter' not in repr(tight)          # the net was asked for

def test_regression_the_hint_names_the_net_as_every_python_door_takes_it():
    "The hint offered net_blocks=5, which only account and the calibrators take: the curves, compare and sweep refused it."
    import ast
    from must_nbdev.accounting.net_options import QUICK_BLOCKS_NET
    sc = make_scheme('wor', 10_000, m=200)
    fast = delta_over_k(sc, sigma=4.0, steps=[200], eps=0.5)[0]
    named = ast.literal_eval(fast.tighter.split('and net=')[1].split(' ')[0])   # the blocked quick setting, by name
    net = delta_over_k(sc, sigma=4.0, steps=[200], eps=0.5, net=named)[0]
    assert named == 'quick-blocks' and net.certificate == 'triangle net' and net.tighter is None
    assert net.certified == delta_over_k(sc, sigma=4.0, steps=[200], eps=0.5, net=QUICK_BLOCKS_NET)[0].certified
    assert net.attack <= net.certified < fast.certified, (fast, net)

def test_curves_with_the_net_answer_each_k_as_account_net_does():
    from must_nbdev.accounting.account import delta_over_k
    from must_nbdev.accounting.net_options import QUICK_NET
    sc = make_scheme('wor', 1000, m=50)
    curve = delta_over_k(sc, sigma=4.0, steps=[10, 30], eps=0.5, net=True, net_options=QUICK_NET)
    for k, r in zip((10, 30), curve):
        assert r.upper == account(sc, sigma=4.0, steps=k, eps=0.5, net=True, **QUICK_NET.keywords()).upper
        assert r.certificates['triangle net'] >= r.upper and r.lower <= r.upper
    with pytest.raises(ValueError, match="pair 'worst'"):
        delta_over_k(sc, sigma=4.0, steps=[10], eps=0.5, pair='paper', net=True)
    with pytest.raises(TypeError, match='TightOptions'):
        delta_over_k(sc, sigma=4.0, steps=[10], eps=0.5, net=True, net_options={'tol': 0.04})

def test_the_net_options_travel_as_one_group_at_every_door():
    "net=QUICK_NET (or 'quick') is net=True with its keywords, at account, the calibrators and the curves; both raise."
    from must_nbdev.accounting.net_options import QUICK_NET
    sc = make_scheme('wor', 1000, m=50)
    flat = account(sc, sigma=4.0, steps=20, eps=0.5, net=True, **QUICK_NET.keywords())
    grouped = account(sc, sigma=4.0, steps=20, eps=0.5, net=QUICK_NET)
    assert grouped.upper == flat.upper and grouped.certificates == flat.certificates
    assert delta_over_k(sc, sigma=4.0, steps=[20], eps=0.5, net=QUICK_NET)[0].upper == flat.upper
    cal = calibrate_steps(sc, sigma=4.0, eps=0.74, delta=1e-5, net=QUICK_NET)
    assert cal.result.certificate == 'triangle net' and cal.eps_upper <= 0.74
    with pytest.raises(ValueError, match='given twice'):
        account(sc, sigma=4.0, steps=20, eps=0.5, net=QUICK_NET, net_tol=0.1)
    with pytest.raises(ValueError, match='given twice'):
        calibrate_sigma(sc, steps=20, eps=0.5, delta=1e-5, net=QUICK_NET, net_grid=2)
    with pytest.raises(ValueError, match='given twice'):
        delta_over_k(sc, sigma=4.0, steps=[20], eps=0.5, net=QUICK_NET, net_options=QUICK_NET)
    named = account(sc, sigma=4.0, steps=20, eps=0.5, net='quick')          # the preset by its name
    assert named.upper == flat.upper and named.certificates == flat.certificates
    with pytest.raises(ValueError, match="one of 'quick', 'quick-blocks'; got 'quickest'"):
        account(sc, sigma=4.0, steps=20, eps=0.5, net='quickest')
    with pytest.raises(ValueError, match="given twice, as net='quick'"):
        calibrate_sigma(sc, steps=20, eps=0.5, delta=1e-5, net='quick', net_grid=2)
    with pytest.raises(TypeError, match="net must be True, False, a preset's name"):
        account(sc, sigma=4.0, steps=20, eps=0.5, net=1)
    with pytest.raises(ValueError, match='net was not asked for'):
        calibrate_steps(sc, sigma=4.0, eps=0.74, delta=1e-5, net=False, net_tol=0.1)

def test_steps_that_fit_no_grid_answer_the_trivial_bound_with_their_own_fields():
    "10**18 steps: the fallback ran the attack despite attack=False and reported one step's certificates and gap 1."
    from must_nbdev.accounting.account import TRIVIAL
    sc = make_scheme('wor', 100, m=10)
    r = account(sc, sigma=2.0, steps=10 ** 18, delta=1e-5, attack=False)
    assert r.upper == math.inf and r.certificate == TRIVIAL and r.certificates == {} and not r.certified_accuracy
    assert r.lower == 0 and r.theory_gap == math.inf and r.tighter is None and r.delta_floor is None
    a = account(sc, sigma=2.0, steps=10 ** 18, eps=1.0)
    assert a.upper == 1.0 and 0 < a.lower <= 1 and a.theory_gap == pytest.approx(1 / a.lower)

def test_attack_flag_is_a_bool():
    "attack='no' ran the attack (a non-empty string is true)."
    with pytest.raises(TypeError, match='attack'):
        account(make_scheme('wor', 100, m=10), sigma=2.0, steps=10, delta=1e-5, attack='no')


def test_regression_attack_is_none_where_no_attack_ran():
    r = account(make_scheme('wor', 100, m=10), sigma=1.0, steps=2, delta=1e-5, attack=False)
    assert r.attack is None and r.to_dict()['attack'] is None and r.lower == 0.0 and r.attack_name.startswith('none')
    assert r.attack_ran is False and r.to_dict()['attack_ran'] is False
    exact = account(make_scheme('poisson', 100, m=10), sigma=1.0, steps=2, delta=1e-5, attack=False)
    assert exact.attack_ran and exact.attack == exact.lower > 0   # an exact pair is its own attack, whatever attack says


@pytest.mark.parametrize('steps', ['12', 12, {12: 1}])
def test_regression_over_steps_refuses_what_is_no_list_of_steps_with_a_type_error(steps):
    "steps='12' read as the digits 1 and 2 once, then raised ValueError: a wrong type is a TypeError."
    sc = make_scheme('wor', 100, m=10)
    with pytest.raises(TypeError, match='steps must be a list of integers >= 1'):
        delta_over_k(sc, sigma=1.0, steps=steps, eps=1.0)
    with pytest.raises(TypeError, match='steps must be a list'):
        epsilon_over_steps(sc, sigma=1.0, steps=steps, delta=1e-5)


def test_regression_a_net_answer_claimed_the_accuracy_its_grid_missed():
    """When the triangle net won, its single value stood as a bracket of ratio 1, so `certified_accuracy` was True even
    where the grid missed `accuracy`. It now speaks of the fast bracket on the grid the net played on."""
    from must_nbdev.accounting.net_options import QUICK_NET
    sc = make_scheme('wor', 1000, m=20)
    ask = dict(sigma=2.0, steps=20, delta=1e-5, accuracy=1.00001, max_bins=2**12)
    net, fast = account(sc, **ask, net=QUICK_NET), account(sc, **ask)
    assert net.certificate == 'triangle net' and net.upper < fast.upper and net.h == fast.h
    assert not fast.certified_accuracy and not net.certified_accuracy and net.reason == fast.reason
    assert f"{fast.ratio:.6g}" in net.reason and fast.ratio > 1.0001


def test_attack_budget_is_refused_where_no_attack_spends_it():
    "A budget given with attack=False or pair='paper' was checked and then unused: it raises, naming attack_budget."
    sc = make_scheme('wor', 1000, m=10)
    for kw in (dict(attack=False), dict(pair='paper')):
        with pytest.raises(ValueError, match="attack_budget=1e.09 is the adaptive attack's"):
            account(sc, sigma=1.0, steps=5, delta=1e-5, attack_budget=1e9, **kw)
        account(sc, sigma=1.0, steps=5, delta=1e-5, **kw)          # the default budget is no request


def test_regression_fuzz_must_ow_second_stage_larger_than_first_is_not_beaten_by_its_attack():
    "Reproduces the fuzz example MUST.ow(n=3572: WOR(4) -> WR(42)), σ = 0.947, 17 steps, δ at ε = 5."
    # a NaN in the public-label pair (cells of P-mass below 2^-1074) once made it certify δ ≈ 2.3e-11
    sc = fuzz_scheme('must-ow', 3572, 42, 4)
    r = account(sc, sigma=0.947001409783937, steps=17, eps=5.0)
    assert r['delta_lower'] <= r['delta_upper'] * (1 + 1e-9)
    # the shift 2k/σ of a sampled record is huge: δ(5) is close to P(sampled in some step) = 1 − (1 − η)^17
    sampled = -math.expm1(17 * math.log1p(-occurrence_pmf(sc).eta))
    pub, unl = r.certificates['public labels'], r.certificates['partially unlabelled']
    assert 0.99 * sampled <= min(pub, unl) <= max(pub, unl) <= sampled * 1.001

def test_regression_a_net_too_large_for_the_memory_budget_raised_instead_of_answering():
    "WR(n=200, m=10) with the quick net under 4 MiB: the net's spectra raised GridTooLarge; the fast certificate answers."
    from must_nbdev.core.definitions import memory_budget
    from must_nbdev.accounting.account import TOO_LARGE
    sc = make_scheme('wr', 200, m=10)
    with memory_budget(4 << 20):
        r = account(sc, sigma=1.0, steps=3, eps=1.0, net='quick', max_bins=6553)
        fast = account(sc, sigma=1.0, steps=3, eps=1.0, max_bins=6553)
    assert r.upper == fast.upper and r.certificate == fast.certificate and 'triangle net' not in r.certificates
    why = r.skipped['triangle net']
    assert why.startswith(TOO_LARGE + ' — ') and 'GiB of spectra' in why and 'memory_budget' in why
    assert f"{r.theory_gap:.3g}x the best attack" in why and r.to_dict()['skipped'] == r.skipped
    assert repr(r).endswith('triangle net not played (too large for the budget))')

@pytest.mark.parametrize('budget, max_bins', [(4 << 20, 6553), (1 << 20, 1638)])
def test_regression_must_ow_net_on_a_coarse_grid_raised_about_an_h_never_given(budget, max_bins):
    "MUST.ow(n=200) at max_bins 6553 (1638): the net's stand-in (its grid) went above 1 and raised 'h must be in (0, 1]'."
    from must_nbdev.core.definitions import memory_budget
    sc = make_scheme('must-ow', 200, m=10, b=20)
    with memory_budget(budget):
        r = account(sc, sigma=0.8, steps=3, eps=1.0, net='quick', max_bins=max_bins)
        fast = account(sc, sigma=0.8, steps=3, eps=1.0, max_bins=max_bins)
    assert r.upper == fast.upper and set(r.skipped) == {'triangle net'}
    if max_bins == 1638: assert 'net_grid=4 puts the net on the loss grid' in r.skipped['triangle net']

def test_regression_fuzz_an_eps_query_with_no_finite_certificate_sent_the_net_an_infinite_bracket():
    "MUST.ww(n=12) at σ=0.307: no certificate bounds ε at δ=1e-3, and the net raised 'eps_hi must be finite'."
    from must_nbdev.accounting.account import NO_BRACKET
    sc = make_scheme('must-ww', 12, m=11, b=2)
    r = account(sc, sigma=0.307, steps=4, delta=1e-3, max_bins=65536, net=True, net_tol=0.5, net_grid=2)
    assert r.upper == math.inf and r.skipped['triangle net'].startswith(NO_BRACKET + ' — ')
    assert repr(r).endswith('triangle net not played (no finite ε to search))')

def test_a_net_grid_above_one_from_an_h_the_caller_fixed_is_an_error_not_a_skip():
    "h=0.5 with net_grid=4: a conflict between the caller's own arguments raises, naming both (review of the skip)."
    with pytest.raises(ValueError, match=r'h=0.5 with net_grid=4 puts the net on the loss grid 2 > 1'):
        account(make_scheme('wor', 200, m=10), sigma=1.0, steps=3, eps=1.0, h=0.5, net=True, net_grid=4)

def test_the_fast_paths_own_grid_error_stays_loud_with_the_net_asked_for():
    "Only the net's own GridTooLarge becomes a skip: a run whose fast certificates fit no grid at the h given raises."
    from must_nbdev.accounting.pld import GridTooLarge
    with pytest.raises(GridTooLarge):
        account(make_scheme('wor', 200, m=10), sigma=0.3, steps=2000, eps=1.0, h=1e-5, max_bins=1024, net=True)

def test_steps_that_fit_no_grid_say_the_net_asked_for_was_not_played():
    "The trivial bound's answer keeps the request visible: skipped names the net and why."
    from must_nbdev.accounting.account import TRIVIAL, TOO_LARGE
    r = account(make_scheme('wor', 100, m=10), sigma=2.0, steps=10 ** 18, eps=1.0, net='quick')
    assert r.certificate == TRIVIAL and r.upper == 1.0
    assert r.skipped['triangle net'].startswith(f"{TOO_LARGE} — {10 ** 18} steps fit no loss grid")
    assert account(make_scheme('wor', 100, m=10), sigma=2.0, steps=10 ** 18, eps=1.0).skipped is None

def test_a_floor_above_the_fast_answer_is_said_to_be_above_it():
    "net_grid=64 puts the floor 10% above the fast bound: the reason said '(0.00% below it)'."
    r = account(make_scheme('wor', 200, m=10), sigma=2.0, steps=3, eps=1.0, net=True, net_grid=64)
    why = r.skipped['triangle net']
    assert why.startswith('its floor: no room — ') and "is above 'public labels' (by " in why and 'below' not in why

def test_regression_a_certificate_whose_run_needs_a_coarser_grid_is_played_there():
    """MUST.ow (n = 2,320, m = 8, b = 74) at σ = 3.5891 and δ = 6.49e-18: the partially unlabelled run needed just over
    `max_bins` on the grid refined for the public labels, so it was dropped and ε was 18.29 after 2 steps against 3.17
    after 3 (a door answering 6x looser than it can, silently). It is now played on a coarser grid."""
    from must_nbdev.accounting.accountant import PrivacyAccountant
    sc = make_scheme('must-ow', 2320, m=8, b=74)
    two, three = (account(sc, sigma=3.5891, steps=k, delta=6.49e-18, max_bins=1 << 18, attack=False) for k in (2, 3))
    assert two.certificate == 'partially unlabelled' and two.h > three.h   # coarser than the longer run's grid
    assert two.upper < two.certificates['public labels'] / 5 and two.upper <= three.upper
    assert abs(two.L / two.h - round(two.L / two.h)) < 1e-6                  # L on the answer's own grid
    run = PrivacyAccountant(max_bins=1 << 18).step(sc, sigma=3.5891, steps=2)   # the recorded run: the same answer
    assert run.epsilon(6.49e-18).upper == two.upper and run.certificate == two.certificate
