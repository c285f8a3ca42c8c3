"""Publicly verifiable secret sharing (Schoenmakers, 1999) with Chaum–Pedersen proofs, over the Ed25519 group.

The construction is Berry Schoenmakers, *A Simple Publicly Verifiable
Secret Sharing Scheme and its Application to Electronic Voting*, CRYPTO '99
(LNCS 1666, pp. 148–164), section 3 ("Special PVSS scheme"): §3.1
distribution, §3.2 reconstruction.  Its proofs of equal discrete logarithms
are D. Chaum and T. P. Pedersen, *Wallet Databases with Observers*,
CRYPTO '92 (LNCS 740), §3.2 (the protocol ``DLEQ(g1, h1, g2, h2)``), made
non-interactive with the Fiat–Shamir heuristic (A. Fiat and A. Shamir,
CRYPTO '86) as Schoenmakers does (§3.1, "the challenge c is computed as a
cryptographic hash").  Nothing here is a new group, cipher or proof: every
group operation is libsodium's, through PyNaCl (``crypto_core_ed25519_*``,
``crypto_scalarmult_ed25519_*_noclamp``) over the prime-order subgroup of
edwards25519 (order ``L = 2^252 + 27742317777372353535851937790883648493``);
scalars (the field ``Z_L``, a polynomial's coefficients and Lagrange's
coefficients) are integers modulo ``L``.

Notation (additive, as libsodium's API is; Schoenmakers writes it
multiplicatively):

- ``G`` is the Ed25519 base point: the secret is ``S = s·G`` and a
  participant's public key is ``y_i = x_i·G`` — so an Ed25519 identity's
  public key *is* its PVSS public key and its secret scalar (the clamped
  SHA-512 half of its seed, RFC 8032 §5.1.5) the private one
  (:func:`private_scalar`, :func:`public_point`).
- ``g`` is a second generator whose discrete logarithm to ``G`` nobody
  knows: ``crypto_core_ed25519_from_uniform`` (Elligator 2, cofactor
  cleared) of ``SHA-512("pbem-v1/pvss-generator-g")[:32]``.

Distribution (§3.1), threshold ``t`` of ``n``: the dealer draws a random
polynomial ``p(x) = a_0 + a_1 x + … + a_{t-1} x^{t-1}`` over ``Z_L``,
``s = a_0``; he publishes ``C_j = a_j·g`` and for each participant ``i``
(1-based) ``Y_i = p(i)·y_i`` with a proof ``DLEQ(g, X_i, y_i, Y_i)`` where
``X_i = Σ_j i^j·C_j = p(i)·g``.  Anyone checks the dealing
(:func:`verify_dealing`) and so knows that any ``t`` participants open the
same ``S``.

Reconstruction (§3.2): participant ``i`` computes ``S_i = x_i^{-1}·Y_i =
p(i)·G`` and proves it with ``DLEQ(G, y_i, S_i, Y_i)`` (the same ``x_i``
takes ``G`` to ``y_i`` and ``S_i`` to ``Y_i``) — :func:`decrypt_share`,
:func:`verify_share`; any ``t`` proven shares give
``S = Σ λ_i·S_i`` with Lagrange's coefficients at 0 (:func:`combine`).

What a reader learns: under the decisional Diffie–Hellman assumption in the
group (Schoenmakers §4), fewer than ``t`` participants learn nothing about
``S`` from the dealing and their shares.

One difference from the paper's text, not its security: Schoenmakers
proves all ``n`` shares with one challenge over every ``X_i, Y_i`` and
``a_1i, a_2i``; here each share has its own ``DLEQ`` proof (its own
challenge, its context naming the participant ``i``), so a verifier names
the share that fails.  Each proof is the same Chaum–Pedersen protocol, sound
on its own.

The Fiat–Shamir challenge is ``SHA-512(DOMAIN || len(context) || context
|| g1 || h1 || g2 || h2 || a1 || a2)`` reduced modulo ``L``, the context
binding the proof to its game and use (no proof is taken for another).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

from nacl import bindings as _na
from nacl.exceptions import RuntimeError as _NaclRuntimeError

L = 2**252 + 27742317777372353535851937790883648493
"""The order of the prime-order subgroup of edwards25519 (RFC 8032 §5.1)."""
POINT_BYTES = 32
SCALAR_BYTES = 32
DOMAIN = b"pbem-v1/pvss-dleq\x00"


class PvssError(ValueError):
    """A dealing, share, proof or encoding that does not verify: its message says which and why."""


# ---------------------------------------------------------------------------------------------- the group (libsodium)


def scalar_bytes(k: int) -> bytes:
    return (k % L).to_bytes(SCALAR_BYTES, "little")


def scalar_of(data: object, what: str) -> int:
    """A canonical scalar (32 bytes, little-endian, below ``L``); PvssError otherwise."""
    if not isinstance(data, (bytes, bytearray)) or len(data) != SCALAR_BYTES:
        raise PvssError(f"{what} is not a {SCALAR_BYTES}-byte scalar")
    k = int.from_bytes(data, "little")
    if k >= L:
        raise PvssError(f"{what} is not a canonical scalar (not below the group order)")
    return k


def point_of(data: object, what: str) -> bytes:
    """A point of the prime-order subgroup, canonically encoded and not of small order; PvssError otherwise."""
    if not isinstance(data, (bytes, bytearray)) or len(data) != POINT_BYTES:
        raise PvssError(f"{what} is not a {POINT_BYTES}-byte group element")
    data = bytes(data)
    if not _na.crypto_core_ed25519_is_valid_point(data):
        raise PvssError(f"{what} is not an element of the prime-order group (off the curve, small order or "
                        "not canonical)")
    return data


def _mul(k: int, point: bytes) -> bytes | None:
    """``k·point``, None for the neutral element (libsodium refuses to return it)."""
    k %= L
    if k == 0:
        return None
    try:
        return _na.crypto_scalarmult_ed25519_noclamp(scalar_bytes(k), point)
    except _NaclRuntimeError:
        return None


def _add(p: bytes | None, q: bytes | None) -> bytes | None:
    if p is None:
        return q
    if q is None:
        return p
    if p == _neg(q):
        return None
    return _na.crypto_core_ed25519_add(p, q)


def _neg(p: bytes) -> bytes:
    return _mul(L - 1, p)  # -p = (L-1)·p in a group of order L

BASE = _na.crypto_scalarmult_ed25519_base_noclamp(scalar_bytes(1))
"""``G``: the Ed25519 base point (RFC 8032 §5.1)."""
SECOND = _na.crypto_core_ed25519_from_uniform(hashlib.sha512(b"pbem-v1/pvss-generator-g").digest()[:32])
"""``g``: a generator of nobody's choosing (Elligator 2 of a fixed hash, cofactor cleared by libsodium)."""


