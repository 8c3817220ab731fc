__version__ = "0.3.0"
"""MUST: multistage sampling for privacy amplification, with a certified Fourier accountant.

The main API is re-exported here; the subpackages hold the rest: `core` (schemes, sampling, amplification),
`accounting` (pairs, PLDs, composition, the accountant, calibration), `training` (DP-SGD, samplers, interop),
`experiments` (the paper's), `companions` (the companion documents) and `commands` and `cli` (the `must` command).
This file is written by hand (nbdev only updates `__version__`); every other module is generated from `nbs/`.

The names below are imported lazily (PEP 562): `import must_nbdev` loads no subpackage, and
`must_nbdev.account` imports `must_nbdev.accounting.account` on first use. So `must --help` starts at once, and a
module that imports `must_nbdev.core.sampling` does not pull in the accountant, Opacus or dp_accounting."""
import importlib as _importlib

from ._compat import install_old_paths

_LAZY = {   # public name -> the module that defines it
    'make_scheme': 'core.sampling', 'multistage': 'core.sampling', 'amplify': 'core.amplification',
    'PrivacyAccountant': 'accounting.accountant', 'account': 'accounting.account',
    'epsilon_over_steps': 'accounting.account', 'delta_over_k': 'accounting.account',
    'register_certificate': 'accounting.certificates',
    'net_by_default': 'accounting.net_options', 'set_default_net': 'accounting.net_options',
    'calibrate_sigma': 'accounting.calibrate', 'calibrate_steps': 'accounting.calibrate',
    'calibrate_batch_size': 'accounting.calibrate', 'calibrate_schedule': 'accounting.calibrate',
    'MustBatchSampler': 'training.interop', 'must_dp_accounting_pld': 'training.interop',
    'MustDpEvent': 'training.interop', 'MustPLDAccountant': 'training.interop',
    'OpacusStyleAccountant': 'training.opacus', 'attach': 'training.opacus',
    'compare_schemes': 'training.compare', 'sweep_grid': 'training.sweep', 'run_sweep': 'training.sweep',
    'make_epoch_scheme': 'core.epochs', 'EpochBatchSampler': 'core.epochs',
    'account_epochs': 'accounting.epoch_account', 'calibrate_epoch_sigma': 'accounting.epoch_account',
    'account_epoch_phases': 'accounting.epoch_account', 'EpochAccountant': 'accounting.epoch_account'}

install_old_paths(__name__)
__all__ = list(_LAZY)

def __getattr__(name:str):
    "Import the module defining `name` on first use (PEP 562) and keep the name here."
    if name not in _LAZY: raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_importlib.import_module(f'{__name__}.{_LAZY[name]}'), name)
    globals()[name] = value
    return value

def __dir__(): return sorted(set(globals()) | set(_LAZY))
