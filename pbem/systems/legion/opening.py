"""The opening position of a Legion scenario (a)."""

from __future__ import annotations

from pbem.systems.legion.board import LegionBoard
from pbem.systems.legion.counters import Counter
from pbem.systems.legion.scenario import LegionScenario
from pbem.systems.legion.state import LegionPosition, LegionState
from pbem.systems.legion.table import Table


def opening(board: LegionBoard, scenario: LegionScenario) -> LegionState:
    """Every counter on its set-up hex, the first player to move, ownership as the ZOCs give it (5B)."""
    units = tuple(Counter.model_construct(**{k: getattr(u, k) for k in Counter.model_fields}) for u in scenario.units)
    state = LegionState(
        position=LegionPosition(turn=scenario.first_turn, phasing=scenario.first_player, phase="movement", first_player=scenario.first_player,
                                pm_turns=tuple(scenario.pm_turns)),
        units=units,
        locations={u.id: u.hex for u in scenario.units},
        owner=dict(scenario.owner),
        exposed=frozenset() if scenario.limited_intelligence else None,
    )
    table = Table(board, state)
    table.update_ownership()
    return table.frozen()
