"""The escrow's cryptography, with no file and no game record in it: the Japanese per-game secret dealt between the
escrow holder and the American player (Schoenmakers' PVSS, :mod:`pbem.protocol.pvss`, two of two), its opening from
both shares, and the escrow parts that carry each step's committed orders encrypted under a key the secret derives.

Both ways a game is played use it — through the files (:mod:`.escrow`, :mod:`.recover`) and in one process
(:mod:`.run`, its ``escrow`` holder) — so that every game with a holder has the same escrow (issue 36).  The
construction and what each party learns are :mod:`.escrow`'s docstring and docs/PROTOCOL.md, *The escrow*.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from typing import Any

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.protocol import pvss, sealing
from pbem.protocol.canonical import DIGEST_PREFIX, b64d, b64e, canonical_bytes
from pbem.protocol.keys import PrivateIdentity, PublicIdentity

LARGEST_BUCKET = 1024 * 1024
"""No escrow part grows past this (an order of every unit of the largest scenario is far smaller)."""
THRESHOLD = 2
HOLDER, AMERICAN = 1, 2
"""The PVSS participants: 1 the holder, 2 the American player."""
NONCE_LENGTH = 12
TAG_LENGTH = 16
_SECRET_INFO = b"pbem-v1/blind-secret\x00"


def secret_hash(secret: bytes) -> str:
    """What the genesis of an escrowed game commits: the secret opened from the escrow is checked against it."""
    return DIGEST_PREFIX + hashlib.sha256(_SECRET_INFO + secret).hexdigest()


def _hkdf(ikm: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(ikm)


def pvss_context(game: str) -> bytes:
    return b"pbem-v1/blind-escrow-pvss\x00" + canonical_bytes({"game": game})


def secret_of(point: bytes, game: str) -> bytes:
    """The per-game secret the PVSS secret ``S`` derives."""
    return _hkdf(point, b"pbem-v1/blind-escrow-secret\x00" + canonical_bytes({"game": game}))


def identity_point(identity: PublicIdentity) -> bytes:
    """A participant's PVSS public key: his Ed25519 identity key, a point of the prime-order group."""
    return identity.verify_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def identity_scalar(identity: PrivateIdentity) -> int:
    seed = identity.signing_key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                              serialization.NoEncryption())
    return pvss.private_scalar(seed)


def _dealing_json(dealing: pvss.Dealing) -> dict:
    return {"threshold": dealing.threshold, "commitments": [b64e(c) for c in dealing.commitments],
            "shares": [{"share": b64e(y), "proof": b64e(p.to_bytes())} for y, p in zip(dealing.shares, dealing.proofs)]}


def deal(holder: PublicIdentity, us: PublicIdentity, game: str, seed: bytes) -> tuple[dict, bytes]:
    """The genesis's escrow fields and the per-game secret they deal (the Japanese player's, from now on); ``seed``
    is 32 bytes of the operating system's randomness (``commitment.new_secret``) that ``s`` is drawn from."""
    s = pvss.scalar_from_seed(seed, b"pbem-v1/blind-escrow-scalar\x00")
    dealing, point = pvss.deal([identity_point(holder), identity_point(us)], THRESHOLD, pvss_context(game), secret=s)
    secret = secret_of(point, game)
    return {"escrow": {"holder": holder.line(), "secret": secret_hash(secret), "pvss": _dealing_json(dealing)}}, secret


def _part_key(secret: bytes, game: str, n: int) -> bytes:
    return _hkdf(secret, b"pbem-v1/blind-escrow-orders\x00" + canonical_bytes({"game": game, "n": n}))


def part_aad(game: str, n: int, seq: int | None) -> bytes:
    """The associated data of file ``n``'s part: the game, the file and the step whose orders it commits (None: no
    step), so that a part pasted into another file, or holding another step's orders, does not decrypt."""
    return canonical_bytes({"game": game, "n": n, "seq": seq})


def seal_part(secret: bytes, *, game: str, n: int, seq: int | None, orders: Any, bucket: int) -> bytes:
    """The escrow part of file ``n``: the orders of step ``seq`` it commits, encrypted under the key ``secret``
    derives for that file, at least ``bucket`` long."""
    plaintext = sealing.pad(sealing.compress(canonical_bytes({"game": game, "n": n, "seq": seq, "orders": orders})),
                            bucket)
    nonce = os.urandom(NONCE_LENGTH)
    return nonce + ChaCha20Poly1305(_part_key(secret, game, n)).encrypt(nonce, plaintext, part_aad(game, n, seq))


def open_part(secret: bytes, game: str, n: int, part: bytes, seq: int | None = None) -> bytes | None:
    """The plaintext of file ``n``'s part that commits step ``seq``'s orders, or None when it does not decrypt as
    that file's."""
    from cryptography.exceptions import InvalidTag

    if len(part) < NONCE_LENGTH + TAG_LENGTH:
        return None
    try:
        padded = ChaCha20Poly1305(_part_key(secret, game, n)).decrypt(part[:NONCE_LENGTH], part[NONCE_LENGTH:],
                                                                      part_aad(game, n, seq))
    except InvalidTag:
        return None
    data = sealing.unpad(padded)
    return None if data is None else sealing.decompress(data, LARGEST_BUCKET)


def dealing_from(doc: dict) -> pvss.Dealing:
    """A dealing as the genesis (or an in-process record) carries it, decoded (PvssError when a field is not base64
    of a group element or a proof)."""
    from pbem.errors import BadInput

    try:
        commitments = tuple(b64d(c) for c in doc["commitments"])
        shares = tuple(b64d(s["share"]) for s in doc["shares"])
        proofs = tuple(pvss.Proof.from_bytes(b64d(s["proof"]), f"the proof of share {i}")
                       for i, s in enumerate(doc["shares"], 1))
    except BadInput as exc:
        raise pvss.PvssError(f"{exc.message}") from None
    except (KeyError, TypeError) as exc:
        raise pvss.PvssError(f"the dealing is malformed ({type(exc).__name__}: {exc})") from None
    return pvss.Dealing(commitments, shares, proofs)


def dealing_problem(escrow: dict, holder: PublicIdentity, us: PublicIdentity, game: str) -> str | None:
    """Why a dealing (the ``escrow`` fields) does not verify against the holder's and the American player's keys."""
    try:
        pvss.verify_dealing(dealing_from(escrow["pvss"]), [identity_point(holder), identity_point(us)], THRESHOLD,
                            pvss_context(game))
    except pvss.PvssError as exc:
        return str(exc)
    return None


def open_share(identity: PrivateIdentity, index: int, escrow: dict, game: str) -> tuple[bytes, pvss.Proof]:
    """Participant ``index`` opens his share with his key: ``S_i`` and its proof (Schoenmakers §3.2)."""
    return pvss.decrypt_share(identity_scalar(identity), index, dealing_from(escrow["pvss"]), pvss_context(game))


def secret_from_shares(opened: dict[int, bytes], escrow: dict, game: str) -> bytes | None:
    """The per-game secret both verified shares open, or None when it is not the one the escrow's hash commits."""
    secret = secret_of(pvss.combine(opened, THRESHOLD), game)
    return secret if hmac.compare_digest(secret_hash(secret).encode(), str(escrow["secret"]).encode()) else None
