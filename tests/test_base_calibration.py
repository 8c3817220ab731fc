"""`must_nbdev.accounting.base_calibration`: the calibrated base mechanism is private at its target, and bad input
(the brentq reproducer included). Tables 3 and 5 are tested in test_amplification_tables.py."""
import json, subprocess
import numpy as np
import pytest
from must_nbdev.accounting.base_calibration import calibrate
from must_nbdev.core.sampling import make_scheme


@pytest.mark.parametrize('method', ['dwork-roth', 'analytic'])
@pytest.mark.parametrize('eps_prime', [1e-3, 0.1, 1.0])
def test_calibration_is_private_at_target(method, eps_prime):
    "The calibrated base mechanism meets δ at the backed-out ε (DR where ε < 1), and δ' <= the group bound."
    for name, b in [('wor', None), ('wr', None), ('must-ow', 20), ('must-ww', 20)]:
        sc = make_scheme(name, 300, m=30, b=b)
        c = calibrate(sc, eps_prime, 1e-3, 1.0, method)
        if method == 'analytic' or c.eps < 1: assert c.delta_base <= 1e-3 * (1 + 1e-9)
        assert 0 < c.delta_prime <= 1


@pytest.mark.parametrize('kw,arg',
                         [(dict(eps_prime=0), 'eps_prime'), (dict(delta=0), 'delta'), (dict(delta=1), 'delta'),
                          (dict(sensitivity=0), 'sensitivity'), (dict(sensitivity=np.inf), 'sensitivity'),
                          (dict(method='x'), 'method')])
def test_calibrate_bad_input(kw, arg):
    args = dict(eps_prime=0.1, delta=1e-3, sensitivity=1.0, method='analytic'); args.update(kw)
    with pytest.raises(ValueError, match=arg):
        calibrate(make_scheme('wr', 100, m=10), **args)


def test_regression_bad_input_is_a_value_error_naming_the_argument():
    "Issue 14: a target ε′ no base mechanism reaches gave brentq's 'f(a) and f(b) must have different signs'."
    with pytest.raises(ValueError, match='eps_prime'):
        calibrate(make_scheme('must-ow', 300, m=30, b=50), 1e-16, 1e-20, 0.1)
