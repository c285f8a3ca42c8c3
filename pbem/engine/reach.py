"""Where a unit can end its move, and the cheapest way there: one Dijkstra over the engine's movement costs.

Shared by the bot (:mod:`pbem.bot.reach`, on its :class:`~pbem.bot.sight.Sight`)
and the player's page (:mod:`pbem.game.planning`, through :func:`unit_reach`),
so that both offer exactly the moves :func:`~pbem.engine.movement.check_moves`
accepts.  The costs are the engine's own (:meth:`Board.step_cost`, 5.21-5.23,
I11), scaled once per board to whole numbers so the search compares integers.
The search follows the movement rules: no sea, no prohibited hexside (5.21),
no enemy-occupied hex (5.12), no hex closed to the side (16.23), armor off
roads and trails only into clear or town (5.25), a move ends on entering an
enemy zone of control (6.0), a unit starting next to the enemy stays
(5.14, 5.15, 6.13) or, Japanese infantry and engineers, steps one hex
(6.14), and a reinforcement pays its entry cost first (12.21, 12.23) and
moves no farther when placed next to the enemy (12.22).
"""

from __future__ import annotations

import json
import math
import weakref
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Collection, Mapping

from pbem.model.dump import dump
from pbem.engine.board import Board
from pbem.engine.hexes import Hex
from pbem.engine.movement import EXIT_COST
from pbem.engine.placement import Placement
from pbem.engine.terrain import BEACH_ENTRY_COST
from pbem.model.common import OFFMAP, enemy_of
from pbem.model.ruleset import Ruleset
from pbem.model.units import Unit

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
        entry = [board.terrain(h).cost for h in board.all_hexes] + [BEACH_ENTRY_COST, EXIT_COST]
        self.scale = math.lcm(*(Fraction(c).denominator for c in list(costs.values()) + entry))
        self.steps: dict[Hex, list[Step]] = {}
        for (h, n), cost in costs.items():
            self.steps.setdefault(h, []).append((n, int(cost * self.scale), bool(board.armor_may_enter(h, n))))
        self.goal_fields: dict[Hex, dict[Hex, int]] = {}
        """MP from every hex to a goal hex, filled in by :func:`pbem.bot.fields.toward`."""

    def scaled(self, cost: Fraction | int) -> int:
        return int(Fraction(cost) * self.scale)

    def mp(self, scaled: int) -> Fraction:
        """A scaled cost back in Movement Points."""
        return Fraction(scaled, self.scale)


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
        key = json.dumps(dump(board.spec), sort_keys=True)  # the map's content, written without pydantic's serializer
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
    exits: dict[Hex, int] = field(default_factory=dict)
    """Exit hexes the unit may leave the map from (16.13), with the scaled cost of leaving there; filled by :func:`unit_reach`."""

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


def search(
    unit_id: str, graph: MoveGraph, sources: dict[Hex, int], budget: int, armor: bool,
    zoc: Collection[Hex], blocked: Collection[Hex], start: Hex | None,
) -> Reach:
    """Dijkstra with a bucket per scaled MP (Dial's algorithm: the costs are small whole numbers).

    ``zoc``: hexes where a move must end (6.0, 12.22); ``blocked``: hexes no
    step may enter (an enemy unit, 5.12; closed to the side, 16.23).
    """
    cost = dict(sources)
    came_from: dict[Hex, Hex | None] = {h: None for h in sources}
    buckets: list[list[Hex]] = [[] for _ in range(budget + 1)]
    for h, c in sorted(sources.items()):
        buckets[c].append(h)
    steps = graph.steps
    beyond = budget + 1
    known = cost.get
    for c, bucket in enumerate(buckets):
        for h in bucket:  # a step costing nothing appends to this very bucket, and is still seen
            if cost[h] != c or h in zoc:
                continue  # entering an enemy zone of control ends the move (6.0, 12.22)
            for n, w, armor_ok in steps.get(h, ()):
                nc = c + w
                if nc < known(n, beyond) and n not in blocked and (armor_ok or not armor):
                    cost[n] = nc
                    came_from[n] = h
                    buckets[nc].append(n)
    return Reach(unit_id, start, cost, came_from)


