"""Where a unit can end its move: one Dijkstra per unit over the engine's movement costs.

The costs are the engine's own (:meth:`Board.step_cost`, 5.21-5.23, I11),
scaled once per board to whole numbers so the search compares integers.
The search follows the engine's movement rules: no sea, no prohibited
hexside (5.21), no enemy-occupied hex (5.12), armor off roads and trails
only into clear or town (5.25), a move ends on entering an enemy zone of
control (6.0), and a reinforcement pays its entry cost first (12.21, 12.23)
and moves no farther when placed next to the enemy (12.22).
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from fractions import Fraction

from pbem.bot.sight import Sight
from pbem.engine.board import Board
from pbem.engine.hexes import Hex
from pbem.engine.terrain import BEACH_ENTRY_COST

Step = tuple[Hex, int, bool]
"""A step out of a hex: the hex entered, its scaled cost, whether armor may take it."""


class MoveGraph:
    """A board's land hexes with every passable step and its cost, in whole units of ``1/scale`` MP."""

    def __init__(self, board: Board) -> None:
        costs: dict[tuple[Hex, Hex], Fraction] = {}
        for h in board.all_hexes:
            if not board.land(h):
                continue
            for n in board.neighbours(h):
                if board.passable(h, n):
                    costs[(h, n)] = board.step_cost(h, n)
        entry = [board.terrain(h).cost for h in board.all_hexes] + [BEACH_ENTRY_COST]
        self.scale = math.lcm(*(Fraction(c).denominator for c in list(costs.values()) + entry))
        self.steps: dict[Hex, list[Step]] = {}
        for (h, n), cost in costs.items():
            self.steps.setdefault(h, []).append((n, int(cost * self.scale), bool(board.armor_may_enter(h, n))))
        self.goal_fields: dict[Hex, dict[Hex, int]] = {}
        """MP from every hex to a goal hex, filled in by :func:`pbem.bot.fields.toward`."""

    def scaled(self, cost: Fraction | int) -> int:
        return int(Fraction(cost) * self.scale)


_BY_BOARD: "weakref.WeakKeyDictionary[Board, MoveGraph]" = weakref.WeakKeyDictionary()
_BY_MAP: dict[str, MoveGraph] = {}
KEPT_MAPS = 8


def graph_of(board: Board) -> MoveGraph:
    """The board's :class:`MoveGraph`, built once per map.

    Each turn file read builds a new :class:`Board` from the same map, so
    graphs are also kept by the map's content (the last few maps).
    """
    graph = _BY_BOARD.get(board)
    if graph is None:
        key = board.spec.model_dump_json()
        graph = _BY_MAP.get(key)
        if graph is None:
            if len(_BY_MAP) >= KEPT_MAPS:
                _BY_MAP.pop(next(iter(_BY_MAP)))
            graph = _BY_MAP[key] = MoveGraph(board)
        _BY_BOARD[board] = graph
    return graph


@dataclass
class Reach:
    """Every hex a unit may end its move in, with what reaching it costs and the way there."""

    unit: str
    start: Hex | None
    """Where the unit stands, or None for a reinforcement."""
    cost: dict[Hex, int]
    came_from: dict[Hex, Hex | None]

    def hexes(self) -> list[Hex]:
        return sorted(self.cost)

    def path(self, to: Hex) -> tuple[Hex | None, list[Hex]]:
        """``(enter, path)`` of a move ending in ``to``: the entry hex of a reinforcement (else None), then the hexes entered."""
        chain = [to]
        while self.came_from[chain[-1]] is not None:
            chain.append(self.came_from[chain[-1]])
        chain.reverse()
        if self.start is None:
            return chain[0], chain[1:]
        return None, chain[1:]


def _search(unit_id: str, graph: MoveGraph, sources: dict[Hex, int], budget: int, armor: bool, sight: Sight, start: Hex | None) -> Reach:
    """Dijkstra with a bucket per scaled MP (Dial's algorithm: the costs are small whole numbers)."""
    cost = dict(sources)
    came_from: dict[Hex, Hex | None] = {h: None for h in sources}
    buckets: list[list[Hex]] = [[] for _ in range(budget + 1)]
    for h, c in sorted(sources.items()):
        buckets[c].append(h)
    zoc, enemy_at = sight.enemy_zoc, sight.enemy_at
    steps = graph.steps
    beyond = budget + 1
    known = cost.get
    for c, bucket in enumerate(buckets):
        for h in bucket:  # a step costing nothing appends to this very bucket, and is still seen
            if cost[h] != c or h in zoc:
                continue  # entering an enemy zone of control ends the move (6.0, 12.22)
            for n, w, armor_ok in steps.get(h, ()):
                nc = c + w
                if nc < known(n, beyond) and n not in enemy_at and (armor_ok or not armor):
                    cost[n] = nc
                    came_from[n] = h
                    buckets[nc].append(n)
    return Reach(unit_id, start, cost, came_from)


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
        reach = Reach(unit_id, start, {start: 0}, {start: None})
        if unit.side == "JP" and unit.kind in ("infantry", "engineer"):
            for n, w, armor_ok in graph.steps.get(start, ()):
                if w <= budget and n not in sight.enemy_at:
                    reach.cost[n] = w
                    reach.came_from[n] = start
        return reach
    return _search(unit_id, graph, {start: 0}, budget, armor, sight, start)


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
    return _search(unit_id, graph, sources, budget, unit.kind == "armor", sight, None)
