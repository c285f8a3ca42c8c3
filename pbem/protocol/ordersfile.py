"""Orders files: a player's signed orders, sealed so only the referee reads them.

Three layers.  The **signed header** — the player's signed envelope
(:mod:`pbem.protocol.signing`, context ``"orders"``) — says what the orders
answer and commits to them without showing them::

    {
      "format": "pbem-orders-3",
      "game": "<game id>",
      "answers": {"seq": 3, "turn": "sha256:<digest of turn file 3>"},
      "side": "US" | "JP",
      "revision": 1,                 # 1, 2, …: the player's own counter; the latest he sent wins
      "salt": "<b64, 32 bytes>",     # derived per player-turn (pbem.protocol.derive): every revision rolls the same dice
      "orders": "sha256:<hex>"       # commit_orders(nonce, orders)
    }

The next turn file publishes this header, so anyone can check the player's
signature, which turn file he saw (a referee who shows the two sides
different histories is caught by the other side's ``verify``), which
revision was adjudicated and with which salt — all without learning the
orders until the game is revealed.

The **sealed content** is the canonical JSON of
``{"format": "pbem-orders-sealed-2", "header": <signed header>, "nonce": <b64, 32 bytes>, "orders": …}``
sealed to the referee (HPKE, **not compressed**: the signature is checked
before anything could inflate) with ``info = seal_info("orders", {"game",
"answers", "side", "revision"})``.

The **outer layer** is the armoured block of kind ``ORDERS`` (headers
``Game``, ``Answers``, ``Side``, ``Revision``, checked against the content)
whose payload is the canonical JSON of ``{"format", "game", "answers",
"side", "revision", "sealed": <part descriptor>}`` followed by the sealed
bytes (:mod:`pbem.protocol.parts`).  The outer copies give clear
refusals (old orders, another turn file, a turn not yet written) before
anything is opened; the signed header must agree with them.

    commit_orders(nonce, orders) = "sha256:" + hex(SHA-256(b"pbem-v1/orders-commit\\0" || nonce || canonical_bytes(orders)))

An orders file is named by its **orders digest**, ``digest(signed header)``:
independent of the sealing randomness and the armour, so the player, the
referee and anyone holding the next turn file compute the same value.  An
identical resend (same orders, same revision) has the same digest.

In a **two-player game** (:mod:`pbem.protocol.twoplayer`) the orders are
sealed to the opponent, who adjudicates them, and the signed header carries
one more member, ``"next_commitment": commit(seed)``: the player's
commitment to the seed with which he will roll his opponent's next orders
(derived from his key, :func:`pbem.protocol.derive.orders_seed`, so that a
resend commits to the same seed).

Limits (a file made to exhaust the reader is refused, not read): the
armoured file at most :data:`MAX_FILE_CHARS` characters, the sealed content
at most :data:`MAX_SEALED_PLAINTEXT` bytes.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass, field
from typing import Any

from pbem.errors import BadInput, VerificationFailed
from pbem.protocol import fields, parts, signing
from pbem.protocol.armour import armour, dearmour
from pbem.protocol.canonical import DIGEST_PREFIX, NotCanonical, b64e, canonical_bytes, digest, parse_canonical
from pbem.protocol.derive import orders_salt_and_nonce, orders_seed, player_turn_salt
from pbem.protocol.dice import SALT_LENGTH, commit
from pbem.protocol.files import text_and_source
from pbem.protocol.keys import PrivateIdentity, PublicIdentity
from pbem.protocol.modes import file_mode
from pbem.protocol.sealing import open_sealed, seal, seal_info
from pbem.protocol.turnfile import ARMOUR_MARKER, SIDES, TurnFile

FORMAT = "pbem-orders-3"
OLD_FORMAT = "pbem-orders-2"  # before issue 37: a salt per revision, so a new revision rolled other dice
FORMATS = (FORMAT, OLD_FORMAT)
SEALED_FORMAT = "pbem-orders-sealed-2"
KIND = "ORDERS"
SIGN_CONTEXT = "orders"
OUTER_KEYS = frozenset({"format", "game", "answers", "side", "revision", "sealed"})
HEADER_KEYS = frozenset({"format", "game", "answers", "side", "revision", "salt", "orders"})
SEALED_KEYS = frozenset({"format", "header", "nonce", "orders"})
ANSWERS_KEYS = frozenset({"seq", "turn"})
NONCE_LENGTH = 32
MAX_REVISION = 999
MAX_FILE_CHARS = 512 * 1024
MAX_SEALED_PLAINTEXT = 256 * 1024
_COMMIT_DOMAIN = b"pbem-v1/orders-commit\x00"


def commit_orders(nonce: bytes, orders: Any) -> str:
    """The commitment to a player's orders that his signed header carries."""
    return DIGEST_PREFIX + hashlib.sha256(_COMMIT_DOMAIN + nonce + canonical_bytes(orders)).hexdigest()


