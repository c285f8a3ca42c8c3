"""Turn files: the referee's signed record of one adjudicated player-turn.

A turn file is an armoured block of kind ``TURN`` (see
:mod:`pbem.protocol.armour`; headers ``Game`` and ``Sequence``, which readers
check against the signed content).  Its payload is the canonical JSON of a
signed envelope (:mod:`pbem.protocol.signing`, context ``"turn"``) made with
the referee's key, followed by the raw sealed parts (:mod:`pbem.protocol.parts`:
``views.US``, ``views.JP``, ``referee_state``, in that order).  The envelope's body::

    {
      "format": "pbem-turn-2",
      "game": "<32 lower-case hex: 16 random bytes, fixed at genesis>",
      "seq": 0,                              # 0 for genesis, then 1, 2, …
      "prev": null | "sha256:<hex>",         # digest of the previous turn file's payload
      "orders": null | {…},                  # the player's signed orders header adjudicated (ordersfile)
      "superseded": [{…}, …],                # the signed headers of the earlier revisions received
      "scenario": {"id": "<text>", "hash": "sha256:<hex>"},
      "ruleset": {…},                        # opaque: edition, options
      "identities": {"US": "pbem-id-1 …", "JP": "pbem-id-1 …", "referee": "pbem-id-1 …"},
      "public": …,                           # opaque JSON: public events, whose turn, …
      "dice": {
        "revealed_seed": null | "<b64, 32 bytes>",   # seed_n, committed in the previous file
        "salt": null | "<b64>",                      # the salt from the orders adjudicated
        "rolls": [{"n": 1, "purpose": "…", "value": 4}, …],
        "next_commitment": "sha256:<hex>"            # commit(seed_{n+1})
      },
      "views": {"US": <part descriptor>, "JP": <part descriptor>},
      "view_commitments": {"US": "sha256:<hex>", "JP": "sha256:<hex>"},
      "referee_state": <part descriptor>,
      "state_commitment": "sha256:<hex>"
    }

Rules a reader enforces: ``seq == 0`` exactly when ``prev``, ``orders``,
``revealed_seed`` and ``salt`` are null and ``rolls`` is empty; the three
identities are repeated in every file and hold three different key sets.

Digests: a turn file is named by ``"sha256:" + hex(SHA-256(payload))`` where
payload is the dearmoured bytes (the envelope's canonical JSON and the sealed parts) — see
:func:`turn_digest`.  ``orders`` is the player's signed orders header
(:mod:`pbem.protocol.ordersfile`): it shows, without the orders themselves,
which turn file the player answered, which revision was adjudicated and its
salt; its digest is the orders digest.

Sealed parts (:mod:`pbem.protocol.sealing`, HPKE with size buckets):

* ``views[SIDE]`` is the canonical JSON of ``{"nonce": <b64, 32 bytes>,
  "view": <that side's view, opaque>}``, sealed to that side's identity
  with ``info = seal_info("view", {"game", "seq", "role": SIDE})``.  Both
  views and the referee state are padded to one bucket, chosen by the
  referee from public data (:mod:`pbem.game.sizes`).  ``view_commitments[SIDE] =
  "sha256:" + hex(SHA-256(b"pbem-v1/view-commit\\0" || nonce ||
  canonical_bytes(view)))``, signed in clear: a player who reveals his view
  and its nonce proves to anyone what the referee told him.
* ``referee_state`` is the canonical JSON of
  ``{"format": "pbem-referee-state-2", "nonce": <b64, 32 bytes>,
  "state": <full state, opaque>, "next_seed": <b64, 32 bytes>,
  "view_nonces": {"US": <b64>, "JP": <b64>}}`` sealed to
  the referee with ``info = seal_info("referee-state", {"game", "seq",
  "role": "referee"})``.  The referee keeps nothing else between turns.
* ``state_commitment = "sha256:" + hex(SHA-256(b"pbem-v1/state-commit\\0" ||
  nonce || canonical_bytes(state)))``.  After the game the referee publishes
  ``(nonce, state)`` per turn and anyone can check them with
  :func:`check_state_commitment`; the random nonce keeps the commitment from
  being tested against guessed states during the game.

A **two-player** game (no referee) has turn files of the same format with
``"mode": "two-player"``, signed by the player who adjudicated, and nothing
sealed: see :mod:`pbem.protocol.twoplayer`.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pbem.errors import BadInput, VerificationFailed
from pbem.protocol import fields, parts, signing
from pbem.protocol.armour import armour, dearmour
from pbem.protocol.canonical import (
    DIGEST_PREFIX,
    b64e,
    canonical_bytes,
    digest,
    digest_bytes,
    parse_canonical,
)
from pbem.protocol.dice import MAX_SALT_LENGTH, SEED_LENGTH, DiceStream, check_commitment, commit
from pbem.protocol.files import text_and_source
from pbem.protocol.keys import PrivateIdentity, PublicIdentity
from pbem.protocol.sealing import bucket_size, compress, open_sealed, seal_compressed, seal_info

FORMAT = "pbem-turn-2"
KIND = "TURN"
SIGN_CONTEXT = "turn"
REFEREE_STATE_FORMAT = "pbem-referee-state-2"
MAX_FILE_CHARS = 16 * 1024 * 1024
MAX_SEALED_PLAINTEXT = 32 * 1024 * 1024
SIDES = ("US", "JP")
REFEREE = "referee"
ROLES = SIDES + (REFEREE,)
ARMOUR_MARKER = "-----BEGIN PBEM"

BODY_KEYS = frozenset(
    {"format", "game", "seq", "prev", "orders", "scenario", "ruleset", "identities",
     "public", "dice", "views", "view_commitments", "referee_state", "state_commitment", "superseded"}
)
DICE_KEYS = frozenset({"revealed_seed", "salt", "rolls", "next_commitment"})
TWO_PLAYER = "two-player"
TWO_PLAYER_BODY_KEYS = frozenset(
    {"format", "mode", "writer", "game", "seq", "prev", "orders", "scenario", "ruleset", "identities",
     "public", "dice", "superseded", "state", "opened"}
)
TWO_PLAYER_DICE_KEYS = DICE_KEYS | {"next_committed_by"}
ROLL_KEYS = frozenset({"n", "purpose", "value"})
_GAME_RE = re.compile(r"[0-9a-f]{32}")
_STATE_DOMAIN = b"pbem-v1/state-commit\x00"
_VIEW_DOMAIN = b"pbem-v1/view-commit\x00"


def new_game_id() -> str:
    """A fresh random game id (32 hex digits)."""
    return secrets.token_hex(16)


def commit_state(nonce: bytes, state: Any, *, parsed: bool = False) -> str:
    """The commitment to a full state published in a turn file (``parsed``: as :func:`canonical_bytes` takes it)."""
    return _state_commitment(nonce, canonical_bytes(state, parsed=parsed))


def _state_commitment(nonce: bytes, state_bytes: bytes) -> str:
    return DIGEST_PREFIX + hashlib.sha256(_STATE_DOMAIN + nonce + state_bytes).hexdigest()


def check_state_commitment(nonce: bytes, state: Any, commitment: str, *, parsed: bool = False) -> bool:
    """True when ``(nonce, state)`` is what ``commitment`` was made to; ``parsed``: ``state`` was read from canonical JSON."""
    return hmac.compare_digest(commit_state(nonce, state, parsed=parsed).encode(), commitment.encode("utf-8", "replace"))


def commit_view(nonce: bytes, view: Any, *, parsed: bool = False) -> str:
    """The signed, public commitment to one side's sealed view."""
    return _view_commitment(nonce, canonical_bytes(view, parsed=parsed))


