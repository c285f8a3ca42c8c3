"""Victory questions of the Leyte exclusive rules: Line of Communications and unit values (15.1, 15.3).

A Line of Communications (15.32, I17) runs from a unit's hex (not counted)
through adjacent hexes to a beach hex.  No hex on it may hold an enemy unit,
nor lie in an enemy zone of control unless a friendly unit occupies it; it
crosses no sea and no prohibited hexside.  The first three hexes may be of
any kind; every step after the third must cross a road or trail hexside.

:func:`has_line_of_communications` answers for one unit by a search from
it; :func:`traced_hexes` answers for every unit of a side at once by one
search back from the targets, which is what the scorer asks at the end of
a scenario (a test holds the two to the same answers on random boards).
"""

from __future__ import annotations

from collections import deque

from pbem.engine.board import Board
from pbem.engine.hexes import Hex
from pbem.engine.placement import Placement
from pbem.model.common import Side

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


def traced_hexes(board: Board, placement: Placement, side: Side, *, targets: frozenset[str] | None = None) -> frozenset[Hex]:
    """Every hex from which a unit of ``side`` can trace a Line of Communications (15.32, I17).

    The same answer as :func:`has_line_of_communications` for each unit of
    ``side`` on the map (a unit traces one exactly when its hex is in the
    set), worked out backwards for all of them at once: first the hexes
    from which roads and trails alone lead to a target, then those one,
    two and three steps of any kind away from an open hex that leads on.
    A step enters a land hex across no prohibited hexside, and the hex
    entered must be open to ``side``; the hex a unit starts in is never
    entered, so it need not be open.
    """
    if targets is None:
        targets = board.beaches
    opened: dict[Hex, bool] = {}

    def open_to(hex_id: Hex) -> bool:
        found = opened.get(hex_id)
        if found is None:
            found = opened[hex_id] = board.land(hex_id) and not placement.enemy_at(hex_id, side) and (
                not placement.in_enemy_zoc(hex_id, side) or placement.friendly_at(hex_id, side))
        return found

    # ``leads`` holds the hexes that end a trace when entered after the third
    # step: the targets, and those from which roads and trails lead on to one.
    leads = set(targets)
    queue = deque(sorted(h for h in targets if open_to(h)))
    while queue:
        there = queue.popleft()
        for here in board.neighbours(there):
            if here in leads or board.prohibited_between(here, there):
                continue
            if board.road_between(here, there) or board.trail_between(here, there):
                leads.add(here)
                if open_to(here):
                    queue.append(here)
    # Then the free steps, last first: a hex one step of any kind from an open
    # hex that ends the trace entered there.
    for _ in range(FREE_STEPS):
        before = set(targets)
        for there in leads:
            if open_to(there):
                before.update(h for h in board.neighbours(there) if not board.prohibited_between(h, there))
        leads = before
    return frozenset(leads)
