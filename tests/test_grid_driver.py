"""The grid driver (`accounting/04c_grid_driver`): the h² law of `finer_step`, the driver's own error where no grid
fits, and the same functions served from their former module. The doors' grid errors are tested in
`tests/test_accountant.py` (every door that picks h names max_bins, never h)."""
import pytest
from must_nbdev.accounting.grid_driver import finer_step, no_grid_fits, refine_grid
from must_nbdev.accounting.pld import GridTooLarge

def test_finer_step_refuses_a_zero_step_and_survives_a_met_bracket():
    "Regression: finer_step(0, ...) and a bracket ratio of exactly 1 divided by zero."
    with pytest.raises(ValueError, match=r'h must be finite and in \(0, inf\)'): finer_step(0, 1.02, 1.005, 0, None)
    with pytest.raises(ValueError, match='ratio must be'): finer_step(1e-3, 0.5, 1.005, 0, None)
    assert finer_step(1e-3, 1.0, 1.005, 0, None) == pytest.approx(0.9e-3, rel=1e-12)
    assert 0.4e-3 < finer_step(1e-3, 1.02, 1.005, 0, None) < 0.5e-3           # the h² law, unchanged

def test_the_driver_names_what_its_caller_can_change():
    "No grid within max_bins: the driver picked h, so it names max_bins or sigma; a caller's fixed h keeps its advice."
    def too_wide(step): raise GridTooLarge(f'h={step:g} needs more bins', 4.0, 'use a larger h')
    with pytest.raises(GridTooLarge, match='no loss grid within max_bins=64 fits this run') as e:
        refine_grid(too_wide, None, True, 1.005, 64)
    assert 'larger h' not in str(e.value) and 'raise max_bins (CLI --max-bins) or the noise multiplier sigma' in str(e.value)
    with pytest.raises(GridTooLarge, match=r'^h=0.01 needs more bins; use a larger h$'):
        refine_grid(too_wide, None, True, 1.005, 64, h=0.01)

def test_the_former_module_serves_the_same_functions():
    import must_nbdev.accounting.accountant as old
    assert (old.finer_step, old.no_grid_fits, old.refine_grid) == (finer_step, no_grid_fits, refine_grid)