def _view_commitment(nonce: bytes, view_bytes: bytes) -> str:
    return DIGEST_PREFIX + hashlib.sha256(_VIEW_DOMAIN + nonce + view_bytes).hexdigest()


def check_view_commitment(nonce: bytes, view: Any, commitment: str, *, parsed: bool = False) -> bool:
    return hmac.compare_digest(commit_view(nonce, view, parsed=parsed).encode(), commitment.encode("utf-8", "replace"))


def view_info(game: str, seq: int, side: str) -> bytes:
    """HPKE ``info`` binding a view to its game, turn and side."""
    return seal_info("view", {"game": game, "seq": seq, "role": side})


def referee_state_info(game: str, seq: int) -> bytes:
    """HPKE ``info`` binding the sealed full state to its game and turn."""
    return seal_info("referee-state", {"game": game, "seq": seq, "role": REFEREE})


@dataclass(frozen=True)
class DiceRecord:
    """The ``dice`` member of a turn file, decoded."""

    revealed_seed: bytes | None
    salt: bytes | None
    rolls: tuple[dict, ...]
    next_commitment: str
    committed_by: str | None = None  # two-player mode: the side whose seed ``next_commitment`` is


@dataclass(frozen=True)
class TurnFile:
    """A parsed turn file.  :func:`read_turn` returns it only once verified."""

    source: str
    text: str
    headers: dict[str, str]
    payload: bytes
    envelope: dict = field(repr=False)
    game: str
    seq: int
    prev: str | None
    orders: str | None  # the orders digest: digest(orders_header)
    orders_header: dict | None = field(repr=False)
    superseded: tuple[dict, ...] = field(repr=False)
    scenario_id: str
    scenario_hash: str
    ruleset: dict = field(repr=False)
    identities: dict[str, PublicIdentity] = field(repr=False)
    public: Any = field(repr=False)
    dice: DiceRecord = field(repr=False)
    views: dict[str, bytes] = field(repr=False)
    view_commitments: dict[str, str] = field(repr=False)
    referee_state: bytes = field(repr=False)
    state_commitment: str = field(repr=False)
    mode: str = "referee"  # or TWO_PLAYER (pbem.protocol.twoplayer)
    writer: str = REFEREE  # the role that signed this file
    state: Any = field(default=None, repr=False)  # two-player mode: the full state, in clear
    opened: tuple[bytes, Any] | None = field(default=None, repr=False)  # two-player mode: (nonce, orders) adjudicated

    @property
    def two_player(self) -> bool:
        return self.mode == TWO_PLAYER

    @property
    def written_by(self) -> str:
        """Who signed this file, for messages: ``"the referee"`` or ``"the JP player"``."""
        return f"the {self.writer} player" if self.two_player else "the referee"

    @property
    def writer_name(self) -> str:
        """Who signed this file, as a sentence names him: ``"the referee"`` or ``"JP"``."""
        return "the referee" if self.writer == REFEREE else self.writer

    @property
    def body(self) -> dict:
        """The signed body, as JSON."""
        return self.envelope["body"]

    @cached_property
    def signed_body(self) -> bytes | None:
        """The canonical bytes of the signed body, cut from the payload it was read from: what the signature
        is checked over, without writing the body out again (:func:`pbem.protocol.signing.body_bytes`)."""
        return signing.body_bytes(self.payload.partition(b"\n")[0], self.envelope)

    @cached_property
    def digest(self) -> str:
        """``"sha256:<hex>"`` of the payload: how later files name this one (hashed once: a long chain asks often)."""
        return digest_bytes(self.payload)

    @property
    def is_genesis(self) -> bool:
        return self.seq == 0


