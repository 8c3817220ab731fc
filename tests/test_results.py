"""`must_nbdev.accounting.results`: the fields every answer of the package shares (`certified`, `attack`, `bracket`)
mean one thing at every door; every door's result class is a `CertifiedResult`; the classes' old import path works."""
import dataclasses, math
import pytest
from must_nbdev.accounting.results import AttackBounds, Bounds, CertifiedResult

def test_bounds_is_certified_and_ran_no_attack():
    b = Bounds(0.5, 0.52, 0.51)
    assert (b.certified, b.attack, b.bracket, float(b)) == (0.52, None, (0.5, 0.52), 0.52)
    assert b.ratio == pytest.approx(1.04) and repr(b) == 'Bounds([0.5, 0.52], estimate 0.51)'
    assert Bounds(0.0, 1e-9, 0.0).ratio == math.inf and Bounds(0.3, 0.3, 0.3).ratio == 1.0
    with pytest.raises(dataclasses.FrozenInstanceError): b.upper = 0.1   # an answer never changes

def test_attack_bounds_certify_nothing():
    a = AttackBounds(0.4, 0.41, 0.4)
    assert (a.certified, a.attack, a.bracket) == (None, 0.4, None) and isinstance(a, (Bounds, CertifiedResult))
    assert float(a) == 0.41   # as a number, the safe side of its bracket, like every Bounds

def test_the_base_class_only_promises_the_fields():
    for name in ('certified', 'attack', 'bracket'):
        with pytest.raises(NotImplementedError): getattr(CertifiedResult(), name)

def test_every_door_answers_with_a_certified_result():
    from must_nbdev.accounting.account import AccountResult
    from must_nbdev.accounting.calibrate import Calibration
    from must_nbdev.accounting.epoch_account import EpochAccountResult
    from must_nbdev.training.compare import EpsRowResult
    assert all(issubclass(c, CertifiedResult) for c in (AccountResult, Calibration, EpochAccountResult, EpsRowResult))

def test_the_old_path_serves_the_same_classes():
    import must_nbdev.accounting.accountant as old
    assert (old.Bounds, old.AttackBounds, old.CertifiedResult) == (Bounds, AttackBounds, CertifiedResult)
