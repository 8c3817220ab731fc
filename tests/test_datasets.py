"`must_nbdev.training.datasets` (training/01a_datasets): the shipped data and their loaders."
import gzip, struct
from pathlib import Path
import numpy as np
import pytest
from must_nbdev.training.datasets import (ADULT_FEATURES, DATA_DIR, build_adult_npz, load_adult, load_digits,
                                          load_mnist, load_mnist_10k, read_adult_raw, read_idx)

RAW = Path(__file__).resolve().parents[2] / 'shared' / 'data' / 'adult'


def test_adult_row_counts():
    d = load_adult()
    assert len(d['y_train']) == 30_969 and len(d['y_test']) == 10_323
    assert d['X_train'].shape[1] == len(ADULT_FEATURES) == 13
    assert 0.24 < np.r_[d['y_train'], d['y_test']].mean() < 0.26


@pytest.mark.skipif(not RAW.is_dir(), reason='raw UCI Adult files not on this machine')
def test_adult_rebuild_from_raw_matches_shipped(tmp_path):
    assert len(read_adult_raw(RAW)) == 41_292
    out = build_adult_npz(RAW, tmp_path / 'a.npz')
    with np.load(out) as a, np.load(DATA_DIR / 'adult_us.npz') as b:
        np.testing.assert_array_equal(a['X'], b['X']); np.testing.assert_array_equal(a['y'], b['y'])


def test_adult_errors_name_the_file(tmp_path):
    with pytest.raises(FileNotFoundError, match='adult.data'): read_adult_raw(tmp_path)
    (tmp_path / 'adult.data').write_text('1, 2, 3\n'); (tmp_path / 'adult.test').write_text('')
    with pytest.raises(ValueError, match='adult.data line 1'): read_adult_raw(tmp_path)
    (tmp_path / 'bad.npz').write_bytes(b'not a zip')
    with pytest.raises(ValueError, match='bad.npz'): load_adult(tmp_path / 'bad.npz')


def _idx(path, arr, gz):
    data = bytes([0, 0, 8, arr.ndim]) + struct.pack(f'>{arr.ndim}I', *arr.shape) + arr.astype(np.uint8).tobytes()
    (gzip.open if gz else open)(path, 'wb').write(data)


@pytest.mark.parametrize('gz', [False, True])
def test_mnist_idx_roundtrip(tmp_path, gz, monkeypatch):
    rng = np.random.default_rng(0)
    imgs, labs = rng.integers(0, 256, (7, 28, 28)), rng.integers(0, 10, 7)
    sfx = '.gz' if gz else ''
    _idx(tmp_path / f'train-images-idx3-ubyte{sfx}', imgs, gz)
    _idx(tmp_path / f'train-labels-idx1-ubyte{sfx}', labs, gz)
    _idx(tmp_path / f't10k-images-idx3-ubyte{sfx}', imgs[:3], gz)
    _idx(tmp_path / f't10k-labels-idx1-ubyte{sfx}', labs[:3], gz)
    monkeypatch.setenv('MUST_MNIST_DIR', str(tmp_path))
    d = load_mnist()
    np.testing.assert_allclose(d['X_train'] * 255, imgs.reshape(7, -1))
    np.testing.assert_array_equal(d['y_test'], labs[:3])
    (tmp_path / f'train-labels-idx1-ubyte{sfx}').unlink()
    with pytest.raises(FileNotFoundError, match='train-labels'): load_mnist()


def test_idx_bad_magic(tmp_path):
    (tmp_path / 'x').write_bytes(b'\x01\x02\x03\x04')
    with pytest.raises(ValueError, match='magic'): read_idx(tmp_path / 'x')


def test_digits_shipped():
    d = load_digits()
    assert len(d['y_train']) + len(d['y_test']) == 1797 and d['X_train'].max() == 1.0


def test_mnist_10k_shipped():
    d = load_mnist_10k()
    assert d['name'] == 'mnist-10k' and d['X_train'].shape == (8000, 784) and d['X_test'].shape == (2000, 784)
    assert (np.bincount(np.r_[d['y_train'], d['y_test']]).tolist()
            == [1001, 1127, 991, 1032, 980, 863, 1014, 1070, 944, 978])
    assert d['X_train'].min() == 0.0 and d['X_train'].max() == 1.0
    with pytest.raises(ValueError, match='n_train'): load_mnist_10k(n_train=0)
