"Sums of lattice variables (accounting/12b_lattice): FFT convolutions and Fourier powers against direct sums, their charged round-off and wrap-around."
import math, numpy as np, pytest
from hypothesis import given, settings, strategies as st
from must_nbdev.accounting import lattice
from must_nbdev.accounting.lattice import (
    circular_sum, fourier_power, lattice_convolve, lattice_power, lattice_sums, wrap_bound)

def test_lattice_round_off_bound_holds_against_exact_integer_convolution():
    g = np.random.default_rng(4).integers(1, 1000, 200).astype(float); g /= g.sum()
    got, err = lattice_power(g, 13, 4000, 'drop')
    ref = g.copy()
    for _ in range(12): ref = np.convolve(ref, g)[:4000]
    assert np.abs(got - ref).sum() <= err

def test_a_power_of_a_short_input_is_its_binomial_law():
    "Sharing base's transform between a product and a square of other lengths gave Binomial(7, 1/2) wrong by 0.03."
    for k in range(1, 12):
        law, err = lattice_power(np.array([0.5, 0.5]), k, 16, 'drop')
        exact = np.array([math.comb(k, j) for j in range(min(k, 15) + 1)]) / 2 ** k
        assert np.allclose(law[:len(exact)], exact, rtol=0, atol=1e-14) and err < 1e-12, (k, law, exact)

def test_a_power_is_the_same_sum_as_one_by_one():
    "Binary powering once shared a base's transform between its product and its square; a Fourier power must agree too."
    p = np.random.default_rng(3).random(64); p /= p.sum()
    one_by_one = p
    for _ in range(12): one_by_one = np.convolve(one_by_one, p)[:64]
    assert np.allclose(lattice_power(p, 13, 64, 'drop')[0], one_by_one, rtol=0, atol=1e-15)

@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), k=st.integers(1, 3000))
def test_a_fourier_power_is_the_product_of_its_factors(seed, k):
    "Binary powering's squarings and products give the same power as k − 1 products, to the rounding of k − 1."
    z = np.exp(2j * np.pi * np.random.default_rng(seed).random(33)) * (1 - 1 / k)
    one_by_one = np.ones_like(z)
    for _ in range(k): one_by_one *= z
    assert np.allclose(fourier_power(z.copy(), k), one_by_one, rtol=6 * k * 2.0 ** -53, atol=0)

def test_bad_arguments_are_refused():
    p = np.full(4, 0.25)
    with pytest.raises(ValueError, match='overflow'): lattice_sums(p, 3, 8, 'wrap')
    with pytest.raises(ValueError, match='k'): lattice_sums(p, -1, 8, 'drop')
    with pytest.raises(ValueError, match='k'): lattice_power(p, 0, 8, 'drop')
    with pytest.raises(ValueError, match='k'): fourier_power(np.ones(3, complex), 0)
    assert lattice_sums(p, 0, 3, 'top', extra=(p,))[1][0].tolist() == [0.25, 0.25, 0.5]   # no copies: the extra, kept
    with pytest.raises(ValueError, match='M = 3'): circular_sum([(p, 2, 0.0, 0.0)], 3)
    with pytest.raises(ValueError, match='count'): circular_sum([(p, -1, 0.0, 0.0)], 8)
    with pytest.raises(ValueError, match='M'): circular_sum([(p, 1, 0.0, 0.0)], 1)
    assert circular_sum([(p, 0, 0.0, 0.0)], 5)[0].tolist() == [1, 0, 0, 0, 0]             # no terms: the sum is 0

def _direct_sum(p, k, extra=None):
    "The law of k i.i.d. copies of p (plus one term from `extra`) by direct convolution: every point, nothing wrapped."
    out = p.copy()
    for _ in range(k - 1): out = np.convolve(out, p)
    return out if extra is None else np.convolve(out, extra)

