"""The triangle net's options as one group (`accounting/08b_net_options`): every door takes the group's defaults,
`net_asked` reads every spelling of a request, and the options' former import path still serves them."""
import pytest
from must_nbdev.accounting.account import account
from must_nbdev.accounting.net_options import QUICK_BLOCKS_NET, QUICK_NET, TightOptions, net_asked

def test_every_door_takes_the_net_options_with_the_groups_defaults():
    # TightOptions is the one source of the net's options: the doors' keywords and the CLI's defaults agree with it
    import inspect
    from must_nbdev.accounting.calibrate import calibrate_sigma
    from must_nbdev.cli import build_parser
    want = TightOptions().keywords()
    for door in (account, calibrate_sigma):
        params = inspect.signature(door).parameters
        assert {k: params[k].default for k in want} == want, door.__name__
    for cmd in (['account', '--scheme', 'wor', '--sigma', '1', '--k', '1', '--eps', '1'],
                ['calibrate', '--scheme', 'wor', '--n', '100', '--m', '10', '--k', '1', '--eps', '1', '--delta', '1e-5']):
        args = build_parser().parse_args(cmd)
        assert TightOptions.of(vars(args)) == TightOptions(), cmd

def test_net_asked_reads_every_spelling_of_the_request():
    assert net_asked(QUICK_NET) == QUICK_NET == net_asked(True, QUICK_NET)
    assert net_asked(True) == TightOptions() and net_asked(False) is None and net_asked(False, TightOptions()) is None
    with pytest.raises(ValueError, match='given twice'): net_asked(QUICK_NET, TightOptions(grid=2))
    with pytest.raises(ValueError, match='not asked for'): net_asked(False, QUICK_NET)
    with pytest.raises(TypeError, match='net must be'): net_asked(1)
    with pytest.raises(TypeError, match='must be TightOptions'): net_asked(True, {'net_tol': 0.1})

def test_the_options_former_import_path_serves_the_same_objects():
    "Code that imported the options from accounting.triangle_certificate gets the very same objects."
    import must_nbdev.accounting.net_options as new, must_nbdev.accounting.triangle_certificate as old
    former = ('MAX_BLOCKS', 'QUICK_NET', 'QUICK_NET_MEASURED', 'QUICK_BLOCKS', 'QUICK_BLOCKS_NET',
              'QUICK_BLOCKS_MEASURED', 'NET_PRESETS', 'TightOptions', 'net_asked')   # before the hint's constant
    for name in former: assert getattr(old, name) is getattr(new, name), name
    assert QUICK_BLOCKS_NET.blocks > 1 and TightOptions.of(QUICK_NET.keywords()) == QUICK_NET
