"""Properties of the Legion system over random positions and orders (issue 39), as tests/test_properties.py holds the SPI one.

- Orders, however wrong, never raise: they are valid, or every problem cites a rule case.
- A move's reported cost is its steps' costs worked out here from the map data and the charts alone (6A, 6A.3, 7A).
- After any adjudication no hex exceeds its stacking limit (8, 9F.1, 9F.3), no unit shares a hex with the enemy,
  and no unit stands on a hex prohibited to it unless a road took it there (6A.1, 7A).
- Hit markers never reach a unit's Defense on the map (9D.3).
- The engine is deterministic: same input, same events and position.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction

from hypothesis import HealthCheck, given, settings, strategies as st

from pbem.engine import hexes
from pbem.engine.dice import FixedDice
from pbem.systems.legion.adjudicator import adjudicate, check_orders
from pbem.systems.legion.table import Table
from tests.legion_positions import orders, position

RULE = re.compile(r"^(\d+[A-Z]?(\.\d+[a-z]?)?|I\d+)$")
SOME = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(min_value=0, max_value=10**9)


def _turn(seed: int):
    rng = random.Random(seed)
    board, state = position(rng)
    return board, state, orders(rng, board, state), [rng.randint(1, 6) for _ in range(80)]


@SOME
@given(SEEDS)
def test_random_orders_never_raise_and_every_problem_cites_a_rule(seed):
    board, state, planned, dice = _turn(seed)
    result = adjudicate(board, state, planned, FixedDice(dice))
    assert result.valid == (not check_orders(board, state, planned))
    for problem in result.problems:
        assert RULE.match(problem.rule), problem
        assert problem.message


def _zoc_into(table: Table, enemy: str, h: str) -> bool:
    """5A from the map data: an enemy unit in ``h``, or next to it and neither a platoon, Disrupted, nor barred from ``h``."""
    for u in table.side_units(enemy):
        at = table.where(u)
        if at == h:
            return True
        if not hexes.adjacent(at, h) or table.units[u].size == "platoon" or table.disrupted.get(u, 0):
            continue
        cls = table.charts.unit_types.types[table.units[u].type].unit_class
        tec = table.charts.terrain.terrain
        barred = any(tec[t].move[cls] == "P" for t in table.board.terrains(h)) or any(
            tec[f].move[cls] == "P" for f in table.board.side_features(at, h))
        if not barred or table.board.road(at, h):
            return True
    return False


@SOME
@given(SEEDS)
def test_a_moves_reported_cost_is_its_steps_from_the_map_and_charts(seed):
    board, state, planned, dice = _turn(seed)
    moves = planned.moves or planned.exploitation
    if not moves or moves[0].overruns or state.position.phase == "combat":
        return
    first = moves[0]
    result = adjudicate(board, state, planned, FixedDice(dice))
    if not result.valid:
        return
    table = Table(board, state)
    if state.position.phase == "movement":  # 14: the Initial Phase takes Disruption off the enemy's units first
        for e in [e for e in table.disrupted if table.units[e].side != state.position.phasing]:
            del table.disrupted[e]
    u = first.units[0]
    cls = table.charts.unit_types.types[table.units[u].type].unit_class
    tec = table.charts.terrain.terrain
    enemy = "JP" if state.position.phasing == "US" else "US"
    here, total = table.where(u), Fraction(0)
    for nxt in first.path:
        if board.road(here, nxt):
            total += tec["clear"].move[cls]
        else:
            total += max(tec[t].move[cls] for t in board.terrains(nxt)) + sum(tec[f].move[cls] for f in board.side_features(here, nxt))
        if _zoc_into(table, enemy, here):
            total += table.charts.zoc.leave[cls]
        here = nxt
    event = next(e for e in result.events if e["type"] == "moved" and e["unit"] == u)
    assert Fraction(event["cost"]) == total


@SOME
@given(SEEDS)
def test_after_any_adjudication_the_board_is_legal(seed):
    board, state, planned, dice = _turn(seed)
    result = adjudicate(board, state, planned, FixedDice(dice))
    after = Table(board, result.state)
    start = Table(board, state)
    shared_before = {h for h in board.all_land if start.in_hex(h, "US") and start.in_hex(h, "JP")}
    for h in board.all_land:
        for side in ("US", "JP"):
            if start.fits(h, start.in_hex(h, side)):
                assert after.fits(h, after.in_hex(h, side)), (seed, h, side, after.in_hex(h, side))
        if h not in shared_before:
            assert not (after.in_hex(h, "US") and after.in_hex(h, "JP")), (seed, h)
    for u in after.units:
        if after.on_map(u):
            assert after.hits.get(u, 0) < after.printed(u)[1], (seed, u)
            h = after.where(u)
            if h != start.where(u):
                came = [e for e in result.events if e.get("unit") == u and e["type"] in ("moved", "retreated", "advanced")]
                last = came[-1]["path"] if came else [h]
                before = ([came[-1].get("from")] + last)[-2] if came else h
                assert not board.hex_prohibited(after.cls(u), h) or board.road(before, h), (seed, u, h)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS)
def test_the_legion_engine_is_deterministic(seed):
    board, state, planned, dice = _turn(seed)
    one = adjudicate(board, state, planned, FixedDice(dice))
    two = adjudicate(board, state, planned, FixedDice(dice))
    assert one.events == two.events and one.state == two.state and one.dice_used == two.dice_used