@dataclass(frozen=True)
class RefereeState:
    """What the sealed ``referee_state`` holds."""

    state: Any = field(repr=False)
    nonce: bytes = field(repr=False)
    next_seed: bytes = field(repr=False)
    view_nonces: dict[str, bytes] = field(repr=False)


def turn_digest(turn: TurnFile | bytes) -> str:
    """The digest naming a turn file (from the file or its payload bytes)."""
    return turn.digest if isinstance(turn, TurnFile) else digest_bytes(turn)


# ------------------------------------------------------------------ building


def build_turn(
    referee: PrivateIdentity,
    *,
    game: str,
    seq: int,
    scenario: dict,
    ruleset: dict,
    identities: dict[str, PublicIdentity],
    public: Any,
    views: dict[str, Any],
    referee_state: Any,
    next_seed: bytes,
    prev: TurnFile | None = None,
    orders: dict | None = None,
    dice_used: DiceStream | None = None,
    superseded: list[dict] | None = None,
    min_bucket: int = 0,
) -> TurnFile:
    """Seal, commit, sign and armour one turn file.

    Genesis: ``seq=0`` with no ``prev``, ``orders`` or ``dice_used``.  Later
    files: ``prev`` is the verified previous turn file, ``orders`` the signed
    header of the orders adjudicated (``OrdersBody.envelope``), ``superseded``
    the signed headers of the earlier revisions the referee received, and ``dice_used`` the
    stream the engine rolled (its seed is revealed here).  ``next_seed`` is
    the seed for the next adjudication; only its commitment is published, the
    seed itself goes into the sealed referee state.  Inconsistent arguments
    are programming errors (:class:`ValueError`).
    """
    if set(identities) != set(ROLES):
        raise ValueError(f"identities must name exactly {ROLES}")
    if not referee.public.same_keys(identities[REFEREE]):
        raise ValueError("the signing key is not the referee identity of this game")
    if set(views) != set(SIDES):
        raise ValueError(f"views must be given for exactly {SIDES}")
    check_arguments(game=game, seq=seq, identities=identities, prev=prev, orders=orders, dice_used=dice_used)

    view_nonces = {side: secrets.token_bytes(32) for side in SIDES}
    # Each view written out once, for its sealed plaintext and its commitment (issue 26): the plaintext is the
    # canonical form of {"nonce": ..., "view": ...} (keys sorted, no spaces; base64 needs no escaping).
    view_bytes = {side: canonical_bytes(views[side]) for side in SIDES}
    view_plaintexts = {side: b'{"nonce":"%s","view":%s}' % (b64e(view_nonces[side]).encode(), view_bytes[side]) for side in SIDES}
    for name, plaintext in view_plaintexts.items():
        if len(plaintext) > MAX_SEALED_PLAINTEXT:
            raise BadInput(f"the {name} view is {len(plaintext)} bytes, more than a reader opens ({MAX_SEALED_PLAINTEXT})")
    nonce = secrets.token_bytes(32)
    # The state written out once too: the canonical form of the five keys in their sorted order, the state's
    # own bytes between those before it and the one after it.
    state_bytes = canonical_bytes(referee_state)
    before = canonical_bytes({"format": REFEREE_STATE_FORMAT, "next_seed": b64e(next_seed), "nonce": b64e(nonce)})
    after = canonical_bytes({"view_nonces": {side: b64e(view_nonces[side]) for side in SIDES}})
    state_plaintext = before[:-1] + b',"state":' + state_bytes + b"," + after[1:]
    # One length for the three sealed parts: the referee's public choice (min_bucket), unless one needs more.
    packed = {side: compress(view_plaintexts[side]) for side in SIDES} | {REFEREE: compress(state_plaintext)}  # once each
    common_bucket = max([min_bucket] + [bucket_size(len(data)) for data in packed.values()])
    sealed_views = {
        side: seal_compressed(packed[side], identities[side], view_info(game, seq, side), min_bucket=common_bucket)
        for side in SIDES
    }
    sealed_state = seal_compressed(packed[REFEREE], identities[REFEREE], referee_state_info(game, seq), min_bucket=common_bucket)
    body = common_body(game=game, seq=seq, scenario=scenario, ruleset=ruleset, identities=identities, public=public,
                       prev=prev, orders=orders, superseded=superseded, dice_used=dice_used, next_commitment=commit(next_seed)) | {
        "views": {side: parts.descriptor(sealed_views[side]) for side in SIDES},
        "view_commitments": {side: _view_commitment(view_nonces[side], view_bytes[side]) for side in SIDES},
        "referee_state": parts.descriptor(sealed_state),
        "state_commitment": _state_commitment(nonce, state_bytes),
    }
    return signed_turn(referee, body, [sealed_views["US"], sealed_views["JP"], sealed_state])


