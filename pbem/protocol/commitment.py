"""Commitments to what stands under each marker, for hidden units with no referee (docs/PROTOCOL.md).

The American player sees where every Japanese counter stands (its hex is
its marker id), not what it is.  After each step the Japanese player
publishes one **root**: a Merkle tree over the counters on the map, ordered
by marker id, whose leaves say what each is.  When a rule exposes a counter
he publishes its **opening** (leaf, salt, audit path); anyone holding the
root checks it with :func:`verify_opening`.  After the game he publishes
his per-game **secret**, which re-derives every salt, so that every root
can be rebuilt from the true positions (:func:`commit` again).

Exact construction (another implementation must reproduce it bit for bit)
-------------------------------------------------------------------------
Salt of one marker at one step (fresh every step, so an unchanged leaf does
not say a unit stood still; 256 bits, so no small space can be searched)::

    salt = HKDF-SHA256(ikm = secret (32 bytes), salt = none, length = 32,
                       info = b"pbem-v1/marker-salt\\0" || canonical({"game", "seq", "marker"}))

Leaf and tree (RFC 6962 section 2.1, SHA-256)::

    leaf_data  = salt || canonical({"marker": <hex>, "piece": <what stands there>})
    leaf_hash  = SHA-256(0x00 || leaf_data)
    node_hash  = SHA-256(0x01 || left || right)
    root       = MTH(leaf hashes ordered by marker id), written "sha256:<hex>"

``piece`` is ``{"kind": "dummy"}`` for a dummy (dummies are alike: no id)
and the unit's identity otherwise: id, kind, strengths and name as the
scenario gives them.  An audit path is RFC 6962's PATH(m, D[n]); it is
checked as RFC 9162 section 2.1.3.2 says, against the leaf's index and the
tree size, both public (the markers are).
"""

from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass, field
from typing import Any, Mapping

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.errors import BadInput
from pbem.protocol.canonical import DIGEST_PREFIX, b64d, b64e, canonical_bytes

SECRET_LENGTH = 32
SALT_LENGTH = 32
_SALT_INFO = b"pbem-v1/marker-salt\x00"
_LEAF_PREFIX = b"\x00"
_NODE_PREFIX = b"\x01"
DUMMY = {"kind": "dummy"}
"""A dummy's piece: dummies are interchangeable, so an opened one says only that it was a dummy (19B.6)."""


def new_secret() -> bytes:
    """A fresh per-game secret (the operating system's randomness)."""
    return os.urandom(SECRET_LENGTH)


def _check_secret(secret: bytes) -> None:
    if not isinstance(secret, bytes) or len(secret) != SECRET_LENGTH:
        raise ValueError(f"a marker secret is {SECRET_LENGTH} bytes")


def marker_salt(secret: bytes, *, game: str, seq: int, marker: str) -> bytes:
    """The salt of ``marker``'s leaf in the root of step ``seq``: HKDF-SHA256 of the game's secret."""
    _check_secret(secret)
    info = _SALT_INFO + canonical_bytes({"game": game, "seq": seq, "marker": marker})
    return HKDF(algorithm=hashes.SHA256(), length=SALT_LENGTH, salt=None, info=info).derive(secret)


