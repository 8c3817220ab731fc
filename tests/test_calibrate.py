"""`must_nbdev.accounting.calibrate`: the certified σ calibration (safe side, bracket within tolerance, a looser target
needs less noise, the worst case asks for more than the paper's pair) and clear errors."""
import pytest
from must_nbdev.accounting.account import account
from must_nbdev.accounting.calibrate import calibrate_batch_size, calibrate_sigma
from must_nbdev.core.sampling import make_scheme


def test_calibrate_sigma_is_certified_and_tight():
    sc = make_scheme('poisson', 60_000, m=256)
    cal = calibrate_sigma(sc, steps=500, eps=2.0, delta=1e-5)
    assert cal.eps_upper <= 2.0 and cal.eps_lower <= cal.eps_upper
    assert cal.sigma_infeasible < cal.sigma <= cal.sigma_infeasible * (1 + cal.tol)
    assert account(sc, sigma=cal.sigma_infeasible, steps=500, delta=1e-5, attack=False)['eps_upper'] > 2.0
    assert cal.calls <= 12 and cal.result['certified_accuracy']
    looser = calibrate_sigma(sc, steps=500, eps=4.0, delta=1e-5)          # a looser target needs less noise
    assert looser.sigma < cal.sigma


def test_calibrate_sigma_worst_case_fixed_size():
    sc = make_scheme('must-ow', 6000, m=64, b=600)
    cal = calibrate_sigma(sc, steps=200, eps=1.0, delta=1e-6, relation='substitute')
    assert cal.eps_upper <= 1.0 and cal.result['pair'] == 'worst'
    paper = account(sc, sigma=cal.sigma, steps=200, delta=1e-6, relation='substitute', pair='paper')
    assert paper['eps_upper'] <= cal.eps_upper                      # the paper's pair would have asked for less noise


def test_calibration_says_how_far_the_fast_answer_is_from_the_attack():
    "Regression: a σ calibration printed only its certified ε, not the attack, the gap or how to ask for the net."
    wor = calibrate_sigma(make_scheme('wor', 60_000, m=256), steps=2350, eps=3.0, delta=1e-5)
    assert wor.result.tighter and wor.result.theory_gap > 1.1                # the public labels: 1.16x the attack
    assert f"≥ {wor.eps_lower:.4g} by attack (gap {wor.result.theory_gap:.3g})" in repr(wor)
    assert repr(wor).endswith("; tighter: net='quick')")
    exact = calibrate_sigma(make_scheme('poisson', 60_000, m=256), steps=500, eps=2.0, delta=1e-5)
    assert 'by attack' in repr(exact) and 'tighter' not in repr(exact)        # Poisson's pair is exact
    from must_nbdev.accounting.calibrate import calibrate_steps
    steps = calibrate_steps(make_scheme('wor', 60_000, m=256), sigma=1.5, eps=3.0, delta=1e-5)
    assert 'attack' not in repr(steps)                                    # no attack ran in a steps search


@pytest.mark.parametrize('bad,name', [(dict(eps=0.0, delta=1e-5), 'eps'), (dict(eps=1.0, delta=1.0), 'delta'),
                                      (dict(eps=1.0, delta=1e-5, tol=0.0), 'tol'),
                                      (dict(eps=1e-9, delta=1e-12, sigma_max=10.0), 'sigma_max')])
def test_calibrate_sigma_bad_input(bad, name):
    with pytest.raises(ValueError, match=name):
        calibrate_sigma(make_scheme('poisson', 60_000, m=256), steps=100, **bad)
    with pytest.raises(ValueError, match='steps'):             # the step count is `steps` (it was 'k')
        calibrate_sigma(make_scheme('poisson', 60_000, m=256), steps=0, eps=1.0, delta=1e-5)


