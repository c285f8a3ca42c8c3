"""Schoenmakers' PVSS with Chaum–Pedersen proofs (pbem/protocol/pvss.py): what verifies and what is refused."""

from __future__ import annotations

import itertools
import os

import pytest

from pbem.protocol import pvss

CTX = b"pbem-v1/test\x00game-1"


def _party(n):
    xs = [pvss.random_scalar() for _ in range(n)]
    return xs, [pvss.public_point(x) for x in xs]


def _open(xs, ys, dealing, indices, ctx=CTX):
    opened = {}
    for i in indices:
        share, proof = pvss.decrypt_share(xs[i - 1], i, dealing, ctx)
        opened[i] = pvss.verify_share(i, share, proof, ys[i - 1], dealing, ctx)
    return opened


def test_an_honest_dealing_verifies_and_any_t_of_n_open_the_same_secret():
    xs, ys = _party(5)
    dealing, secret = pvss.deal(ys, 3, CTX)
    pvss.verify_dealing(dealing, ys, 3, CTX)
    for indices in itertools.combinations(range(1, 6), 3):
        assert pvss.combine(_open(xs, ys, dealing, indices), 3) == secret


def test_two_of_two_opens_only_with_both():
    xs, ys = _party(2)
    dealing, secret = pvss.deal(ys, 2, CTX)
    opened = _open(xs, ys, dealing, [1, 2])
    assert pvss.combine(opened, 2) == secret
    with pytest.raises(pvss.PvssError, match="1 opened share"):
        pvss.combine({1: opened[1]}, 2)
    assert opened[1] != secret and opened[2] != secret


def test_the_holder_alone_learns_nothing_every_secret_fits_his_share():
    """With 2 of 2, the holder's opened share S_1 = p(1)·G fits every secret T: the American's share
    S_2 = 2·S_1 - T (Lagrange at 0: S = 2·S_1 - S_2) makes it T. So S_1 alone excludes none (and the dealing's
    public part hides the rest under DDH, Schoenmakers §4)."""
    xs, ys = _party(2)
    dealing, secret = pvss.deal(ys, 2, CTX)
    one = _open(xs, ys, dealing, [1])[1]
    for _ in range(5):
        t = pvss.public_point(pvss.random_scalar())
        fitting = pvss._add(pvss._mul(2, one), pvss._neg(t))
        assert pvss.combine({1: one, 2: fitting}, 2) == t
    assert pvss.combine(_open(xs, ys, dealing, [1, 2]), 2) == secret


def test_a_wrong_share_is_refused():
    xs, ys = _party(3)
    dealing, _ = pvss.deal(ys, 2, CTX)
    other = pvss.public_point(pvss.random_scalar())
    bad = pvss.Dealing(dealing.commitments, (dealing.shares[0], other, dealing.shares[2]), dealing.proofs)
    with pytest.raises(pvss.PvssError, match="participant 2 does not match its proof"):
        pvss.verify_dealing(bad, ys, 2, CTX)


def test_a_wrong_proof_is_refused():
    xs, ys = _party(3)
    dealing, _ = pvss.deal(ys, 2, CTX)
    p = dealing.proofs[0]
    for forged in (pvss.Proof(p.c, (p.r + 1) % pvss.L), pvss.Proof((p.c + 1) % pvss.L, p.r), dealing.proofs[1],
                   pvss.Proof(0, 0)):
        bad = pvss.Dealing(dealing.commitments, dealing.shares, (forged,) + dealing.proofs[1:])
        with pytest.raises(pvss.PvssError, match="participant 1"):
            pvss.verify_dealing(bad, ys, 2, CTX)


def test_a_share_for_another_key_is_refused():
    xs, ys = _party(2)
    _, stranger = _party(1)
    dealing, _ = pvss.deal([ys[0], stranger[0]], 2, CTX)  # the dealer shares to someone else than the American
    with pytest.raises(pvss.PvssError, match="participant 2"):
        pvss.verify_dealing(dealing, ys, 2, CTX)


def test_a_dealing_for_another_context_is_refused():
    xs, ys = _party(2)
    dealing, _ = pvss.deal(ys, 2, CTX)
    with pytest.raises(pvss.PvssError):
        pvss.verify_dealing(dealing, ys, 2, CTX + b"-another-game")


def test_a_commitment_to_a_lower_threshold_is_refused():
    xs, ys = _party(2)
    dealing, _ = pvss.deal(ys, 1, CTX)  # one share would open it: the holder alone
    with pytest.raises(pvss.PvssError, match="threshold of 1, not 2"):
        pvss.verify_dealing(dealing, ys, 2, CTX)


@pytest.mark.parametrize("garbage", [b"\x07" * 31, b"\x09" * 33, b"", b"\x01" + bytes(31), bytes(32),
                                     b"\xff" * 32, "text"])
def test_garbage_bytes_are_refused_not_a_crash(garbage):
    xs, ys = _party(2)
    dealing, _ = pvss.deal(ys, 2, CTX)
    for bad in (pvss.Dealing((garbage,) + dealing.commitments[1:], dealing.shares, dealing.proofs),
                pvss.Dealing(dealing.commitments, (garbage, dealing.shares[1]), dealing.proofs)):
        with pytest.raises(pvss.PvssError):
            pvss.verify_dealing(bad, ys, 2, CTX)
    with pytest.raises(pvss.PvssError):
        pvss.Proof.from_bytes(garbage)


def test_random_bytes_of_the_right_length_are_refused():
    xs, ys = _party(2)
    dealing, _ = pvss.deal(ys, 2, CTX)
    for _ in range(20):
        junk = pvss.Dealing(tuple(os.urandom(32) for _ in range(2)), tuple(os.urandom(32) for _ in range(2)),
                            tuple(pvss.Proof(pvss.random_scalar(), pvss.random_scalar()) for _ in range(2)))
        with pytest.raises(pvss.PvssError):
            pvss.verify_dealing(junk, ys, 2, CTX)


def test_a_non_canonical_scalar_is_refused():
    with pytest.raises(pvss.PvssError, match="canonical"):
        pvss.scalar_of((pvss.L + 1).to_bytes(32, "little"), "r")


def test_an_opened_share_that_is_not_the_decryption_is_refused():
    xs, ys = _party(2)
    dealing, secret = pvss.deal(ys, 2, CTX)
    share, proof = pvss.decrypt_share(xs[0], 1, dealing, CTX)
    lie = pvss.public_point(pvss.random_scalar())
    with pytest.raises(pvss.PvssError, match="participant 1's opened share"):
        pvss.verify_share(1, lie, proof, ys[0], dealing, CTX)
    with pytest.raises(pvss.PvssError):  # decrypted with another key than his: his proof cannot hold
        wrong, wrong_proof = pvss.decrypt_share(pvss.random_scalar(), 1, dealing, CTX)
        pvss.verify_share(1, wrong, wrong_proof, ys[0], dealing, CTX)
    with pytest.raises(pvss.PvssError):  # another participant's proof
        pvss.verify_share(2, share, proof, ys[1], dealing, CTX)


def test_an_ed25519_identity_key_is_its_pvss_key():
    from cryptography.hazmat.primitives import serialization as se
    from cryptography.hazmat.primitives.asymmetric import ed25519

    key = ed25519.Ed25519PrivateKey.generate()
    seed = key.private_bytes(se.Encoding.Raw, se.PrivateFormat.Raw, se.NoEncryption())
    public = key.public_key().public_bytes(se.Encoding.Raw, se.PublicFormat.Raw)
    assert pvss.public_point(pvss.private_scalar(seed)) == public
