"""`must_nbdev.accounting.compose`: FFT composition against direct convolution (randomized response, whose k-fold
composition is a binomial), float64 bounds against 80-bit ones, the local ε(δ) solve against a scan of every grid
interval, and the regression of a composition without positive losses."""
import math
import numpy as np
import pytest
from scipy import stats
from must_nbdev.accounting.accountant import PrivacyAccountant
from must_nbdev.accounting.account import account
from must_nbdev.accounting.compose import compose_plds, PRECISIONS, PLD_SLACK
from must_nbdev.accounting.dominating import scheme_gaussian_pld
from must_nbdev.accounting.pld import DiscretePLD
from must_nbdev.core.sampling import make_scheme


def rr_pld(eps0, h):
    "PLD of randomized response RR_ε0 (ε0 a multiple of h): loss +ε0 with P-mass e^ε0/(1+e^ε0), −ε0 with the rest."
    j = int(round(eps0 / h)); p = math.exp(eps0) / (1 + math.exp(eps0))
    masses = np.zeros(2 * j + 1); masses[0], masses[-1] = 1 - p, p
    return DiscretePLD(h, -j, masses), p


def rr_composed_delta(eps0, p, k, eps, inf_mass=0.0):
    "δ(ε) of k-fold RR_ε0 from its binomial: the loss is (2i − k)ε0 with probability Binom(k, p)(i); plus P(some +∞)."
    i = np.arange(k + 1); s = (2 * i - k) * eps0; w = stats.binom.pmf(i, k, p) * (1 - inf_mass) ** k
    return float(np.sum(w[s > eps] * -np.expm1(eps - s[s > eps]))) + 1 - (1 - inf_mass) ** k


@pytest.mark.parametrize('precision', PRECISIONS)
@pytest.mark.parametrize('eps0,k', [(0.5, 30), (0.1, 200), (1.0, 5)])
def test_composition_of_randomized_response_matches_the_binomial(eps0, k, precision):
    pld, p = rr_pld(eps0, 0.01)
    comp = compose_plds([(pld, k)], precision=precision)
    for eps in (0.0, 0.5, 1.0, 2.0, 4.0):
        lo, up = comp.delta_bounds(eps)
        exact = rr_composed_delta(eps0, p, k, eps)
        assert lo <= exact * (1 + 1e-9) + 1e-15 and exact <= up * (1 + 1e-9) + 1e-15, (eps, lo, exact, up)
        assert up - lo <= 1e-6 * max(exact, 1e-9)          # losses on the grid: only truncation and round-off remain


def test_composition_of_two_parts_and_an_infinite_loss():
    (a, pa), h = rr_pld(0.3, 0.01), 0.01
    b = DiscretePLD(h, a.j0, a.masses * (1 - 1e-6), 1e-6)     # the same RR, but with loss +∞ w.p. 1e-6
    comp = compose_plds([(a, 10), (b, 20)])
    # the exact law: 30 RR steps, and +∞ unless none of the 20 b-steps hits it
    for eps in (0.0, 1.0, 3.0):
        i = np.arange(31); s = (2 * i - 30) * 0.3; w = stats.binom.pmf(i, 30, pa) * (1 - 1e-6) ** 20
        exact = float(np.sum(w[s > eps] * -np.expm1(eps - s[s > eps]))) + 1 - (1 - 1e-6) ** 20
        lo, up = comp.delta_bounds(eps)
        assert lo <= exact * (1 + 1e-9) and exact <= up * (1 + 1e-9)


@pytest.mark.parametrize('name,kw,sigma,k,rel', [('poisson', dict(n=10**7, q=1e-3), 0.8, 10**5, 'add_remove'),
                                                 ('wor', dict(n=1000, m=20), 1.0, 300, 'substitute'),
                                                 ('must-ow', dict(n=1000, m=10, b=30), 1.5, 50, 'add_remove')])
