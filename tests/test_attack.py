"""`must_nbdev.accounting.attack`: the attack's certified lower bound composes only the winning run's upper end, lies
below the certificate of every fixed-size scheme, and is still served from its pre-0.3.1 path with a warning."""
import warnings
import pytest
from must_nbdev.accounting.account import account
from must_nbdev.accounting.attack import AttackAccountant, attack_pairs
from must_nbdev.core.sampling import scheme_at


@pytest.mark.parametrize("name, relation", [('must-ow', 'substitute'), ('wr', 'add_remove')])
def test_attack_composes_only_the_winning_runs_upper_end(name, relation):
    "The attack's upper end comes from the run with the largest lower end, as if every run's upper end were composed."
    scheme = scheme_at(name, 2000, 40, b=400)
    att = AttackAccountant(scheme, 1.0, relation, 300, 2e-3)
    for eps in (0.5, 2.0):
        got = att.delta(eps)
        assert len(att._uppers) == 1                      # one run's upper end was composed, not all of them
        runs = att.runs
        best = max(range(len(runs)), key=lambda i: runs[i][1].delta_bounds(eps)[0])
        assert got.lower == runs[best][1].delta_bounds(eps)[0] and got.upper == runs[best][2].delta_bounds(eps)[1]
        assert att.best_run == runs[best][0] and got.lower <= got.upper
        att._uppers.clear()


@pytest.mark.parametrize("name", ['wor', 'wr', 'must-ow', 'must-ww', 'must-wo', 'poisson'])
def test_the_attack_is_below_the_certificate_and_flips_only_fixed_size_pairs(name):
    "Every attack pair is a real pair: composed, its lower end never exceeds account's certified bound at that grid."
    scheme = scheme_at(name, 2000, 40, b=400)
    flips = {f for *_, f in attack_pairs(scheme, 1.0)}
    assert flips == ({True} if scheme.fixed_size else {False})      # Poisson's direction is fixed for the run
    res = account(scheme, sigma=1.0, steps=200, eps=1.0)
    att = AttackAccountant(scheme, 1.0, None, 200, res.h).delta(1.0)
    assert 0 < att.lower <= att.upper and att.lower <= res.upper, (att, res.upper)


def test_the_old_import_paths_still_serve_the_attack_with_a_warning():
    "Code written before the attack had its own module: accounting.accountant and the flat 0.1 path both serve it."
    import must_nbdev.accounting.accountant as old
    with pytest.warns(DeprecationWarning, match='moved to must_nbdev.accounting.attack'):
        assert old.AttackAccountant is AttackAccountant and old.attack_pairs is attack_pairs
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        from must_nbdev import accountant as flat                      # the flat path of version 0.1
    assert flat.AttackAccountant is AttackAccountant and 'AttackAccountant' in flat.__all__


@pytest.mark.parametrize('name', ['wr', 'must-ow', 'must-ww'])
def test_regression_attack_pairs_keep_the_mass_of_the_counts_they_leave_out(name):
    "Counts below COMPONENT_FLOOR were dropped from the attack's mixtures with no trace, so a mixture in Q's place "
    "was lighter than the real one (a lower PLD could then overstate δ); their mass now travels as `dropped`."
    from must_nbdev.accounting.pairs import output_pair, occurrence_components
    scheme = scheme_at(name, 60_000, 256, 6_000)
    dropped = occurrence_components(scheme)[2]
    assert dropped > 0 and dropped == output_pair(scheme, 2.62)[0].dropped
    for A, B, _ in attack_pairs(scheme, 2.62):
        for M in (A, B):   # a one-component law (a single mean) leaves nothing out
            assert M.dropped == (dropped if len(M.mu) > 1 else 0.0)
