"""A stall in a game with hidden units and no referee: one verdict, the same words everywhere (issue 36).

A player who stops answering is named, with the file he has not answered
and its date — the date its writer signed in it (``sent``, UTC; a file
written before files carried one is dated by its time on this disk):

    "JP has not answered file 7 (blind-0007-US.pbem) since 2026-11-02"

Once that file is older than the game's stall period (``pbem new --stall-days N``, pinned in the genesis; 14
days by default and for games written before the field), ``pbem status``,
``pbem verify``, ``pbem audit GAMEDIR`` and ``pbem audit EVENT`` give that
verdict, never a pass and never counted as audited (before, the first two
stayed at exit 0 and the two audits disagreed).  Before that time the game
is in progress: the audits say *not audited*, both.

When the escrow has opened a stalled game (:mod:`.escrow`), the audit runs
to the stall and :func:`stopped_lines` shows where the Japanese player
stopped and the dice he already knew there: the step he owed was rolled with
his own seed and the American salt (an American player-turn), or with the
American seed and his own committed salt (a Japanese step) — both in his
hands before he stopped.  Its orders were fixed too (the American orders,
or his own committed and escrowed), so the audit plays that step on the
position its replay reached and shows each roll as the engine draws it
(which roll, for what, its value), with the stream's first dice (Cleve, 1986: between two parties such an abort
cannot be prevented; here it is shown).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from pbem.protocol import blindfile, dice

DEFAULT_STALL_DAYS = 14
"""How many days a file may wait for its answer before the game is stalled, unless ``pbem new --stall-days`` chose
another number (a tournament's usual deadline); a genesis written before the field existed reads as this."""
STALL_DAYS_RANGE = (1, 365)
STALL_AFTER = timedelta(days=DEFAULT_STALL_DAYS)


def checked_stall_days(value: object, field: str, source: str | None) -> int:
    """The stall period a new game pins in its genesis: ``value`` days (the default when None), from 1 to 365;
    BadInput naming ``field`` otherwise."""
    from pbem.errors import BadInput

    if value is None:
        return DEFAULT_STALL_DAYS
    low, high = STALL_DAYS_RANGE
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadInput(f"{field} is {value!r}: a game is stalled after {low} to {high} days without an answer",
                       file=source, field=None if source is None else field,
                       hint=f"give {'--stall-days N' if source is None else field} with N a whole number of days from "
                            f"{low} to {high} ({DEFAULT_STALL_DAYS} when not given)")
    return value


def stall_days(held) -> int:
    """The stall period the game's genesis pins (signed by the Japanese player, accepted by the American player's
    first answer); 14 for a game written before the field existed.  Its schema allows only 1 to 365."""
    value = held.messages[0].body.get("stall_days")
    return DEFAULT_STALL_DAYS if value is None else checked_stall_days(value, "stall_days", held.messages[0].source)


def stall_after(held) -> timedelta:
    return timedelta(days=stall_days(held))
KNOWN_DICE = 12
"""How many of the unpublished step's dice the audit shows (its rolls are drawn from the stream in order)."""


@dataclass(frozen=True)
class Waiting:
    side: str
    n: int
    since: datetime

    @property
    def words(self) -> str:
        return (f"{self.side} has not answered file {self.n} ({blindfile.file_name(self.n)}) "
                f"since {self.since.date().isoformat()}")


def sent_of(message: blindfile.Message) -> datetime:
    """When the file was written: its signed date, else its time on this disk."""
    sent = message.body.get("sent")
    if isinstance(sent, str):
        try:
            return datetime.strptime(sent, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
        except ValueError:
            pass
    return datetime.fromtimestamp(Path(message.source).stat().st_mtime, timezone.utc)


def _now() -> datetime:
    return datetime.now(timezone.utc)


def left_unanswered(held) -> Waiting | None:
    """Who owes the next numbered file, and since when; None when the game is over (the withheld secret at the end
    is its own finding)."""
    if held.over:
        return None
    last = held.messages[-1]  # never dated before a file it follows: a backdated last file cannot stall a game early
    return Waiting(blindfile.writer_of(len(held.messages)), last.n, max(sent_of(m) for m in held.messages))


def stall(held, now: datetime | None = None) -> Waiting | None:
    """The stall verdict, when the file owed an answer has waited the game's stall period (:func:`stall_days`) or
    more and nothing opened the game since."""
    if held.secret_published:
        return None
    waiting = left_unanswered(held)
    if waiting is None or (now or _now()) - waiting.since < stall_after(held):
        return None
    return waiting


def stopped_at(held) -> Waiting | None:
    """Where a game opened from the escrow before its end stopped: the file its Japanese player left unanswered.
    Such a game is audited up to there, and its verdict stays the stall's when nothing is found (never a pass, never
    counted as a completed audit: issue 36); a cheat found before the stall fails it."""
    if not held.secret_recovered_by:
        return None
    return left_unanswered(held)


def audited_to_the_stall(replayed: int) -> str:
    """What the audit of a game opened at a stall did, in the same words in both audits."""
    return f"audited up to the stall with the secret from the escrow: {replayed} step(s) replayed with full information, no cheat found"


NOT_OVER = ("the game is not over: the Japanese player publishes his secret at the end (pbem blind publish-secret), "
            "then it can be audited")
"""The verdict of both audits on a game in progress (not stalled): never a pass, never a failure."""


@dataclass(frozen=True)
class KnownStep:
    """The step the Japanese player owed when he stopped, and its dice as he knew them."""

    seq: int
    side: str
    """US for an American player-turn (his seed, the American salt), JP for a Japanese step (the American seed, his salt)."""
    rolls: list[dict]
    """The rolls the engine draws for that step from that stream (``n``, ``purpose``, ``value``), when it replays."""
    stream: list[int]
    """The stream's first dice, in order: what he knew whatever the step does with them."""
    why_raw: str = ""
    """Why the rolls are not shown, when the step cannot be replayed (the audit broke off before it)."""


def known_dice(held) -> KnownStep | None:
    """The step the Japanese player owed when he stopped and the dice he knew of it: the rolls the engine draws for
    it from that stream, the step played with the orders already fixed (the American orders of an American
    player-turn, or his own committed and escrowed ones) on the position the audit's replay reached.  None when the
    secret is not open or the American player is the one awaited."""
    from pbem.game.modes.blind import run as br
    from pbem.game.step import play

    waiting = left_unanswered(held)
    if held.secret is None or waiting is None or waiting.side != "JP":
        return None
    seq = len(held.record.publications) + 1
    if held.awaiting == "US":
        if seq not in held.record.us_orders:
            return None
        orders, salt = held.record.us_orders[seq]
        seed, side = br.derived(held.secret, "jp-seed", game=held.game, seq=seq), "US"
    else:
        if seq not in held.record.us_seeds:
            return None
        seed, (salt, _) = held.record.us_seeds[seq], br.orders_salt_nonce(held.secret, game=held.game, seq=seq)
        orders, side = held.jp_orders.get(seq), "JP"
    raw = dice.DiceStream(seed, salt)
    stream = [raw.roll("known") for _ in range(KNOWN_DICE)]
    reached = getattr(held, "replayed_to", None)
    if reached is None:
        return KnownStep(seq, side, [], stream, "the audit's replay did not reach the stall (it stopped at a finding)")
    if orders is None:
        return KnownStep(seq, side, [], stream, f"no orders of step {seq} were escrowed")
    drawn = dice.DiceStream(seed, salt)
    played = play(held.loaded, held.record.ruleset, reached.state, orders, drawn, game=held.game, seq=seq,
                  scenario_ref=held.ref, source=f"step {seq}")
    if not played.last["valid"]:
        rules = ", ".join(sorted({p["rule"] for p in played.last["problems"] if p.get("rule")}))
        return KnownStep(seq, side, [], stream, f"the rules refuse its orders ({rules}): it draws no die")
    return KnownStep(seq, side, drawn.rolls, stream)


def stopped_lines(held) -> list[str]:
    """What the audit of a game opened from the escrow adds: where the Japanese player stopped and the dice he knew,
    roll by roll as the engine draws them for that step."""
    waiting = left_unanswered(held)
    if waiting is None or not held.secret_recovered_by:
        return []
    known = known_dice(held)
    if known is None:
        return [f"  {waiting.words}"]
    side = ("an American player-turn, rolled with his own seed and the American salt" if known.side == "US" else
            "a Japanese step, rolled with the American seed and his own committed salt")
    orders = "the American orders" if known.side == "US" else "his own committed orders"
    lines = [f"  {waiting.words}: he stopped before publishing step {known.seq} ({side}); he already knew its dice"]
    if known.rolls:
        lines.append(f"  the rolls step {known.seq} draws, played with {orders} on the replayed position "
                     f"({len(known.rolls)}):")
        lines += [f"    roll {r['n']}, {r['purpose']}: {r['value']}" for r in known.rolls]
    elif not known.why_raw:
        lines.append(f"  step {known.seq}, played with {orders} on the replayed position, draws no die")
    if known.why_raw:
        lines.append(f"  its rolls cannot be shown: {known.why_raw}")
    lines.append(f"  the first {len(known.stream)} dice of its stream, in order: " + ", ".join(map(str, known.stream)))
    return lines