def test_float64_and_80bit_brackets_overlap(name, kw, sigma, k, rel):
    mech = scheme_gaussian_pld(make_scheme(name, **kw), sigma, rel, 5e-4)
    for pld in mech.upper + mech.lower:
        a, b = (compose_plds([(pld, k)], precision=p) for p in PRECISIONS)
        for eps in (0.0, 0.5, 2.0):
            (l64, u64), (l80, u80) = a.delta_bounds(eps), b.delta_bounds(eps)
            assert l64 <= u80 * (1 + 1e-12) and l80 <= u64 * (1 + 1e-12), (eps, (l64, u64), (l80, u80))
            assert l64 <= l80 + 1e-15 and u64 >= u80 - 1e-15      # float64 charges more round-off, never less


@pytest.mark.parametrize('k', [1, 30, 1000])
def test_local_eps_solve_matches_a_scan_of_every_interval(k):
    mech = scheme_gaussian_pld(make_scheme('wr', 1000, m=20), 1.0, 'substitute', 2e-3)
    acc = PrivacyAccountant([(mech, k)])
    for c in acc.upper + acc.lower:
        every = np.arange(len(c._curve()[0]) + 1)
        for delta in (1e-10, 1e-6, 1e-3, 0.3):
            lo, up = c.eps_bounds(delta)
            lo_all, up_all = c._eps_solve(every, delta, False), c._eps_solve(every, delta, True)
            assert up == (math.inf if up_all is None else up_all)   # the first certified ε of the scan
            assert lo >= (0.0 if lo_all is None else lo_all) * (1 - 1e-12) or lo == 0.0
            assert lo <= up


def test_regression_eps_query_on_a_composition_without_positive_losses():
    "Regression: a coarse attack composition with no positive grid loss crashed ComposedPLD._eps_solve (IndexError)."
    for q in (dict(eps=1.0), dict(delta=1e-5)):
        r = account(make_scheme('wor', 60_000, m=256), sigma=1.0, steps=2000, max_bins=4096, **q)
        lo, up = r['bound_interval']
        assert 0 <= r['attack_interval'][0] <= up and lo <= up
        if not r['certified_accuracy']: assert 'max_bins=4096' in r['reason']


@pytest.mark.parametrize("seed", range(4))
def test_window_search_finds_the_full_grid_minimum(seed):
    "The Chernoff window from 16 of the 40 λs per side equals the one from all 40 (the objective is quasi-convex in λ)."
    from must_nbdev.accounting.compose import _window
    from must_nbdev.accounting.moments import MGF_LAMBDAS, LazyLogMGF, log_mgf
    rng = np.random.default_rng(seed)
    plds = [p for name, b in (('must-ww', 600), ('wor', None), ('poisson', None))
            for p in scheme_gaussian_pld(make_scheme(name, 6000, m=64, b=b), float(rng.uniform(0.6, 3)), 'substitute'
                                         if name != 'poisson' else 'add_remove', 5e-3).upper]
    for _ in range(6):
        ks = rng.integers(1, 3000, len(plds))
        parts = [(p, int(k)) for p, k in zip(plds, ks) if rng.random() < 0.7] or [(plds[0], 1)]
        tau = float(10.0 ** rng.uniform(-16, -6))
        up = sum(k * log_mgf(p, MGF_LAMBDAS) for p, k in parts)
        down = sum(k * log_mgf(p, -MGF_LAMBDAS) for p, k in parts)
        full = (math.floor(np.max((math.log(tau) - down) / MGF_LAMBDAS) / parts[0][0].h),
                math.ceil(np.min((up - math.log(tau)) / MGF_LAMBDAS) / parts[0][0].h))
        assert _window(parts, {id(p): LazyLogMGF(p) for p, _ in parts}, tau) == full


