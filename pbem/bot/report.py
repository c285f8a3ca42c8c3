"""The end of a game in words: who won, and on what.

:func:`final_report` is the hook for the victory report: until the victory
points of the Leyte rules (15.0, 16.14, 16.24, 16.34) are scored by the
engine, it judges a game **provisionally** by the value of the enemy units
each side eliminated (15.11, 15.12) and lists the objectives each side
holds (15.21) without scoring them.  When the engine scores victory, this
function should return its report instead; the demo, the bot-strength
benchmark and the soak test all read the result from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.datafiles import LoadedScenario
from pbem.model.common import ELIMINATED, SIDES, enemy_of
from pbem.model.state import GameState

BASIS = "provisional: the value of enemy units eliminated (15.11, 15.12); objectives are listed, not scored"


@dataclass(frozen=True)
class FinalReport:
    """Each side's score, the winner (None for a draw), and lines to print."""

    score: dict[str, int]
    winner: str | None
    basis: str
    lines: list[str] = field(default_factory=list)


def eliminated_value(state: GameState) -> dict[str, int]:
    """For each side, the value of the enemy units it eliminated (15.11, 15.12)."""
    score = {side: 0 for side in SIDES}
    for unit in state.units:
        if state.locations.get(unit.id) == ELIMINATED:
            score[enemy_of(unit.side)] += unit.combat_value
    return score


def final_report(loaded: LoadedScenario, state: GameState) -> FinalReport:
    """The result of a finished game (see the module docstring: provisional until the engine scores victory)."""
    score = eliminated_value(state)
    winner = None if score["US"] == score["JP"] else max(SIDES, key=score.__getitem__)
    lines = []
    for side in SIDES:
        lost = [u for u in state.units if u.side == enemy_of(side) and state.locations.get(u.id) == ELIMINATED]
        names = ", ".join(u.id for u in lost) or "none"
        lines.append(f"{side} eliminated {score[side]} points of enemy units: {names}")
    occupant = {h: u for u, h in state.locations.items()}
    units = state.unit_index()
    for o in loaded.scenario.objectives:
        holder = occupant.get(o.hex)
        held = f"held by {units[holder].side} ({holder})" if holder else "empty"
        lines.append(f"objective {o.hex} ({o.points} points to {o.side}): {held}")
    verdict = f"{winner} wins" if winner else "a draw"
    lines.append(f"Result: {verdict}, {score['US']} to {score['JP']}")
    lines.append(f"  ({BASIS})")
    return FinalReport(score, winner, BASIS, lines)