def random_scalar() -> int:
    """A uniform nonzero scalar (64 bytes from the operating system, reduced modulo ``L``)."""
    while True:
        k = int.from_bytes(_na.crypto_core_ed25519_scalar_reduce(os.urandom(64)), "little")
        if k:
            return k


def _challenge(context: bytes, *points: bytes) -> int:
    h = hashlib.sha512(DOMAIN + len(context).to_bytes(4, "big") + context + b"".join(points)).digest()
    return int.from_bytes(_na.crypto_core_ed25519_scalar_reduce(h), "little")


# ---------------------------------------------------------------------------------------------- Chaum–Pedersen


@dataclass(frozen=True)
class Proof:
    """A non-interactive ``DLEQ(g1, h1, g2, h2)``: the challenge ``c`` and the response ``r``."""

    c: int
    r: int

    def to_bytes(self) -> bytes:
        return scalar_bytes(self.c) + scalar_bytes(self.r)

    @classmethod
    def from_bytes(cls, data: object, what: str = "the proof") -> "Proof":
        if not isinstance(data, (bytes, bytearray)) or len(data) != 2 * SCALAR_BYTES:
            raise PvssError(f"{what} is not {2 * SCALAR_BYTES} bytes (a challenge and a response)")
        return cls(scalar_of(data[:32], f"{what}'s challenge"), scalar_of(data[32:], f"{what}'s response"))