@pytest.mark.parametrize('k', [2, 3, 7, 99, 100, 1000, 2350, 10**6 + 3])
def test_binary_powering_stays_within_its_charge(k):
    """`_power` against 60-digit powers: within its charge (1 + 3u)^(k−1) − 1 (regression: at k = 99 near z = 1 the old
    charge u(8 + 4 log2 k + 3k|Log z|) was exceeded 2x by numpy's **, which squares repeatedly below 100)."""
    mpmath = pytest.importorskip('mpmath')
    from must_nbdev.accounting.compose import _MUL_ERR, _power
    rng = np.random.default_rng(k)
    # near 1: there numpy's squaring (k < 100) exceeded the old charge
    z = np.r_[np.exp(1j * rng.uniform(-1e-3, 1e-3, 500)),
              np.exp(-rng.uniform(0, 100 / k, 40)) * np.exp(1j * rng.uniform(-math.pi, math.pi, 40))]
    u = np.finfo(float).eps / 2
    charge = math.expm1((k - 1) * _MUL_ERR * u)
    got, ref = _power(z, k), z ** k
    mpmath.mp.dps = 60
    exact = np.array([complex(mpmath.mpc(float(w.real), float(w.imag)) ** k) for w in z])
    err = np.abs(got - exact) / np.abs(exact)
    assert np.all(err <= charge), err.max() / charge
    np.testing.assert_allclose(got, ref, rtol=10 * charge, atol=1e-300)

def test_regression_fuzz_must_ow_n2_composed_finite_mass_below_tau_is_not_a_crash():
    # MUST.ow with n = 2, b = 1, m = 11: half of a step's P-mass is at +∞, so after 51 steps the finite mass is 2^-51,
    # below τ = 1e-15; account(...) must still answer (δ = 1 - 2^-51 up to τ), not raise. Found 2026-11-27 by
    # test_fuzz_account_valid_inputs: the Chernoff window came out inverted and log2 of its width raised
    half = DiscretePLD(h=0.01, j0=10, masses=np.array([0.5]), inf_mass=0.5)
    lo, hi = compose_plds([(half, 51)]).delta_bounds(0.5)
    # as tight as the construction's relative slack allows (clamping the window alone gave [0, 1])
    assert lo <= 1 - 0.5 ** 51 <= hi and hi - lo < 2.5 * PLD_SLACK, (lo, hi)
    r = account(make_scheme('must-ow', 2, m=11, b=1), sigma=0.5, steps=51, eps=5.0)
    assert 0 <= r.lower <= r.upper <= 1

@pytest.mark.parametrize('k', [1, 3, 20])
def test_lower_bound_counts_the_mass_at_infinity(k):
    # a step with loss 0.1 w.p. 0.7 and +∞ w.p. 0.3: at ε = 2 > 0.1 k every finite total is below ε, so δ(ε) is exactly
    # the mass at +∞, 1 - 0.7^k; the lower bound used to leave it out (0 here), which was valid but useless
    pld = DiscretePLD(h=0.01, j0=10, masses=np.array([0.7]), inf_mass=0.3)
    lo, hi = compose_plds([(pld, k)]).delta_bounds(2.0 + 0.1 * k)
    exact = -math.expm1(k * math.log(0.7))
    assert lo <= exact <= hi and hi - lo < 3 * PLD_SLACK + 2e-15, (lo, exact, hi)


def _rr_exact_mp(eps0, p, k, eps, inf_mass=0.0):
    "The binomial δ(ε) of k-fold RR_ε0 (with loss +∞ w.p. `inf_mass` per step) at 50 digits."
    from mpmath import mp, mpf, binomial, exp
    mp.dps = 50
    fin, tot = (1 - mpf(inf_mass)) ** k, mpf(0)
    for i in range(k + 1):
        s = (2 * i - k) * mpf(eps0)
        if s > eps: tot += binomial(k, i) * mpf(p) ** i * (1 - mpf(p)) ** (k - i) * (1 - exp(mpf(eps) - s))
    return tot * fin + 1 - fin


