"""The files' side of a game's mode: what the protocol layer asks the mode instead of testing which one it is.

A turn file names its game's mode in its header (``mode``; the genesis file
pins it).  :func:`file_mode` picks what that mode says about the files alone:
who adjudicates a side's orders (and so who they are sealed to), whether an
orders header commits its writer's seed, and what ``verify_chain``, the
orders reader and the NMR check hold a file to beyond what every mode shares.
The game layer's :class:`pbem.game.modes.GameMode` holds the rest of the
seam and names its file side as ``files``.  A third mode adds one
implementation here and one there.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any

from pbem.protocol import blindfile, twoplayer
from pbem.protocol.turnfile import REFEREE, TWO_PLAYER, TurnFile


class FileMode(ABC):
    """The mode's rules that a reader of the files checks without running the game."""

    name: str
    """The header's ``mode``."""

    orders_commit_seed: bool
    """Every orders header carries its signer's commitment to the seed of his opponent's next orders."""

    @abstractmethod
    def adjudicator(self, turn: TurnFile, side: str) -> str:
        """The role that adjudicates ``side``'s orders answering ``turn``: they are sealed to him."""

    @abstractmethod
    def genesis_problems(self, turn: TurnFile) -> list[str]:
        """What the genesis file must hold in this mode (its seed commitment's owner)."""

    @abstractmethod
    def link_problem(self, turn: TurnFile, previous: TurnFile) -> str | None:
        """Why ``turn`` may not follow ``previous`` (who may write it), or None."""

    @abstractmethod
    def seed_mismatch(self, turn: TurnFile, previous: TurnFile) -> str:
        """The finding when the seed ``turn`` reveals is not the one ``previous`` committed to, naming who is at fault."""

    @abstractmethod
    def orders_problems(self, turn: TurnFile, header: Any) -> list[str]:
        """What the orders header ``turn`` publishes (a verified ``OrdersHeader``) must hold in this mode."""

    @abstractmethod
    def orders_header_problem(self, header: Any) -> str | None:
        """Why orders with this signed header (``OrdersHeader``) cannot be adjudicated in this mode, or None."""

    @abstractmethod
    def nmr_problem(self, turn: TurnFile) -> str | None:
        """Why ``turn`` may not carry an NMR record (no moves received) in this mode, or None."""

    def holds(self, path: Path) -> bool:
        """``path`` is a game folder of this mode, or one of its files, known by the files' names: a mode whose games
        keep files of their own says so here.  Turn files are read, not named: their header says the mode."""
        return False


class RefereeFiles(FileMode):
    """Referee mode: every file is the referee's; players' orders are sealed to him."""

    name = "referee"
    orders_commit_seed = False

    def adjudicator(self, turn, side):
        return REFEREE

    def genesis_problems(self, turn):
        return []

    def link_problem(self, turn, previous):
        return None

    def seed_mismatch(self, turn, previous):
        return (f"the revealed dice seed does not match the commitment {previous.dice.next_commitment} "
                f"made in seq {previous.seq} ({previous.source})")

    def orders_problems(self, turn, header):
        if header.next_commitment is not None:
            return [f"adjudicates {header.side} orders signed for a two-player game"]
        return []

    def orders_header_problem(self, header):
        if header.next_commitment is not None:
            return "these orders are signed for a two-player game and this game has a referee"
        return None

    def nmr_problem(self, turn):
        return None


class TwoPlayerFiles(FileMode):
    """Two-player mode (:mod:`pbem.protocol.twoplayer`): the player who does not move adjudicates, with his own seed."""

    name = TWO_PLAYER
    orders_commit_seed = True

    def adjudicator(self, turn, side):
        return twoplayer.opponent(side)

    def genesis_problems(self, turn):
        return twoplayer.turn_problems(turn, None)

    def link_problem(self, turn, previous):
        if previous.mode != self.name:
            return None  # a file of another mode: the membership check reports it
        return twoplayer.link_problem(turn, previous)

    def seed_mismatch(self, turn, previous):
        return (f"the revealed dice seed does not match the commitment {previous.dice.next_commitment} "
                f"made by {previous.dice.committed_by} in seq {previous.seq} ({previous.source})"
                f": {turn.writer}, who wrote this file, revealed the wrong seed")

    def orders_problems(self, turn, header):
        return twoplayer.turn_problems(turn, header)

    def orders_header_problem(self, header):
        if header.next_commitment is None:
            return "these orders carry no seed commitment, which every orders file of a two-player game does"
        return None

    def nmr_problem(self, turn):
        return "carries an NMR record, which only a referee may sign: a two-player game has no NMR"


class BlindFiles(FileMode):
    """Hidden units with no referee (:mod:`pbem.protocol.blindfile`): no turn file, no orders file of the other modes.

    Its messages carry their own rules (who writes which number, the chain of digests); a turn or orders file
    naming this mode is refused here."""

    name = blindfile.MODE
    orders_commit_seed = False

    def adjudicator(self, turn, side):
        return "JP"  # he adjudicates every step, the American player-turns too

    def genesis_problems(self, turn):
        return [f"is a turn file of mode {self.name}, whose games have none (their files are {blindfile.file_name(0)}, …)"]

    def link_problem(self, turn, previous):
        return f"is a turn file of mode {self.name}, whose games have none"

    def seed_mismatch(self, turn, previous):
        return "the revealed dice seed does not match its commitment"

    def orders_problems(self, turn, header):
        return [f"carries an orders header, which a game of mode {self.name} does not use"]

    def orders_header_problem(self, header):
        return f"a game of mode {self.name} takes no orders files: the American orders travel in his blind-NNNN-US.pbem"

    def nmr_problem(self, turn):
        return "carries an NMR record, which only a referee may sign: a game without a referee has no NMR"

    def holds(self, path):
        return blindfile.is_blind_path(path)


FILE_MODES: dict[str, FileMode] = {mode.name: mode for mode in (RefereeFiles(), TwoPlayerFiles(), BlindFiles())}


def file_mode(turn: TurnFile) -> FileMode:
    """The file rules of the mode ``turn``'s header names."""
    return FILE_MODES[turn.mode]


def mode_of_path(path: Path) -> FileMode | None:
    """The mode whose own files ``path`` is (a game folder, or one of its files), or None for a game of turn files,
    whose mode its genesis file's header names (:func:`file_mode`).  What ``verify``, ``audit``, ``status``, ``view``,
    ``show`` and ``dice`` ask before they read anything."""
    return next((mode for mode in FILE_MODES.values() if mode.holds(path)), None)