def prove_dleq(alpha: int, g1: bytes, h1: bytes, g2: bytes, h2: bytes, context: bytes) -> Proof:
    """Chaum–Pedersen §3.2 with a Fiat–Shamir challenge: ``alpha`` is ``log_g1 h1 = log_g2 h2``."""
    while True:
        w = random_scalar()
        a1, a2 = _mul(w, g1), _mul(w, g2)
        c = _challenge(context, g1, h1, g2, h2, a1, a2)
        r = (w - alpha * c) % L
        if c and r:  # both zero only with probability 2^-252; redrawn so the verifier may refuse zeros
            return Proof(c, r)


def verify_dleq(proof: Proof, g1: bytes, h1: bytes, g2: bytes, h2: bytes, context: bytes) -> bool:
    """``a1 = r·g1 + c·h1``, ``a2 = r·g2 + c·h2`` and ``c = H(g1, h1, g2, h2, a1, a2)``."""
    if not proof.c or not proof.r:
        return False
    a1 = _add(_mul(proof.r, g1), _mul(proof.c, h1))
    a2 = _add(_mul(proof.r, g2), _mul(proof.c, h2))
    if a1 is None or a2 is None:
        return False
    return _challenge(context, g1, h1, g2, h2, a1, a2) == proof.c


# ---------------------------------------------------------------------------------------------- keys


def private_scalar(seed: bytes) -> int:
    """The secret scalar of an Ed25519 private key given by its 32-byte seed (RFC 8032 §5.1.5: the clamped
    first half of SHA-512(seed)), reduced modulo ``L``; its public key is this scalar times ``G``."""
    h = bytearray(hashlib.sha512(seed).digest()[:32])
    h[0] &= 248
    h[31] &= 127
    h[31] |= 64
    return int.from_bytes(h, "little") % L


def public_point(x: int) -> bytes:
    return _na.crypto_scalarmult_ed25519_base_noclamp(scalar_bytes(x))


# ---------------------------------------------------------------------------------------------- Schoenmakers §3


@dataclass(frozen=True)
class Dealing:
    """What the dealer publishes: the commitments ``C_j`` to his polynomial, and for each participant his
    encrypted share ``Y_i`` and its proof ``DLEQ(g, X_i, y_i, Y_i)``."""

    commitments: tuple[bytes, ...]
    shares: tuple[bytes, ...]
    proofs: tuple[Proof, ...]

    @property
    def threshold(self) -> int:
        return len(self.commitments)


def _x_i(commitments: tuple[bytes, ...], i: int) -> bytes | None:
    """``X_i = Σ_j i^j·C_j = p(i)·g``, from the public commitments."""
    total = None
    for j, c in enumerate(commitments):
        total = _add(total, _mul(pow(i, j, L), c))
    return total


def _share_context(context: bytes, i: int) -> bytes:
    return context + b"\x00share\x00" + i.to_bytes(4, "big")


def _decrypt_context(context: bytes, i: int) -> bytes:
    return context + b"\x00decrypt\x00" + i.to_bytes(4, "big")


def scalar_from_seed(seed: bytes, label: bytes) -> int:
    """A scalar from 32 or more random bytes: SHA-512(label || seed) reduced modulo ``L`` (the bias is 2^-259)."""
    return int.from_bytes(_na.crypto_core_ed25519_scalar_reduce(hashlib.sha512(label + seed).digest()), "little")


def deal(public_keys: list[bytes], threshold: int, context: bytes, secret: int | None = None) -> tuple[Dealing, bytes]:
    """A dealing to ``public_keys`` (participant ``i`` is ``public_keys[i-1]``) and the secret ``S = s·G``; ``secret``
    is ``s`` when the caller drew it (else a random scalar)."""
    if not 1 <= threshold <= len(public_keys):
        raise ValueError("the threshold must be between 1 and the number of participants")
    keys = [point_of(y, f"participant {i}'s public key") for i, y in enumerate(public_keys, 1)]
    while True:
        coefficients = [secret % L if secret else random_scalar()] + [random_scalar() for _ in range(threshold - 1)]
        values = [sum(a * pow(i, j, L) for j, a in enumerate(coefficients)) % L for i in range(1, len(keys) + 1)]
        if all(values):  # p(i) = 0 has probability n/L
            break
    commitments = tuple(_mul(a, SECOND) for a in coefficients)
    shares, proofs = [], []
    for i, (y, v) in enumerate(zip(keys, values), 1):
        y_i = _mul(v, y)
        shares.append(y_i)
        proofs.append(prove_dleq(v, SECOND, _mul(v, SECOND), y, y_i, _share_context(context, i)))
    return Dealing(commitments, tuple(shares), tuple(proofs)), _mul(coefficients[0], BASE)


