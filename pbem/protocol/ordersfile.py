"""Orders files: a player's signed orders, sealed so only the referee reads them.

Inner layer — the player's signed envelope (:mod:`pbem.protocol.signing`,
context ``"orders"``) with body::

    {
      "format": "pbem-orders-1",
      "game": "<game id>",
      "answers": {"seq": 3, "turn": "sha256:<digest of turn file 3>"},
      "side": "US" | "JP",
      "salt": "<b64, 32 fresh random bytes>",   # mixed into this turn's dice
      "orders": …                               # opaque: the engine's orders object
    }

Outer layer — the armoured block of kind ``ORDERS`` (headers ``Game``,
``Answers``, ``Side``, for humans) whose payload is the canonical JSON of::

    {
      "format": "pbem-orders-1",
      "game": "<game id>",
      "answers": {"seq": 3, "turn": "sha256:…"},
      "side": "US",
      "sealed": "<b64: HPKE seal of canonical_bytes(inner envelope)>"
    }

sealed to the referee with ``info = seal_info("orders", {"game", "answers",
"side"})`` (the outer values).  The outer copies let the referee refuse a
file for another game or turn with a clear message before opening it; they
are bound to the ciphertext by ``info``, and the signed inner body must agree
with them and with what the referee expects — so re-sealing an old signed
envelope into a fresh outer layer is refused as a replay.

An orders file is named by its **orders digest**: ``"sha256:" +
hex(SHA-256(canonical_bytes(inner envelope)))``.  It is independent of the
sealing randomness and of the armour, so the player (who is told it by
:func:`build_orders`), the referee and a post-game auditor (given the signed
envelope) all compute the same value, which the next turn file records.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from pbem.errors import BadInput
from pbem.protocol import fields, signing
from pbem.protocol.armour import armour, dearmour
from pbem.protocol.canonical import b64d, b64e, canonical_bytes, digest, parse_canonical
from pbem.protocol.dice import SALT_LENGTH, new_salt
from pbem.protocol.files import text_and_source
from pbem.protocol.keys import PrivateIdentity, PublicIdentity
from pbem.protocol.sealing import open_sealed, seal, seal_info
from pbem.protocol.turnfile import ARMOUR_MARKER, REFEREE, SIDES, TurnFile

FORMAT = "pbem-orders-1"
KIND = "ORDERS"
SIGN_CONTEXT = "orders"
OUTER_KEYS = frozenset({"format", "game", "answers", "side", "sealed"})
BODY_KEYS = frozenset({"format", "game", "answers", "side", "salt", "orders"})
ANSWERS_KEYS = frozenset({"seq", "turn"})


@dataclass(frozen=True)
class OrdersFile:
    """A freshly built orders file: the text to send and its digest to keep."""

    text: str
    digest: str
    envelope: dict = field(repr=False)

    @property
    def salt(self) -> bytes:
        """The salt these orders contribute to the dice."""
        return b64d(self.envelope["body"]["salt"])


@dataclass(frozen=True)
class OrdersBody:
    """Orders the referee has opened and verified."""

    source: str
    game: str
    seq: int
    turn: str
    side: str
    salt: bytes = field(repr=False)
    orders: Any = field(repr=False)
    digest: str
    envelope: dict = field(repr=False)
    signer: PublicIdentity


def adjudication_problem(turn: TurnFile, orders_digest: str, salt: bytes) -> str | None:
    """What a player checks on receiving the next turn file: that it
    adjudicated their orders (by digest) with their salt.  None when it did.

    The salt is what keeps the referee from choosing the dice, so a player
    should keep :attr:`OrdersFile.digest` and :attr:`OrdersFile.salt`.
    """
    if turn.orders != orders_digest:
        return f"turn {turn.seq} adjudicated orders {turn.orders}, not yours ({orders_digest})"
    if turn.dice.salt != salt:
        return f"turn {turn.seq} rolled the dice with another salt than the one in your orders"
    return None


def orders_info(game: str, answers: dict, side: str) -> bytes:
    """HPKE ``info`` binding sealed orders to their game, turn and side."""
    return seal_info("orders", {"game": game, "answers": answers, "side": side})


def build_orders(
    player: PrivateIdentity,
    *,
    game: str,
    seq: int,
    turn_digest: str,
    side: str,
    orders: Any,
    referee: PublicIdentity,
    salt: bytes | None = None,
) -> OrdersFile:
    """Sign ``orders`` as ``side`` answering turn ``seq``, seal them to ``referee``.

    ``salt`` defaults to 32 fresh random bytes (pass one only in tests).
    """
    if side not in SIDES:
        raise BadInput(f"unknown side {side!r}", hint=f"use one of {', '.join(SIDES)}")
    salt = new_salt() if salt is None else salt
    if len(salt) != SALT_LENGTH:
        raise ValueError(f"an orders salt is {SALT_LENGTH} bytes")
    answers = {"seq": seq, "turn": turn_digest}
    body = {"format": FORMAT, "game": game, "answers": answers, "side": side, "salt": b64e(salt), "orders": orders}
    envelope = signing.sign(player, body, SIGN_CONTEXT)
    sealed = seal(canonical_bytes(envelope), referee, orders_info(game, answers, side))
    outer = {"format": FORMAT, "game": game, "answers": answers, "side": side, "sealed": b64e(sealed)}
    text = armour(KIND, canonical_bytes(outer), {"Game": game, "Answers": str(seq), "Side": side})
    return OrdersFile(text=text, digest=digest(envelope), envelope=envelope)


def build_orders_for_turn(
    player: PrivateIdentity, turn: TurnFile, side: str, orders: Any, *, salt: bytes | None = None
) -> OrdersFile:
    """:func:`build_orders` answering a verified turn file, checking the key fits."""
    if side not in SIDES:
        raise BadInput(f"unknown side {side!r}", hint=f"use one of {', '.join(SIDES)}")
    expected = turn.identities[side]
    if not player.public.same_keys(expected):
        raise BadInput(
            f"your key {player.public.describe()} is not the {side} key of this game, {expected.describe()}",
            file=turn.source,
            hint=f"use the key file of the {side} player",
        )
    return build_orders(
        player, game=turn.game, seq=turn.seq, turn_digest=turn.digest, side=side, orders=orders,
        referee=turn.identities[REFEREE], salt=salt,
    )


def _check_answers(
    game: str, answers: dict, side: str, where: fields.Where, *, expected_game: str,
    expected_turn_digest: str, expected_seq: int | None, expected_side: str | None, layer: str,
) -> None:
    """Refuse orders that do not answer the turn the referee is waiting for."""
    if game != expected_game:
        raise where.at("game").fail(
            f"{layer} are for game {game}, not this game {expected_game}",
            hint="these orders belong to another game; check which file you were sent",
        )
    seq, turn = answers["seq"], answers["turn"]
    if turn != expected_turn_digest:
        if expected_seq is not None and seq < expected_seq:
            message = f"{layer} answer turn {seq}, but the current turn is {expected_seq}: they are old orders (replayed?)"
            hint = "ask the player for orders answering the latest turn file"
        elif expected_seq is not None and seq > expected_seq:
            message = f"{layer} answer turn {seq}, which does not exist yet (the current turn is {expected_seq})"
            hint = "check that you are adjudicating the latest turn file"
        elif expected_seq is not None:
            message = (
                f"{layer} answer a different turn file {turn} with the same number {seq} "
                f"(the current one is {expected_turn_digest})"
            )
            hint = "two different turn files carry one number; run 'pbem verify' on all turn files"
        else:
            message = f"{layer} answer turn file {turn} (seq {seq}), not the current one {expected_turn_digest}"
            hint = "ask the player for orders answering the latest turn file"
        raise where.at("answers").fail(message, hint=hint)
    if expected_seq is not None and seq != expected_seq:
        raise where.at("answers.seq").fail(f"{layer} give turn number {seq} for turn file {turn}, which is {expected_seq}")
    if expected_side is not None and side != expected_side:
        raise where.at("side").fail(
            f"{layer} are from {side}, but it is {expected_side}'s turn to give orders",
            hint=f"wait for the {expected_side} player's orders",
        )


def _parse_answers(value: Any, where: fields.Where) -> dict:
    answers = fields.obj(value, where, ANSWERS_KEYS)
    fields.integer(answers["seq"], where.at("seq"), minimum=0)
    fields.digest_value(answers["turn"], where.at("turn"))
    return answers


def open_orders(
    text: str | os.PathLike[str],
    referee_identity: PrivateIdentity,
    expected_game: str,
    expected_turn_digest: str,
    players: dict[str, PublicIdentity],
    *,
    expected_seq: int | None = None,
    expected_side: str | None = None,
    source: str | None = None,
) -> OrdersBody:
    """Open, verify and check an orders file for the turn the referee expects.

    Wrong game, wrong or old turn, wrong side, damage, or a file not sealed
    to this referee: :class:`~pbem.errors.BadInput`.  A signature that does
    not hold: :class:`~pbem.errors.VerificationFailed`.
    """
    text, source = text_and_source(text, marker=ARMOUR_MARKER, what="orders file", source=source)
    _, _, payload = dearmour(text, KIND, source)
    where = fields.Where(source)
    outer = fields.obj(parse_canonical(payload, source=source, what="the orders file"), where, OUTER_KEYS)
    if outer["format"] != FORMAT:
        raise where.at("format").fail(f"orders format {outer['format']!r} is not {FORMAT!r}",
                                      hint="the player's pbem is another version")
    game = fields.string(outer["game"], where.at("game"))
    answers = _parse_answers(outer["answers"], where.at("answers"))
    side = fields.string(outer["side"], where.at("side"))
    if side not in players:
        raise where.at("side").fail(f"unknown side {side!r}", hint=f"sides are {', '.join(sorted(players))}")
    expectations = dict(
        expected_game=expected_game, expected_turn_digest=expected_turn_digest,
        expected_seq=expected_seq, expected_side=expected_side,
    )
    _check_answers(game, answers, side, where, layer="these orders", **expectations)

    sealed = fields.b64(outer["sealed"], where.at("sealed"))
    plaintext = open_sealed(
        sealed, referee_identity, orders_info(game, answers, side),
        what="the orders", source=source, field="sealed",
        sealed_to=None,
    )
    envelope = parse_canonical(plaintext, source=source, what="the sealed orders")
    inner_where = fields.Where(source, "sealed")
    fields.obj(envelope, inner_where, signing.ENVELOPE_KEYS)
    body = signing.verify(envelope, players[side], SIGN_CONTEXT, source=source, role=side)
    body = fields.obj(body, inner_where.at("body"), BODY_KEYS)
    if body["format"] != FORMAT:
        raise inner_where.at("body.format").fail(f"orders format {body['format']!r} is not {FORMAT!r}")
    inner_game = fields.string(body["game"], inner_where.at("body.game"))
    inner_answers = _parse_answers(body["answers"], inner_where.at("body.answers"))
    inner_side = fields.string(body["side"], inner_where.at("body.side"))
    _check_answers(inner_game, inner_answers, inner_side, inner_where.at("body"),
                   layer="the signed orders inside", **expectations)
    if inner_side != side or inner_answers != answers or inner_game != game:
        raise inner_where.at("body").fail(
            "the signed orders inside do not match the file's outer labels",
            hint="the file was assembled from another orders file; ask the player to send it again",
        )
    salt = fields.b64(body["salt"], inner_where.at("body.salt"), length=SALT_LENGTH)
    return OrdersBody(
        source=source, game=game, seq=answers["seq"], turn=answers["turn"], side=side, salt=salt,
        orders=body["orders"], digest=digest(envelope), envelope=envelope, signer=players[side],
    )


def open_orders_for_turn(
    text: str | os.PathLike[str],
    turn: TurnFile,
    referee_identity: PrivateIdentity,
    *,
    expected_side: str | None = None,
    source: str | None = None,
) -> OrdersBody:
    """:func:`open_orders` expecting answers to the verified turn file ``turn``."""
    return open_orders(
        text, referee_identity, turn.game, turn.digest,
        {side: turn.identities[side] for side in SIDES},
        expected_seq=turn.seq, expected_side=expected_side, source=source,
    )
