"""The upper DP (accounting.upper_dp): trimmed kernels move mass only up, the batched and threaded correlations are
the direct ones to the bit, labels of one pair each fold into one kernel at the same δ, and resting splits never
certify below playing every split; both stay above the best enumerated two-step attack at tiny n (tests/exact_two_step).
The net and a member's PLD are tests/test_triangles.py's."""
import math
import numpy as np
from must_nbdev.accounting.triangles import planar_upper_pld
from must_nbdev.accounting.upper_dp import NET_TRIM, fold_kernels, net_trim, upper_game_dp, upper_kernels

Q4, S4, H4 = 0.02, 4.0, 6.238e-4            # Figure S2's rate and noise, on the grid `account` picks there

def test_trimmed_kernels_move_tail_mass_up_and_keep_it():
    "A query's trim (`net_trim`) narrows the kernels; what leaves a tail goes to the cut or to +∞, never away."
    p = planar_upper_pld(np.array([[2.6, 1.3], [1.3, 3.4]]), q=Q4, sigma=S4, h=H4)
    k, total = 100, p.masses.sum() + p.inf_mass
    (K0, i0, a0, b0), (K1, i1, a1, b1) = upper_kernels((p,), k), upper_kernels((p,), k, net_trim(1e-3))
    assert net_trim(1e-3) == 1e-9 > NET_TRIM and a0 <= a1 and b1 <= b0 and b1 - a1 < b0 - a0
    for K, inf in ((K0, i0), (K1, i1)): assert math.isclose(K.sum() + inf[0], total * (1 + 1e-11), rel_tol=1e-12)
    moved = lambda K, a: np.concatenate([np.zeros(a - a0), K[0]])      # K1 on K0's support: mass only moved up
    c0, c1 = np.cumsum(K0[0]), np.cumsum(moved(K1, a1))
    assert np.all(c1 <= c0[:len(c1)] * (1 + 1e-12) + 1e-300)           # stochastically larger: an upper PLD again
    assert i1[0] - i0[0] <= 1e-9 / k * (1 + 1e-9) + 1e-18               # at most trim / k goes to +∞

def test_largest_correlation_is_the_direct_correlation_in_any_batch():
    "The DP's batched inverse FFTs give the direct correlations' largest, the same bits for every batch size."
    import must_nbdev.accounting.upper_dp as T
    from scipy import fft
    rng = np.random.default_rng(1)
    E, K, infs = rng.random(500), rng.random((9, 61)), rng.random(9) * 1e-3
    r = fft.next_fast_len(len(E), real=True); FE, S = fft.rfft(E, r), fft.rfft(K[:, ::-1], r, axis=1)
    direct = np.max([np.correlate(E, K[i], 'valid') + infs[i] for i in range(9)], axis=0)
    runs = []
    for rows in (1, 2, 4, 9, 100):                  # one row a batch .. all rows in one batch
        old, T.CORRELATION_BATCH = T.CORRELATION_BATCH, 16 * len(FE) * rows
        try: runs.append(T.largest_correlation(FE, S, infs, r, 60, 440))
        finally: T.CORRELATION_BATCH = old
    assert all(np.array_equal(runs[0], x) for x in runs[1:])
    np.testing.assert_allclose(runs[0], direct, rtol=1e-12, atol=1e-12)

def test_upper_game_dp_does_not_depend_on_the_batch():
    "The labelled game's δ is the same bits with one member a batch and with the default batch."
    import must_nbdev.accounting.upper_dp as T
    import must_nbdev.accounting.triangle_certificate as TC
    from must_nbdev.core.sampling import scheme_at
    sc, h = scheme_at('wor', 10000, 200), 4 * H4
    runs = []
    for batch in (1, T.CORRELATION_BATCH):
        old, T.CORRELATION_BATCH = T.CORRELATION_BATCH, batch
        try: runs.append(TC.triangle_delta(sc, sigma=S4, steps=20, eps=0.1, h=h, tol=0.2))
        finally: T.CORRELATION_BATCH = old
    assert runs[0].value == runs[1].value and runs[0].err_charged == runs[1].err_charged
    assert runs[0].members > 10 and 0 < runs[0].value < 1


