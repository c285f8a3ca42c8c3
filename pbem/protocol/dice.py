"""Committed dice: rolls nobody can predict and the referee cannot choose.

The referee picks a random 32-byte seed and publishes only a commitment to it.
The player then sends orders carrying a fresh random salt.  The rolls are
derived from both; the seed is revealed in the next turn file, and anyone can
check the commitment and recompute every roll.  The player could not predict
the rolls (the seed was secret); the referee could not choose them (the seed
was fixed before the salt was seen).

Exact derivation (another implementation must reproduce it bit for bit)
----------------------------------------------------------------------
Commitment::

    commit(seed) = "sha256:" + hex(SHA-256(b"pbem-v1/dice-commit\\0" || seed))

Stream: blocks of 32 bytes::

    block(i) = HMAC-SHA256(key = seed,
                           msg = b"pbem-v1/dice-stream\\0" || salt || uint64_be(i))

for i = 0, 1, 2, …; the stream is block(0) || block(1) || … read one byte at
a time.  (The counter has a fixed width at the end, so the message is
unambiguous for any salt length.)

Each roll takes the next byte ``b`` of the stream: if ``b >= 252`` it is
discarded and the next byte taken (252 = 42 × 6, so the accepted bytes are
exactly uniform modulo 6); otherwise the die shows ``b % 6 + 1``.  Bytes are
never reused; discarded bytes are skipped for good.

Rolls are recorded in the order made as ``{"n": 1, "purpose": "...",
"value": 4}``, ``n`` counting from 1.  The purpose is a label saying what the
roll was for (``"combat 0412 vs 0513"``); it does not enter the derivation —
the order of rolls does.

The seed is 32 bytes from :mod:`secrets`; the salt is 32 bytes from the
player's :mod:`secrets` (any length from 0 to 1024 bytes is accepted).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Protocol, Sequence, runtime_checkable

from pbem.protocol.canonical import DIGEST_PREFIX

SEED_LENGTH = 32
SALT_LENGTH = 32
MAX_SALT_LENGTH = 1024
_COMMIT_DOMAIN = b"pbem-v1/dice-commit\x00"
_STREAM_DOMAIN = b"pbem-v1/dice-stream\x00"
_REJECT_FROM = 252


@runtime_checkable
class DiceSource(Protocol):
    """What the rules engine draws dice from: one call per die."""

    def roll(self, purpose: str) -> int:  # pragma: no cover - protocol
        ...


def new_seed() -> bytes:
    """A fresh secret seed (32 bytes)."""
    return secrets.token_bytes(SEED_LENGTH)


def new_salt() -> bytes:
    """A fresh salt for a player's orders (32 bytes)."""
    return secrets.token_bytes(SALT_LENGTH)


def _check_seed(seed: bytes) -> None:
    if not isinstance(seed, bytes) or len(seed) != SEED_LENGTH:
        raise ValueError(f"a dice seed is {SEED_LENGTH} bytes")


def commit(seed: bytes) -> str:
    """The public commitment to ``seed``."""
    _check_seed(seed)
    return DIGEST_PREFIX + hashlib.sha256(_COMMIT_DOMAIN + seed).hexdigest()


def check_commitment(seed: bytes, commitment: str) -> bool:
    """True when ``seed`` is the one ``commitment`` was made to."""
    if not isinstance(seed, bytes) or len(seed) != SEED_LENGTH or not isinstance(commitment, str):
        return False
    return hmac.compare_digest(commit(seed).encode(), commitment.encode("utf-8", "replace"))


class DiceStream:
    """The deterministic d6 stream for one (seed, salt), recording each roll."""

    def __init__(self, seed: bytes, salt: bytes) -> None:
        _check_seed(seed)
        if not isinstance(salt, bytes) or len(salt) > MAX_SALT_LENGTH:
            raise ValueError(f"a dice salt is at most {MAX_SALT_LENGTH} bytes")
        self._seed = seed
        self._salt = salt
        self._block_index = 0
        self._buffer = b""
        self._position = 0
        self._rolls: list[dict] = []

    @property
    def seed(self) -> bytes:
        """The seed (revealed in the next turn file)."""
        return self._seed

    @property
    def salt(self) -> bytes:
        return self._salt

    @property
    def rolls(self) -> list[dict]:
        """Every roll so far: ``[{"n", "purpose", "value"}, …]`` (a copy)."""
        return [dict(roll) for roll in self._rolls]

    def _next_byte(self) -> int:
        if self._position == len(self._buffer):
            message = _STREAM_DOMAIN + self._salt + self._block_index.to_bytes(8, "big")
            self._buffer = hmac.new(self._seed, message, hashlib.sha256).digest()
            self._block_index += 1
            self._position = 0
        byte = self._buffer[self._position]
        self._position += 1
        return byte

    def roll(self, purpose: str) -> int:
        """One d6 (1–6), recorded with what it was for."""
        if not isinstance(purpose, str) or not purpose:
            raise ValueError("every roll needs a purpose label")
        byte = self._next_byte()
        while byte >= _REJECT_FROM:
            byte = self._next_byte()
        value = byte % 6 + 1
        self._rolls.append({"n": len(self._rolls) + 1, "purpose": purpose, "value": value})
        return value


def recompute(seed: bytes, salt: bytes, purposes: Sequence[str]) -> list[int]:
    """The values the stream gives for these rolls, in order (for verification)."""
    stream = DiceStream(seed, salt)
    return [stream.roll(purpose) for purpose in purposes]