def test_calibrators_on_random_targets_are_rechecked_independently():
    """Issue 27: random (scheme, size, steps, target) — the calibrated σ is certified by a separate `account` call, and
    the reported infeasible σ is not (so the answer is the search's own boundary, from the safe side)."""
    import numpy as np
    from must_nbdev.core.sampling import scheme_at
    rng = np.random.default_rng(2027)
    for _ in range(5):
        name = str(rng.choice(['wor', 'wr', 'must-ow', 'must-ww', 'poisson']))
        n = int(rng.integers(1_000, 100_000)); m = int(rng.integers(2, min(400, n // 4)))
        sc = (make_scheme('poisson', n, q=m / n) if name == 'poisson'
              else scheme_at(name, n, m, b=int(rng.integers(m, 8 * m))))
        k, eps, delta = int(rng.integers(1, 3000)), float(rng.uniform(0.2, 8.0)), float(10 ** rng.uniform(-9, -4))
        c = calibrate_sigma(sc, steps=k, eps=eps, delta=delta)
        assert c.eps_upper <= eps and c.eps_lower <= c.eps_upper, (sc, k, eps, delta, c)
        again = account(sc, sigma=c.sigma, steps=k, delta=delta, attack=False)
        assert again.upper <= eps * (1 + 1e-9), (sc, k, eps, delta, c.sigma, again.upper)
        if c.sigma_infeasible > 0:
            worse = account(sc, sigma=c.sigma_infeasible, steps=k, delta=delta, attack=False)
            assert worse.upper > eps * (1 - 1e-3), (sc, k, eps, delta, c.sigma_infeasible, worse.upper)


def test_progress_reports_every_accountant_call():
    "Issue 26: calibrators report each call (the CLI draws a progress line on stderr from it, off with --quiet)."
    from must_nbdev import make_scheme, calibrate_sigma, calibrate_steps
    seen = []
    c = calibrate_sigma(make_scheme('wor', 10_000, m=100), steps=200, eps=2.0, delta=1e-5,
                        progress=lambda *a: seen.append(a))
    # every call, the last one included: the answer's account with its attack, which ends the progress line
    assert len(seen) == c.calls and all(knob == 'sigma' for _, knob, _, _ in seen)
    assert [a[0] for a in seen] == list(range(1, len(seen) + 1))
    assert seen[-1][2:] == (c.sigma, c.eps_upper) and c.eps_upper <= 2.0
    steps = []
    k = calibrate_steps(make_scheme('wor', 10_000, m=100), sigma=2.0, eps=1.0, delta=1e-5,
                        progress=lambda *a: steps.append(a))
    assert len(steps) == k.calls and steps[-1][1] == 'steps'


def test_schedule_of_one_phase_is_calibrate_sigma():
    "Issue 26 schedules: one phase is the plain calibration (same search, same certified run, within the tolerance)."
    from must_nbdev import make_scheme, calibrate_sigma, calibrate_schedule
    sc = make_scheme('wr', 20_000, m=100)
    one = calibrate_schedule([(sc, 400)], eps=2.0, delta=1e-5)
    ref = calibrate_sigma(sc, steps=400, eps=2.0, delta=1e-5)
    assert abs(one.sigma / ref.sigma - 1) <= 2 * one.tol and one.eps_upper <= 2.0 and one.steps == 400
    two = calibrate_schedule([(sc, 200), (make_scheme('wr', 20_000, m=200), 200)], eps=2.0, delta=1e-5)
    assert two.sigma > one.sigma          # the second phase samples at twice the rate: more noise for the same target

# --- calibrate_sigma(net=True): the triangle net below the standard answer ----------------------------------------

def test_calibrate_sigma_with_the_net_is_lower_and_still_certified(monkeypatch):
    from must_nbdev.accounting import calibrate as cal_module
    from must_nbdev.accounting.triangle_certificate import triangle_epsilon
    sc = make_scheme('wor', 10_000, m=200)
    # 200 steps of Fig S2's WOR for (1, 1e-5): the public labels need σ = 2.968, the net (tol 0.2) about 2.4% less
    target = dict(steps=200, eps=1.0, delta=1e-5)
    pub = calibrate_sigma(sc, **target, tol=0.01)
    seen, netted = [], []
    def counted(*a, **kw):
        if kw.get('net'): netted.append(kw['sigma'])
        return account(*a, **kw)
    monkeypatch.setattr(cal_module, 'account', counted)
    cal = calibrate_sigma(sc, **target, tol=0.01, net=True, net_tol=0.2, progress=lambda *a: seen.append(a))
    assert cal.sigma * 1.01 < pub.sigma and cal.sigma / cal.sigma_infeasible <= 1.01 + 1e-12
    # one numbering across both searches: the net phase continues it (it restarted at 1 before); the answer's
    # account(net=True) is the search's own, not a second one (it cost a minute more per WR calibration)
    assert [a[0] for a in seen] == list(range(1, len(seen) + 1)) and len(seen) == cal.calls
    assert len(netted) == len(set(netted)) >= 2 and cal.sigma in netted
    assert cal.result.certificate == 'triangle net' and cal.eps_lower <= cal.eps_upper <= 1.0
    fresh = account(sc, sigma=cal.sigma, steps=200, delta=1e-5, net=True, net_tol=0.2)   # the same number as a fresh call
    assert fresh.upper == cal.eps_upper and fresh.certificate == cal.result.certificate
    # at the infeasible end, neither the net nor the other certificates reach the target (independent calls)
    bad = account(sc, sigma=cal.sigma_infeasible, steps=200, delta=1e-5)
    net_bad = triangle_epsilon(sc, sigma=cal.sigma_infeasible, steps=200, delta=1e-5, h=bad.h, eps_lo=bad.lower,
                               eps_hi=bad.upper, tol=0.2).value
    assert min(bad.upper, net_bad) > 1.0

@pytest.mark.parametrize('kw,match', [(dict(scheme=make_scheme('poisson', 1000, m=10)), 'fixed-size'),
                                      (dict(relation='add_remove'), 'substitute'), (dict(net_coarsen=0), 'net_coarsen'),
                                      (dict(net_tol=-1.0), 'net_tol'), (dict(net_grid=0), 'net_grid')])
def test_calibrate_sigma_net_refuses_what_the_net_does_not_cover(kw, match):
    sc = kw.pop('scheme', make_scheme('wor', 1000, m=10))
    with pytest.raises(ValueError, match=match):
        calibrate_sigma(sc, steps=10, eps=1.0, delta=1e-5, net=True, **kw)

def test_calibrate_steps_with_the_net_finds_more_steps_each_as_account_net_certifies_them():
    "WOR at n=1000, m=50, σ=4 for (0.74, 1e-5): the fast certificates allow 39 steps, the quick net 41."
    from must_nbdev.accounting.calibrate import calibrate_steps
    from must_nbdev.accounting.net_options import QUICK_NET
    s, target = make_scheme('wor', 1000, m=50), dict(sigma=4.0, eps=0.74, delta=1e-5)
    fast = calibrate_steps(s, **target)
    tight = calibrate_steps(s, **target, net=True, **QUICK_NET.keywords())
    net = lambda k: account(s, sigma=4.0, steps=k, delta=1e-5, net=True, **QUICK_NET.keywords())
    assert tight.value > fast.value and tight.result.certificate == 'triangle net'
    assert tight.eps_upper == net(tight.value).upper <= 0.74 and tight.eps_lower == tight.result.lower
    assert tight.value < tight.value_infeasible <= max(tight.value + 1, tight.value * (1 + tight.tol))
    assert net(tight.value_infeasible).upper > 0.74
    with pytest.raises(ValueError, match='substitute'):
        calibrate_steps(make_scheme('poisson', 1000, q=0.05), **target, net=True)
    with pytest.raises(ValueError, match='net=True'):
        calibrate_steps(s, **target, net_tol=0.04)
    from _helpers import run_cli
    rc, out, err = run_cli('calibrate', '--scheme', 'wor', '--n', '1000', '--m', '50', '--sigma', '4', '--eps', '0.74',
                           '--delta', '1e-5', '--solve', 'steps', '--net', *QUICK_NET.recipe(cli=True).split(), '--quiet')
    assert rc == 0 and f'k = {tight.value} steps' in out and 'triangle net certificate' in out, (out, err)

def test_calibrate_batch_size_with_the_net_finds_a_larger_batch_each_as_account_net_certifies_it():
    "WOR at n=1000, σ=4, 40 steps for (0.74, 1e-5): the fast certificates allow batches of 49, the quick net 50."
    from must_nbdev.accounting.calibrate import calibrate_batch_size
    from must_nbdev.accounting.net_options import QUICK_NET
    target = dict(n=1000, sigma=4.0, steps=40, eps=0.74, delta=1e-5)
    fast = calibrate_batch_size('wor', **target)
    tight = calibrate_batch_size('wor', **target, net=QUICK_NET)
    net = lambda m: account(make_scheme('wor', 1000, m=m), sigma=4.0, steps=40, delta=1e-5, net=QUICK_NET)
    assert tight.value > fast.value and tight.result.certificate == 'triangle net'
    assert tight.eps_upper == net(tight.value).upper <= 0.74 < net(tight.value_infeasible).upper
    assert tight.value < tight.value_infeasible <= max(tight.value + 1, tight.value * (1 + tight.tol))
    assert tight.scheme == make_scheme('wor', 1000, m=tight.value)
    with pytest.raises(ValueError, match='substitute'):
        calibrate_batch_size('poisson', **target, net=True)
    with pytest.raises(ValueError, match="got 'quickest'"):
        calibrate_batch_size('wor', **target, net='quickest')
    from _helpers import run_cli
    rc, out, err = run_cli('calibrate', '--scheme', 'wor', '--n', '1000', '--sigma', '4', '--k', '40', '--eps', '0.74',
                           '--delta', '1e-5', '--solve', 'batch-size', '--net', 'quick', '--quiet')   # QUICK_NET
    assert rc == 0 and f'batch size = {tight.value} records' in out and 'triangle net certificate' in out, (out, err)


def test_regression_batch_size_cap_is_stage_one_sizes():
    # n = 33, b_per_m = 1.1: floor(33 / 1.1) = 29 in floating point, but m = 30 has b = ⌈1.1·30⌉ = 33 <= n
    assert calibrate_batch_size('must-ow', n=33, sigma=50.0, steps=1, eps=5.0, delta=1e-5, b_per_m=1.1).value == 30


def test_calibrate_schedule_refuses_no_phases_by_name():
    "Regression: calibrate_schedule(None) raised \"'NoneType' object is not iterable\"."
    from must_nbdev.accounting.calibrate import calibrate_schedule
    with pytest.raises(TypeError, match=r'phases must be a list of \(Scheme, steps\) pairs, got None'):
        calibrate_schedule(None, eps=1.0, delta=1e-5)
    with pytest.raises(TypeError, match='got the entry'):
        calibrate_schedule([(make_scheme('wor', 100, m=10),)], eps=1.0, delta=1e-5)