def check_orders_commitment(nonce: bytes, orders: Any, commitment: str) -> bool:
    return hmac.compare_digest(commit_orders(nonce, orders).encode(), commitment.encode("utf-8", "replace"))


@dataclass(frozen=True)
class OrdersHeader:
    """A player's signed orders header, checked: what the next turn file publishes."""

    envelope: dict = field(repr=False)
    game: str
    seq: int
    turn: str
    side: str
    revision: int
    salt: bytes = field(repr=False)
    commitment: str
    next_commitment: str | None = None  # two-player mode: the signer's seed for his opponent's next orders
    format: str = FORMAT

    @property
    def salt_per_player_turn(self) -> bool:
        """Whether every revision of these orders must carry one salt (``pbem-orders-3``, issue 37)."""
        return self.format == FORMAT

    @property
    def digest(self) -> str:
        """The orders digest: how turn files, receipts and messages name these orders."""
        return digest(self.envelope)

    def opened_by(self, nonce: bytes, orders: Any) -> bool:
        """True when ``(nonce, orders)`` are the orders this header commits to (a turn file that publishes them)."""
        return check_orders_commitment(nonce, orders, self.commitment)


@dataclass(frozen=True)
class OrdersFile:
    """A freshly built orders file: the text to send, its header, the orders and their nonce."""

    text: str
    header: OrdersHeader
    orders: Any = field(repr=False)
    nonce: bytes = field(repr=False)

    @property
    def digest(self) -> str:
        return self.header.digest

    @property
    def salt(self) -> bytes:
        """The salt these orders contribute to the dice."""
        return self.header.salt

    @property
    def envelope(self) -> dict:
        return self.header.envelope


@dataclass(frozen=True)
class OrdersBody:
    """Orders the referee has opened and verified."""

    source: str
    header: OrdersHeader
    orders: Any = field(repr=False)
    nonce: bytes = field(repr=False)
    signer: PublicIdentity

    game = property(lambda self: self.header.game)
    seq = property(lambda self: self.header.seq)
    turn = property(lambda self: self.header.turn)
    side = property(lambda self: self.header.side)
    revision = property(lambda self: self.header.revision)
    salt = property(lambda self: self.header.salt)
    digest = property(lambda self: self.header.digest)
    envelope = property(lambda self: self.header.envelope)


def orders_info(game: str, answers: dict, side: str, revision: int) -> bytes:
    """HPKE ``info`` binding sealed orders to their game, turn, side and revision."""
    return seal_info("orders", {"game": game, "answers": answers, "side": side, "revision": revision})


def _check_revision(revision: Any) -> int:
    if not isinstance(revision, int) or isinstance(revision, bool) or not 1 <= revision <= MAX_REVISION:
        raise ValueError(f"a revision is a whole number from 1 to {MAX_REVISION}")
    return revision