@given(seed=st.integers(0, 10**6), k=st.integers(2, 9), n=st.integers(2, 60), frac=st.floats(0.05, 1.0))
@settings(max_examples=60, deadline=None)
def test_chernoffs_wrap_bound_is_above_the_true_mass_beyond_the_length(seed, k, n, frac):
    "The Fourier sum charges at most this bound for what wraps around: it must hold for every pmf, count and length."
    g = np.random.default_rng(seed)
    p = g.random(n) ** g.uniform(1, 8); p /= p.sum()
    b = g.random(n // 2 + 1); b /= b.sum()
    M = max(1, int(frac * k * (n - 1)))
    assert _direct_sum(p, k)[M:].sum() <= wrap_bound([(p, k)], M) * (1 + 1e-12) + 1e-300
    assert _direct_sum(p, k, b)[M:].sum() <= wrap_bound([(p, k), (b, 1)], M) * (1 + 1e-12) + 1e-300

@pytest.mark.parametrize('overflow', ['drop', 'top'])
def test_a_fourier_sum_that_wraps_around_visibly_still_bounds_its_error(monkeypatch, overflow):
    "Forced to the shortest length, where up to a few percent of the mass wraps around, the charge must cover the error."
    monkeypatch.setattr(lattice, 'WRAP_TOL', 1.0)             # take the first length whatever wraps
    g = np.random.default_rng(8)
    p = np.exp(-np.arange(400) / 30.0) * g.uniform(0.5, 1, 400); p /= p.sum()
    b = g.random(100); b /= b.sum()
    N = 300
    (law, err), (law_b, err_b) = lattice.lattice_sums(p, 7, N, overflow, extra=(b,))
    for got, e, ref in ((law, err, _direct_sum(p, 7)), (law_b, err_b, _direct_sum(p, 7, b))):
        want = ref[:N].copy()
        if overflow == 'top': want[N - 1] = ref[N - 1:].sum()
        assert ref[500:].sum() > 1e-4                                # the first length (500 points) wraps visibly
        assert np.abs(got - want).sum() <= e < 1

@given(seed=st.integers(0, 10**6), a=st.integers(1, 40), b=st.integers(0, 9), n=st.integers(2, 50),
       M=st.integers(2, 300), noise=st.sampled_from([0.0, 1e-12, 1e-6]))
@settings(max_examples=60, deadline=None)
def test_a_sum_on_the_circle_is_the_exact_law_modulo_its_length_within_its_charge(seed, a, b, n, M, noise):
    "The attacks read T modulo M as exact: the charge must cover round-off and the pmfs' own errors, however much wraps."
    g = np.random.default_rng(seed)
    p, r = g.random(min(n, M)) ** g.uniform(1, 6), g.random(min(n // 2 + 1, M))
    p, r = p / p.sum(), r / r.sum()
    ref = np.convolve(_direct_sum(p, a), _direct_sum(r, b)) if b else _direct_sum(p, a)
    ref = np.bincount(np.arange(len(ref)) % M, weights=ref, minlength=M)   # the law modulo M, directly
    off = noise * g.uniform(-1, 1, len(p))                                  # p as computed: off by a known error
    got, err = circular_sum([(p + off, a, float(np.abs(off).sum()), float(np.abs(off).max(initial=0))),
                             (r, b, 0.0, 0.0)], M)
    assert len(got) == M and np.abs(got - ref).max() <= err, (np.abs(got - ref).max(), err)
    assert err < 1e-12 + 2 * a * noise                                      # and the charge is not vacuous

def _interval_error(got, exact):
    "The largest error of any sum over consecutive points of `got` (floats) against `exact` (Fractions)."
    from fractions import Fraction
    sums = [Fraction(0)]
    for g, e in zip(got, exact): sums.append(sums[-1] + Fraction(float(g)) - e)
    return float(max(sums) - min(sums))

@given(seed=st.integers(0, 10**6), k=st.integers(1, 40), n=st.integers(2, 40), spiky=st.booleans(),
       overflow=st.sampled_from(['drop', 'top']), keep=st.floats(0.3, 1.5))
@settings(max_examples=40, deadline=None)
def test_the_interval_bound_holds_against_exact_rational_sums(seed, k, n, spiky, overflow, keep):
    "`bound='interval'` charges every sum over consecutive points (CDFs, survival functions): exact dyadic arithmetic."
    from fractions import Fraction
    g = np.random.default_rng(seed)
    w = g.random(n) ** (12 if spiky else 1) + 1e-12
    counts = np.floor(w / w.sum() * 2 ** 30).astype(np.int64); counts[np.argmax(counts)] += 2 ** 30 - counts.sum()
    p = counts / 2.0 ** 30                                           # every mass exactly a float
    v = g.random(max(1, n // 3)) + 1e-3
    b_counts = np.floor(v / v.sum() * 2 ** 20).astype(np.int64); b_counts[0] += 2 ** 20 - b_counts.sum()
    b = b_counts / 2.0 ** 20                                         # a further term of another law, also exact
    N = max(1, int(keep * k * (n - 1)) + 1)
    out = lattice_sums(p, k, N, overflow, extra=(p, b), bound='interval')
    law = np.array([1], dtype=object)
    for _ in range(k): law = np.convolve(law, counts.astype(object))
    laws = [(law, 2 ** (30 * k)), (np.convolve(law, counts.astype(object)), 2 ** (30 * (k + 1))),
            (np.convolve(law, b_counts.astype(object)), 2 ** (30 * k + 20))]
    for (got, bound), (exact_law, scale) in zip(out, laws):
        exact = [Fraction(int(v), scale) for v in exact_law[:len(got)]] + [Fraction(0)] * (len(got) - len(exact_law))
        if overflow == 'top' and len(exact_law) > len(got):
            exact[-1] = Fraction(int(exact_law[len(got) - 1:].sum()), scale)
        assert _interval_error(got, exact) <= bound, (seed, k, n, overflow)

@pytest.mark.parametrize('M', [4096, 4 * 3 * 5 * 7 * 11, 3 ** 9, 5 ** 6 * 4, 7 ** 5])
@pytest.mark.parametrize('shape', ['random', 'spikes', 'lognormal', 'alternating'])
def test_each_frequency_of_a_transform_errs_by_at_most_eta_times_the_l1_norm(M, shape):
    "The interval bound's first fact (Higham's stages, entrywise): every rfft output within 10u·log2(M)·‖p‖₁, long double as truth."
    from scipy import fft as sfft
    g, x = np.random.default_rng(M), np.arange(M)
    p = {'random': g.random(M), 'spikes': np.bincount(g.integers(0, M, 5), g.random(5), minlength=M),
         'lognormal': np.exp(-0.5 * ((np.log1p(x) - 5) / 0.7) ** 2),
         'alternating': np.where(x % 2 == 0, 1.0, 1e-3)}[shape]
    p = p / p.sum()
    err = float(np.abs(sfft.rfft(p, M) - sfft.rfft(p.astype(np.longdouble), M)).max())
    assert err <= 0.2 * 10 * 2.0 ** -53 * math.log2(M) * float(np.abs(p).sum())   # measured: 5% at most

def test_the_interval_bound_is_far_below_the_l1_bound_where_the_power_is_long():
    "At 235 log-normal terms (random allocation's epoch at MNIST's size), the charge falls about twentyfold: measured."
    from scipy import fft as sfft
    z = np.arange(1, 4097); lg = np.exp(-0.5 * ((np.log(z) - 4.0) / 0.6) ** 2) / z; lg /= lg.sum()
    M = sfft.next_fast_len(235 * 4096, real=True)
    (s_l1, e_l1), = lattice_sums(lg, 235, M, 'top')
    (s_iv, e_iv), = lattice_sums(lg, 235, M, 'top', bound='interval')
    assert np.array_equal(s_l1, s_iv) and e_iv < e_l1 / 10
    with pytest.raises(ValueError, match='bound'): lattice_sums(lg, 3, 10, 'top', bound='cdf')

@pytest.mark.parametrize('n', [7, 100, 128, 256, 1000, 4096, 1 << 16])
def test_pairwise_roundoff_bounds_numpys_sum_where_its_accumulators_lose_most(n):
    """The lattice charges a float sum of n nonnegative masses (log2 n + 2)u, short of NumPy's eight accumulators: each
    block of 128 that starts its accumulators at 1 and adds u-sized masses to them erred by 15u at n = 256."""
    from fractions import Fraction
    u = 2.0 ** -53
    a = np.full(n, u * (1 + 2 ** -20)); a[np.arange(n) % 128 < 8] = 1.0     # every addition rounds away u
    exact = sum(Fraction(x) for x in a)
    error = abs(Fraction(float(a.sum())) - exact) / exact
    assert error <= lattice.pairwise_roundoff(n)
    if 256 <= n <= 4096: assert error > (math.log2(n) + 2) * u             # what the old allowance missed

def test_wrap_bounds_at_many_lengths_are_the_bounds_one_at_a_time():
    "The overflow ladder asks Chernoff's bound at many lengths from one moment generating function: the same values."
    g = np.random.default_rng(0).random(300); g /= g.sum()
    Ms = [100, 1000, 1400, 1496, 1500]
    assert lattice.wrap_bounds([(g, 5)], Ms).tolist() == [wrap_bound([(g, 5)], M) for M in Ms]
    assert lattice.wrap_bounds([(np.zeros(4), 3)], [2, 5]).tolist() == [0.0, 0.0]   # no mass: nothing wraps (it crashed)
