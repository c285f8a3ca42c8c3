"""Where a unit of the bot's side can end its move, on its :class:`~pbem.bot.sight.Sight`.

The graph and the search are the engine's (:mod:`pbem.engine.reach`, shared
with the player's page); here they are fed what the bot sees: the enemy's
zones of control and the hexes it holds.
"""

from __future__ import annotations

from pbem.bot.sight import Sight
from pbem.engine.hexes import Hex
from pbem.engine.reach import MoveGraph, Reach, Step, graph_of, search, stepping_out

__all__ = ["MoveGraph", "Reach", "Step", "entry_hexes", "graph_of", "reach_of", "reinforcement_reach"]


def reach_of(sight: Sight, unit_id: str) -> Reach:
    """Where an on-map unit of the bot's side can end its move this Movement Phase.

    A unit starting next to the enemy stays (5.14, 5.15, 6.13), except
    Japanese infantry and engineers, which may step one hex (6.14).
    """
    graph = graph_of(sight.board)
    unit = sight.units[unit_id]
    start = sight.where[unit_id]
    budget = graph.scaled(unit.move)
    armor = unit.kind == "armor"
    if start in sight.enemy_zoc:
        return stepping_out(unit_id, unit, graph, start, sight.enemy_at)
    return search(unit_id, graph, {start: 0}, budget, armor, sight.enemy_zoc, sight.enemy_at, start)


def entry_hexes(sight: Sight, unit_id: str) -> dict[Hex, int]:
    """The hexes a reinforcement may be placed in, with the scaled MP placing it costs (12.2, 12.21, 12.23, 12.42).

    ``entry`` is ``beach`` (2 MP on any beach hex), ``edge`` (the hex's cost
    on any map-edge entry hex) or the name of one of the map's areas (each of
    its hexes: 2 MP when it is a beach hex, else the hex's cost).  An air
    assault unit under Leyte is placed in any empty land hex at no cost (I21).
    """
    graph = graph_of(sight.board)
    board = sight.board
    unit = sight.units[unit_id]
    if unit.kind == "airassault" and sight.ruleset.leyte:
        occupied = set(sight.where.values())
        return {h: 0 for h in graph.steps if h not in occupied}
    found = {}
    for h in sorted(board.entry_hexes(unit.entry) or ()):
        if not board.land(h) or h in sight.enemy_at:
            continue
        if unit.kind == "armor" and not board.armor_may_be_placed(h):
            continue  # 5.25, I22
        found[h] = graph.scaled(board.entry_cost(unit.entry, h))
    return found


def reinforcement_reach(sight: Sight, unit_id: str) -> Reach:
    """Where a reinforcement can end its move: placed in an entry hex, then moving on (12.1-12.22)."""
    graph = graph_of(sight.board)
    unit = sight.units[unit_id]
    budget = graph.scaled(unit.move)
    sources = {h: c for h, c in entry_hexes(sight, unit_id).items() if c <= budget}
    return search(unit_id, graph, sources, budget, unit.kind == "armor", sight.enemy_zoc, sight.enemy_at, None)
