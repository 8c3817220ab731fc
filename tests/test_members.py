"""A triangle net's members (accounting.members): the same PLDs whichever process builds them, on a coarser grid only
where it stays at most 1 and is an upper PLD on the fine grid too, kept across games until the library's state or the
memo's bytes change, and glibc's heap settled only where the user did not choose."""
import numpy as np
import pytest
from must_nbdev.accounting.triangles import planar_upper_pld, triangle_net
from must_nbdev.accounting import members
from must_nbdev.accounting.members import member_coarsening, on_grid

H = 6.238e-4   # Figure S2's grid step at σ = 4 (what `account` picks there)

def test_upper_pld_on_a_coarser_grid_is_one_on_the_fine_grid():
    p = planar_upper_pld(np.array([[4.0, 0.0], [0.0, 0.01]]), q=0.02, sigma=2.0, h=4 * H)
    f = on_grid(p, 4)
    assert f.h == pytest.approx(H) and f.masses.sum() == pytest.approx(p.masses.sum(), rel=1e-15)
    for eps in (0.0, 0.1, 0.5):
        assert f.delta(eps) == pytest.approx(p.delta(eps), rel=1e-12)


def test_member_plds_on_worker_processes_are_the_serial_ones(monkeypatch):
    "The net's members shared with worker processes: the same PLDs, in the same order, as one after the other here."
    import must_nbdev.core.workers as workers
    net = triangle_net(2.0, tol=0.3)
    before = sum(w.answered for w in workers._pool().workers)
    shared = members.member_plds(net, 0.02, 2.0, 2e-3, 2, 1.0)
    shared_again = members.member_plds(net, 0.02, 2.0, 2e-3, 2, 1.0)   # the workers started: they help
    assert sum(w.answered for w in workers._pool().workers) > before
    monkeypatch.setattr(members, 'worker_threads', lambda: 1)
    serial = members.member_plds(net, 0.02, 2.0, 2e-3, 2, 1.0)
    assert len(net) > 4 and len(shared) == len(shared_again) == len(serial) == len(net)
    for a, b, c in zip(shared, shared_again, serial):
        assert all(x.j0 == c.j0 and x.h == c.h and x.inf_mass == c.inf_mass and np.array_equal(x.masses, c.masses)
                   for x in (a, b))

def test_kept_members_are_the_built_ones_until_the_library_state_or_the_memo_bytes_change(monkeypatch):
    """A later game with the same arguments takes the members an earlier one built: the same objects, with the bits of a
    fresh build. A changed setting that the members read builds them again, and the memo keeps to its bytes."""
    from must_nbdev.accounting import triangles
    members.clear_member_memo()
    built, real = [], members.member_plds
    monkeypatch.setattr(members, 'member_plds', lambda net, *a: built.append(len(net)) or real(net, *a))
    net, args = triangle_net(2.0, tol=0.3)[:8], (0.02, 2.0, 2e-3, 2, 1.0)          # eight members suffice
    first = members.kept_member_plds(net, *args)
    again = members.kept_member_plds(net, *args)
    assert built == [len(net)] and len(net) > 4 and all(a is b for a, b in zip(first, again))
    assert all(not p.masses.flags.writeable for p in first)                 # shared: read-only
    for a, b in zip(first, real(net, *args)):
        assert (a.j0, a.h, a.inf_mass) == (b.j0, b.h, b.inf_mass) and np.array_equal(a.masses, b.masses)
    assert members.kept_member_plds(net[:3], *args)[2] is first[2] and built == [len(net)]
    monkeypatch.setattr(triangles, 'LIGHT', 2 * triangles.LIGHT)              # a setting the members read
    members.kept_member_plds(net, *args)
    assert built == [len(net)] * 2
    cap = 3 * max(p.masses.nbytes for p in first)
    monkeypatch.setattr(members, 'MEMBER_MEMO_BYTES', cap)
    members.kept_member_plds(net, *args)
    assert built == [len(net)] * 3 and 0 < members._MEMBERS.bytes <= cap
    assert members._MEMBERS.bytes == sum(p.masses.nbytes for p in members._MEMBERS.kept.values())
    members.clear_member_memo()
    assert members._MEMBERS.bytes == 0 and not members._MEMBERS.kept