def check_arguments(*, game: str, seq: int, identities: dict[str, PublicIdentity], prev: TurnFile | None,
                    orders: dict | None, dice_used: DiceStream | None) -> None:
    """The programming errors both kinds of turn file refuse: a broken chain, a wrong seed, changed identities."""
    if not _GAME_RE.fullmatch(game):
        raise ValueError("game id must be 32 lower-case hex digits")
    genesis = prev is None
    if genesis != (seq == 0) or genesis != (orders is None) or genesis != (dice_used is None):
        raise ValueError("genesis (seq 0) has no prev/orders/dice_used; every later turn has all three")
    if prev is not None:
        if seq != prev.seq + 1 or game != prev.game:
            raise ValueError("a turn file follows the previous one of the same game")
        if set(prev.identities) != set(identities) or any(not prev.identities[r].same_keys(identities[r]) for r in identities):
            raise ValueError("identities cannot change during a game")
        assert dice_used is not None
        if not check_commitment(dice_used.seed, prev.dice.next_commitment):
            raise ValueError("the dice seed used is not the one committed in the previous turn file")


def common_body(*, game: str, seq: int, scenario: dict, ruleset: dict, identities: dict[str, PublicIdentity], public: Any,
                prev: TurnFile | None, orders: dict | None, superseded: list[dict] | None, dice_used: DiceStream | None,
                next_commitment: str) -> dict:
    """The members every turn file's body has, whoever signs it."""
    return {
        "format": FORMAT,
        "game": game,
        "seq": seq,
        "prev": prev.digest if prev is not None else None,
        "orders": orders,
        "superseded": list(superseded or []),
        "scenario": {"id": scenario["id"], "hash": scenario["hash"]},
        "ruleset": ruleset,
        "identities": {role: identity.line() for role, identity in identities.items()},
        "public": public,
        "dice": {
            "revealed_seed": b64e(dice_used.seed) if dice_used else None,
            "salt": b64e(dice_used.salt) if dice_used else None,
            "rolls": dice_used.rolls if dice_used else [],
            "next_commitment": next_commitment,
        },
    }


