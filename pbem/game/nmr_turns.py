"""The turns the bot played for a late player (no moves received, NMR), named wherever a player looks back on a game.

``pbem verify`` checks each NMR record, ``verify --replay-mine`` recomputes the bot's orders from the late player's own
view, ``pbem audit`` recomputes and replays them all (docs/judge.md, docs/PROTOCOL.md *NMR records*); each says which
turn files they were, so a player who reads the output learns that a turn of his was not his own orders.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from pbem.protocol.nmr import is_nmr
from pbem.protocol.turnfile import TurnFile


@dataclass(frozen=True)
class NmrTurn:
    file: str
    seq: int
    side: str

    def as_dict(self) -> dict:
        return {"file": self.file, "seq": self.seq, "side": self.side}


def nmr_turns(turns: Iterable[TurnFile]) -> list[NmrTurn]:
    """Every turn file among ``turns`` whose orders were the bot's, by turn number."""
    found = {}
    for turn in turns:
        if turn.seq > 0 and turn.orders_header is not None and is_nmr(turn.orders_header):
            found[turn.seq] = NmrTurn(Path(turn.source).name, turn.seq, turn.orders_header["body"]["side"])
    return [found[seq] for seq in sorted(found)]


def nmr_lines(found: list[NmrTurn], *, how: str, mine: str | None = None, how_mine: str | None = None) -> list[str]:
    """One line per NMR turn: which file, for whom, and what ``how`` (the command) did about it; for the reader's own
    side ``mine``, ``how_mine`` when given."""
    lines = []
    for t in found:
        own = t.side == mine
        whose = f"your ({t.side}) orders" if own else f"{t.side}'s orders"
        lines.append(f"{t.file}: NMR — no moves received, {whose} were the bot's (policy greedy), not the player's; "
                     f"{how_mine if own and how_mine else how}")
    return lines
