"""`must_nbdev.accounting.net_blocks`: the triangle net's run certificate cut into blocks. At tiny n two steps as two
one-step blocks stay above the best enumerated two-step attack (tests/exact_two_step); one block is the full DP, bit for
bit; the blocks' ε(δ) and δ(ε) agree with each other and sit between the attack and the public-label certificate; every
door reports the blocked run's own number; the old import path still serves `triangle_bound`."""
import math
import warnings
from dataclasses import replace
import numpy as np
import pytest
from must_nbdev.core.sampling import make_scheme, scheme_at
from must_nbdev.accounting.accountant import PrivacyAccountant
from must_nbdev.accounting.certificates import step_certificates
from must_nbdev.accounting.account import account
from must_nbdev.accounting.adaptive import adaptive_delta
from must_nbdev.accounting.net_options import TightOptions
from must_nbdev.accounting.triangle_certificate import triangle_delta, triangle_epsilon
from must_nbdev.accounting.net_blocks import block_bound, block_plan, block_range, triangle_bound
from test_tiny_n_theory_gaps import CASES, _lower

WOR = make_scheme('wor', 10_000, m=200)
S4, H4 = 4.0, 6.238e-4
COARSE = TightOptions(tol=0.2, levels=1)


@pytest.mark.parametrize('steps', [1, 2, 3, 7, 100, 2350, 2351])
@pytest.mark.parametrize('blocks', [1, 2, 3, 10, 99, 5000])
def test_block_plan_covers_the_run_with_at_most_the_blocks_asked(steps, blocks):
    s, b = block_plan(steps, blocks)
    assert 1 <= b <= min(blocks, steps) and b * s >= steps > (b - 1) * s   # no empty block, padding < one block
    assert s == math.ceil(steps / blocks)


@pytest.mark.parametrize('name,n,m,b,sigma,eps', [c for c in CASES if c[4] == 1.0])
def test_two_one_step_blocks_stay_above_the_best_enumerated_two_step_attack(name, n, m, b, sigma, eps):
    "Soundness at tiny n: the one-step profile's pair composed twice against every enumerated two-step attack."
    sc = make_scheme(name, n, m=m, b=b)
    blocked = triangle_bound(sc, sigma=sigma, steps=2, h=0.02, eps=eps, options=replace(COARSE, blocks=2))
    low = _lower(name, n, m, b, sigma, eps).value
    assert low <= blocked, ('SOUNDNESS: a real two-step attack beats the blocks', low, blocked)
    assert blocked < 1.07 * low, (blocked, low)                     # measured 1.025-1.056 (claim 18)


def test_one_block_is_the_full_dp_bit_for_bit():
    o = replace(COARSE, blocks=1)
    assert triangle_bound(WOR, sigma=S4, steps=20, h=H4, eps=0.3, options=o) == \
        triangle_delta(WOR, sigma=S4, steps=20, h=H4, eps=0.3, tol=0.2, levels=1).value
    assert triangle_bound(WOR, sigma=S4, steps=20, h=H4, delta=1e-6, bracket=(0.1, 1.0), options=o) == \
        triangle_epsilon(WOR, sigma=S4, steps=20, h=H4, delta=1e-6, eps_lo=0.1, eps_hi=1.0, tol=0.2, levels=1).value
    # a run of one step is one block, however many are allowed
    assert triangle_bound(WOR, sigma=S4, steps=1, h=H4, eps=0.3, options=replace(COARSE, blocks=8)) == \
        triangle_delta(WOR, sigma=S4, steps=1, h=H4, eps=0.3, tol=0.2, levels=1).value


def test_blocks_sit_between_the_attack_and_the_public_labels_and_agree_both_ways():
    k, eps = 60, 0.4
    attack = adaptive_delta(WOR, sigma=S4, steps=k, eps=eps, h=H4).value
    public = account(WOR, sigma=S4, steps=k, eps=eps, h=H4, attack=False).upper
    full = triangle_delta(WOR, sigma=S4, steps=k, eps=eps, h=H4, tol=0.2, levels=1).value
    d = block_bound(WOR, sigma=S4, steps=k, h=H4, options=replace(COARSE, blocks=3), eps=eps)
    assert d.blocks == 3 and attack <= full and attack <= d.value <= public, (attack, full, d.value, public)
    # not ordered against the full DP: the blocks lose the adaptive state across blocks, the DP pays its window and
    # round-off charges at every step (here the blocks come out 3% below it); both are certified
    assert 0.5 * full < d.value < 2 * full, (d.value, full)
    # the ε(δ) query at the blocks' own δ(ε) certifies about eps: the two queries read their profiles to ranges of
    # their own (`block_read_to`) and invert the composed curve with their own charges, so within 0.1% (measured 4e-4)
    e = block_bound(WOR, sigma=S4, steps=k, h=H4, options=replace(COARSE, blocks=3), delta=d.value)
    assert e.blocks == 3 and eps * 0.999 <= e.value <= eps * 1.001, (e.value, eps)