@pytest.mark.parametrize('eps0,k,inf_mass,deep', [(0.1, 200, 0.0, 3), (0.5, 30, 0.0, 0), (0.3, 60, 1e-9, 0)])
def test_moments_bound_holds_exactly_from_the_bulk_to_the_deepest_tail(eps0, k, inf_mass, deep):
    "The moments' δ and ε bounds against the exact binomial at 50 digits, with no tolerance, at δ from 1e-2 to 1e-40."
    pld, p = rr_pld(eps0, 0.01)
    pld = DiscretePLD(pld.h, pld.j0, pld.masses * (1 - inf_mass), inf_mass)
    comp = compose_plds([(pld, k)])
    checked = 0
    for eps in np.linspace(0.0, k * eps0, 41):
        exact = _rr_exact_mp(eps0, p, k, eps, inf_mass)
        bound, charged = comp.chernoff_delta(float(eps))
        assert exact <= bound and 0 <= charged <= bound, (eps, exact, bound)
        lo, up = comp.delta_bounds(float(eps))
        assert lo <= exact <= up, (eps, lo, exact, up)                  # the certified bracket, padding left out
        checked += exact < 1e-20
    assert checked >= deep                                               # the deep tail was reached
    for d in (1e-3, 1e-9, 1e-16, 1e-30):
        e_up = comp.chernoff_eps(d)
        if d <= inf_mass * (1 + 1e-9): assert e_up == math.inf; continue
        assert math.isfinite(e_up) and _rr_exact_mp(eps0, p, k, e_up, inf_mass) <= d


def test_regression_padding_past_the_window_is_neither_summed_nor_charged():
    "The FFT's padding up to a power of two held only charged mass, yet its bins entered the sum and the √N charge."
    sc = make_scheme('wr', 100_000, m=15)
    acc = PrivacyAccountant(); acc.step(sc, sigma=4.0, steps=797)
    acc.delta(0.3)
    for c in acc.upper:
        s = c._curve()[0]
        assert s.max() <= (c.J.min() + c.width - 1) * c.h * (1 + 1e-12) and c.width < len(c.J)


def test_moments_answer_only_where_the_fft_is_mostly_charges():
    "At δ ≈ 1e-5 the FFT answers (the moments are looser there); deep in the tail the moments do."
    up = scheme_gaussian_pld(make_scheme('wor', 1, m=1), 5.0, 'add_remove', 1e-3).upper[0]
    comp = compose_plds([(up, 100)])
    computed, charged = comp._computed(10.0)
    assert comp.delta_bounds(10.0)[1] == computed + charged < comp.chernoff_delta(10.0)[0]
    assert comp.delta_bounds(24.0)[1] == comp.chernoff_delta(24.0)[0] < sum(comp._computed(24.0)) / 5

def test_regression_fuzz_poisson_delta_near_1_is_never_above_1():
    # Poisson at rate 29/38, σ = 0.75, 247 steps, δ(ε = 5): the masses above ε summed to 1 + 2.4e-15 (Hypothesis)
    r = account(make_scheme('poisson', 38, m=29), sigma=0.75, steps=247, eps=5.0)
    assert 0.99999 < r.lower <= r.upper <= 1.0 and 0 <= r.delta_floor <= r.upper


class _PerturbedFFT:
    "A scipy.fft backend that errs by a relative 1e-6, as a single-precision or foreign FFT might."
    __ua_domain__ = 'numpy.scipy.fft'
    @staticmethod
    def __ua_function__(method, args, kwargs):
        import scipy.fft
        with scipy.fft.set_backend('scipy', only=True): return method(*args, **kwargs) * (1 + 1e-6)


