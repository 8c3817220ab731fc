"""`must_nbdev._compat`: the pre-0.2 flat module paths still import, warn, and hand out the very objects of the new
subpackages (the first listed module winning a shared name), with the renamed `calibration.Calibration`."""
import importlib, sys, warnings
import pytest
import must_nbdev
from must_nbdev._compat import OLD_MODULES, RENAMED, _OldPathFinder, install_old_paths


def _fresh_import(name, monkeypatch):
    monkeypatch.delitem(sys.modules, name, raising=False)   # a cached module would not warn again
    with pytest.warns(DeprecationWarning) as rec:
        mod = importlib.import_module(name)
    return mod, str(rec[0].message)


@pytest.mark.parametrize('old', sorted(OLD_MODULES))
def test_old_path_warns_and_serves_the_new_objects(old, monkeypatch):
    mod, msg = _fresh_import(f'must_nbdev.{old}', monkeypatch)
    news = [importlib.import_module(f'must_nbdev.{m}') for m in OLD_MODULES[old]]
    assert 'deprecated' in msg and all(n.__name__ in msg for n in news)
    for name in mod.__all__:
        owner = next((n for n in news if name in vars(n)), None)
        if owner is None: assert name in RENAMED.get(old, {}); continue
        assert getattr(mod, name) is getattr(owner, name), name     # the first module listed wins a shared name


def test_old_accountant_path_answers_like_the_new_one(monkeypatch):
    old, _ = _fresh_import('must_nbdev.accountant', monkeypatch)
    from must_nbdev.accounting.account import account
    from must_nbdev.accounting.accountant import PrivacyAccountant
    assert old.account is account and old.PrivacyAccountant is PrivacyAccountant


def test_regression_old_accountant_star_import_lost_the_result_classes(monkeypatch):
    "`from must_nbdev.accountant import *` gave Bounds in 0.1; moving the result classes to their own module dropped it."
    old, _ = _fresh_import('must_nbdev.accountant', monkeypatch)
    from must_nbdev.accounting.results import AttackBounds, Bounds, CertifiedResult
    assert {'Bounds', 'AttackBounds', 'CertifiedResult'} <= set(old.__all__)
    assert (old.Bounds, old.AttackBounds, old.CertifiedResult) == (Bounds, AttackBounds, CertifiedResult)


def test_renamed_calibration_class(monkeypatch):
    old, _ = _fresh_import('must_nbdev.calibration', monkeypatch)
    from must_nbdev.accounting.base_calibration import BaseCalibration
    assert old.Calibration is BaseCalibration and 'Calibration' in old.__all__


def test_finder_is_installed_once_and_ignores_other_names():
    install_old_paths('must_nbdev'); install_old_paths('must_nbdev')
    assert sum(isinstance(f, _OldPathFinder) for f in sys.meta_path) == 1
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module('must_nbdev.no_such_module')
    assert _OldPathFinder('must_nbdev').find_spec('other_pkg.accountant') is None
