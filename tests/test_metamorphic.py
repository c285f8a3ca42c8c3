"""Metamorphic tests of the order checker (I20: every problem, once), with no hand-written expectations.

Each property compares the checker with itself on related orders:

- adding an independent faulty entry never removes a problem reported before;
- reordering independent entries never changes the problems;
- a problem's rule case and unit are the same whether its entry is checked alone or among others;
- every problem names a unit or an attack that the orders or the position hold.

A problem is compared as its (rule case, unit) pair: messages number attacks
and so change when entries move.  CI runs a modest number of examples; set
``PBEM_FUZZ_EXAMPLES`` (e.g. 5000) to run many thousands locally.
"""

from __future__ import annotations

import os
import re
from collections import Counter

from hypothesis import HealthCheck, given, settings, strategies as st

from pbem.engine.adjudicator import check_orders
from pbem.engine.attacks import check_attacks
from pbem.engine.board import Board
from pbem.engine.movement import check_moves
from pbem.engine.placement import Placement
from pbem.engine.problems import Problem
from pbem.model.orders import Attack, Move, Orders
from pbem.model.state import GameState
from tests.strategies import entering_orders_for, positions_with_reinforcements, random_walks, rulesets, valid_attack_orders

FUZZ = settings(
    max_examples=int(os.environ.get("PBEM_FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

OBLIGATIONS = {"7.11", "7.12", "7.21", "8.31", "12.22"}
"""Rules that bind the orders as a whole: who must attack and be attacked (7.1, 7.2, 8.31, 12.22)."""

OFF_BOARD = "0000"
"""A hex id no board holds: a path that ends there is faulty whatever came before (5.21)."""


def pairs(problems) -> Counter:
    return Counter((p.rule, p.unit) for p in problems)


def named_in(orders: Orders) -> set[str]:
    """Every unit id the orders write down, anywhere."""
    names = {m.unit for m in orders.moves}
    for a in orders.attacks:
        names |= set(a.attackers) | set(a.barrage) | set(a.defenders) | set(a.banzai_losses)
        names |= {x.unit for x in a.advance} | {r.unit for r in a.retreats}
    return names


@st.composite
def situations(draw):
    """A board, a position, a ruleset and orders, wrong as often as not, or right where the position allows."""
    spec, state = draw(positions_with_reinforcements())
    if state.position.phase == "combat" and draw(st.integers(0, 3)) == 0:
        orders = draw(valid_attack_orders(spec, state))
    else:
        orders = draw(entering_orders_for(spec, state))
    return spec, state, draw(rulesets()), orders


def problems_of(spec, state, ruleset, orders) -> list[Problem]:
    return list(check_orders(Board(spec), ruleset, state, orders).problems)


@st.composite
def faulty_entries(draw, spec, state: GameState, barred: set[str]):
    """One move or attack naming no unit in ``barred``, faulty by construction."""
    free = sorted(u.id for u in state.units if u.id not in barred)
    ghost = "ghost-" + str(draw(st.integers(0, 9)))
    on_board = [f"{c:02d}{r:02d}" for c in range(1, spec.cols + 1) for r in range(1, spec.rows + 1)]
    if draw(st.booleans()):
        uid = draw(st.sampled_from(free + [ghost]))
        where = state.locations.get(uid, "0101")
        enter = draw(st.sampled_from(on_board)) if where == "offmap" and draw(st.booleans()) else None
        start = enter or (where if where not in ("offmap", "eliminated") else "0101")
        if draw(st.booleans()):
            return Move(unit=uid, enter=enter, path=draw(random_walks(start, on_board, max_steps=3)) + [OFF_BOARD])
        return Move(unit=uid, enter=enter, path=_overrun(draw, Board(spec), state, uid, start))
    pick = st.lists(st.sampled_from(free), max_size=2) if free else st.just([])
    attackers, barrage, defenders = draw(pick), draw(pick), draw(pick)
    if defenders and draw(st.booleans()):
        attackers.append(ghost)  # 7.0: no such unit
    else:
        defenders.append(ghost)
    return Attack(attackers=attackers, barrage=barrage, defenders=defenders, gsp=draw(st.integers(0, 1)), banzai=draw(st.booleans()))


def _overrun(draw, board: Board, state: GameState, uid: str, start: str) -> list[str]:
    """To and fro between ``start`` and a neighbour until the unit's allowance is overspent (5.13), or off the board."""
    unit = state.unit_index().get(uid)
    placement = Placement(state.unit_index(), state.locations)
    options = [n for n in board.neighbours(start) if board.land(start) and board.passable(start, n)]
    options = [n for n in options if unit is not None and not placement.enemy_at(n, unit.side)]
    if not options:
        return [OFF_BOARD]
    there = draw(st.sampled_from(options))
    path, here, cost = [], start, 0
    while cost <= unit.move:
        step = there if here == start else start
        cost += board.step_cost(here, step)
        path.append(step)
        here = step
    return path


def insert(orders: Orders, entry, at: int) -> Orders:
    if isinstance(entry, Move):
        moves = list(orders.moves)
        moves.insert(at % (len(moves) + 1), entry)
        return orders.model_copy(update={"moves": moves})
    attacks = list(orders.attacks)
    attacks.insert(at % (len(attacks) + 1), entry)
    return orders.model_copy(update={"attacks": attacks})


@FUZZ
@given(st.data())
def test_an_independent_faulty_entry_never_removes_a_problem(data):
    spec, state, ruleset, orders = data.draw(situations())
    before = problems_of(spec, state, ruleset, orders)
    barred = named_in(orders) | {p.unit for p in before if p.unit}
    entry = data.draw(faulty_entries(spec, state, barred))
    after = problems_of(spec, state, ruleset, insert(orders, entry, data.draw(st.integers(0, 5))))
    assert after, "a faulty entry was accepted"
    missing = pairs(before) - pairs(after)
    assert not missing, f"adding {entry!r} removed {dict(missing)}"


def lands_by_air(state: GameState, ruleset, move: Move) -> bool:
    """Leyte 12.42: the hex must be empty at the landing's moment (I21), so the other moves matter."""
    unit = state.unit_index().get(move.unit)
    return ruleset.leyte and unit is not None and unit.kind == "airassault" and state.locations.get(move.unit) == "offmap"


def independent_moves(state: GameState, ruleset, moves: list[Move]) -> list[Move]:
    """Moves of distinct units, at most one of them landing by air."""
    kept, seen, landings = [], set(), 0
    for m in moves:
        landing = lands_by_air(state, ruleset, m)
        if m.unit in seen or (landing and landings):
            continue
        seen.add(m.unit)
        landings += landing
        kept.append(m)
    return kept


@FUZZ
@given(st.data())
def test_reordering_independent_entries_changes_no_problem(data):
    spec, state, ruleset, orders = data.draw(situations())
    orders = orders.model_copy(update={"moves": independent_moves(state, ruleset, list(orders.moves))})
    shuffled = orders.model_copy(update={
        "moves": data.draw(st.permutations(orders.moves)),
        "attacks": data.draw(st.permutations(orders.attacks)),  # I20: 7.14 and the rest are found whatever the order
    })
    assert pairs(problems_of(spec, state, ruleset, orders)) == pairs(problems_of(spec, state, ruleset, shuffled))


PLENTY = 10**6
"""Ground Support enough for any attacks: the allotment (9.1) binds the orders as a whole, not one entry."""


@FUZZ
@given(st.data())
def test_a_problem_is_the_same_alone_or_among_others(data):
    spec, state, ruleset, orders = data.draw(situations())
    board, units = Board(spec), state.unit_index()
    placement = Placement(units, state.locations)
    phasing, phase = state.position.phasing, state.position.phase
    moves = [m for m in independent_moves(state, ruleset, list(orders.moves)) if not lands_by_air(state, ruleset, m)]

    # Moves: each move's own problems, alone and among the others (5.31 stacking and a withheld
    # air assault concern the whole Movement Phase, not one move).
    def own(found, unit_ids):
        return pairs(p for p in found if p.unit in unit_ids and p.rule != "5.31" and not (p.rule == "12.42" and p.unit not in unit_ids))

    among = own(check_moves(board, units, placement, phasing, phase, moves, ruleset).problems, {m.unit for m in moves})
    alone = sum((own(check_moves(board, units, placement, phasing, phase, [m], ruleset).problems, {m.unit}) for m in moves), Counter())
    assert alone == among

    # Attacks, on the position the moves leave: each attack's own problems (7.14 and the
    # obligations concern several attacks at once).
    movement = check_moves(board, units, placement, phasing, phase, list(orders.moves), ruleset)

    def local(attacks):
        found = check_attacks(ruleset, units, movement.placement, phasing, PLENTY, attacks, movement.arrived_in_zoc)
        return pairs(p for p in found if p.rule not in OBLIGATIONS and p.rule != "7.14")

    assert sum((local([a]) for a in orders.attacks), Counter()) == local(list(orders.attacks))


ATTACK_REF = re.compile(r"\battack (\d+)\b")
ATTACK_RULES = {"7.15", "7.23", "8.11", "8.32"}
UNITLESS = {"7.0", "8.13", "9.1", "10.0"}


@FUZZ
@given(st.data())
def test_every_problem_names_a_unit_or_attack_of_the_orders(data):
    spec, state, ruleset, orders = data.draw(situations())
    found = problems_of(spec, state, ruleset, orders)
    listed = Counter(u for a in orders.attacks for u in a.attackers + a.barrage)
    defended = Counter(u for a in orders.attacks for u in a.defenders)
    moved = {m.unit for m in orders.moves}
    units = state.unit_index()
    for p in found:
        for n in ATTACK_REF.findall(p.message):
            assert 1 <= int(n) <= len(orders.attacks), p
        if p.unit is None:
            assert p.rule in UNITLESS, p
            assert ATTACK_REF.search(p.message) or p.rule == "9.1", p
        elif p.rule in ATTACK_RULES:
            assert listed[p.unit], p
        elif p.rule == "7.14":
            assert listed[p.unit] > 1 or defended[p.unit] > 1, p
        elif p.rule in OBLIGATIONS:
            assert p.unit in units, p
        elif p.rule == "12.42" and p.unit not in moved:
            assert units[p.unit].kind == "airassault" and state.locations[p.unit] == "offmap", p
        elif p.rule == "7.0":
            assert listed[p.unit] or defended[p.unit], p
        elif p.rule == "7.9":
            advancing = {x for a in orders.attacks for adv in a.advance for x in (adv.unit, adv.follow) if x}
            assert p.unit in advancing, p  # an advance entry that names no unit of the game, or follows no defender
        else:
            assert p.unit in moved, p  # movement (5, 6, 12): the unit whose move it is