def test_largest_correlation_shares_members_among_threads_with_the_same_bits(monkeypatch):
    "The DP's helper threads share the members out: the same largest correlations, to the bit, on 1 to 4 threads."
    from concurrent.futures import ThreadPoolExecutor
    import must_nbdev.accounting.upper_dp as T
    from scipy import fft
    rng = np.random.default_rng(3)
    E, K, infs = rng.random(700), rng.random((11, 81)), rng.random(11) * 1e-3
    r = fft.next_fast_len(len(E), real=True); FE, S = fft.rfft(E, r), fft.rfft(K[:, ::-1], r, axis=1)
    serial = T.largest_correlation(FE, S, infs, r, 80, 620)
    for threads in (1, 2, 3, 4):
        monkeypatch.setattr(T, 'worker_threads', lambda: threads)
        for rows in (1, 2, 4, 11):                   # batches of at most 1, 2, 4 and 11 rows
            monkeypatch.setattr(T, 'CORRELATION_BATCH', 16 * len(FE) * rows)
            with ThreadPoolExecutor(max(1, threads - 1)) as pool:
                assert np.array_equal(T.largest_correlation(FE, S, infs, r, 80, 620, pool), serial), (threads, rows)

def test_upper_game_dp_on_helper_threads_is_the_one_thread_bits(monkeypatch):
    "The labelled game's δ is the same bits with the correlations on one thread and on three (small batches)."
    import must_nbdev.accounting.upper_dp as T
    import must_nbdev.accounting.triangle_certificate as TC
    from must_nbdev.core.sampling import scheme_at
    sc, h, runs = scheme_at('wor', 10000, 200), 4 * H4, []
    monkeypatch.setattr(T, 'CORRELATION_BATCH', 1 << 12)    # a few members a batch: several batches a step
    for threads in (1, 3):
        monkeypatch.setattr(T, 'worker_threads', lambda: threads)
        runs.append(TC.triangle_delta(sc, sigma=S4, steps=20, eps=0.1, h=h, tol=0.2))
    assert runs[0].value == runs[1].value and runs[0].err_charged == runs[1].err_charged
    assert runs[0].members > 10 and 0 < runs[0].value < 1

def test_labels_of_one_pair_each_fold_into_one_kernel_with_the_same_delta():
    "Σ π (V ⋆ K) = V ⋆ Σ π K: the folded labels give the δ of each label played apart, up to the charged round-off."
    from must_nbdev.accounting.adaptive import attack_runs
    from must_nbdev.accounting.pairs import GaussianMixture
    from must_nbdev.accounting.pld import MAX_BINS, loss_cells, upper_pld
    from must_nbdev.core.sampling import scheme_at
    window = attack_runs(scheme_at('wor', 10000, 200), S4, 'substitute', H4, MAX_BINS)[0]
    B = GaussianMixture(np.zeros(1), np.zeros(1), S4)
    pairs = [upper_pld(loss_cells(GaussianMixture(np.log([1 - Q4, Q4]), np.array([0., 2. * l]), S4), B, H4,
                                  max_cells=4 * MAX_BINS), H4) for l in (1, 2, 3, 4)]
    weights = (0.85, 0.1, 0.04, 0.01)
    play = lambda alts: upper_game_dp(tuple((w, alts(p)) for w, p in zip(weights, pairs)), 50, 0.3, 2, H4, window,
                                      MAX_BINS)['values']
    folded, apart = play(lambda p: ((p,),)), play(lambda p: ((p,), (p,)))
    assert np.allclose(folded, apart, rtol=1e-7, atol=0) and folded[0] > 1e-6
    one = fold_kernels(tuple(zip(weights[1:], pairs[1:])), 50)
    assert one[1].shape[0] == 1 and abs(one[-1] - sum(w * (p.masses.sum() + p.inf_mass)
                                                      for w, p in zip(weights[1:], pairs[1:]))) < 1e-9

def _runs_with_split_settings(monkeypatch, play, settings):
    "play() under each (SPLIT_IDLE, SPLIT_PROBE) of `settings`: [(its result, the DP's correlation products)]."
    import must_nbdev.accounting.upper_dp as U
    calls, largest, out = [], U.largest_correlation, []
    with monkeypatch.context() as mp:
        mp.setattr(U, 'largest_correlation', lambda *a, **k: calls.append(1) or largest(*a, **k))
        for idle, probe in settings:
            mp.setattr(U, 'SPLIT_IDLE', idle); mp.setattr(U, 'SPLIT_PROBE', probe)
            calls.clear(); out.append((play(), len(calls)))
    return out

