"""NMR records: the referee's signed statement that no moves were received, in place of a player's orders header.

When the orders awaited do not come by the deadline (plus grace), a referee
may play the bot's orders for the missing side (``pbem judge new … --nmr
bot``, or by hand ``pbem adjudicate TURN --nmr SIDE``).  The next turn file
then carries, in its ``orders`` member where a player's signed orders header
would be, an NMR record: an envelope (:mod:`pbem.protocol.signing`, context
``"nmr"``) signed by the referee, whose body is::

    {"format": "pbem-nmr-2",
     "game": "<game id>",
     "answers": {"seq": 3, "turn": "sha256:<digest of turn file 3>"},
     "side": "US" | "JP",                  # the side awaited, whose orders did not come
     "policy": "greedy",                   # the bot's policy that wrote them
     "salt": "<b64, 32 bytes>"}            # nmr_salt(game, answers.turn, side, policy)

Nothing in it is the referee's choice.  The salt is derived from the digest
of the turn file answered (:func:`nmr_salt`), so the dice are fixed by the
seed committed in that file and that file itself; the orders are the bot's
(:func:`pbem.bot.bot_orders`, with ``policy`` and the seed
:func:`bot_seed` of the salt) on the missing side's own view of that turn
file, so they are fixed too.  ``pbem verify`` checks the record
(:func:`record_problems`); ``pbem audit --reveal`` recomputes the orders
from the view and replays them (:mod:`pbem.game.modes.referee.nmr`).

What the record cannot prove: that the deadline had passed.  The deadline
is the referee's (the judge's) word, as it always was by mail.

Exact derivation (another implementation must reproduce it)::

    salt     = SHA-256(b"pbem-v1/nmr-salt\\0" || canonical_bytes({"game", "turn": <digest answered>, "side", "policy"}))
    bot seed = the first 8 bytes, read as an unsigned big-endian integer, of
               HMAC-SHA256(key = the nonce of the missing side's view in the turn file answered,
                           msg = b"pbem-v1/nmr-bot-seed\\0" || salt)

The bot's own random draws — above all the Japanese secret set-up under
hidden units (19B.1) — come from the bot seed.  In ``pbem-nmr-1`` records
(games played before issue 37) the bot seed was the first 8 bytes of the
salt itself, which anyone computes: the American rebuilt an NMR set-up
marker for marker from the genesis file and the public record.  The view
nonce is 32 random bytes the referee drew and committed (inside the view
commitment, in clear) in the turn file answered, before any deadline, and
sealed only to the missing side and the referee: so the missing player
recomputes his bot's orders from his own view (``verify --replay-mine``),
the audit from the reveal file (which opens every view nonce), and his
opponent cannot compute them before the reveal.  ``pbem-nmr-1`` records
are still read, with their old bot seed, so that old games verify.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from pbem.errors import BadInput, VerificationFailed
from pbem.protocol import fields, signing
from pbem.protocol.canonical import b64e, canonical_bytes, digest
from pbem.protocol.keys import PrivateIdentity, PublicIdentity
from pbem.protocol.modes import file_mode
from pbem.protocol.turnfile import REFEREE, SIDES, TurnFile

FORMAT = "pbem-nmr-2"
OLD_FORMAT = "pbem-nmr-1"  # before issue 37: the bot seed followed from the public salt alone
FORMATS = (FORMAT, OLD_FORMAT)
SIGN_CONTEXT = "nmr"
POLICIES = ("greedy",)  # the policy an NMR may name: deterministic, and sensible play for the absent player
KEYS = frozenset({"format", "game", "answers", "side", "policy", "salt"})
_SALT_DOMAIN = b"pbem-v1/nmr-salt\x00"
_BOT_SEED_DOMAIN = b"pbem-v1/nmr-bot-seed\x00"


def nmr_salt(game: str, turn_digest: str, side: str, policy: str) -> bytes:
    """The dice salt of an NMR answering the turn file ``turn_digest``: anyone computes it, nobody chooses it."""
    return hashlib.sha256(_SALT_DOMAIN + canonical_bytes({"game": game, "turn": turn_digest, "side": side, "policy": policy})).digest()


def bot_seed(salt: bytes) -> int:
    """The bot's seed of a ``pbem-nmr-1`` record (issue 37: public, so no longer written): the salt's first 8 bytes."""
    return int.from_bytes(salt[:8], "big")


def hidden_bot_seed(salt: bytes, view_nonce: bytes) -> int:
    """The bot's seed of a ``pbem-nmr-2`` record: keyed by the missing side's view nonce in the turn file answered,
    which only that side and the referee hold until the reveal (issue 37 item 1)."""
    import hmac

    return int.from_bytes(hmac.new(view_nonce, _BOT_SEED_DOMAIN + salt, hashlib.sha256).digest()[:8], "big")


def record_bot_seed(body_format: str, salt: bytes, view_nonce: bytes | None) -> int:
    """The bot seed an NMR record of ``body_format`` plays with (``view_nonce``: the missing side's, in the turn file
    answered; needed for ``pbem-nmr-2``)."""
    if body_format == OLD_FORMAT:
        return bot_seed(salt)
    if view_nonce is None:
        raise ValueError("an NMR's bot seed needs the missing side's view nonce of the turn file answered")
    return hidden_bot_seed(salt, view_nonce)


def is_nmr(header: Any) -> bool:
    """True when a turn file's ``orders`` member is an NMR record rather than a player's orders header."""
    return isinstance(header, dict) and isinstance(header.get("body"), dict) and header["body"].get("format") in FORMATS


@dataclass(frozen=True)
class NmrRecord:
    """An NMR record, its signature and shape checked."""

    envelope: dict
    game: str
    seq: int
    turn: str
    side: str
    policy: str
    salt: bytes
    format: str = FORMAT

    @property
    def digest(self) -> str:
        return digest(self.envelope)


def build_record(referee: PrivateIdentity, answered: TurnFile, side: str, policy: str = "greedy") -> NmrRecord:
    """The referee's signed NMR record for ``side``'s orders answering ``answered``."""
    if side not in SIDES or policy not in POLICIES:
        raise ValueError(f"an NMR names a side of {SIDES} and a policy of {POLICIES}")
    body = {"format": FORMAT, "game": answered.game, "answers": {"seq": answered.seq, "turn": answered.digest},
            "side": side, "policy": policy, "salt": b64e(nmr_salt(answered.game, answered.digest, side, policy))}
    return read_record(signing.sign(referee, body, SIGN_CONTEXT), referee.public, source="(new NMR record)")


def read_record(envelope: Any, referee: PublicIdentity, *, source: str, field_name: str = "orders") -> NmrRecord:
    """An NMR record signed by ``referee``; BadInput for a bad shape, VerificationFailed for a bad signature."""
    where = fields.Where(source, field_name)
    body = fields.obj(fields.obj(envelope, where, signing.ENVELOPE_KEYS)["body"], where.at("body"), KEYS)
    signing.verify(envelope, referee, SIGN_CONTEXT, source=source, role=REFEREE)
    answers = fields.obj(body["answers"], where.at("body.answers"), {"seq", "turn"})
    side = fields.string(body["side"], where.at("body.side"))
    if side not in SIDES:
        raise where.at("body.side").fail(f"names side {side!r}, not one of {', '.join(SIDES)}")
    return NmrRecord(envelope, fields.string(body["game"], where.at("body.game")),
                     fields.integer(answers["seq"], where.at("body.answers.seq"), minimum=0),
                     fields.digest_value(answers["turn"], where.at("body.answers.turn")), side,
                     fields.string(body["policy"], where.at("body.policy")), fields.b64(body["salt"], where.at("body.salt")),
                     fields.string(body["format"], where.at("body.format")))


def record_problems(turn: TurnFile, predecessors: list[TurnFile]) -> list[str]:
    """What ``pbem verify`` finds wrong with the NMR record ``turn`` publishes (``predecessors``: the files with seq - 1)."""
    refused = file_mode(turn).nmr_problem(turn)
    if refused:
        return [refused]
    try:
        record = read_record(turn.orders_header, turn.identities[REFEREE], source=turn.source)
    except (BadInput, VerificationFailed) as exc:
        return [f"the NMR record it publishes does not hold: {exc.message}"]
    problems = []
    if record.game != turn.game:
        problems.append(f"its NMR record is for game {record.game}, not {turn.game}")
    if record.seq != turn.seq - 1 or record.turn != turn.prev:
        problems.append(f"its NMR record answers turn file {record.seq} ({record.turn}), but this file follows "
                        f"{turn.seq - 1} ({turn.prev})")
    if record.policy not in POLICIES:
        problems.append(f"its NMR record names the bot policy {record.policy!r}; an NMR is played by {', '.join(POLICIES)} only")
    expected = nmr_salt(turn.game, turn.prev or "", record.side, record.policy)
    if record.salt != expected:
        problems.append("its NMR record's salt is not the one derived from the turn file answered: "
                        "the referee chose the dice of this NMR (docs/PROTOCOL.md, NMR records)")
    if turn.dice.salt != record.salt:
        problems.append("rolled the dice with another salt than the one in its NMR record")
    if turn.superseded:
        problems.append(f"lists {len(turn.superseded)} orders received for this turn, yet played an NMR: "
                        "orders that arrived are adjudicated, not replaced by the bot's")
    previous = next((p for p in predecessors if p.digest == turn.prev), None)
    awaiting = previous.public.get("awaiting") if previous is not None and isinstance(previous.public, dict) else None
    if previous is not None and awaiting != record.side:
        problems.append(f"plays an NMR for {record.side}, but turn file {previous.seq} awaited "
                        + (f"{awaiting}'s orders" if awaiting in SIDES else "no orders"))
    return problems
