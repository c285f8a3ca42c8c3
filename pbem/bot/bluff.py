"""Japanese dummies moved as a bluff (hidden units, 19B.6), never exposed needlessly.

A dummy is removed the moment it enters a clear hex (19B.3) or stands in
an American zone of control as a Combat Phase begins (docs/hidden-units.md),
so a dummy's move here never enters a clear hex and never ends next to an
American unit.  Within that, it goes where a real unit of the defence would
stand: a screen about two hexes in front of the American units, toward the
side's goals — so markers that move tell nothing by moving.
"""

from __future__ import annotations

import heapq

from pbem.bot import fields
from pbem.bot.reach import Reach, graph_of
from pbem.bot.sight import Sight
from pbem.engine.dummies import clear
from pbem.engine.hexes import Hex

SCREEN = 2
"""Hexes between a dummy's end hex and the nearest American unit it aims for (assumed: just out of contact)."""


def dummy_reach(sight: Sight, unit: str) -> Reach:
    """Where a dummy can end its move without being exposed: no clear hex on the way, no enemy zone of control."""
    graph = graph_of(sight.board)
    start = sight.where[unit]
    budget = graph.scaled(sight.units[unit].move)
    cost = {start: 0}
    came: dict[Hex, Hex | None] = {start: None}
    frontier = [(0, start)]
    while frontier:
        c, h = heapq.heappop(frontier)
        if c > cost[h]:
            continue
        for n, w, _ in graph.steps.get(h, ()):
            nc = c + w
            if nc > budget or nc >= cost.get(n, budget + 1):
                continue
            if n in sight.enemy_at or n in sight.enemy_zoc or clear(sight.board, n):
                continue
            cost[n] = nc
            came[n] = h
            heapq.heappush(frontier, (nc, n))
    return Reach(unit, start, cost, came)


def bluff_moves(sight: Sight, taken: set[Hex], goal_field: dict[Hex, int] | None) -> dict[str, Reach | None]:
    """For each dummy, the hex chosen (as a Reach with its path) or None to stay; ``taken`` is updated."""
    enemy_near = fields.hexes_from(sight.board, sorted(sight.enemy_at), limit=8)
    chosen: dict[str, tuple[Reach, Hex] | None] = {}
    for d in sorted(sight.still):
        reach = dummy_reach(sight, d)
        here = sight.where[d]

        def score(h: Hex) -> tuple:
            return (abs(enemy_near.get(h, 9) - SCREEN), (goal_field or {}).get(h, fields.FAR), h)

        options = [h for h in reach.cost if h == here or h not in taken]
        best = min(options, key=score)
        if best != here and score(best) < score(here):
            taken.discard(here)
            taken.add(best)
            chosen[d] = (reach, best)
        else:
            chosen[d] = None
    return chosen
