"Run: python -m pytest -q research/test_adaptive_attack.py"
import math
import pytest
from must_nbdev.core.sampling import make_scheme
from must_nbdev.accounting.account import account
from adaptive_attack import adaptive_orientation_delta

CASES = [('wor', 10_000, 200, None, 4.0, 1000, 1.0), ('wr', 10_000, 200, None, 4.0, 1000, 1.0),
         ('must-ow', 10_000, 200, 118, 4.0, 1000, 1.0), ('must-ww', 10_000, 200, 118, 4.0, 300, 1.0),
         ('wor', 1000, 50, None, 1.0, 20, 0.5), ('wr', 200, 20, None, 2.0, 50, 0.5), ('must-wo', 1000, 20, 40, 1.5, 30, 0.5)]

@pytest.mark.parametrize('name,n,m,b,sigma,k,eps', CASES)
def test_between_fixed_mix_and_certified(name, n, m, b, sigma, k, eps):
    sc = make_scheme(name, n, m=m, b=b)
    r = account(sc, sigma=sigma, steps=k, eps=eps, relation='substitute')
    v = adaptive_orientation_delta(sc, sigma, k, eps, h=r['h'])
    assert v >= r['delta_lower'] * (1 - 1e-9), (v, r['delta_lower'])      # adapting never hurts the adversary
    assert v <= r['delta_upper'], (v, r['delta_upper'])                   # soundness of the certified bound

def test_one_step_equals_the_one_step_attack():
    sc = make_scheme('wor', 10_000, m=200)
    r = account(sc, sigma=4.0, steps=1, eps=0.05, relation='substitute')
    v = adaptive_orientation_delta(sc, 4.0, 1, 0.05, h=r['h'])
    assert abs(v / r['delta_lower'] - 1) < 1e-6

def test_coarser_grid_stays_below():
    sc = make_scheme('wor', 10_000, m=200)
    fine = adaptive_orientation_delta(sc, 4.0, 200, 0.5, h=6e-4)
    coarse = adaptive_orientation_delta(sc, 4.0, 200, 0.5, h=5e-3)
    assert coarse <= fine * (1 + 1e-6) and coarse > 0.8 * fine
