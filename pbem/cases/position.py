"""A position to check orders against: a conformance case's, or a scenario's opening one (``pbem validate --position``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from pbem.loading.datafiles import find_scenario, load_scenario
from pbem.loading.jsonfile import read_json

if TYPE_CHECKING:  # loaded by the functions that build them: reading a scenario file as JSON needs no model
    from pbem.engine.board import Board
    from pbem.model.ruleset import Ruleset
    from pbem.model.state import GameState


@dataclass(frozen=True)
class PositionFile:
    """A position to check orders against: a board, its rules, and the game state."""

    board: Board
    ruleset: Ruleset
    state: GameState


def load_position(name: str | Path) -> PositionFile:
    """A conformance case's position, or a scenario's opening position (by file or by id, as ``new`` takes it)."""
    path = find_scenario(str(name))
    document = read_json(path)
    if isinstance(document, dict) and "case" in document:
        from pbem.cases.load import load_case

        loaded = load_case(path)
        return PositionFile(loaded.board, loaded.case.ruleset, loaded.case.game_state())
    from pbem.engine.sequence import opening

    loaded = load_scenario(path)
    return PositionFile(loaded.board, loaded.scenario.ruleset, opening(loaded.scenario))
