__version__ = "0.3.0"
"""MUST: multistage sampling for privacy amplification, with a certified Fourier accountant.

The main API is re-exported here; the subpackages hold the rest: `core` (schemes, sampling, amplification),
`accounting` (pairs, PLDs, composition, the accountant, calibration), `training` (DP-SGD, samplers, interop),
`experiments` (the paper's), `companions` (the companion documents) and `commands` and `cli` (the `must` command).
This file is written by hand (nbdev only updates `__version__`); every other module is generated from `nbs/`."""
from .core.sampling import make_scheme, multistage
from .core.amplification import amplify
from .accounting.accountant import PrivacyAccountant
from .accounting.account import account
from .accounting.calibrate import calibrate_sigma, calibrate_steps, calibrate_batch_size, calibrate_schedule
from .training.interop import MustBatchSampler, OpacusStyleAccountant
from .training.compare import compare_schemes
from .training.sweep import sweep_grid, run_sweep
from ._compat import install_old_paths

install_old_paths(__name__)
__all__ = ['make_scheme', 'multistage', 'amplify', 'PrivacyAccountant', 'account', 'calibrate_sigma', 'calibrate_steps',
           'calibrate_batch_size', 'calibrate_schedule', 'MustBatchSampler', 'OpacusStyleAccountant', 'compare_schemes',
           'sweep_grid', 'run_sweep']