def signed_turn(signer: PrivateIdentity, body: dict, sealed: list[bytes]) -> TurnFile:
    """Sign, join the sealed parts, armour; refuse what a reader would refuse."""
    game, seq = body["game"], body["seq"]
    envelope = signing.sign(signer, body, SIGN_CONTEXT)
    text = armour(KIND, parts.join(envelope, sealed), {"Game": game, "Sequence": str(seq)})
    if len(text) > MAX_FILE_CHARS:  # what a reader would refuse is never written
        raise BadInput(f"turn file {seq} would be {len(text)} characters, more than a reader accepts ({MAX_FILE_CHARS})")
    return parse_turn(text, source=f"turn {seq}")


# ------------------------------------------------------------------ reading


def parse_turn(text: str, source: str = "turn file") -> TurnFile:
    """Dearmour and check the shape of a turn file, **without** checking its
    signature (use :func:`read_turn` for that)."""
    if len(text) > MAX_FILE_CHARS:
        raise BadInput(f"is {len(text)} characters, more than a turn file can be ({MAX_FILE_CHARS})",
                       file=source, hint="the file was made to exhaust the reader; do not use it")
    _, headers, payload = dearmour(text, KIND, source)
    envelope, rest = parts.split(payload, source=source, what="the turn file's content")
    where = fields.Where(source)
    fields.obj(envelope, where, signing.ENVELOPE_KEYS)
    two_player = isinstance(envelope["body"], dict) and envelope["body"].get("mode") == TWO_PLAYER
    body = fields.obj(envelope["body"], where.at("body"), TWO_PLAYER_BODY_KEYS if two_player else BODY_KEYS)
    where = fields.Where(source)  # body fields are named without "body." for readability

    if body["format"] != FORMAT:
        raise where.at("format").fail(
            f"turn file format {body['format']!r} is not {FORMAT!r}",
            hint="this file was made by another pbem version; update pbem",
        )
    game = fields.string(body["game"], where.at("game"))
    if not _GAME_RE.fullmatch(game):
        raise where.at("game").fail("a game id is 32 lower-case hex digits")
    seq = fields.integer(body["seq"], where.at("seq"), minimum=0)
    prev = fields.digest_or_none(body["prev"], where.at("prev"))
    orders_header = None if body["orders"] is None else fields.obj(body["orders"], where.at("orders"), signing.ENVELOPE_KEYS)
    orders = None if orders_header is None else digest(orders_header)
    superseded = fields.array(body["superseded"], where.at("superseded"))
    if len(superseded) > 999:
        raise where.at("superseded").fail(f"{len(superseded)} superseded revisions; no turn has more than 999")
    for index, item in enumerate(superseded):
        fields.obj(item, where.at("superseded").at(index), signing.ENVELOPE_KEYS)
    scenario = fields.obj(body["scenario"], where.at("scenario"), {"id", "hash"})
    scenario_id = fields.string(scenario["id"], where.at("scenario.id"))
    scenario_hash = fields.digest_value(scenario["hash"], where.at("scenario.hash"))
    ruleset = fields.obj(body["ruleset"], where.at("ruleset"))
    identities = _parse_identities(body["identities"], where.at("identities"), SIDES if two_player else ROLES)
    dice = _parse_dice(body["dice"], where.at("dice"), two_player)
    if two_player:
        extra = _parse_two_player(body, rest, where)
        views, view_commitments, referee_state, state_commitment = {}, {}, b"", ""
    else:
        extra = {}
        views_obj = fields.obj(body["views"], where.at("views"), set(SIDES))
        sealed = parts.take(rest, [(f"views.{side}", views_obj[side]) for side in SIDES]
                            + [("referee_state", body["referee_state"])], where)
        views = {side: sealed[f"views.{side}"] for side in SIDES}
        commitments_obj = fields.obj(body["view_commitments"], where.at("view_commitments"), set(SIDES))
        view_commitments = {side: fields.digest_value(commitments_obj[side], where.at(f"view_commitments.{side}")) for side in SIDES}
        referee_state = sealed["referee_state"]
        state_commitment = fields.digest_value(body["state_commitment"], where.at("state_commitment"))

    if seq == 0:
        for name, value in (("prev", prev), ("orders", orders), ("dice.revealed_seed", dice.revealed_seed),
                            ("dice.salt", dice.salt), ("opened", extra.get("opened"))):
            if value is not None:
                raise where.at(name).fail("must be null in the genesis turn file (seq 0)")
        if dice.rolls:
            raise where.at("dice.rolls").fail("the genesis turn file has no rolls")
        if superseded:
            raise where.at("superseded").fail("the genesis turn file answers no orders")
    else:
        for name, value in (("prev", prev), ("orders", orders), ("dice.revealed_seed", dice.revealed_seed),
                            ("dice.salt", dice.salt)) + ((("opened", extra["opened"]),) if two_player else ()):
            if value is None:
                raise where.at(name).fail(f"is null, but only the genesis turn file may omit it (this is seq {seq})")

    for key, expected in (("Game", game), ("Sequence", str(seq))):
        if key in headers and headers[key] != expected:
            raise BadInput(
                f"the header says {key}: {headers[key]}, but the signed content says {expected}",
                file=source,
                hint="the readable header was edited; trust only what 'pbem view' and 'pbem verify' read from the signed content",
            )
    return TurnFile(
        source=source, text=text, headers=headers, payload=payload, envelope=envelope,
        game=game, seq=seq, prev=prev, orders=orders, orders_header=orders_header, superseded=tuple(superseded), scenario_id=scenario_id,
        scenario_hash=scenario_hash, ruleset=ruleset, identities=identities,
        public=body["public"], dice=dice, views=views, view_commitments=view_commitments, referee_state=referee_state,
        state_commitment=state_commitment, **extra,
    )


