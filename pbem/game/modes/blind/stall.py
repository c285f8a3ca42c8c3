"""A stall in a game with hidden units and no referee: one verdict, the same words everywhere (issue 36).

A player who stops answering is named, with the file he has not answered
and its date — the date its writer signed in it (``sent``, UTC; a file
written before files carried one is dated by its time on this disk):

    "JP has not answered file 7 (blind-0007-US.pbem) since 2026-11-02"

Once that file is older than :data:`STALL_AFTER`, ``pbem status``,
``pbem verify``, ``pbem audit GAMEDIR`` and ``pbem audit EVENT`` give that
verdict, never a pass and never counted as audited (before, the first two
stayed at exit 0 and the two audits disagreed).  Before that time the game
is in progress: the audits say *not audited*, both.

When the escrow has opened a stalled game (:mod:`.escrow`), the audit runs
to the stall and :func:`stopped_lines` shows where the Japanese player
stopped and the dice he already knew there: the step he owed was rolled with
his own seed and the American salt (an American player-turn), or with the
American seed and his own committed salt (a Japanese step) — both in his
hands before he stopped (Cleve, 1986: between two parties such an abort
cannot be prevented; here it is shown).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from pbem.protocol import blindfile, dice

STALL_AFTER = timedelta(days=14)
"""How long a file may wait for its answer before the game is stalled (a tournament's usual deadline)."""
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
    """The stall verdict, when the file owed an answer has waited :data:`STALL_AFTER` or more and nothing opened
    the game since."""
    if held.secret_published:
        return None
    waiting = left_unanswered(held)
    if waiting is None or (now or _now()) - waiting.since < STALL_AFTER:
        return None
    return waiting


NOT_OVER = ("the game is not over: the Japanese player publishes his secret at the end (pbem blind publish-secret), "
            "then it can be audited")
"""The verdict of both audits on a game in progress (not stalled): never a pass, never a failure."""


def known_dice(held) -> tuple[int, list[int]] | None:
    """The step the Japanese player owed when he stopped, and the first dice of its stream, which he knew: None when
    the secret is not open or the American player is the one awaited."""
    from pbem.game.modes.blind import run as br

    waiting = left_unanswered(held)
    if held.secret is None or waiting is None or waiting.side != "JP":
        return None
    seq = len(held.record.publications) + 1
    if held.awaiting == "US":
        if seq not in held.record.us_orders:
            return None
        _, salt = held.record.us_orders[seq]
        seed = br.Japanese(held.loaded, held.game, held.secret, lambda v: None, held.ref).seed_for(seq)
    else:
        if seq not in held.record.us_seeds:
            return None
        seed, (salt, _) = held.record.us_seeds[seq], br.orders_salt_nonce(held.secret, game=held.game, seq=seq)
    stream = dice.DiceStream(seed, salt)
    return seq, [stream.roll("known") for _ in range(KNOWN_DICE)]


def stopped_lines(held) -> list[str]:
    """What the audit of a game opened from the escrow adds: where the Japanese player stopped and what he knew."""
    waiting = left_unanswered(held)
    if waiting is None or not held.secret_recovered_by:
        return []
    known = known_dice(held)
    if known is None:
        return [f"  {waiting.words}"]
    seq, values = known
    side = "American player-turn, rolled with his own seed and the American salt" if held.awaiting == "US" else \
        "Japanese step, rolled with the American seed and his own committed salt"
    return [f"  {waiting.words}: he stopped before publishing step {seq} ({side}); he already knew its dice: "
            + ", ".join(map(str, values)) + " (its rolls are drawn from them in order)"]
