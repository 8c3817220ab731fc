"""The certificate registry (accounting.certificates): where each certificate applies, that every per-step certificate
lies above a real pair's one-step δ, that registering is exact and undone, and that a registered certificate reaches
the doors (`account` reads `CERTIFICATES`, nothing else)."""
import math
import numpy as np
import pytest
from must_nbdev.core.sampling import make_scheme
from must_nbdev.accounting.accountant import PrivacyAccountant
from must_nbdev.accounting.attack import AttackAccountant
from must_nbdev.accounting.account import account
from must_nbdev.accounting.certificates import (CERTIFICATES, Certificate, per_step_certificates, public_label_pld,
                                                register_certificate, registered, run_certificates,
                                                step_certificates)

N, M = 1000, 20
SCHEMES = {'poisson': make_scheme('poisson', N, q=M / N), 'wor': make_scheme('wor', N, m=M),
           'wr': make_scheme('wr', N, m=M), 'must-ow': make_scheme('must-ow', N, m=M, b=100),
           'must-ww': make_scheme('must-ww', N, m=M, b=100), 'must-wo': make_scheme('must-wo', N, m=M, b=100)}

# (per step, per run) under substitution, then under add/remove: the proofs' reach, certificate by certificate
EXPECTED = {'poisson': ((['exact pair'], []), (['exact pair'], [])),
            'wor': ((['public labels'], ['triangle net']), (['public labels'], [])),
            'wr': ((['public labels', 'partially unlabelled'], ['triangle net']), (['public labels'], [])),
            'must-ow': ((['public labels', 'partially unlabelled'], ['triangle net']), (['public labels'], [])),
            'must-ww': ((['public labels', 'partially unlabelled'], ['triangle net']), (['public labels'], [])),
            'must-wo': ((['public labels', 'partially unlabelled'], ['triangle net']), (['public labels'], []))}

@pytest.mark.parametrize('name', sorted(SCHEMES))
def test_each_certificate_applies_where_its_proof_does(name):
    "Poisson's pair is exact under both relations; the unlabelled profile and the net need substitution."
    sc = SCHEMES[name]
    for relation, (steps, runs) in zip(('substitute', 'add_remove'), EXPECTED[name]):
        assert [c.name for c in per_step_certificates(sc, relation)] == steps, (name, relation)
        assert [c.name for c in run_certificates(sc, relation)] == runs, (name, relation)
        assert all(c.on_request for c in run_certificates(sc, relation))       # slow: asked for, never by default

@pytest.mark.parametrize('name,sigma', [('wor', 0.8), ('wr', 0.8), ('must-ow', 1.5), ('must-ww', 1.0),
                                        ('must-wo', 2.0), ('poisson', 1.0)])
def test_every_step_certificate_lies_above_a_real_pairs_delta(name, sigma):
    "One step: each certificate's δ(ε) is at least the attack's certified lower bound, at every ε of a grid."
    sc, h = SCHEMES[name], 1e-3
    attack = AttackAccountant(sc, sigma, 'substitute', 1, h)
    for cert, mech in step_certificates(sc, sigma, 'substitute', h).items():
        acc = PrivacyAccountant([(mech, 1)])
        for eps in (0.0, 0.05, 0.3, 1.0, 2.5):
            lower, upper = attack.delta(eps).lower, acc.delta(eps).upper
            assert 0 <= lower <= upper * (1 + 1e-9) + 1e-15 and upper <= 1, (name, cert, eps, lower, upper)

def test_the_unlabelled_profile_is_below_the_public_labels_where_copies_repeat():
    "WR at a large batch: the partially unlabelled step is tighter than the public labels (what it is registered for)."
    sc = make_scheme('wr', 100, m=50)
    got = step_certificates(sc, 1.0, 'substitute', 1e-3)
    d = {name: PrivacyAccountant([(mech, 1)]).delta(0.5).upper for name, mech in got.items()}
    assert d['partially unlabelled'] < d['public labels'], d

def test_certificates_are_checked_when_made():
    "A certificate has a name, a callable reach, and exactly one of a per-step PLD or a run bound."
    step = lambda *a: None
    with pytest.raises(TypeError, match='non-empty str'): Certificate('', 'x', lambda s, r: True, step_pld=step)
    with pytest.raises(TypeError, match='callable'): Certificate('c', 'x', True, step_pld=step)
    with pytest.raises(ValueError, match='exactly one'): Certificate('c', 'x', lambda s, r: True)
    with pytest.raises(ValueError, match='exactly one'):
        Certificate('c', 'x', lambda s, r: True, step_pld=step, run_bound=lambda sc: 0.0)
    with pytest.raises(TypeError, match='per step'): Certificate('c', 'x', lambda s, r: True, step_pld=step).bound(None)

def test_a_run_bound_named_by_its_path_is_imported_at_first_use():
    "run_bound may be 'module:function' (the net's, so that the registry imports no slow module): it resolves."
    cert = Certificate('path', 'x', lambda s, r: True, run_bound='builtins:hash')
    sc = SCHEMES['wor']
    assert not cert.per_step and cert.bound(sc) == float(hash(sc))

def test_registering_is_exact_and_undone_even_when_the_block_raises():
    "`registered` puts a certificate where asked and restores the registry, order included, on any exit."
    names, toy = list(CERTIFICATES), Certificate('toy', 'x', lambda s, r: False, step_pld=lambda *a: None)
    with pytest.raises(RuntimeError):
        with registered(toy, before='public labels'):
            assert list(CERTIFICATES) == [names[0], 'toy'] + names[1:]
            raise RuntimeError('inside')
    assert list(CERTIFICATES) == names
    with pytest.raises(TypeError, match='Certificate'): register_certificate('toy')
    with pytest.raises(ValueError, match='registered already'): register_certificate(CERTIFICATES['public labels'])
    with pytest.raises(ValueError, match='before must name'): register_certificate(toy, before='no such')
    assert list(CERTIFICATES) == names

def test_a_registered_step_certificate_reaches_account():
    "account reads the registry: a certificate registered for WOR is composed and reported under its own name."
    sc = SCHEMES['wor']
    alias = Certificate('public labels, again', 'the same pair under another name (a test)',
                        lambda s, r: s is sc, step_pld=public_label_pld)
    plain = account(sc, sigma=1.0, steps=20, delta=1e-5, attack=False)
    with registered(alias):
        both = account(sc, sigma=1.0, steps=20, delta=1e-5, attack=False)
    again = both.certificates['public labels, again']
    assert set(both.certificates) == {'public labels', 'public labels, again'}
    assert math.isclose(again, both.certificates['public labels'], rel_tol=1e-12)
    assert math.isclose(both.upper, plain.upper, rel_tol=1e-12) and 'public labels, again' not in plain.certificates


def test_a_floor_goes_with_a_run_certificate_and_is_none_without_one():
    from must_nbdev.accounting.certificates import Certificate, CERTIFICATES
    with pytest.raises(ValueError, match='run_floor goes with run_bound'):
        Certificate('c', 'x', lambda s, r: True, step_pld=lambda *a: None, run_floor=lambda sc, **q: 0.0)
    cert = Certificate('c', 'x', lambda s, r: True, run_bound=lambda sc, **q: 1.0, run_floor='builtins:abs')
    assert cert.floor(-2.5) == 2.5 and CERTIFICATES['public labels'].floor(None) is None
    assert CERTIFICATES['triangle net'].run_floor == 'must_nbdev.accounting.net_blocks:net_floor'
