"""Properties over random positions and orders (hypothesis).

- Orders, however wrong, never raise: they validate or come back with rule-cited problems.
- A move's reported cost is the sum of its steps, worked out here from the map data alone.
- A retreat never ends next to an enemy, on an enemy, or stacked; displaced units neither.
- A unit is eliminated in retreat only when no legal route exists.
- The engine is deterministic: same input, same events and position.
"""

from __future__ import annotations

import re
from fractions import Fraction

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from pbem.engine import hexes
from pbem.engine.adjudicator import adjudicate
from pbem.engine.board import Board
from pbem.engine.dice import FixedDice
from pbem.engine.placement import Placement
from pbem.engine.retreat import RetreatFinder
from pbem.model.map import MapSpec
from pbem.model.orders import Move, Orders
from pbem.model.state import GameState, Position
from pbem.model.units import Unit
from tests.strategies import boards, orders_for, positions

RULE = re.compile(r"^\d+\.\d+$")
FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(st.data())
def test_random_orders_never_raise(data):
    spec, state = data.draw(positions())
    orders = data.draw(orders_for(spec, state))
    dice = data.draw(st.lists(st.integers(1, 6), min_size=len(orders.attacks), max_size=len(orders.attacks)))
    result = adjudicate(Board(spec), data.draw(st.sampled_from([None, "leyte"])) and _leyte() or _plain(), state, orders, FixedDice(dice))
    if result.valid:
        assert result.dice_used <= len(orders.attacks)
        assert set(result.state.locations) == set(state.locations)
    else:
        assert result.problems and result.state == state and not result.events
        for problem in result.problems:
            assert RULE.match(problem.rule) and problem.message


def _plain():
    from pbem.model.ruleset import Ruleset

    return Ruleset()


def _leyte():
    from pbem.model.ruleset import Ruleset

    return Ruleset(exclusive="leyte")


def _expected_step(spec: MapSpec, a: str, b: str) -> Fraction:
    """I11 worked from the raw map data, without the engine's Board."""
    side = {a, b}
    if any(set(chain[i:i + 2]) == side for chain in spec.roads for i in range(len(chain) - 1)):
        return Fraction(1, 2)
    if any(set(chain[i:i + 2]) == side for chain in spec.trails for i in range(len(chain) - 1)):
        return Fraction(1)
    cost = {"clear": 1, "town": 1, "broken": 2, "rough": 3, "mountain": 4}[spec.terrain.get(b, "clear")]
    if any(set(pair) == side for pair in spec.rivers):
        cost += 1
    return Fraction(cost)


@FAST
@given(st.data())
def test_a_moves_reported_cost_is_the_sum_of_its_steps(data):
    spec = data.draw(boards())
    board = Board(spec)
    land = [h for h in board.all_hexes if board.land(h)]
    start = data.draw(st.sampled_from(land))
    path, here = [], start
    for _ in range(data.draw(st.integers(1, 8))):
        options = [n for n in board.neighbours(here) if board.passable(here, n)]
        if not options:
            break
        here = data.draw(st.sampled_from(options))
        path.append(here)
    assume(path and path[-1] != start)
    unit = Unit(id="us-1", side="US", kind="infantry", attack=1, defense=1, move=99)
    state = GameState(position=Position(turn=1, phasing="US", phase="movement"), units=(unit,), locations={"us-1": start})
    result = adjudicate(board, _plain(), state, Orders(moves=[Move(unit="us-1", path=path)]), FixedDice([]))
    assert result.valid, result.problems
    moved = [e for e in result.events if e["type"] == "moved"][0]
    expected = sum((_expected_step(spec, a, b) for a, b in zip([start] + path, path)), Fraction(0))
    assert Fraction(str(moved["cost"])) == expected


