"""What a player's orders derive from a secret of his own: the dice salt and the orders nonce.

A salt drawn fresh at every ``submit`` let a referee re-roll: he
adjudicated to a scratch file, disliked the die, and asked for a resend
("your file arrived damaged"), which carried a new salt.  So the salt is
derived, not drawn: the same player answering the same turn file with the
same revision of his orders always gets the same salt, and a resend rolls
the same dice.  A new salt needs a new revision, which the player makes only
when he changes his mind, and which every later check names.

Exact derivation (another implementation must reproduce it)::

    secret = HKDF-SHA256(ikm = raw Ed25519 private key (32 bytes), salt = none,
                         info = b"pbem-v1/orders-secret", length = 32)
    label  = canonical_bytes({"game", "turn": <digest answered>, "side", "revision"})
    salt   = HMAC-SHA256(secret, b"pbem-v1/orders-salt\\0"  || label)
    nonce  = HMAC-SHA256(secret, b"pbem-v1/orders-nonce\\0" || label)

Since issue 37 the **dice salt belongs to the player-turn, not to the
revision**: the label of the salt leaves the revision out, so whatever
revision, note or order a player sends answering one turn file, its dice are
the same (orders headers of format ``pbem-orders-3``; the nonce stays per
revision, since it blinds a commitment to different orders)::

    salt   = HMAC-SHA256(secret, b"pbem-v1/player-turn-salt\\0" || canonical_bytes({"game", "turn", "side"}))

A peeking referee who adjudicated to a scratch file and then asked for
changed orders ("pbem stopped on your orders") got other dice from a new
revision; now he gets the same ones.  The player never sees the dice before
the turn file, so a fixed salt gives him nothing either.  (``pbem-orders-2``
headers of older games carry the per-revision salt above; they still
verify.)

The secret never leaves the process and cannot be turned back into the key;
nobody needs it but its holder (no key is ever released).  The ``nonce``
blinds the public commitment to the orders (:mod:`pbem.protocol.ordersfile`)
so that nobody can test guessed orders against it.

In a two-player game (no referee) the player who adjudicates his opponent's
orders rolls them with a seed of his own, committed before the opponent's
salt exists.  That seed is derived the same way, so that the player keeps
nothing between turns and a resend of the same orders commits to the same
seed::

    seed(orders) = HMAC-SHA256(secret, b"pbem-v1/adjudication-seed\\0" || label)
    seed(turn)   = HMAC-SHA256(secret, b"pbem-v1/turn-seed\\0" || canonical_bytes({"game", "seq", "prev"}))

The first is committed in his orders header (it rolls the orders of the
opponent's next player-turn), the second in a turn file he writes when the
opponent is to move again (after rejected orders, or at the start).
"""

from __future__ import annotations

import hashlib
import hmac

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.protocol.canonical import canonical_bytes
from pbem.protocol.keys import PrivateIdentity

_SECRET_INFO = b"pbem-v1/orders-secret"
_SALT_DOMAIN = b"pbem-v1/orders-salt\x00"
_NONCE_DOMAIN = b"pbem-v1/orders-nonce\x00"
_PLAYER_TURN_SALT_DOMAIN = b"pbem-v1/player-turn-salt\x00"
_ORDERS_SEED_DOMAIN = b"pbem-v1/adjudication-seed\x00"
_TURN_SEED_DOMAIN = b"pbem-v1/turn-seed\x00"


def _secret(player: PrivateIdentity) -> bytes:
    raw = player.signing_key.private_bytes_raw()  # the Raw/Raw/NoEncryption bytes, without loading serialization
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_SECRET_INFO).derive(raw)


def _label(game: str, turn_digest: str, side: str, revision: int) -> bytes:
    return canonical_bytes({"game": game, "turn": turn_digest, "side": side, "revision": revision})


def orders_salt_and_nonce(player: PrivateIdentity, *, game: str, turn_digest: str, side: str, revision: int) -> tuple[bytes, bytes]:
    """The salt and the commitment nonce of one revision of one player's orders for one turn file."""
    secret = _secret(player)
    label = _label(game, turn_digest, side, revision)
    return (
        hmac.new(secret, _SALT_DOMAIN + label, hashlib.sha256).digest(),
        hmac.new(secret, _NONCE_DOMAIN + label, hashlib.sha256).digest(),
    )


def player_turn_salt(player: PrivateIdentity, *, game: str, turn_digest: str, side: str) -> bytes:
    """The dice salt of one player's orders answering one turn file, whatever their revision (issue 37)."""
    label = canonical_bytes({"game": game, "turn": turn_digest, "side": side})
    return hmac.new(_secret(player), _PLAYER_TURN_SALT_DOMAIN + label, hashlib.sha256).digest()


def orders_seed(player: PrivateIdentity, *, game: str, turn_digest: str, side: str, revision: int) -> bytes:
    """Two-player mode: the seed committed in one revision of a player's orders, for his opponent's next orders."""
    return hmac.new(_secret(player), _ORDERS_SEED_DOMAIN + _label(game, turn_digest, side, revision), hashlib.sha256).digest()


def turn_seed(player: PrivateIdentity, *, game: str, seq: int, prev: str | None) -> bytes:
    """Two-player mode: the seed committed in a turn file its writer signs, for orders he will adjudicate next."""
    label = canonical_bytes({"game": game, "seq": seq, "prev": prev})
    return hmac.new(_secret(player), _TURN_SEED_DOMAIN + label, hashlib.sha256).digest()