def stepping_out(unit_id: str, unit: Unit, graph: MoveGraph, start: Hex, blocked: Collection[Hex]) -> Reach:
    """A unit starting in an enemy zone of control: it stays (5.14, 5.15, 6.13), or steps one hex (6.14)."""
    reach = Reach(unit_id, start, {start: 0}, {start: None})
    if unit.side == "JP" and unit.kind in ("infantry", "engineer"):
        budget = graph.scaled(unit.move)
        for n, w, _armor_ok in graph.steps.get(start, ()):
            if w <= budget and n not in blocked:
                reach.cost[n] = w
                reach.came_from[n] = start
    return reach


def unit_reach(board: Board, ruleset: Ruleset, units: Mapping[str, Unit], placement: Placement, unit_id: str,
               now: Placement | None = None) -> Reach:
    """Where ``unit_id`` may end a move of this Movement Phase, as :func:`~pbem.engine.movement.check_moves` judges it.

    ``placement`` is the position at the start of the phase (zones of control
    never change within it, since the enemy does not move); ``now`` is where
    units stand when a reinforcement lands (12.1: after the units on the map
    moved), which an air assault's empty hex is judged on (12.42, I21).
    Stacking (5.31) depends on where the other units end, so it is left to
    the caller.  ``exits`` holds the exit hexes reachable with 1 MP to spare.
    """
    unit = units[unit_id]
    side = unit.side
    graph = graph_of(board)
    budget = graph.scaled(unit.move)
    enemies = [placement.where(e) for e in placement.units_of(enemy_of(side))]
    enemy_hexes = frozenset(enemies)
    zoc = frozenset(n for h in enemy_hexes for n in board.neighbours(h))
    blocked = enemy_hexes | board.closed.get(side, frozenset())
    start = placement.where(unit_id)
    armor = unit.kind == "armor"
    if start == OFFMAP:
        sources = _landing(board, ruleset, unit, graph, enemy_hexes, now or placement)
        reach = search(unit_id, graph, {h: c for h, c in sources.items() if c <= budget}, budget, armor, zoc, blocked, None)
    elif not placement.on_map(unit_id):
        return Reach(unit_id, start, {}, {})
    elif start in zoc:
        reach = stepping_out(unit_id, unit, graph, start, blocked)
    else:
        reach = search(unit_id, graph, {start: 0}, budget, armor, zoc, blocked, start)
    leave = graph.scaled(EXIT_COST)
    reach.exits = {h: c + leave for h, c in reach.cost.items()
                   if side in board.exits.get(h, ()) and h not in zoc and c + leave <= budget}
    return reach


def _landing(board: Board, ruleset: Ruleset, unit: Unit, graph: MoveGraph, enemy_hexes: frozenset[Hex], now: Placement) -> dict[Hex, int]:
    """The hexes a reinforcement may be placed in, with the scaled MP placing it costs (12.2, 12.21, 12.23, 12.42, I21-I23)."""
    if unit.kind == "airassault" and ruleset.leyte:
        return {h: 0 for h in board.all_hexes if board.land(h) and now.vacant(h)}
    found = {}
    closed = board.closed.get(unit.side, frozenset())
    for h in sorted(board.entry_hexes(unit.entry) or ()):
        if not board.land(h) or h in enemy_hexes or h in closed:
            continue
        if unit.kind == "armor" and not board.armor_may_be_placed(h):
            continue  # 5.25, I22
        found[h] = graph.scaled(board.entry_cost(unit.entry, h))
    return found


def offered(board: Board, ruleset: Ruleset, units: Mapping[str, Unit], placement: Placement, phasing: str, phase: str,
            moves: list, unit_id: str) -> Reach | None:
    """Where ``unit_id`` may end its move given the other ``moves`` of the orders: :func:`unit_reach` less the hexes
    another friendly unit ends in (5.31).  A hex is offered exactly when a move there passes :func:`check_moves`.

    None when the unit may not move at all now (not the phasing side's, not the Movement Phase, 5.11).
    """
    from pbem.engine.movement import check_moves

    unit = units.get(unit_id)
    if unit is None or unit.side != phasing or phase != "movement":
        return None
    others = [m for m in moves if m.unit != unit_id]
    after = check_moves(board, dict(units), placement, phasing, phase, others, ruleset).placement
    reach = unit_reach(board, ruleset, units, placement, unit_id, now=after)
    start = placement.where(unit_id)
    taken = {after.where(u) for u in after.units_of(phasing) if u != unit_id}
    for h in list(reach.cost):
        if h in taken and h != start:
            del reach.cost[h]  # a move may pass through a friendly unit, not end with it (5.31)
    reach.exits = {h: c for h, c in reach.exits.items() if h in reach.cost}
    return reach
