"""The hexes ``pbem play`` offers a unit are exactly those a move there passes ``validate``'s movement check.

On 200 seeded random positions (:mod:`tests.random_positions`), each made
richer with what they lack — a reinforcement arriving by the map edge, by a
beach or, under Leyte, by air assault (12.2, 12.42), hexes closed to a side
(16.23) and exit hexes (16.13) — every unit of the side to move is asked
:func:`pbem.engine.reach.offered` with the position's other moves standing.
The oracle knows no movement rule: it grows paths one hex at a time and
keeps a path only when :func:`~pbem.engine.movement.check_moves` (the code
``pbem validate`` runs) finds nothing wrong with the unit's move, cheapest
first (a Dijkstra whose every step is judged by the engine).  A hex is
offered if and only if the oracle finds a legal move ending there, at the
same cost, and the path offered passes the check too.
"""

from __future__ import annotations

import heapq
import random
from fractions import Fraction

import pytest

from pbem.engine.board import Board
from pbem.engine.movement import check_moves
from pbem.engine.placement import Placement
from pbem.engine.reach import graph_of, offered
from pbem.model.common import OFFMAP
from pbem.model.orders import Move
from pbem.model.units import Unit
from tests.random_positions import random_turn

POSITIONS = 200


def _richer(seed: int):
    """A random player-turn with reinforcements, closed hexes and exits added."""
    turn = random_turn(seed, 7, 7, 12)
    rng = random.Random(seed * 7919)
    spec, state = turn.spec, turn.state
    board0 = Board(spec)
    land = [h for h in board0.all_hexes if board0.land(h)]
    edges = [h for h in land if h.startswith("01") or h.startswith("07")]
    beaches = rng.sample(land, 3)
    exits = rng.sample(land, 2)
    spec = spec.model_copy(update={"edges": edges, "beaches": beaches, "exits": exits, "areas": {"N": rng.sample(land, 3)}})
    side = state.position.phasing
    occupied = set(state.locations.values())
    closed = {side: frozenset(h for h in rng.sample(land, 3) if h not in occupied)}
    board = Board(spec, exits={h: frozenset({side}) for h in exits}, closed=closed)
    entries = ["edge", "beach", "N"] + (["airassault"] if turn.ruleset.leyte else [])
    extra = []
    for i, entry in enumerate(rng.sample(entries, 2)):
        kind = "airassault" if entry == "airassault" else rng.choice(["infantry", "armor"])
        extra.append(Unit(id=f"{side.lower()}-r{i}", side=side, kind=kind, attack=3, defense=3, move=rng.randint(3, 6),
                          entry=None if entry == "airassault" else entry))
    units = {u.id: u for u in state.units + tuple(extra)}
    locations = dict(state.locations) | {u.id: OFFMAP for u in extra}
    return board, turn.ruleset, units, locations, state.position, list(turn.orders.moves)


def _judge(board, ruleset, units, placement, position, others, move: Move):
    """The unit's own problems and its move's cost, as ``validate``'s movement check finds them."""
    out = check_moves(board, units, placement, position.phasing, position.phase, others + [move], ruleset)
    mine = [p for p in out.problems if p.unit == move.unit]
    cost = next((Fraction(e["cost"]).limit_denominator(8) for e in out.events if e.get("unit") == move.unit and "cost" in e), Fraction(0))
    return mine, cost


def _oracle(board, ruleset, units, placement, position, others, unit_id):
    """Every hex a move of ``unit_id`` may end in, with its least cost, found by asking the engine alone."""
    start = placement.where(unit_id)
    heap: list = []
    seq = 0
    if start == OFFMAP:
        for h in board.all_hexes:
            move = Move(unit=unit_id, enter=h, path=[])
            found, cost = _judge(board, ruleset, units, placement, position, others, move)
            if not [p for p in found if p.rule != "5.31"]:
                heapq.heappush(heap, (cost, seq, h, move)); seq += 1
    else:
        heapq.heappush(heap, (Fraction(0), seq, start, Move(unit=unit_id, path=[])))
    best: dict[str, tuple[Fraction, Move]] = {}
    while heap:
        cost, _, here, move = heapq.heappop(heap)
        if here in best:
            continue
        best[here] = (cost, move)
        for n in board.neighbours(here):
            if n in best:
                continue
            longer = move.model_copy(update={"path": move.path + [n]})
            found, c = _judge(board, ruleset, units, placement, position, others, longer)
            if not [p for p in found if p.rule != "5.31"]:  # passing through a friendly unit is allowed (5.31 judges the end)
                heapq.heappush(heap, (c, seq, n, longer)); seq += 1
    legal = {}
    for h, (cost, move) in best.items():
        found, _ = _judge(board, ruleset, units, placement, position, others, move)
        if not found:
            legal[h] = cost
    return legal


@pytest.mark.parametrize("chunk", range(4))
def test_offered_hexes_are_exactly_the_moves_validate_accepts(chunk):
    checked_units = exits = 0
    for seed in range(chunk * POSITIONS // 4, (chunk + 1) * POSITIONS // 4):
        board, ruleset, units, locations, position, moves = _richer(seed)
        placement = Placement(units, locations)
        graph = graph_of(board)
        for unit_id in sorted(u for u in units if units[u].side == position.phasing):
            if not (placement.on_map(unit_id) or placement.where(unit_id) == OFFMAP):
                continue
            reach = offered(board, ruleset, units, placement, position.phasing, position.phase, moves, unit_id)
            if position.phase != "movement":
                assert reach is None
                continue
            others = [m for m in moves if m.unit != unit_id]
            truth = _oracle(board, ruleset, units, placement, position, others, unit_id)
            shown = {h: graph.mp(c) for h, c in reach.cost.items()}
            assert set(shown) == set(truth), f"seed {seed} {unit_id}: offered but refused {sorted(set(shown) - set(truth))}, accepted but not offered {sorted(set(truth) - set(shown))}"
            assert shown == truth, f"seed {seed} {unit_id}: the MP shown differ from the cheapest legal move"
            for h in shown:
                enter, path = reach.path(h)
                found, _ = _judge(board, ruleset, units, placement, position, others, Move(unit=unit_id, enter=enter, path=path))
                assert not found, f"seed {seed} {unit_id} to {h}: the path offered is refused: {found}"
            for h in shown:  # leaving the map (16.13): offered from a hex exactly when the exit passes the check
                enter, path = reach.path(h)
                found, _ = _judge(board, ruleset, units, placement, position, others, Move(unit=unit_id, enter=enter, path=path, exit=True))
                assert (h in reach.exits) == (not found), f"seed {seed} {unit_id} exit at {h}: offered {h in reach.exits}, problems {found}"
                exits += h in reach.exits
            checked_units += 1
    assert checked_units > 100 and exits > 0
