"""Moving units in the Movement and Exploitation Phases (6A-6C, 7A, 8), Overrun Attacks included (6B.2).

A move is checked step by step on the position the earlier moves left:
each hex entered is adjacent and not prohibited for the unit's class
(6A.1, 7A), the MPs spent — terrain, hex-sides, leaving an enemy ZOC (6A.3),
+3 for an Overrun (6B.2) — stay within the allowance unless the move is the
one-hex minimum move (6B.1), and an enemy-occupied hex is entered only by an
Overrun it names.  Checking assumes each Overrun succeeds (the odds depend
on hidden strengths, 19B); carried out, a failed one stops the stack and
turns into an Assault Combat (6B.2c), and a later move it made impossible is
cancelled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

from pbem.engine import hexes
from pbem.engine.events import Event, moved
from pbem.engine.problems import Problem
from pbem.model.common import enemy_of
from pbem.systems.legion.allowance import allowance
from pbem.systems.legion.orders import LegionMove
from pbem.systems.legion.table import Table

OVERRUN_MP = 3
"""6B.2: an Overrun costs the terrain of the hex overrun plus 3 MPs."""


@dataclass
class PhaseMoves:
    """What the phase's moves have done so far: who moved, and from where each unit began the phase."""

    phase: str
    moved: set[str] = field(default_factory=set)
    start: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Step:
    hex: str
    cost: dict[str, Fraction]
    overrun: bool


def check_move(table: Table, move: LegionMove, moves: PhaseMoves, label: str) -> tuple[list[Problem], list[Step]]:
    """Every problem with ``move`` on ``table`` now, and its steps when it has none."""
    problems: list[Problem] = []
    side = table.phasing
    rule_units = "6A.2"
    units = move.units
    for u in units:
        if u not in table.units:
            problems.append(Problem("6A", u, f"{label}: no unit '{u}' in this game"))
        elif table.units[u].side != side:
            problems.append(Problem("6A", u, f"{label}: only the phasing player's units move"))
        elif not table.on_map(u):
            problems.append(Problem("6A", u, f"{label}: the unit is not on the map"))
        elif u in moves.moved:
            problems.append(Problem(rule_units, u, f"{label}: the unit has already moved this phase (a unit moves once)"))
        elif allowance(table, u, moves.phase) is None:
            why = "it is Badly Disrupted (14)" if table.disruption(u) >= 2 else "its printed MA is 0 (6C.1)"
            problems.append(Problem("14" if table.disruption(u) >= 2 else "6A", u, f"{label}: the unit may not move: {why}"))
    if len(set(units)) != len(units):
        problems.append(Problem("6A", None, f"{label}: a unit is listed twice"))
    if problems:
        return problems, []
    origins = {table.where(u) for u in units}
    if len(origins) != 1:
        return [Problem("6B.2", None, f"{label}: units moving together start in one hex ({', '.join(sorted(origins))})")], []
    here = origins.pop()
    overruns = list(move.overruns)
    for h in overruns:
        if h not in move.path:
            problems.append(Problem("6B.2", None, f"{label}: overrun hex {h} is not on the path"))
    if problems:
        return problems, []
    spent = {u: Fraction(0) for u in units}
    steps: list[Step] = []
    enemy = enemy_of(side)
    for i, nxt in enumerate(move.path):
        if not table.board.on_board(nxt):
            return [Problem("6A.1", None, f"{label}: hex {nxt} is off the map")], []
        if not hexes.adjacent(here, nxt):
            return [Problem("6A", None, f"{label}: {nxt} is not adjacent to {here}")], []
        occupied = bool(table.in_hex(nxt, enemy))
        overrun = nxt in overruns
        if occupied and not overrun:
            return [Problem("6A.2", None, f"{label}: hex {nxt} holds enemy units; a unit enters it only by an Overrun Attack (6B.2)")], []
        if overrun and not occupied:
            return [Problem("6B.2", None, f"{label}: overrun hex {nxt} holds no enemy unit")], []
        if overrun and not table.fits(nxt, units):
            return [Problem("8", None, f"{label}: the overrunning units exceed the stacking limit of {nxt} (8, 6B.2)")], []
        costs = {}
        for u in units:
            cost = table.board.enter_cost(table.cls(u), here, nxt)
            if cost is None:
                return [Problem("6A.1", u, f"{label}: {nxt} is prohibited to a {table.cls(u)} unit from {here} (TEC)")], []
            ignore = set(table.in_hex(nxt, enemy)) if overrun else set()
            if _enemy_zoc(table, here, side, ignore):
                cost += table.charts.zoc.leave[table.cls(u)]
            if overrun:
                cost += OVERRUN_MP
            costs[u] = cost
            spent[u] += cost
        steps.append(Step(nxt, costs, overrun))
        here = nxt
    for u in units:
        mp = allowance(table, u, moves.phase)
        if spent[u] > mp and not (len(move.path) == 1 and not overruns and _minimum_only(table, [u], table.where(u), move.path[0], moves)):
            problems.append(Problem("6A.2", u, f"{label}: the move costs {_mp(spent[u])} MPs; the unit has {_mp(mp)} this phase"))
    return problems, steps


def _minimum_only(table: Table, units: list[str], start: str, nxt: str, moves: PhaseMoves) -> bool:
    """6B.1: every unit may make the one-hex minimum move here (printed MA 1+, from where it began the phase)."""
    return all(table.printed(u)[2] >= 1 and moves.start.get(u, table.where(u)) == start for u in units)


def _enemy_zoc(table: Table, h: str, side, ignore: set[str]) -> bool:
    near = {h, *hexes.neighbours(h)}
    return any(
        table.units[e].side != side and e not in ignore and table.where(e) in near and table.exerts_zoc(e, h)
        for e in list(table.locations)
    )


def _mp(value: Fraction) -> str:
    return str(value) if value.denominator == 1 else f"{float(value):g}"


OverrunResolver = Callable[[Table, list[str], str, str], bool]
"""Resolves an Overrun (units, from hex, overrun hex) and says whether it succeeded."""


def carry_out(table: Table, move: LegionMove, steps: list[Step], moves: PhaseMoves, overrun: OverrunResolver | None) -> list[Event]:
    """Move the units along ``steps``; an Overrun is resolved by ``overrun`` (None: assumed successful, for checking)."""
    events: list[Event] = []
    start = table.where(move.units[0])
    here = start
    path: list[str] = []
    spent = {u: Fraction(0) for u in move.units}
    for step in steps:
        if step.overrun:
            defenders = table.in_hex(step.hex, enemy_of(table.phasing))
            if overrun is None:
                for d in defenders:
                    table.eliminate(d, permanently=True)
                ok = True
            else:
                ok = overrun(table, list(move.units), here, step.hex)
            if not ok:
                break
        here = step.hex
        path.append(here)
        for u in move.units:
            table.locations[u] = here
            spent[u] += step.cost[u]
        table.update_ownership({here})
    for u in move.units:
        moves.moved.add(u)
        if path:
            events.append(moved(u, start, path, spent[u]))
    if path:
        table.update_ownership({h for p in [start, *path] for h in (p, *hexes.neighbours(p))})
    return events