def test_settle_allocator_keeps_the_users_choice():
    "The net settles glibc's malloc thresholds once, unless the environment already chose them."
    import os, platform, subprocess, sys
    code = "from must_nbdev.accounting.members import settle_allocator as s; print(s(), s())"
    env = {k: v for k, v in os.environ.items() if k not in ('MALLOC_MMAP_THRESHOLD_', 'MALLOC_TRIM_THRESHOLD_',
                                                             'GLIBC_TUNABLES')}
    out = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True, text=True, check=True).stdout
    glibc = platform.libc_ver()[0] == 'glibc'
    assert out.split() == [str(glibc)] * 2
    chosen = subprocess.run([sys.executable, '-c', code], env={**env, 'MALLOC_TRIM_THRESHOLD_': '131072'},
                            capture_output=True, text=True, check=True).stdout
    assert chosen.split() == ['False', 'False']

def test_a_member_setting_changed_at_run_time_reaches_the_members_on_workers(monkeypatch):
    "Reproduces the members a worker built with the library's default `LOSS_ROUNDING` where the session had set 0."
    import must_nbdev.core.workers as workers
    from must_nbdev.accounting import triangles
    net = triangle_net(2.0, tol=0.3)
    default = members.member_plds(net, 0.02, 2.0, 2e-3, 2, 1.0)   # the workers start
    monkeypatch.setattr(triangles, 'LOSS_ROUNDING', 0)
    before = sum(w.answered for w in workers._pool().workers)
    shared = [members.member_plds(net, 0.02, 2.0, 2e-3, 2, 1.0) for _ in range(3)]
    assert sum(w.answered for w in workers._pool().workers) > before   # the workers built some, under the setting
    monkeypatch.setattr(workers, 'WORKER_PROCESSES', False)
    serial = members.member_plds(net, 0.02, 2.0, 2e-3, 2, 1.0)
    assert any(not np.array_equal(x.masses, d.masses) for x, d in zip(serial, default))   # the setting matters
    for again in shared:
        assert all(x.j0 == c.j0 and np.array_equal(x.masses, c.masses) for x, c in zip(again, serial))

def test_member_coarsening_keeps_every_member_grid_at_most_one():
    "Label l's members play on the grid coarsen·l²·h; where that passes 1, the largest factor whose grid fits is used."
    for c, h, want in [(4, 0.3, 3), (4, 0.25, 4), (16, 1 / 3, 3), (1, 1.0, 1), (64, 1e-3, 64), (9, 0.6, 1),
                       (3, np.nextafter(1 / 3, 1), 3), (6, np.nextafter(1 / 6, 1), 6)]:   # fl(c·h) = 1: fits
        got = member_coarsening(c, h)
        assert got == want and got * h <= 1 and (got == c or (got + 1) * h > 1)
    for c, h in [(0, 0.1), (2.5, 0.1), (4, 0.0), (4, 2.0)]:
        with pytest.raises(ValueError): member_coarsening(c, h)

def test_the_old_import_path_serves_the_members_helpers_with_a_warning():
    "Their home was accounting.triangle_certificate: reading them there still works until 0.5, with a warning."
    import warnings
    import must_nbdev.accounting.triangle_certificate as old
    for name in ('on_grid', 'member_pld', 'HEAP_THRESHOLDS', 'MALLOC_CHOICES', 'MEMBER_MEMO_BYTES', 'clear_member_memo'):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter('always')
            assert getattr(old, name) is getattr(members, name)
        assert any('moved to must_nbdev.accounting.members' in str(w.message) for w in seen), name
    assert old.member_coarsening is member_coarsening and old.settle_allocator is members.settle_allocator
