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

def test_the_default_net_holds_for_its_block_and_comes_back_after_it():
    from must_nbdev.accounting.net_options import default_net, net_by_default, set_default_net
    assert default_net() is False and net_asked(None) is None          # the tests' process: MUST_DEFAULT_NET=fast
    with net_by_default('quick-blocks') as options:
        assert options == QUICK_BLOCKS_NET == net_asked(None) and net_asked(False) is None
        with pytest.raises(ValueError, match=r"net was not given \(the default certificate, net='quick-blocks', has "
                                             r"its own\): give net=True with them"): net_asked(None, TightOptions(tol=0.1))
    assert default_net() is False
    with pytest.raises(ZeroDivisionError):
        with net_by_default(QUICK_NET): 1 / 0
    assert default_net() is False                                       # restored when the block raised
    previous = set_default_net(True)
    try: assert previous is None and net_asked(None) == TightOptions()   # None: no session default was set
    finally: set_default_net(previous)
    assert default_net() is False                                       # unset again: the variable's
    for bad, error in (('fast', ValueError), (1, TypeError)):     # 'fast' is the CLI's and the variable's
        with pytest.raises(error): set_default_net(bad)
    with pytest.raises(TypeError, match='None reads the default'):
        with net_by_default(None): pass
    assert default_net() is False                                       # a refused default changes nothing

def test_every_door_leaves_its_net_to_the_package_default():
    "Every door's `net` defaults to None, the package's default: one switch, `net_by_default`, reaches them all."
    import inspect
    from must_nbdev.accounting.account import delta_over_k, epsilon_over_steps
    from must_nbdev.accounting.accountant import PrivacyAccountant
    from must_nbdev.accounting.calibrate import calibrate_batch_size, calibrate_sigma, calibrate_steps
    from must_nbdev.training.compare import compare_schemes
    from must_nbdev.training.sweep import evaluate_point, run_sweep
    from must_nbdev.training.opacus import OpacusStyleAccountant, attach
    from must_nbdev.cli import build_parser
    doors = (account, delta_over_k, epsilon_over_steps, PrivacyAccountant, calibrate_sigma, calibrate_steps,
             calibrate_batch_size, compare_schemes, evaluate_point, run_sweep, OpacusStyleAccountant, attach)
    assert {d.__name__: inspect.signature(d).parameters['net'].default for d in doors} == {
        d.__name__: None for d in doors}
    for cmd in (['account', '--scheme', 'wor', '--sigma', '1', '--k', '1', '--eps', '1'],
                ['calibrate', '--scheme', 'wor', '--n', '100', '--m', '10', '--k', '1', '--eps', '1', '--delta', '1e-5'],
                ['compare', '--n', '1000', '--m', '10', '--sigma', '1', '--k', '5', '--delta', '1e-5'],
                ['sweep', '--n', '1000', '--batch-sizes', '10', '--sigmas', '1', '--epochs', '1', '--delta', '1e-5']):
        assert build_parser().parse_args(cmd).net is None, cmd                # the CLI: the default too

def test_a_block_holds_in_its_own_thread_and_the_session_default_in_every_thread():
    import threading
    from must_nbdev.accounting.net_options import default_net, net_by_default, set_default_net
    seen, barrier = [], threading.Barrier(2)
    def block(net):
        with net_by_default(net):
            barrier.wait(); seen.append((net, default_net())); barrier.wait()
    threads = [threading.Thread(target=block, args=(net,)) for net in ('quick', 'quick-blocks')]
    for t in threads: t.start()
    for t in threads: t.join()
    assert sorted(seen) == [('quick', 'quick'), ('quick-blocks', 'quick-blocks')]   # overlapping blocks, apart
    assert default_net() is False                                                      # and none left behind
    previous = set_default_net('quick')
    try:
        t = threading.Thread(target=lambda: seen.append(default_net())); t.start(); t.join()
        assert seen[-1] == 'quick'
    finally: set_default_net(previous)

def test_the_package_default_is_the_quick_net_in_five_blocks_where_nothing_sets_another(monkeypatch):
    "With the variable unset a door's default is 'quick-blocks'; the variable sets a process's; a bad one raises."
    from must_nbdev.accounting.net_options import (DEFAULT_NET_VARIABLE, PACKAGE_DEFAULT_NET, default_net,
                                                   set_default_net)
    assert DEFAULT_NET_VARIABLE == 'MUST_DEFAULT_NET' and PACKAGE_DEFAULT_NET == 'quick-blocks'
    monkeypatch.delenv(DEFAULT_NET_VARIABLE)
    assert default_net() == 'quick-blocks' and net_asked(None) == QUICK_BLOCKS_NET
    for value, net in (('fast', None), ('quick', QUICK_NET), (' quick-blocks ', QUICK_BLOCKS_NET), ('', QUICK_BLOCKS_NET)):
        monkeypatch.setenv(DEFAULT_NET_VARIABLE, value); assert net_asked(None) == net, value
    monkeypatch.setenv(DEFAULT_NET_VARIABLE, 'True')
    with pytest.raises(ValueError, match="MUST_DEFAULT_NET must be 'fast' or a preset's name, one of 'quick', "
                                         "'quick-blocks'; got 'True'"): default_net()
    previous = set_default_net(False)      # a session's default wins over the variable, bad or not
    try: assert default_net() is False
    finally: set_default_net(previous)
    from must_nbdev.accounting.net_options import net_by_default
    with net_by_default(False): assert default_net() is False   # and so does a block: the way out needs no variable

def test_a_fresh_process_plays_the_package_default_and_its_children_the_variable():
    "A new interpreter with the variable unset reads 'quick-blocks'; `must` with MUST_DEFAULT_NET=fast answers fast."
    import os, subprocess, sys
    env = {k: v for k, v in os.environ.items() if k != 'MUST_DEFAULT_NET'}
    code = 'from must_nbdev.accounting.net_options import default_net; print(default_net())'
    out = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == 'quick-blocks'
    args = ['account', '--scheme', 'wor', '--n', '500', '--m', '5', '--sigma', '3', '--k', '100', '--delta', '1e-5',
            '--json']   # a run the net pays at: about 3 s
    import json
    run = lambda env, *more: json.loads(subprocess.run([sys.executable, '-m', 'must_nbdev.cli', *args, *more], env=env,
                                                       capture_output=True, text=True, check=True).stdout)
    fast = run(dict(env, MUST_DEFAULT_NET='fast'))
    assert fast['certificate'] != 'triangle net' and run(env, '--net', 'fast')['certificate'] == fast['certificate']
    net = run(env)                                                      # the package's default plays the net
    assert net['certificate'] == 'triangle net' and net['eps'] < fast['eps']

def test_the_cli_takes_net_fast_and_refuses_net_options_beside_it():
    from argparse import Namespace
    from must_nbdev.cli import build_parser
    from must_nbdev.commands import _net_request
    args = build_parser().parse_args(['account', '--scheme', 'wor', '--sigma', '1', '--k', '1', '--eps', '1',
                                      '--net', 'fast'])
    assert _net_request(args) is False                                  # asked for: not the default (None)
    with pytest.raises(ValueError, match='--net fast asks for the fast certificates'):
        _net_request(Namespace(net='fast', net_grid=2))