def _full_legal_paths(board: Board, placement: Placement, unit_id: str, n: int) -> list[tuple[str, ...]]:
    """Brute force, from I6's words: every hex k away at step k, on land, across no
    prohibited hexside, holding no enemy and in no enemy zone of control."""
    side = placement.units[unit_id].side
    h0 = placement.where(unit_id)
    enemy_hexes = {placement.where(u) for u in placement.units if placement.on_map(u) and placement.units[u].side != side}
    controlled = {n_ for h in enemy_hexes for n_ in hexes.neighbours(h)}
    paths = [()]
    for k in range(1, n + 1):
        longer = []
        for p in paths:
            prev = p[-1] if p else h0
            for nxt in hexes.neighbours(prev):
                if not board.land(nxt) or board.prohibited_between(prev, nxt) or hexes.distance(h0, nxt) != k:
                    continue
                if nxt in enemy_hexes or nxt in controlled:
                    continue
                longer.append(p + (nxt,))
        paths = longer
    return paths


@FAST
@given(st.data())
def test_retreats_never_end_in_enemy_control_or_stacked(data):
    spec, state = data.draw(positions(max_units=10))
    board = Board(spec)
    placement = Placement(state.unit_index(), state.locations)
    unit_id = data.draw(st.sampled_from(sorted(state.locations)))
    n = data.draw(st.integers(1, 3))
    plan = RetreatFinder(board, placement).plan(unit_id, n)
    side = state.unit(unit_id).side
    after = placement.copy()
    for d in plan.displacements:
        after.move(d.unit, d.to)
        assert not after.in_enemy_zoc(d.to, side) and not after.enemy_at(d.to, side)
        assert d.to not in plan.path and d.to != plan.start
    if plan.eliminated:
        assert len(plan.path) < n
        return
    assert len(plan.path) == n
    for k, hex_id in enumerate(plan.path, 1):
        assert hexes.distance(plan.start, hex_id) == k
        assert not placement.in_enemy_zoc(hex_id, side) and not placement.enemy_at(hex_id, side)
    after.move(unit_id, plan.final)
    assert after.at(plan.final) == (unit_id,)
    for d in plan.displacements:
        assert len(after.at(d.to)) == 1


@FAST
@given(st.data())
def test_a_unit_alone_is_eliminated_only_when_no_legal_route_exists(data):
    spec, state = data.draw(positions(max_units=8))
    board = Board(spec)
    placement = Placement(state.unit_index(), state.locations)
    unit_id = data.draw(st.sampled_from(sorted(state.locations)))
    side = state.unit(unit_id).side
    assume(all(u == unit_id or placement.units[u].side != side for u in placement.units))
    n = data.draw(st.integers(1, 3))
    plan = RetreatFinder(board, placement).plan(unit_id, n)
    legal = _full_legal_paths(board, placement, unit_id, n)
    assert plan.eliminated == (not legal)
    if legal:
        assert plan.path in legal


@FAST
@given(st.data())
def test_the_engine_is_deterministic(data):
    spec, state = data.draw(positions())
    orders = data.draw(orders_for(spec, state))
    dice = [4] * len(orders.attacks)
    first = adjudicate(Board(spec), _leyte(), state, orders, FixedDice(dice))
    second = adjudicate(Board(spec), _leyte(), state, orders, FixedDice(dice))
    assert first == second


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.data())
def test_after_any_combat_phase_the_board_is_legal(data):
    from pbem.engine.adjudicator import check_orders
    from pbem.model.defense import Defense
    from tests.strategies import valid_attack_orders

    spec, state = data.draw(positions(max_units=10))
    state = state.model_copy(update={"position": state.position.model_copy(update={"phase": "combat"})})
    orders = data.draw(valid_attack_orders(spec, state))
    board = Board(spec)
    ruleset = data.draw(st.sampled_from([_plain(), _leyte()]))
    assume(orders.attacks and check_orders(board, ruleset, state, orders).valid)
    dice = data.draw(st.lists(st.integers(1, 6), min_size=len(orders.attacks), max_size=len(orders.attacks)))
    defense = data.draw(st.sampled_from([None, Defense(advances=[]), Defense(fpf=[], gsp_fpf=[])]))
    result = adjudicate(board, ruleset, state, orders, FixedDice(dice), defense)
    assert result.valid
    occupied = [h for h in result.state.locations.values() if h not in ("offmap", "eliminated")]
    assert len(occupied) == len(set(occupied)), "two units share a hex after combat"
    assert all(board.land(h) for h in occupied)
    assert result.dice_used == sum(1 for c in result.combats if c.status == "resolved")
    assert result.state.position.gsp_of(state.position.phasing) >= 0
