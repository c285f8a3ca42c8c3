"""Victory questions of the Leyte exclusive rules: Line of Communications and unit values (15.1, 15.3).

A Line of Communications (15.32, I17) runs from a unit's hex (not counted)
through adjacent hexes to a beach hex.  No hex on it may hold an enemy unit,
nor lie in an enemy zone of control unless a friendly unit occupies it; it
crosses no sea and no prohibited hexside.  The first three hexes may be of
any kind; every step after the third must cross a road or trail hexside.
"""

from __future__ import annotations

from collections import deque

from pbem.engine.board import Board
from pbem.engine.placement import Placement

FREE_STEPS = 3


def has_line_of_communications(board: Board, placement: Placement, unit_id: str, *, targets: frozenset[str] | None = None) -> bool:
    """Can ``unit_id`` trace a Line of Communications to a beach hex (15.32, I17)?

    ``targets`` replaces the beach hexes: the active beaches of a scenario
    (15.31), or the western edge hexes for Japanese units (16.34).
    """
    if not placement.on_map(unit_id):
        return False
    if targets is None:
        targets = board.beaches
    side = placement.units[unit_id].side
    start = placement.where(unit_id)
    if start in targets:
        return True

    def open_to(hex_id: str) -> bool:
        if placement.enemy_at(hex_id, side):
            return False
        return not placement.in_enemy_zoc(hex_id, side) or placement.friendly_at(hex_id, side)

    # Breadth-first over (hex, steps taken, capped at three): after the third
    # step only road and trail hexsides may be crossed.
    seen = {(start, 0)}
    queue = deque([(start, 0)])
    while queue:
        here, steps = queue.popleft()
        for nxt in board.neighbours(here):
            if not board.passable(here, nxt) or not open_to(nxt):
                continue
            if steps >= FREE_STEPS and not (board.road_between(here, nxt) or board.trail_between(here, nxt)):
                continue
            if nxt in targets:
                return True
            state = (nxt, min(steps + 1, FREE_STEPS))
            if state not in seen:
                seen.add(state)
                queue.append(state)
    return False