def test_regression_a_session_fft_backend_never_reaches_a_certificate():
    "A backend set for the whole session (`set_global_backend`), even with scipy's own skipped, changes no bit of a certificate: composition, the net's threaded correlations, the lattice's power."
    import scipy.fft
    from must_nbdev.accounting.lattice import lattice_sums
    from must_nbdev.accounting.upper_dp import largest_correlation, correlation_pool
    rng = np.random.default_rng(7)
    p = rng.random(300); p /= p.sum()
    FE, S = scipy.fft.rfft(rng.random(1 << 17)), scipy.fft.rfft(rng.random((8, 1 << 17)), axis=1)
    def computed():
        with correlation_pool() as pool:   # threads: the backend must be pinned in each of them
            best = largest_correlation(FE, S, np.zeros(8), 1 << 17, 99, 1000, pool)
        r = account(make_scheme('wor', 1000, m=10), sigma=1.0, steps=50, delta=1e-5)
        return best, (r.upper, r.lower), lattice_sums(p, 40, 4096, 'drop', bound='interval')
    honest = computed()
    scipy.fft.set_global_backend(_PerturbedFFT)
    try:
        assert abs(scipy.fft.rfft(p)[0] - p.sum()) > 1e-7        # the session's transforms are the perturbed ones
        perturbed = [computed()]
        with scipy.fft.skip_backend('scipy'): perturbed.append(computed())   # and a caller skipping scipy's own
    finally: scipy.fft.set_global_backend('scipy')
    for run in perturbed:
        np.testing.assert_array_equal(run[0], honest[0])
        assert run[1] == honest[1]
        for (law, err), (law0, err0) in zip(run[2], honest[2]):
            np.testing.assert_array_equal(law, law0); assert err == err0


def test_pocketfft_falls_back_to_scipys_own_backend_with_the_same_bits(monkeypatch):
    "On a scipy without its pocketfft module, `PocketFFT` runs scipy.fft under set_backend('scipy', only=True): the same bits, and a session's backend still does not reach it."
    import scipy.fft
    from must_nbdev.accounting.compose import PocketFFT
    x = np.random.default_rng(5).random((3, 700))
    direct = PocketFFT()
    assert direct.pocketfft()
    spec, back = direct.rfft(x, 1000, axis=1), direct.irfft(direct.rfft(x, 1000, axis=1), 1000, axis=1)
    fallback = PocketFFT(); monkeypatch.setattr(fallback, 'own', False)     # as if the module were missing
    scipy.fft.set_global_backend(_PerturbedFFT)
    try:
        np.testing.assert_array_equal(fallback.rfft(x, 1000, axis=1), spec)
        np.testing.assert_array_equal(fallback.irfft(spec, 1000, axis=1), back)
    finally: scipy.fft.set_global_backend('scipy')


def test_one_step_is_the_pld_itself_with_no_fft_floor():
    "One step of one PLD is read whole from its masses: the PLD's own δ(ε) within the sums' rounding, below the FFT's."
    mech = scheme_gaussian_pld(make_scheme('poisson', 60_000, m=256), 1.1, 'add_remove', h=1e-3)
    identity = DiscretePLD(1e-3, 0, np.ones(1))                 # a point mass at loss 0: the FFT path, same law
    for up, lo in zip(mech.upper, mech.lower):
        one, one_lo, via_fft = (compose_plds(parts) for parts in ([(up, 1)], [(lo, 1)], [(up, 1), (identity, 1)]))
        assert one.fp_l2 == one.tail == 0 and np.array_equal(one.u, up.masses)
        for e in (0.0, 0.01, 0.05, 0.2):
            b = one.delta_bounds(e)[1]
            # the sums' rounding: about N u of the mass summed (2,452 bins here), not of δ
            assert up.delta(e) <= b <= up.delta(e) * (1 + 2 * PLD_SLACK) + 1e-12 and b <= via_fft.delta_bounds(e)[1]
            assert one_lo.delta_bounds(e)[0] <= lo.delta(e) <= b


def test_regression_one_step_fft_floor_rose_with_sigma():
    "Poisson n=27,005, m=1, one step, δ(3e-5): the FFT's round-off, 5.00e-15 at σ=12.02 but 5.33e-15 at σ=14.06."
    sc = make_scheme('poisson', 27_005, m=1)
    ups = [account(sc, sigma=s, steps=1, eps=3.0039e-5, attack=False).upper for s in (12.0214, 13.0, 14.0642)]
    assert all(b <= a for a, b in zip(ups, ups[1:])) and ups[0] < 1e-17, ups