def build_orders(
    player: PrivateIdentity,
    *,
    game: str,
    seq: int,
    turn_digest: str,
    side: str,
    orders: Any,
    referee: PublicIdentity,
    revision: int = 1,
    two_player: bool = False,
) -> OrdersFile:
    """Sign ``orders`` (revision ``revision``) as ``side`` answering turn ``seq``, seal them to ``referee``.

    The salt and nonce are derived from the player's key and the labels
    (:mod:`pbem.protocol.derive`): the same orders, turn and revision always
    give the same signed header and the same orders digest.  In a
    two-player game ``referee`` is the opponent, who adjudicates them, and
    the header commits to the player's seed for the opponent's next orders.
    """
    if side not in SIDES:
        raise BadInput(f"unknown side {side!r}", hint=f"use one of {', '.join(SIDES)}")
    _check_revision(revision)
    try:  # what no reader would take (a float, an integer too large: RFC 8785's subset) is never signed
        canonical_bytes(orders)
    except NotCanonical as exc:
        raise BadInput(f"the orders cannot be signed: {exc}", hint="write whole numbers; check the orders file") from None
    _, nonce = orders_salt_and_nonce(player, game=game, turn_digest=turn_digest, side=side, revision=revision)
    salt = player_turn_salt(player, game=game, turn_digest=turn_digest, side=side)  # the player-turn's, not the revision's
    answers = {"seq": seq, "turn": turn_digest}
    labels = {"game": game, "answers": answers, "side": side, "revision": revision}
    header_body = {"format": FORMAT, **labels, "salt": b64e(salt), "orders": commit_orders(nonce, orders)}
    if two_player:
        header_body["next_commitment"] = commit(orders_seed(player, game=game, turn_digest=turn_digest, side=side, revision=revision))
    envelope = signing.sign(player, header_body, SIGN_CONTEXT)
    content = {"format": SEALED_FORMAT, "header": envelope, "nonce": b64e(nonce), "orders": orders}
    plaintext = canonical_bytes(content)
    if len(plaintext) > MAX_SEALED_PLAINTEXT:
        raise BadInput(f"the orders are {len(plaintext)} bytes, more than pbem sends ({MAX_SEALED_PLAINTEXT})",
                       hint="no real orders are that long; check the orders file")
    sealed = seal(plaintext, referee, orders_info(game, answers, side, revision), compress=False)
    outer = {"format": FORMAT, **labels, "sealed": parts.descriptor(sealed)}
    text = armour(KIND, parts.join(outer, [sealed]), _armour_headers(game, seq, side, revision))
    header = OrdersHeader(envelope, game, seq, turn_digest, side, revision, salt, envelope["body"]["orders"],
                          header_body.get("next_commitment"))
    return OrdersFile(text=text, header=header, orders=orders, nonce=nonce)


def _armour_headers(game: str, seq: int, side: str, revision: int) -> dict[str, str]:
    return {"Game": game, "Answers": str(seq), "Side": side, "Revision": str(revision)}


def build_orders_for_turn(
    player: PrivateIdentity, turn: TurnFile, side: str, orders: Any, *, revision: int = 1
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
        referee=turn.identities[adjudicator_of(turn, side)], revision=revision, two_player=file_mode(turn).orders_commit_seed,
    )


def adjudicator_of(turn: TurnFile, side: str) -> str:
    """Who adjudicates ``side``'s orders answering ``turn``: the referee, or in a two-player game the opponent."""
    return file_mode(turn).adjudicator(turn, side)


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


def _parse_labels(record: dict, where: fields.Where) -> tuple[str, dict, str, int]:
    if record["format"] not in FORMATS:
        raise where.at("format").fail(f"orders format {record['format']!r} is not {FORMAT!r}",
                                      hint="the player's pbem is another version")
    game = fields.string(record["game"], where.at("game"))
    answers = _parse_answers(record["answers"], where.at("answers"))
    side = fields.string(record["side"], where.at("side"))
    if side not in SIDES:
        raise where.at("side").fail(f"unknown side {side!r}", hint=f"sides are {', '.join(SIDES)}")
    revision = fields.integer(record["revision"], where.at("revision"), minimum=1)
    if revision > MAX_REVISION:
        raise where.at("revision").fail(f"revision {revision} is more than {MAX_REVISION}")
    return game, answers, side, revision


def read_header(envelope: Any, players: dict[str, PublicIdentity], *, source: str, field_name: str = "orders") -> OrdersHeader:
    """Check the shape and the player's signature of a signed orders header.

    Used by the referee on the sealed header, and by anyone on the header a
    turn file publishes.  A bad signature: :class:`VerificationFailed`.
    """
    where = fields.Where(source, field_name)
    fields.obj(envelope, where, signing.ENVELOPE_KEYS)
    two_player = isinstance(envelope["body"], dict) and "next_commitment" in envelope["body"]
    body = fields.obj(envelope["body"], where.at("body"), HEADER_KEYS | {"next_commitment"} if two_player else HEADER_KEYS)
    game, answers, side, revision = _parse_labels(body, where.at("body"))
    signing.verify(envelope, players[side], SIGN_CONTEXT, source=source, role=side)
    salt = fields.b64(body["salt"], where.at("body.salt"), length=SALT_LENGTH)
    commitment = fields.digest_value(body["orders"], where.at("body.orders"))
    next_commitment = fields.digest_value(body["next_commitment"], where.at("body.next_commitment")) if two_player else None
    return OrdersHeader(envelope, game, answers["seq"], answers["turn"], side, revision, salt, commitment, next_commitment,
                        body["format"])


