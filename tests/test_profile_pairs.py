"""`must_nbdev.accounting.profile_pairs`: a profile's pair is a valid pair whose curve lies above every knot of the hull
in exact arithmetic, the partially unlabelled certificate only where it is proved, the loss range capped at tiny σ,
and the names that moved here still served from `accounting.unlabelled` with a warning."""
import math
import numpy as np
import pytest
from must_nbdev.core.sampling import make_scheme, multistage
from must_nbdev.accounting.account import account
from must_nbdev.accounting.unlabelled import label_groups, labelled_profile, unlabelled_profile
from must_nbdev.accounting.profile_pairs import MAX_LOSS, _lower_hull, profile_knots, profile_pld, unlabelled_pld


def test_dominating_pair_is_a_valid_pair():
    sc = make_scheme('wr', 60_000, m=256)
    js = profile_knots(3000)
    assert js[0] == 0 and js[-1] == 3000 and np.all(np.diff(js) >= 1) and len(js) < 600
    pld = profile_pld(js, unlabelled_profile(sc, 1.1, np.exp(js * 2e-3)), 2e-3)
    assert np.all(pld.masses >= 0) and abs(pld.masses.sum() + pld.inf_mass - 1) < 1e-9
    assert float(np.sum(pld.masses * np.exp(-pld.losses))) <= 1 + 1e-9    # the Q-masses form a sub-probability


def test_only_where_proved():
    "No second certificate for WOR (nothing hidden), Poisson, zero-out, or pipelines outside Lemma B."
    assert unlabelled_pld(make_scheme('wor', 100, m=5), 1.0, 'substitute', 1e-3, 100) is None
    assert unlabelled_pld(make_scheme('poisson', 100, m=5), 1.0, 'substitute', 1e-3, 100) is None
    assert unlabelled_pld(make_scheme('wr', 100, m=5), 1.0, 'add_remove', 1e-3, 100) is None
    three = multistage(1000, [('wor', 100), ('wr', 50), ('wor', 10)])
    assert label_groups(three) is None
    r = account(make_scheme('wr', 1000, m=20), sigma=1.0, steps=10, eps=1.0, relation='add_remove', attack=False)
    assert set(r.certificates) == {'public labels'}
    with pytest.raises(ValueError, match='alpha'): unlabelled_profile(make_scheme('wr', 100, m=5), 1.0, 0.5)


def test_tiny_sigma_caps_the_loss_range_instead_of_overflowing():
    """Issue 27 fuzz: at sigma ~ 0.005 the knots' e^loss overflowed (NaN warnings). The knots now stop at a loss of
    MAX_LOSS and the profile there is charged at +inf (valid: the profile decreases); nothing warns."""
    import warnings
    wr, h = make_scheme('wr', 60_000, m=33), 0.5
    with warnings.catch_warnings():
        warnings.simplefilter('error', RuntimeWarning)
        pld = unlabelled_pld(wr, 0.005, 'substitute', h, int(MAX_LOSS / h) + 100).upper[0]
        r = account(wr, sigma=0.0055, steps=1, delta=1e-3, attack=False)
    last = -pld.j0 * h
    assert last <= MAX_LOSS
    assert pld.inf_mass >= unlabelled_profile(wr, 0.005, np.exp(last))[0] * (1 - 1e-12)
    assert 0 <= r.upper <= 1 and np.isfinite(r.upper)


def test_profile_pld_curve_lies_above_every_hull_knot_in_exact_arithmetic():
    # 04's "Rounding, charged upward": the returned pair's curve Σ m_i (1 − α e^{−ℓ_i})_+ + m_∞, evaluated at 40
    # digits, is >= the profile at every knot of a convex profile (every knot on its hull), both orientations
    import mpmath as mp
    mp.mp.dps = 40
    for name, n, m, b, sigma, h in (('wor', 100, 1, None, 1.0, 1e-2), ('must-ow', 60, 4, 12, 2.0, 5e-3)):
        sc = make_scheme(name, n, m=m, b=b)
        js = profile_knots(400)
        U = labelled_profile(sc, sigma, np.exp(js * h)) if name == 'wor' else unlabelled_profile(sc, sigma, np.exp(js * h))
        p = profile_pld(js, U, h)
        nz = np.flatnonzero(p.masses)
        ells = [mp.mpf(int(i + p.j0)) * mp.mpf(h) for i in nz]
        def curve(j):                                       # at α = e^{j h}, exactly
            la = mp.mpf(int(j)) * mp.mpf(h)
            return sum((mp.mpf(p.masses[i]) * (1 - mp.exp(la - l)) for i, l in zip(nz, ells) if l > la),
                       mp.mpf(p.inf_mass))
        Uc = np.minimum(U, 1.0); jj = np.r_[-js[:0:-1], js]; a = np.exp(jj * h)
        x, y = np.r_[0.0, a], np.r_[1.0, 1 - a[:len(js) - 1] + a[:len(js) - 1] * Uc[:0:-1], Uc]
        on = [k for k in _lower_hull(x, y)[1:] if jj[k - 1] >= 0]        # knots of the hull with α >= 1
        short = [(int(jj[k - 1]), float(curve(jj[k - 1]) / mp.mpf(y[k]) - 1)) for k in on
                 if y[k] > 0 and curve(jj[k - 1]) < mp.mpf(y[k])]
        assert len(on) > 20 and not short, short[:5]                       # no tolerance: the charge pays the rounding
        assert sum(mp.mpf(x) for x in p.masses[nz]) + mp.mpf(p.inf_mass) >= 1, name   # the curve at α = 0


def test_the_old_import_path_still_serves_the_pair_with_a_warning():
    "Code written before the pairs had their own module: accounting.unlabelled serves every moved name."
    import must_nbdev.accounting.unlabelled as old
    from must_nbdev.accounting import profile_pairs
    for name in old.MOVED:
        with pytest.warns(DeprecationWarning, match='moved to must_nbdev.accounting.profile_pairs'):
            assert getattr(old, name) is getattr(profile_pairs, name)