def verify_dealing(dealing: Dealing, public_keys: list[bytes], threshold: int, context: bytes) -> None:
    """PvssError naming the first thing wrong: the number of commitments or shares, an encoding, or the proof of
    participant ``i``'s share (Schoenmakers §3.1, *Verification of the shares*)."""
    if len(dealing.commitments) != threshold:
        raise PvssError(f"the dealing commits a polynomial for a threshold of {len(dealing.commitments)}, not {threshold}")
    if not (len(dealing.shares) == len(dealing.proofs) == len(public_keys)):
        raise PvssError(f"the dealing holds {len(dealing.shares)} shares and {len(dealing.proofs)} proofs for "
                        f"{len(public_keys)} participants")
    commitments = tuple(point_of(c, f"commitment {j}") for j, c in enumerate(dealing.commitments))
    for i, (y, y_i, proof) in enumerate(zip(public_keys, dealing.shares, dealing.proofs), 1):
        y = point_of(y, f"participant {i}'s public key")
        y_i = point_of(y_i, f"participant {i}'s share")
        x_i = _x_i(commitments, i)
        if x_i is None or not verify_dleq(proof, SECOND, x_i, y, y_i, _share_context(context, i)):
            raise PvssError(f"the share of participant {i} does not match its proof (it is not p({i}) times his key "
                            "for the polynomial committed)")


def decrypt_share(x: int, i: int, dealing: Dealing, context: bytes) -> tuple[bytes, Proof]:
    """Participant ``i`` (private scalar ``x``) opens his share: ``S_i = x^{-1}·Y_i`` and ``DLEQ(G, y_i, S_i, Y_i)``."""
    y_i = point_of(dealing.shares[i - 1], f"participant {i}'s share")
    s_i = _mul(pow(x, -1, L), y_i)
    return s_i, prove_dleq(x, BASE, public_point(x), s_i, y_i, _decrypt_context(context, i))


def verify_share(i: int, opened: bytes, proof: Proof, public_key: bytes, dealing: Dealing, context: bytes) -> bytes:
    """The opened share ``S_i`` if its proof shows it is the decryption of ``Y_i`` under ``public_key``; PvssError
    otherwise (Schoenmakers §3.2, *Decryption of the shares*)."""
    if not 1 <= i <= len(dealing.shares):
        raise PvssError(f"there is no participant {i} in this dealing")
    opened = point_of(opened, f"participant {i}'s opened share")
    y = point_of(public_key, f"participant {i}'s public key")
    y_i = point_of(dealing.shares[i - 1], f"participant {i}'s share")
    if not verify_dleq(proof, BASE, y, opened, y_i, _decrypt_context(context, i)):
        raise PvssError(f"participant {i}'s opened share does not match its proof (not his share decrypted with "
                        "his key)")
    return opened


def combine(opened: dict[int, bytes], threshold: int) -> bytes:
    """``S = Σ λ_i·S_i`` over ``threshold`` verified shares (Lagrange at 0, Schoenmakers §3.2, *Pooling*)."""
    indices = sorted(opened)[:threshold]
    if len(indices) < threshold:
        raise PvssError(f"{len(indices)} opened share(s), {threshold} needed")
    total = None
    for i in indices:
        num, den = 1, 1
        for j in indices:
            if j != i:
                num, den = num * j % L, den * (j - i) % L
        total = _add(total, _mul(num * pow(den, -1, L), opened[i]))
    if total is None:
        raise PvssError("the opened shares combine to the neutral element")
    return total