def _parse_two_player(body: dict, rest: bytes, where: fields.Where) -> dict:
    """The members only a two-player turn file has: who wrote it, the full state and the orders it adjudicated, in clear."""
    writer = fields.string(body["writer"], where.at("writer"))
    if writer not in SIDES:
        raise where.at("writer").fail(f"a two-player turn file is written by US or JP, not {writer!r}")
    parts.take(rest, [], where)  # nothing is sealed: both players see everything
    opened = None
    if body["opened"] is not None:
        item = fields.obj(body["opened"], where.at("opened"), {"nonce", "orders"})
        opened = (fields.b64(item["nonce"], where.at("opened.nonce"), length=32), item["orders"])
    return {"mode": TWO_PLAYER, "writer": writer, "state": body["state"], "opened": opened}


def _parse_identities(value: Any, where: fields.Where, roles: tuple[str, ...] = ROLES) -> dict[str, PublicIdentity]:
    lines = fields.obj(value, where, set(roles))
    identities = {
        role: PublicIdentity.from_line(fields.string(lines[role], where.at(role)), source=where.source,
                                       field=where.at(role).path)
        for role in roles
    }
    for index, first in enumerate(roles):
        for second in roles[index + 1 :]:
            a, b = identities[first], identities[second]
            if a.sign_public == b.sign_public or a.enc_public == b.enc_public:
                raise where.fail(f"{first} and {second} share a key; every party needs its own keys")
    return identities


