"""The net's aimed searches (accounting/10b_tight_search): the roots they aim at, and searches that close their
bracket in few net calls while returning only values the net certified (on made-up curves: the real net's searches
are tested through the calibrators in tests/test_calibrate.py)."""
from types import SimpleNamespace
import pytest
from must_nbdev.accounting.tight_search import sigma_root, count_root, tight_sigma_search, tight_count_search
from must_nbdev.accounting.net_options import QUICK_NET

def curves(attack, fast_gap, net_eps, nets):
    "A made-up `account_at(x, net)`: the attack's ε, the fast certificates at fast_gap × it, the net's net_eps."
    def at(x, net):
        if net: nets.append(x)
        return SimpleNamespace(upper=net_eps(x) if net else fast_gap * attack(x), lower=attack(x))
    return at

def test_sigma_root_finds_where_the_net_should_meet_the_target():
    attack = lambda s: 4.0 / s ** 2                        # ε ∝ 1/σ²: the root of 1.1 · 4/σ² = 1 is √4.4
    assert sigma_root(attack, 1.0, 1.1, 0.0, 3.0, 0.005) == pytest.approx(4.4 ** 0.5, rel=0.005 / 8)
    assert sigma_root(attack, 1.0, 1.1, 0.0, 5.0, 0.005) == 2.5      # never below hi/2: a guess stays near
    steep = lambda s: 9.0 / s ** 4                          # another power: the secant still lands there
    assert sigma_root(steep, 1.0, 1.05, 1.0, 3.0, 0.005) == pytest.approx(9.45 ** 0.25, rel=0.005 / 8)
    assert sigma_root(attack, 1.0, 1.1, 0.0, 1.5, 0.005) == 1.5      # the root above the met end: the met end

def test_tight_sigma_search_closes_its_bracket_in_two_net_calls_when_the_gap_guess_holds():
    # a tight WR calibration took four net calls of a minute each: its first step after a met σ jumped to σ/1.5,
    # and the log–log secant then crept up on the root. The search now aims by the attack's curve.
    nets, net_eps = [], lambda s: 2.0 / s ** 2 * 1.045 * (s / 1.2) ** 0.05
    at = curves(lambda s: 2.0 / s ** 2, 1.15, net_eps, nets)
    fast_ok = (2 * 1.15) ** 0.5 * 1.001                      # a σ that the fast certificate meets for ε = 1
    seen = []
    sigma, bad, netted, calls = tight_sigma_search(at, 1.0, fast_ok, QUICK_NET, 0.005, lambda *a: seen.append(a), 7)
    assert net_eps(sigma) <= 1.0 < net_eps(bad)
    assert sigma <= bad * 1.005 and set(nets) == set(netted) and len(nets) == 2
    assert all(bad <= s <= fast_ok for s in nets)           # every net call inside the bracket: no jump to σ/1.5
    assert [a[0] for a in seen] == list(range(8, 8 + calls)) and {a[1] for a in seen} == {'sigma'}
    nets.clear()                                             # a guess far off (the net at 1.01×): more calls, same contract
    sigma, bad, netted, calls = tight_sigma_search(at, 1.0, fast_ok, QUICK_NET, 0.005, gap_share=0.9)
    assert sigma <= bad * 1.005 and net_eps(sigma) <= 1.0 < net_eps(bad) and len(nets) <= 4

def test_tight_sigma_search_spends_no_net_call_where_the_attack_closes_the_bracket():
    nets = []                                                # the net equals the attack: the attack's root decides
    at = curves(lambda s: 2.0 / s ** 2, 1.15, lambda s: 2.0 / s ** 2, nets)
    sigma, bad, netted, calls = tight_sigma_search(at, 1.0, 2.3 ** 0.5, QUICK_NET, 0.005, gap_share=0.0)
    assert 2.0 / sigma ** 2 <= 1.0 < 2.0 / bad ** 2 and sigma <= bad * 1.005
    assert all(s == sigma or 2.0 / s ** 2 <= 1.0 for s in nets)   # a σ the attack rules out costs no net call

def test_count_root_aims_below_four_times_the_met_end_and_below_the_missed_one():
    attack = lambda k: 0.02 * k ** 0.5                       # 1.04 × 0.02 √k = 1 at k = (1/0.0208)²
    assert count_root(attack, 1.0, 1.04, 1000, 10**6, 0.005, 2.0) == pytest.approx(0.0208 ** -2, rel=0.005 / 8)
    assert count_root(attack, 1.0, 1.04, 200, 10**6, 0.005, 2.0) == pytest.approx(800)
    assert count_root(attack, 1.0, 1.04, 1000, 1500, 0.005, 2.0) == pytest.approx(1499)
    linear = lambda m: 0.004 * m                             # the batch size: ε ∝ m, first guess power 1
    assert count_root(linear, 1.0, 1.1, 100, 10**6, 0.005, 1.0) == pytest.approx(1 / 0.0044, rel=0.005 / 8)

@pytest.mark.parametrize('power,attack', [(2.0, lambda k: 0.02 * k ** 0.5), (1.0, lambda m: 0.004 * m)])
def test_tight_count_search_returns_a_count_the_net_certified_and_one_it_misses_within_tol(power, attack):
    nets, net_eps = [], lambda x: 1.04 * attack(x) * (x / 1000) ** 0.01
    at = curves(attack, 1.15, net_eps, nets)
    x_fast = max(x for x in range(1, 10**5) if 1.15 * attack(x) <= 1.0) if power == 1.0 else int((1 / 0.023) ** 2)
    x, bad, r, calls = tight_count_search(at, 'steps', power, 1.0, x_fast, QUICK_NET, 0.005, 10**7)
    assert x > x_fast and net_eps(x) == r.upper <= 1.0 < net_eps(bad) and bad <= max(x + 1, x * 1.005)
    assert len(nets) == len(set(nets)) <= 4 and x in nets
    cap = (x + x_fast) // 2                                  # a cap below the net's root: the search ends near it
    x, bad, r, calls = tight_count_search(at, 'steps', power, 1.0, x_fast, QUICK_NET, 0.005, cap)
    assert bad is None and min(cap / 1.005, cap - 1) <= x <= cap and r.upper == net_eps(x) <= 1.0
