"""`must_nbdev.training.dpsgd`: the distinct-record gradient trick equals the naive per-copy DP-SGD, input validation
and the one-dataset-per-run MLP regression."""
import numpy as np
import pytest
from must_nbdev.training.dpsgd import MLP, LinearRegression, LogisticRegression, dpsgd
from must_nbdev.core.sampling import scheme_at, make_scheme


@pytest.mark.parametrize('seed', range(4))
@pytest.mark.parametrize('name', ['wr', 'must-ow', 'must-ww', 'must-wo'])
def test_distinct_point_dpsgd_equals_naive(seed, name):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 60)); m = int(rng.integers(2, 15)); b = int(rng.integers(m, n))
    sc = scheme_at(name, n, m, b=b)
    X = rng.normal(size=(n, 5)); yc = rng.integers(0, 4, n)
    for model, y in ((LinearRegression(5), X @ rng.normal(size=5)), (LogisticRegression(5), (rng.random(n) < .5) * 1.0),
                     (MLP([5, 7, 4]), yc)):
        a = dpsgd(model, X, y, sc, sigma=0.5, clip=0.7, lr=0.05, T=10, rng=seed)
        c = dpsgd(model, X, y, sc, sigma=0.5, clip=0.7, lr=0.05, T=10, rng=seed, distinct=False)
        np.testing.assert_allclose(a.params, c.params, rtol=1e-9, atol=1e-12)
        assert a.grad_evals <= c.grad_evals == a.copies


def test_regression_dpsgd_rejects_bad_labels_and_shapes():
    rng = np.random.default_rng(0); X = rng.normal(size=(30, 4)); y = rng.integers(0, 2, 30).astype(float)
    sc = make_scheme('wor', 30, m=5)
    bad_y = y.copy(); bad_y[3] = np.nan
    with pytest.raises(ValueError, match='y must be finite'):
        dpsgd(LogisticRegression(4), X, bad_y, sc, 1.0, 1.0, 0.1, 2, rng=0)
    with pytest.raises(ValueError, match='features'): dpsgd(LogisticRegression(3), X, y, sc, 1.0, 1.0, 0.1, 2, rng=0)
    with pytest.raises(ValueError, match='class labels'): dpsgd(MLP([4, 8, 3]), X, y + 5, sc, 1.0, 1.0, 0.1, 2, rng=0)


def test_regression_mlp_trains_on_one_dataset_per_run():
    "dpsgd(MLP, X of shape (R, n, d)) used to raise IndexError in MLP.loss; each run's loss is on its own dataset."
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(2, 30, 3)), rng.integers(0, 3, size=(2, 30))
    model = MLP([3, 5, 3])
    res = dpsgd(model, X, y, make_scheme('wor', 30, m=6), 0.05, 1.0, 0.1, 4, rng=0)
    assert res.loss.shape == (4, 2) and np.all(np.isfinite(res.loss))
    own = [model.loss(res.params[r], X[r], y[r])[0] for r in range(2)]
    np.testing.assert_allclose(res.loss[-1], own, rtol=1e-12)
    assert abs(own[0] - model.loss(res.params[0], X[1], y[1])[0]) > 1e-6   # the other run's data gives another loss


def test_regression_dpsgd_ignored_R_when_X_held_one_dataset_per_run():
    "With X of shape (R, n, d), R=7 ran 3 runs silently; R that disagrees with X.shape[0] raises, R equal to it runs."
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(3, 40, 2)), rng.normal(size=(3, 40))
    sc = make_scheme('wor', 40, m=8)
    with pytest.raises(ValueError, match=r'R must equal X.shape\[0\]=3'):
        dpsgd(LinearRegression(2), X, y, sc, 0.1, 1.0, 0.1, 2, rng=0, R=7)
    same = dpsgd(LinearRegression(2), X, y, sc, 0.1, 1.0, 0.1, 2, rng=0, R=3)
    default = dpsgd(LinearRegression(2), X, y, sc, 0.1, 1.0, 0.1, 2, rng=0)
    assert same.params.shape[0] == 3 and np.array_equal(same.params, default.params)