def test_rank_and_read_range_come_from_the_best_step_certificate_and_are_finite():
    rank, to, share = block_range(WOR, S4, 20, 5, 4 * H4, 1 << 16, delta=1e-5)
    assert 0 < rank < to < 50 and share == 1e-5 / 5     # the read range reaches a smaller δ: a larger ε
    rank, to, share = block_range(WOR, S4, 20, 5, 4 * H4, 1 << 16, eps=0.5)
    assert 0 < rank < to < 50 and 0 < share < 1
    # MUST.ow: the partially unlabelled certificate, far below the public labels over a block, sets both
    sc, h, s, b = scheme_at('must-ow', 60_000, 256, b=6000), 0.00193, 470, 5
    rank, to, share = block_range(sc, 2.62, s, b, h, 1 << 20, delta=1e-5)
    one = lambda name, d: PrivacyAccountant([(step_certificates(sc, 2.62, 'substitute', h, 1 << 20)[name], s)],
                                            1 << 20, 'double').epsilon(d).upper
    assert rank == one('partially unlabelled', 2e-6) < 0.2 * one('public labels', 2e-6)   # measured 0.43 and 2.94
    assert to == one('partially unlabelled', 2e-8) < 0.2 * one('public labels', 2e-8)     # 0.73 and 7.05


def test_blocks_rank_the_splits_where_block_range_says_unless_told(monkeypatch):
    "The stand-in games rank at `block_range`'s block ε; `rank_eps` (the run's ε) ranks at rank_eps / b instead."
    import must_nbdev.accounting.net_blocks as nb
    seen, real = [], nb.net_dp
    monkeypatch.setattr(nb, 'net_dp', lambda *a, **k: seen.append(a[12]) or real(*a, **k))
    o = replace(COARSE, blocks=4)
    triangle_bound(WOR, sigma=S4, steps=40, h=H4, delta=1e-5, bracket=(0.3, 0.9), options=o)
    block_bound(WOR, sigma=S4, steps=40, h=H4, delta=1e-5, rank_eps=0.6, options=o)
    assert seen == [(10, block_range(WOR, S4, 10, 4, H4, nb.MAX_BINS, delta=1e-5)[0]), (10, 0.6 / 4)]
    with pytest.raises(ValueError, match='rank_eps must be'):
        block_bound(WOR, sigma=S4, steps=40, h=H4, delta=1e-5, rank_eps=-1.0, options=o)


def test_every_door_reports_the_blocked_runs_number():
    "account(net=...) with blocks answers with exactly what the run certificate gives for those options."
    sc = make_scheme('wor', 10_000, m=200)
    o = replace(COARSE, blocks=4)
    r = account(sc, sigma=S4, steps=40, delta=1e-5, net=o)
    direct = triangle_bound(sc, sigma=S4, steps=40, h=r.h, delta=1e-5, bracket=(r.lower, r.certificates['public labels']),
                            options=o)
    assert r.certificates['triangle net'] == direct
    r2 = account(sc, sigma=S4, steps=40, delta=1e-5, net=True, net_tol=0.2, net_levels=1, net_blocks=4)
    assert r2.certificates['triangle net'] == direct
    with pytest.raises(ValueError, match='net_blocks must be an integer >= 1'):
        account(sc, sigma=S4, steps=40, delta=1e-5, net=True, net_blocks=0)
    with pytest.raises(ValueError, match='net was not asked for'):
        account(sc, sigma=S4, steps=40, delta=1e-5, net_blocks=4)


def test_the_old_import_path_still_serves_triangle_bound_with_a_warning():
    import must_nbdev.accounting.triangle_certificate as old
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter('always')
        assert old.triangle_bound is triangle_bound
    assert any('moved to must_nbdev.accounting.net_blocks' in str(w.message) for w in seen)
    with pytest.raises(AttributeError, match='no attribute'):
        old.no_such_name


# ---------------------------------------------------------------- the floor: where the net cannot pay
from must_nbdev.accounting.certificates import CERTIFICATES, FLOOR_GAP, FLOOR_ROOM
from must_nbdev.accounting.net_blocks import net_floor
from must_nbdev.accounting.net_options import QUICK_NET

@pytest.mark.parametrize('name,n,m,b,sigma,steps,eps', [
    ('wor', 10_000, 200, None, 4.0, 20, 0.5), ('wr', 10_000, 200, None, 4.0, 20, 0.5),
    ('must-ow', 10_000, 200, 1000, 4.0, 20, 0.5)])
def test_the_floor_is_at_or_below_the_net_it_stands_for(name, n, m, b, sigma, steps, eps):
    "Each member dominates the displacing pair of its cell: the net's game is at or above its floor."
    sc = make_scheme(name, n, m=m, **({} if b is None else dict(b=b)))
    h = account(sc, sigma=sigma, steps=steps, eps=eps, attack=False).h
    for o in (TightOptions(tol=0.2, grid=2), TightOptions(tol=0.2, grid=2, blocks=4)):
        net = triangle_bound(sc, sigma=sigma, steps=steps, h=h, eps=eps, options=o)
        assert net_floor(sc, sigma=sigma, steps=steps, h=h, eps=eps, options=o) <= net * (1 + 1e-9)

