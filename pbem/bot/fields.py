"""Distances over the board, for heading somewhere: MP from every hex to a goal, hexes to the nearest enemy.

A goal's field ignores units (they move) and is built once per map and
goal hex; the enemy's field is built once per player-turn from where the
view shows the enemy.
"""

from __future__ import annotations

import heapq
from collections import deque

from pbem.bot.reach import graph_of
from pbem.engine.board import Board
from pbem.engine.hexes import Hex

FAR = 10**6

def toward(board: Board, goal: Hex) -> dict[Hex, int]:
    """Scaled MP from each land hex to ``goal`` along the cheapest way, units ignored (steps are symmetric enough to run backwards)."""
    graph = graph_of(board)
    cache = graph.goal_fields
    if goal in cache:
        return cache[goal]
    steps = graph.steps
    cost = {goal: 0}
    heap = [(0, goal)]
    while heap:
        c, h = heapq.heappop(heap)
        if c > cost[h]:
            continue
        for n, w, _ in steps.get(h, ()):
            if c + w < cost.get(n, FAR):
                cost[n] = c + w
                heapq.heappush(heap, (c + w, n))
    cache[goal] = cost
    return cost


def hexes_from(board: Board, sources: list[Hex], limit: int = 6) -> dict[Hex, int]:
    """Hex steps from the nearest of ``sources``, over land, up to ``limit``."""
    steps = graph_of(board).steps
    found = {h: 0 for h in sources}
    queue = deque(sources)
    while queue:
        h = queue.popleft()
        d = found[h]
        if d >= limit:
            continue
        for n, _, _ in steps.get(h, ()):
            if n not in found:
                found[n] = d + 1
                queue.append(n)
    return found