def outer_labels(text: str, source: str) -> tuple[dict, bytes]:
    """The outer record of an orders file (unopened), checked against its armour headers, and the sealed bytes."""
    if len(text) > MAX_FILE_CHARS:
        raise BadInput(f"is {len(text)} characters, more than an orders file can be ({MAX_FILE_CHARS})",
                       file=source, hint="the file was made to exhaust the reader; do not use it")
    _, headers, payload = dearmour(text, KIND, source)
    where = fields.Where(source)
    record, rest = parts.split(payload, source=source, what="the orders file")
    outer = fields.obj(record, where, OUTER_KEYS)
    game, answers, side, revision = _parse_labels(outer, where)
    for key, value in _armour_headers(game, answers["seq"], side, revision).items():
        if key in headers and headers[key] != value:
            raise BadInput(
                f"the header says {key}: {headers[key]}, but the content says {value}",
                file=source, hint="the readable header was edited; the content is what counts — ask the player for the file as sent",
            )
    return outer, parts.take(rest, [("sealed", outer["sealed"])], where)["sealed"]


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
    not hold, or orders that do not match their signed commitment:
    :class:`~pbem.errors.VerificationFailed`.
    """
    text, source = text_and_source(text, marker=ARMOUR_MARKER, what="orders file", source=source)
    outer, sealed = outer_labels(text, source)
    where = fields.Where(source)
    game, answers, side, revision = outer["game"], outer["answers"], outer["side"], outer["revision"]
    expectations = dict(
        expected_game=expected_game, expected_turn_digest=expected_turn_digest,
        expected_seq=expected_seq, expected_side=expected_side,
    )
    _check_answers(game, answers, side, where, layer="these orders", **expectations)

    plaintext = open_sealed(
        sealed, referee_identity, orders_info(game, answers, side, revision),
        what="the orders", source=source, field="sealed", sealed_to=None,
        limit=MAX_SEALED_PLAINTEXT, compressed=False,
    )
    inner_where = fields.Where(source, "sealed")
    content = fields.obj(parse_canonical(plaintext, source=source, what="the sealed orders"), inner_where, SEALED_KEYS)
    if content["format"] != SEALED_FORMAT:
        raise inner_where.at("format").fail(f"sealed orders format {content['format']!r} is not {SEALED_FORMAT!r}")
    header = read_header(content["header"], players, source=source, field_name="sealed.header")
    _check_answers(header.game, {"seq": header.seq, "turn": header.turn}, header.side, inner_where.at("header.body"),
                   layer="the signed orders inside", **expectations)
    if (header.format, header.game, header.seq, header.turn, header.side, header.revision) != (
        outer["format"], game, answers["seq"], answers["turn"], side, revision
    ):
        raise inner_where.at("header").fail(
            "the signed orders inside do not match the file's outer labels",
            hint="the file was assembled from another orders file; ask the player to send it again",
        )
    nonce = fields.b64(content["nonce"], inner_where.at("nonce"), length=NONCE_LENGTH)
    if not check_orders_commitment(nonce, content["orders"], header.commitment):
        raise VerificationFailed(
            "the orders inside are not the ones the player signed (their commitment differs)",
            file=source, field="sealed.orders", hint="the file was assembled from parts of others; ask the player to send it again",
        )
    return OrdersBody(source=source, header=header, orders=content["orders"], nonce=nonce, signer=players[side])


def open_orders_for_turn(
    text: str | os.PathLike[str],
    turn: TurnFile,
    referee_identity: PrivateIdentity,
    *,
    expected_side: str | None = None,
    source: str | None = None,
) -> OrdersBody:
    """:func:`open_orders` expecting answers to the verified turn file ``turn``."""
    body = open_orders(
        text, referee_identity, turn.game, turn.digest,
        {side: turn.identities[side] for side in SIDES},
        expected_seq=turn.seq, expected_side=expected_side, source=source,
    )
    refused = file_mode(turn).orders_header_problem(body.header)
    if refused:
        raise BadInput(
            refused,
            file=body.source, field="sealed.header", hint="the player's pbem is another version; ask him to submit again",
        )
    return body
