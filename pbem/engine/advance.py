"""Advance after combat (7.9, I8): victorious units follow a Path of Retreat.

An advancing unit goes along the chosen path to depth ``to`` (1 = the
defeated unit's former hex), clamped to the path's length, ignoring enemy
zones of control (7.93) but never crossing a prohibited hexside (nothing
crosses one, cases.md) nor entering a hex closed to its side (Leyte
16.23 item 2, I24).  Units take distinct hexes in the order listed: each
stops at the deepest hex short of its target that holds no unit, and never
passes a hex an enemy unit has since entered.  An advance is never forced
(7.96); the system never advances a defender on its own (docs/policies.md).
"""

from __future__ import annotations

from pbem.engine import events
from pbem.engine.hexes import Hex
from pbem.engine.phase_state import CombatPhaseState
from pbem.model.orders import Advance


def carry_out(
    state: CombatPhaseState,
    entries: list[Advance],
    eligible: list[str],
    paths: dict[str, tuple[Hex, ...]],
    losers: list[str],
    chosen_by: str,
) -> None:
    """Advance each entry's unit that is ``eligible`` along the path it follows.

    ``paths`` maps each defeated unit that left a Path of Retreat to it;
    ``losers`` lists them in the combat's order, for the default ``follow``.
    """
    default = next((u for u in losers if u in paths), None)
    for entry in entries:
        unit_id = entry.unit
        if unit_id not in eligible or unit_id in state.moved or not state.placement.on_map(unit_id):
            continue
        path = paths.get(entry.follow or default) if (entry.follow or default) else None
        if not path:
            continue
        side = state.units[unit_id].side
        reached = 0
        prev = state.placement.where(unit_id)
        for depth in range(1, min(entry.to, len(path)) + 1):
            hex_id = path[depth - 1]
            # A hex closed to the side (16.23 item 2, I24) ends the advance as an enemy does.
            if not state.board.passable(prev, hex_id) or state.board.closed_to(side, hex_id) or state.placement.enemy_at(hex_id, side):
                break
            if state.placement.vacant(hex_id):
                reached = depth
            prev = hex_id
        if not reached:
            continue
        start = state.placement.where(unit_id)
        state.placement.move(unit_id, path[reached - 1])
        state.moved.add(unit_id)
        state.events.append(events.advanced(unit_id, start, list(path[:reached]), chosen_by))
