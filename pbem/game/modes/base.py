"""The questions a game mode answers, so that the rest of the game layer asks them instead of testing flags.

A game is played in one mode, pinned in its genesis file (the public
header's ``mode``).  The mode says who holds which secret, who adjudicates
which player-turn and how the next turn file is built, what ``verify``
checks and what ``audit`` replays, and what ``status`` advises each party.
Referee mode (:mod:`pbem.game.modes.referee`) and two-player mode
(:mod:`pbem.game.modes.two_player`) implement every method; a third mode
is one more subclass (docs/PROTOCOL.md, "How the game layer is layered").
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.protocol.modes import FileMode

if TYPE_CHECKING:  # GameCheck (pbem.game.checks) and Status (pbem.game.status) sit above the modes: not imported
    from pbem.game.step import Adjudicated
    from pbem.protocol.chain import Finding
    from pbem.protocol.dice import DiceStream
    from pbem.protocol.keys import PrivateIdentity, PublicIdentity
    from pbem.protocol.nmr import NmrRecord
    from pbem.protocol.ordersfile import OrdersBody
    from pbem.protocol.turnfile import TurnFile


class GameMode(ABC):
    """One way of playing a game: the seam between the files and the parties."""

    name: str
    """The header's ``mode`` (``"referee"``, ``"two-player"``)."""

    files: FileMode
    """The mode's rules the protocol layer checks on the files alone (:mod:`pbem.protocol.modes`)."""

    # ------------------------------------------------------------ who holds which secret

    @abstractmethod
    def secrets(self, turn: TurnFile) -> dict[str, str]:
        """Each secret of ``turn`` (a sealed part, the seed of the next adjudication) and the role whose key opens or derives it."""

    @abstractmethod
    def parties(self, genesis: TurnFile) -> str:
        """Who plays, for ``verify``'s and the event's reports (``"referee …"``, or the two players)."""

    @abstractmethod
    def referee(self, genesis: TurnFile) -> str | None:
        """The referee's identity, described; None when the mode has none."""

    # ------------------------------------------------------------ who adjudicates which player-turn

    def adjudicator(self, turn: TurnFile, side: str) -> str:
        """The role that adjudicates ``side``'s orders answering ``turn`` (they are sealed to it): the files say."""
        return self.files.adjudicator(turn, side)

    @abstractmethod
    def seed_holder(self, turn: TurnFile) -> str:
        """The role holding the seed that rolls the orders answering ``turn`` (``status``'s ``adjudicator``)."""

    @abstractmethod
    def held(self, turn: TurnFile, adjudicator: PrivateIdentity) -> tuple[Any, bytes]:
        """The full state and the committed seed, as the one who adjudicates the orders answering ``turn`` holds them."""

    verifies_before_adjudicating: bool
    """The adjudicator plays on from files someone else wrote, so the game must verify before he does."""

    @abstractmethod
    def adjudicate_nmr(self, turn: TurnFile, adjudicator: PrivateIdentity, side: str) -> tuple[Adjudicated, NmrRecord]:
        """The turn file after ``turn`` when ``side``'s orders did not come (or BadInput: the mode has no NMR)."""

    # ------------------------------------------------------------ how the next turn file is built

    @abstractmethod
    def start(self, scenario: str, me: PrivateIdentity, us: PublicIdentity, jp: PublicIdentity, *,
              referee: PublicIdentity | None, edition: str | None, ground_support: list[dict] | None,
              options: list[str] | None, setup: dict | None = None, escrow: PublicIdentity | None = None,
              stall_days: int | None = None) -> TurnFile:
        """The genesis file, signed by ``me`` (``referee``: the identity ``pbem new --referee`` names; ``setup``: the
        Japanese set-up a genesis commits in a mode that has one, ``pbem new --setup``; ``escrow``: the third party
        who holds a player's per-game secret in a mode that has one, ``pbem new --escrow``; ``stall_days``: after how
        many days without an answer the game is stalled, in a mode that has that verdict, ``pbem new --stall-days``)."""

    @staticmethod
    def refuse_no_referee_settings(escrow: PublicIdentity | None, stall_days: int | None) -> None:
        """BadInput for ``--escrow`` or ``--stall-days`` in a mode where no player holds a per-game secret: the escrow
        and the stall verdict it opens are the mode of hidden units with no referee's (issue 36)."""
        from pbem.errors import BadInput

        if escrow is not None:
            raise BadInput("--escrow names who holds the Japanese secret of a game with hidden units and no referee",
                           hint="give it with --no-referee --option hidden-units")
        if stall_days is not None:
            raise BadInput("--stall-days sets when a game with hidden units and no referee is stalled",
                           hint="give it with --no-referee --option hidden-units")

    @abstractmethod
    def following(self, turn: TurnFile, adjudicator: PrivateIdentity, step: Any, body: OrdersBody, dice: DiceStream,
                  superseded: list[dict], *, loaded: Any, hidden: bool) -> TurnFile:
        """The turn file after ``turn``: ``step`` (:func:`pbem.game.step.play`) carried out ``body`` with ``dice``."""

    @abstractmethod
    def side_view(self, turn: TurnFile, side: str, identity: PrivateIdentity) -> Any:
        """``side``'s view of ``turn``, as the holder of ``identity`` reads it (not yet checked)."""

    @abstractmethod
    def faulty_view_hint(self, turn: TurnFile) -> str:
        """What a player whose view disagrees with the public record can do about it."""

    # ------------------------------------------------------------ what verify checks, what audit replays

    @abstractmethod
    def verify(self, check: Any, folders: set[Path], replay_with: PrivateIdentity | None,
               receipts_required: bool, remember: Path | None = None) -> None:
        """Add to ``check`` (a :class:`pbem.game.checks.GameCheck`) what ``verify`` checks in this mode beyond the chain,
        the receipts and the combat records."""

    audit_needs_reveal: bool
    """``pbem audit`` needs a reveal file (the openings of what was sealed), or replays from the turn files alone."""

    @abstractmethod
    def audit_from_files(self, turns: list[TurnFile]) -> tuple[list[Finding], int] | None:
        """The audit from the (verified) turn files alone — findings and player-turns replayed — or None when it
        needs a reveal file."""

    @abstractmethod
    def audit_summary(self, replayed: int) -> str:
        """``pbem audit``'s line for a game audited from its files alone (or, when it needs a reveal, from the openings)."""

    @abstractmethod
    def nothing_to_reveal(self, game: Path, what: str) -> str | None:
        """Why ``pbem reveal`` has nothing to open in this mode, or None."""

    # ------------------------------------------------------------ what status advises

    @abstractmethod
    def sender(self, turn: TurnFile) -> str:
        """Whom a player asks for a fresh copy of a file (``"the referee"``, ``"your opponent"``)."""

    @abstractmethod
    def do_not_play_on(self) -> str:
        """``status``'s advice when the game does not verify."""

    @abstractmethod
    def advise(self, status: Any, folder: Path, turn_path: Path, orders_file: Path, received: list[Path],
               key_hint: str) -> None:
        """Fill in the next action of ``status`` (a :class:`pbem.game.status.Status`) for a game in progress
        (``received``: the orders revisions in the folder)."""

    @abstractmethod
    def advise_over(self, status: Any, folder: Path, key_hint: str) -> None:
        """Fill in ``status``'s next action once the game is over."""

    @abstractmethod
    def announce_genesis(self, genesis: TurnFile, target: Path) -> list[str]:
        """What ``pbem new`` prints after writing the genesis file."""

    @abstractmethod
    def announce_turn(self, done: Adjudicated, target: Path) -> tuple[list[str], str, str]:
        """What ``pbem adjudicate`` prints after writing the next turn file: its lines, the mail's next step and whom
        the mail goes to."""


def genesis_lines(genesis: TurnFile, target: Path, parties: str, send: str) -> list[str]:
    """``pbem new``'s report: the file written (``parties``: what to add after the title), the options, whom to send it."""
    lines = [f"wrote {target}: game {genesis.game}, {genesis.public['title']}" + parties]
    if genesis.public.get("options"):
        lines.append(f"options: {', '.join(genesis.public['options'])}")
    return lines + [send]