def _parse_dice(value: Any, where: fields.Where, two_player: bool = False) -> DiceRecord:
    dice = fields.obj(value, where, TWO_PLAYER_DICE_KEYS if two_player else DICE_KEYS)
    committed_by = dice.get("next_committed_by")
    if two_player and committed_by not in SIDES:
        raise where.at("next_committed_by").fail(f"the seed of the next adjudication is committed by US or JP, not {committed_by!r}")
    revealed = fields.b64_or_none(dice["revealed_seed"], where.at("revealed_seed"), length=SEED_LENGTH)
    salt = fields.b64_or_none(dice["salt"], where.at("salt"))
    if salt is not None and len(salt) > MAX_SALT_LENGTH:
        raise where.at("salt").fail(f"is longer than {MAX_SALT_LENGTH} bytes")
    rolls = []
    for index, item in enumerate(fields.array(dice["rolls"], where.at("rolls"))):
        roll_where = where.at("rolls").at(index)
        roll = fields.obj(item, roll_where, ROLL_KEYS)
        n = fields.integer(roll["n"], roll_where.at("n"))
        if n != index + 1:
            raise roll_where.at("n").fail(f"rolls are numbered 1, 2, 3, …; expected {index + 1}, found {n}")
        fields.string(roll["purpose"], roll_where.at("purpose"))
        value_ = fields.integer(roll["value"], roll_where.at("value"))
        if not 1 <= value_ <= 6:
            raise roll_where.at("value").fail(f"a d6 shows 1 to 6, not {value_}")
        rolls.append(roll)
    if rolls and (revealed is None or salt is None):
        raise where.at("rolls").fail("rolls without a revealed seed and salt cannot be checked")
    next_commitment = fields.digest_value(dice["next_commitment"], where.at("next_commitment"))
    return DiceRecord(revealed, salt, tuple(rolls), next_commitment, committed_by)


def read_turn(
    path_or_text: str | os.PathLike[str],
    referee: PublicIdentity | None = None,
    *,
    source: str | None = None,
    genesis: TurnFile | None = None,
) -> TurnFile:
    """Read a turn file and verify the signature of the party that wrote it.

    ``referee`` is the referee identity the reader trusts (from the genesis
    file, or the line the referee sent); ``genesis`` may be given instead,
    and must be for a two-player game, whose files are signed by either
    player.  Both may be omitted only for the genesis file, which is then
    checked against the identity it names itself — show its fingerprint to
    the players so they can compare.
    """
    text, source = text_and_source(path_or_text, marker=ARMOUR_MARKER, what="turn file", source=source)
    turn = parse_turn(text, source)
    if turn.two_player or (genesis is not None and genesis.two_player):
        check_two_player_signature(turn, genesis)
        return turn
    if referee is None and genesis is not None:
        referee = genesis.identities[REFEREE]
    named = turn.identities[REFEREE]
    if referee is None:
        if turn.seq != 0:
            raise BadInput(
                f"cannot check turn file seq {turn.seq} without knowing the referee's key",
                file=source,
                hint="give the genesis turn file or the referee's identity line as well",
            )
        referee = named
    elif not referee.same_keys(named):
        raise VerificationFailed(
            f"names {named.describe()} as referee, not {referee.describe()}",
            file=source,
            field="identities.referee",
            hint="this file belongs to another game or was forged; do not trust it",
        )
    signing.verify(turn.envelope, referee, SIGN_CONTEXT, source=source, role="referee", body_bytes=turn.signed_body)
    return turn


# ------------------------------------------------------------------ opening


def open_view(turn: TurnFile, side: str, identity: PrivateIdentity) -> Any:
    """The view sealed to ``side`` in ``turn``, opened with ``identity`` and checked against its commitment."""
    return open_view_opening(turn, side, identity)[1]