def test_resting_splits_never_certify_below_playing_every_split(monkeypatch):
    "MUST.ow plays label splits and unlabelled families: resting the ones nowhere below is above the full DP, and close."
    # At Fig S2 almost every split is below the others somewhere, so the defaults rest next to nothing (4 of 1,380
    # products in 60 steps, none in 30): equal to the full DP. Resting every split at once (SPLIT_IDLE = 0, a probe
    # every 2nd step) halves the products, the extreme resting may reach: still at or above the full DP, and close.
    import must_nbdev.accounting.upper_dp as U
    import must_nbdev.accounting.triangle_certificate as TC
    from must_nbdev.core.sampling import scheme_at
    sc, h = scheme_at('must-ow', 10000, 200, b=118), 4 * H4
    play = lambda: TC.triangle_delta(sc, sigma=S4, steps=30, eps=0.2, h=h, tol=1.0)
    play()                                                                    # the stand-in games: now cached
    (default, n_default), (full, n_full), (rested, n_rested) = _runs_with_split_settings(
        monkeypatch, play, [(U.SPLIT_IDLE, U.SPLIT_PROBE), (10**9, 1), (0, 2)])   # defaults, every split, all resting
    assert full.unlabelled_members > 0 and 0 < full.value * (1 - 1e-12) <= default.value <= full.value * (1 + 1e-3)
    assert full.value * (1 - 1e-12) <= rested.value <= 1.05 * full.value, (full.value, rested.value)   # 1.03 measured
    assert n_rested < 0.6 * n_full and n_default <= n_full, (n_rested, n_default, n_full)

def test_splits_resting_stay_above_the_best_enumerated_two_step_attack(monkeypatch):
    "Splits resting at tiny n: above the best enumerated real two-step attack, at or above every split played."
    # Two steps are too few for SPLIT_IDLE = 8 to rest anything, and at these sizes every split is below the others
    # somewhere, so none would rest anyway. SPLIT_IDLE = 0 with a probe every 2nd step rests every split at the run's
    # first step: the value there is the whole-step pairs' alone, the extreme that resting may reach.
    from must_nbdev.accounting.triangle_certificate import triangle_delta
    from must_nbdev.core.sampling import make_scheme
    from exact_two_step import best_attack
    from test_adaptive import TINY
    for name, (_, n, m, b, sigma, eps) in TINY.items():
        sc, best = make_scheme(name, n, m=m, b=b), best_attack(name, n, m, b, sigma, eps)
        play = lambda: triangle_delta(sc, sigma=sigma, steps=2, eps=eps, h=0.01, tol=1.0).value
        play()                                        # the stand-in games that rank the splits: now cached
        (full, n_full), (rested, n_rested) = _runs_with_split_settings(monkeypatch, play, [(10**9, 1), (0, 2)])
        assert best <= full * (1 + 1e-12) <= rested * (1 + 2e-12), (name, best, full, rested)
        assert 0 < n_rested < n_full, (name, n_rested, n_full)      # the splits did rest at the first step

def test_folded_labels_in_the_game_stay_above_the_best_enumerated_two_step_attack(monkeypatch):
    "Labels folded into one kernel in the certifying game at tiny n: above the best enumerated real two-step attack."
    # With its nets MUST.ow's labels are label 1's two alternatives and one light label: nothing folds. Without nets
    # (LABEL_NET_MASS above 1) its three labels are single pairs, and the two lighter ones fold into one kernel.
    import must_nbdev.accounting.upper_dp as U
    import must_nbdev.accounting.triangle_certificate as TC
    from must_nbdev.core.sampling import make_scheme
    from exact_two_step import best_attack
    from test_adaptive import TINY
    _, n, m, b, sigma, eps = TINY['must-ow']
    sc, best = make_scheme('must-ow', n, m=m, b=b), best_attack('must-ow', n, m, b, sigma, eps)
    folds, fold = [], U.fold_kernels
    monkeypatch.setattr(U, 'fold_kernels', lambda single, *a, **k: folds.append(len(single)) or fold(single, *a, **k))
    monkeypatch.setattr(TC, 'LABEL_NET_MASS', 2.0)                 # no label gets a net: every label a single pair
    TC.net_label_groups.cache_clear()
    play = lambda: TC.triangle_delta(sc, sigma=sigma, steps=2, eps=eps, h=0.01, tol=1.0).value
    try:
        play(); folds.clear()                 # the stand-in games that rank the splits fold too: now cached
        value = play()                        # the certifying game alone
    finally: TC.net_label_groups.cache_clear()
    assert folds and max(folds) >= 2, folds                         # two labels or more were folded
    assert best <= value, (best, value)