def leaf_data(salt: bytes, marker: str, piece: Mapping[str, Any]) -> bytes:
    return salt + canonical_bytes({"marker": marker, "piece": dict(piece)})


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(_LEAF_PREFIX + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(_NODE_PREFIX + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (RFC 6962's k), for n > 1."""
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def tree_hash(leaves: list[bytes]) -> bytes:
    """RFC 6962 MTH over leaf hashes (the hash of the empty string for no leaf)."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return leaves[0]
    k = _split(len(leaves))
    return node_hash(tree_hash(leaves[:k]), tree_hash(leaves[k:]))


def audit_path(index: int, leaves: list[bytes]) -> list[bytes]:
    """RFC 6962 PATH(index, leaves): the sibling hashes from the leaf up."""
    if len(leaves) <= 1:
        return []
    k = _split(len(leaves))
    if index < k:
        return audit_path(index, leaves[:k]) + [tree_hash(leaves[k:])]
    return audit_path(index - k, leaves[k:]) + [tree_hash(leaves[:k])]


def root_from_path(index: int, size: int, leaf: bytes, path: list[bytes]) -> bytes | None:
    """The root an inclusion proof leads to (RFC 9162 2.1.3.2), or None when the path is malformed."""
    if not 0 <= index < size:
        return None
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return None
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return r if sn == 0 else None


def _hex_root(digest: bytes) -> str:
    return DIGEST_PREFIX + digest.hex()


@dataclass(frozen=True)
class Opening:
    """One leaf opened: what stood under ``marker`` in the root of step ``seq``, with the proof."""

    marker: str
    index: int
    size: int
    piece: dict
    salt: bytes
    path: tuple[bytes, ...]

    @property
    def is_dummy(self) -> bool:
        return self.piece == DUMMY

    def as_json(self) -> dict:
        return {"marker": self.marker, "index": self.index, "size": self.size, "piece": self.piece,
                "salt": b64e(self.salt), "path": [b64e(p) for p in self.path]}

    @classmethod
    def from_json(cls, doc: Any, source: str | None = None) -> "Opening":
        """An opening as published; anything malformed is BadInput naming ``source``."""
        try:
            return cls(doc["marker"], int(doc["index"]), int(doc["size"]), dict(doc["piece"]),
                       b64d(doc["salt"], source=source, field="salt"),
                       tuple(b64d(p, source=source, field="path") for p in doc["path"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise BadInput(f"a marker opening is malformed ({type(exc).__name__}: {exc})", file=source,
                           hint="ask the Japanese player for the file again") from None


@dataclass(frozen=True)
class Commitment:
    """Every leaf of one step's tree; the Japanese player keeps it (or re-derives it from the secret)."""

    game: str
    seq: int
    pieces: dict[str, dict]
    salts: dict[str, bytes] = field(repr=False)
    hashes: tuple[bytes, ...] = field(repr=False)

    @property
    def markers(self) -> list[str]:
        return sorted(self.pieces)

    @property
    def root(self) -> str:
        return _hex_root(tree_hash(list(self.hashes)))

    def opening(self, marker: str) -> Opening:
        markers = self.markers
        index = markers.index(marker)
        return Opening(marker, index, len(markers), dict(self.pieces[marker]), self.salts[marker],
                       tuple(audit_path(index, list(self.hashes))))


def commit(secret: bytes, *, game: str, seq: int, pieces: Mapping[str, Mapping[str, Any]]) -> Commitment:
    """The tree over ``pieces`` (marker id → piece) at step ``seq``; the audit calls it again to rebuild a root."""
    markers = sorted(pieces)
    salts = {m: marker_salt(secret, game=game, seq=seq, marker=m) for m in markers}
    hashes_ = tuple(leaf_hash(leaf_data(salts[m], m, pieces[m])) for m in markers)
    return Commitment(game, seq, {m: dict(pieces[m]) for m in markers}, salts, hashes_)


def verify_opening(root: str, opening: Opening, markers: list[str] | None = None) -> bool:
    """True when ``opening`` is a leaf of the tree whose root is ``root``.

    ``markers`` (the sorted marker ids of that step, public) also fixes where the leaf must stand and how many
    leaves the tree has, so a leaf cannot be passed off for another marker's."""
    if not isinstance(opening.salt, bytes) or len(opening.salt) != SALT_LENGTH:
        return False
    if markers is not None and (opening.size != len(markers) or not 0 <= opening.index < len(markers)
                                or markers[opening.index] != opening.marker):
        return False
    try:
        data = leaf_data(opening.salt, opening.marker, opening.piece)
        found = root_from_path(opening.index, opening.size, leaf_hash(data), list(opening.path))
    except (TypeError, ValueError):  # a piece outside canonical JSON, a path element that is not bytes
        return False
    return found is not None and isinstance(root, str) and hmac.compare_digest(_hex_root(found).encode(), root.encode("utf-8", "replace"))


def secret_matches(secret: bytes, opening: Opening, *, game: str, seq: int) -> bool:
    """True when ``opening``'s salt is the one the published secret derives (the audit's check)."""
    return hmac.compare_digest(marker_salt(secret, game=game, seq=seq, marker=opening.marker), opening.salt)