def open_view_opening(turn: TurnFile, side: str, identity: PrivateIdentity) -> tuple[bytes, Any]:
    """``(nonce, view)`` of ``side``'s sealed view: what a player reveals to prove what he was shown."""
    if side not in SIDES:
        raise BadInput(f"unknown side {side!r}", hint=f"use one of {', '.join(SIDES)}")
    owner = turn.identities[side]
    if not identity.public.same_keys(owner):
        raise BadInput(
            f"the {side} view is sealed to {side} {owner.describe()}; your key is {identity.public.describe()}",
            file=turn.source,
            field=f"views.{side}",
            hint=f"each player can open only their own side's view; use the {side} player's key file",
        )
    faulty = dict(file=turn.source, field=f"views.{side}",
                  hint="the referee's file is faulty (or a view was copied from another file); tell the referee")
    try:
        plaintext = open_sealed(
            turn.views[side], identity, view_info(turn.game, turn.seq, side),
            what=f"the {side} view", source=turn.source, field=f"views.{side}", limit=MAX_SEALED_PLAINTEXT,
        )
    except BadInput as exc:
        raise VerificationFailed(f"the {side} view does not open with the {side} key named in the file", **faulty) from exc
    where = fields.Where(turn.source, f"views.{side}")
    content = fields.obj(parse_canonical(plaintext, source=turn.source, what=f"the {side} view"), where, {"nonce", "view"})
    nonce = fields.b64(content["nonce"], where.at("nonce"), length=32)
    if not check_view_commitment(nonce, content["view"], turn.view_commitments[side], parsed=True):
        raise VerificationFailed(f"the sealed {side} view does not match the view commitment the referee signed", **faulty)
    return nonce, content["view"]


def open_referee_state(turn: TurnFile, referee: PrivateIdentity) -> RefereeState:
    """The full state, its nonce and the next seed; checks both commitments."""
    owner = turn.identities[REFEREE]
    if not referee.public.same_keys(owner):
        raise BadInput(
            f"the full state is sealed to the referee {owner.describe()}; your key is {referee.public.describe()}",
            file=turn.source, field="referee_state", hint="only the referee's key opens it",
        )
    plaintext = open_sealed(
        turn.referee_state, referee, referee_state_info(turn.game, turn.seq),
        what="the referee state", sealed_to=f"the referee {owner.describe()}",
        source=turn.source, field="referee_state", limit=MAX_SEALED_PLAINTEXT,
    )
    where = fields.Where(turn.source, "referee_state")
    content = fields.obj(
        parse_canonical(plaintext, source=turn.source, what="the referee state"),
        where, {"format", "nonce", "state", "next_seed", "view_nonces"},
    )
    if content["format"] != REFEREE_STATE_FORMAT:
        raise where.at("format").fail(f"referee state format {content['format']!r} is not {REFEREE_STATE_FORMAT!r}")
    nonce = fields.b64(content["nonce"], where.at("nonce"), length=32)
    next_seed = fields.b64(content["next_seed"], where.at("next_seed"), length=SEED_LENGTH)
    if not check_state_commitment(nonce, content["state"], turn.state_commitment, parsed=True):
        raise VerificationFailed(
            "the sealed full state does not match the state commitment",
            file=turn.source, field="state_commitment", hint="the referee's file is faulty",
        )
    if not check_commitment(next_seed, turn.dice.next_commitment):
        raise VerificationFailed(
            "the sealed next seed does not match the dice commitment",
            file=turn.source, field="dice.next_commitment", hint="the referee's file is faulty",
        )
    nonces = fields.obj(content["view_nonces"], where.at("view_nonces"), set(SIDES))
    view_nonces = {side: fields.b64(nonces[side], where.at(f"view_nonces.{side}"), length=32) for side in SIDES}
    return RefereeState(content["state"], nonce, next_seed, view_nonces)


def check_two_player_signature(turn: TurnFile, genesis: TurnFile | None) -> None:
    """VerificationFailed unless ``turn`` is signed by the side it names, and plays ``genesis``'s two-player game."""
    if genesis is None:
        if turn.seq != 0:
            raise BadInput(f"cannot check turn file seq {turn.seq} without the game's first turn file",
                           file=turn.source, hint="keep every turn file of the game in one folder, including turn-0000.pbem")
        genesis = turn
    if not turn.two_player or not genesis.two_player:
        raise VerificationFailed(
            "mixes a two-player game with a refereed one: " + ("this file is two-player, the game's first file is not"
                                                               if turn.two_player else "this file has a referee, the game's first file has none"),
            file=turn.source, hint="this file belongs to another game or was forged; do not trust it",
        )
    for side in SIDES:
        if not turn.identities[side].same_keys(genesis.identities[side]):
            raise VerificationFailed(f"names {turn.identities[side].describe()} as {side}, not {genesis.identities[side].describe()}",
                                     file=turn.source, field=f"identities.{side}",
                                     hint="this file belongs to another game or was forged; do not trust it")
    signing.verify(turn.envelope, genesis.identities[turn.writer], SIGN_CONTEXT, source=turn.source, role=turn.writer,
                   body_bytes=turn.signed_body)