def test_the_session_s_fft_workers_setting_reaches_the_dp(monkeypatch):
    "Reproduces `compose.FFT_WORKERS` set in a session and never read by the DP (07b kept the value it imported)."
    from must_nbdev.accounting import compose, upper_dp
    from must_nbdev.core.workers import usable_cores
    monkeypatch.setattr(compose, 'FFT_WORKERS', 1)
    assert upper_dp.worker_threads() == 1
    monkeypatch.setattr(compose, 'FFT_WORKERS', 3)
    assert upper_dp.worker_threads() == 3
    monkeypatch.setattr(compose, 'FFT_WORKERS', -1)
    assert upper_dp.worker_threads() == usable_cores()


def _plain_recursion(p, k, e0, span, h, window):
    "The upper DP's recursion for one member, every output correlated directly (no FFT, no shortcut)."
    from must_nbdev.accounting.adaptive import dp_plan
    P = dp_plan(window, k, e0, span, h); lo, hi = P['lo'], P['hi']
    K, infs, a, b = upper_kernels((p,), k)
    V = np.minimum(np.maximum(-np.expm1(e0 - np.arange(lo[k], hi[k] + 1) * h), 0), 1)
    for t in range(k - 1, -1, -1):
        idx = np.arange(lo[t] + a, hi[t] + b + 1)
        E = np.where(idx > hi[t + 1], 1.0, V[np.clip(idx - lo[t + 1], 0, len(V) - 1)])
        V = np.minimum(np.correlate(E, K[0], 'valid') + infs[0], 1.0)
    return V[-np.arange(span + 1) - lo[0]]

def test_outputs_that_read_only_one_are_one_and_the_rest_are_the_plain_recursion():
    "Where most outputs read only V = 1, the DP skips them; every value read is the plain recursion's plus its charge."
    from must_nbdev.accounting.adaptive import attack_runs
    from must_nbdev.accounting.pairs import GaussianMixture
    from must_nbdev.accounting.pld import MAX_BINS, loss_cells, upper_pld
    from must_nbdev.core.sampling import make_scheme
    q, sigma, h, k = 0.1, 1.0, 2e-3, 10
    A = GaussianMixture(np.log([1 - q, q]), np.array([0., 2.]), sigma)
    B = GaussianMixture(np.zeros(1), np.zeros(1), sigma)
    p = upper_pld(loss_cells(A, B, h, max_cells=4 * MAX_BINS), h)
    window = attack_runs(make_scheme('wor', 100, m=10), sigma, 'substitute', h, MAX_BINS)[0]
    for eps in (-20.0, -10.0, 0.0, 1.0):
        out = upper_game_dp(((1.0, ((p,),)),), k, eps, 200, h, window, MAX_BINS)
        gap = out['values'] - _plain_recursion(p, k, eps, 200, h, window)
        assert out['computed'] < 0.97                     # the shortcut is exercised ...
        assert np.all(gap >= 0) and np.all(gap <= out['err'] + 1e-12)   # ... and changes no value beyond the charge

def test_a_dp_whose_outputs_all_read_below_one_correlates_every_output():
    "Figure S2's window never reaches the states where the run is lost for sure: every output is correlated."
    p = planar_upper_pld(np.array([[2.6, 1.3], [1.3, 3.4]]), q=Q4, sigma=S4, h=H4)
    from must_nbdev.accounting.adaptive import attack_runs
    from must_nbdev.accounting.pld import MAX_BINS
    from must_nbdev.core.sampling import make_scheme
    window = attack_runs(make_scheme('wor', 10_000, m=200), S4, 'substitute', H4, MAX_BINS)[0]
    out = upper_game_dp(((1.0, ((p,),)),), 50, 0.5, 0, H4, window, MAX_BINS)
    assert out['computed'] == 1.0 and 0 < out['values'][0] < 1
