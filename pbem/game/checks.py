"""``pbem verify`` for a game: the protocol's chain checks, then what the game layer can add.

Without any key: the chain (:func:`pbem.protocol.chain.verify_chain`), the
player's receipts against the orders headers the turn files publish, and
every public combat record against the public rolls (a die shown in the
record that is not the die rolled is a lie anyone can see).  Then what the
game's mode checks (:meth:`pbem.game.modes.GameMode.verify`): in a refereed
game, with the player's key (``--replay-mine``), each of his own
player-turns replayed (:mod:`pbem.game.modes.referee.own_replay`); a two-player game hides
nothing, so without any key every player-turn is replayed from the files
alone, and the report says whom the game waits for.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from pbem.game.modes import mode_of
from pbem.game.record_checks import combat_roll_problems, combat_table_problems
from pbem.protocol.chain import Finding, verify_chain
from pbem.protocol.keys import PrivateIdentity
from pbem.protocol.turnfile import TurnFile


@dataclass
class GameCheck:
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    turns: list[TurnFile] = field(default_factory=list)
    game: str | None = None
    referee: str | None = None
    parties: str | None = None  # "referee …", or the two players of a game without one

    @property
    def rolls(self) -> int:
        return sum(len(t.dice.rolls) for t in self.turns)


def verify_game(
    sources: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    folders: set[Path],
    *,
    replay_with: PrivateIdentity | None = None,
    receipts_required: bool = True,
    remember: Path | None = None,
) -> GameCheck:
    """Everything ``pbem verify`` checks; ``folders`` are searched for the player's receipts.  With
    ``receipts_required`` false (``pbem status``), a player-turn whose receipt is not in ``folders`` is noted as not
    replayed instead of failing: a missing receipt says nothing against the turn file.  ``remember``: the folder
    where the player's replays that found nothing are remembered (:mod:`pbem.game.modes.referee.replayed`)."""
    from pbem.game.receipts import check_receipts

    chain = verify_chain(sources)
    check = GameCheck(list(chain.findings), [], chain.turns)
    genesis = next((t for t in chain.turns if t.seq == 0), None)
    if genesis is not None:
        check.game = genesis.game
        check.referee = mode_of(genesis).referee(genesis)
        check.parties = mode_of(genesis).parties(genesis)
    if not chain.ok:
        return check
    receipts = check_receipts(folders, chain.turns)
    check.findings += receipts.findings
    check.notes += receipts.notes
    carried = _carried_scenario(genesis)
    for turn in chain.turns:
        check.findings += [Finding(turn.source, p, turn.seq) for p in combat_roll_problems(turn.public, turn.dice.rolls)]
        check.findings += [Finding(turn.source, p, turn.seq)
                           for p in combat_table_problems(turn.public, turn.dice.rolls, turn.ruleset, turn.source, carried)]
    if genesis is not None:
        mode_of(genesis).verify(check, folders, replay_with, receipts_required, remember)
    return check


def _carried_scenario(genesis: TurnFile | None) -> dict | None:
    """The scenario document the genesis carries, checked against its hash (a system whose charts are data checks the
    public records against them), or None without a genesis or with a document that does not match."""
    from pbem.errors import BadInput
    from pbem.loading.turns import scenario_document_of

    if genesis is None:
        return None
    try:
        return scenario_document_of(genesis)[0]
    except BadInput:
        return None