def test_regression_a_tiny_n_net_query_is_answered_without_the_net_its_floor_says_cannot_pay():
    "Two steps of WR at n = 3 played the quick net for a minute for no gain: the floor skips it."
    sc, o = make_scheme('wr', 3, m=2), replace(QUICK_NET, blocks=5)
    fast = account(sc, sigma=1.0, steps=2, eps=0.5)
    r = account(sc, sigma=1.0, steps=2, eps=0.5, net=o)
    assert r.upper == fast.upper and r.certificate == fast.certificate and r.certificates == fast.certificates
    assert set(r.skipped) == {'triangle net'} and 'floor' in r.skipped['triangle net']
    assert r.to_dict()['skipped'] == r.skipped and 'triangle net not played' in repr(r)
    floor = CERTIFICATES['triangle net'].floor(sc, sigma=1.0, steps=2, h=r.h, eps=0.5, options=o)
    assert 1 - floor / fast.upper < FLOOR_ROOM and fast.upper <= FLOOR_GAP * fast.lower
    assert fast.skipped is None and fast.to_dict()['skipped'] == {}

def test_the_net_is_played_where_its_floor_leaves_room():
    "Figure S2's WOR, 100 steps: the fast answer is far above the attack, so no floor is asked and the net answers."
    sc = make_scheme('wor', 10_000, m=200)
    r = account(sc, sigma=4.0, steps=100, eps=0.5, net=TightOptions(tol=0.2, grid=2, blocks=4))
    assert r.skipped is None and r.certificate == 'triangle net' and r.upper < r.certificates['public labels']

def test_the_floor_of_an_epsilon_query_is_at_or_below_the_net_in_one_block_and_in_blocks():
    sc = make_scheme('wor', 10_000, m=200)
    r = account(sc, sigma=4.0, steps=20, delta=1e-5)
    ask = dict(sigma=4.0, steps=20, h=r.h, delta=1e-5, bracket=(r.lower, r.upper))
    for o in (TightOptions(tol=0.2, grid=2), TightOptions(tol=0.2, grid=2, blocks=4)):
        assert net_floor(sc, **ask, options=o) <= triangle_bound(sc, **ask, options=o) * (1 + 1e-9)
    with pytest.raises(ValueError, match='bracket'):
        net_floor(sc, sigma=4.0, steps=20, h=r.h, delta=1e-5, options=TightOptions(tol=0.2))

def test_no_floor_is_offered_for_a_long_block():
    "At the DP-SGD size a floor costs about the net's DP and skips nothing: none is offered past FLOOR_STEPS a block."
    from must_nbdev.accounting.net_blocks import FLOOR_STEPS
    sc = make_scheme('wor', 10_000, m=200)
    ask = dict(sigma=4.0, h=1e-3, eps=0.5)
    assert net_floor(sc, steps=FLOOR_STEPS + 1, **ask, options=TightOptions(tol=0.2)) is None
    assert net_floor(sc, steps=5 * FLOOR_STEPS + 1, **ask, options=TightOptions(tol=0.2, blocks=5)) is None
    assert CERTIFICATES['triangle net'].floor(sc, steps=FLOOR_STEPS + 1, **ask, options=TightOptions()) is None
    with pytest.raises(ValueError, match='sigma'):                   # the query is checked all the same
        net_floor(sc, steps=FLOOR_STEPS + 1, sigma=-1.0, h=1e-3, eps=0.5)

def test_the_net_grid_above_one_is_a_grid_that_does_not_fit():
    "net_grid·h > 1 raises GridTooLarge (a ValueError) naming net_grid, at the run bound and at its floor alike."
    from must_nbdev.accounting.pld import GridTooLarge
    from must_nbdev.accounting.net_blocks import net_floor, net_step
    sc, o = make_scheme('wor', 200, m=10), TightOptions(grid=4)
    assert net_step(0.25, o) == 1.0
    for door in (triangle_bound, net_floor):
        with pytest.raises(GridTooLarge, match=r'net_grid=4 puts the net on the loss grid 1.2 > 1') as e:
            door(sc, sigma=1.0, steps=2, h=0.3, eps=1.0, options=o)
        assert e.value.factor == math.inf and 'raise max_bins' in str(e.value)

def test_the_run_bound_and_its_floor_name_h_before_the_net_grid():
    "h=2 is an h out of range, named as such, before net_grid·h is looked at."
    from must_nbdev.accounting.net_blocks import net_floor
    sc = make_scheme('wor', 200, m=10)
    for door in (triangle_bound, net_floor):
        with pytest.raises(ValueError, match=r'h must be finite and in \(0, 1\], got 2.0'):
            door(sc, sigma=1.0, steps=2, h=2.0, eps=1.0)
