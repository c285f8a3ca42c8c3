"""The Movement Phase: checking and carrying out the phasing player's moves.

Rules 5.1-5.3, 6.0-6.2 and the reinforcement rules 12.1-12.2, 12.4, read as
interpretations I10 and I11 say.  :func:`check_moves` reports *every* problem
it finds, each with its rule case, and also works out where each unit would
end up, so that the combat phase can be checked on the position the player
intended even when some move is wrong.

Enemy units never move in a Movement Phase, so zones of control — and with
them the legality of every move — do not depend on the order moves are
listed; only stacking (5.31) is judged on the final position.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from pbem.engine import events, hexes
from pbem.engine.board import Board
from pbem.engine.events import Event
from pbem.engine.placement import Placement
from pbem.engine.problems import Problem
from pbem.model.common import OFFMAP, Phase, Side
from pbem.model.orders import Move
from pbem.model.units import Unit

BEACH_ENTRY_COST = Fraction(2)
"""Placing a reinforcement on a beach hex costs 2 MP whatever its terrain (12.21)."""

EXIT_COST = Fraction(1)
"""Leaving the map from an exit hex: assumed 1 MP, as one more clear hex (16.13 gives no cost)."""


def _entry_name(entry: str | None) -> str:
    return {"beach": "a beach", "edge": "the map edge"}.get(entry or "", f"entry area {entry}")


def _hex_list(members: frozenset[str]) -> str:
    listed = sorted(members)
    return " ".join(listed[:8]) + (" ..." if len(listed) > 8 else "")


@dataclass
class MovementOutcome:
    """What the moves would do: problems found, events, the placement after."""

    problems: list[Problem]
    events: list[Event]
    placement: Placement
    arrived_in_zoc: frozenset[str] = field(default_factory=frozenset)
    """Reinforcements placed in an enemy zone of control: they must attack (12.22)."""
    exits: tuple[tuple[str, str], ...] = ()
    """Units that left the map, and the exit hex each left from (Leyte 16.13)."""


@dataclass
class _Checked:
    """One move checked: its problems and, when it can be carried out, where it ends."""

    move: Move
    problems: list[Problem]
    start: str | None = None
    final: str | None = None
    cost: Fraction = Fraction(0)
    arrived_in_zoc: bool = False


def _fmt(cost: Fraction) -> str:
    return str(int(cost)) if cost.denominator == 1 else f"{float(cost):g}"


class _MoveChecker:
    def __init__(self, board: Board, placement: Placement) -> None:
        self.board = board
        self.placement = placement

    def check(self, move: Move, unit: Unit) -> _Checked:
        start = self.placement.where(unit.id)
        if start == OFFMAP:
            return self._check_reinforcement(move, unit)
        if move.enter is not None:
            return _Checked(move, [Problem("12.2", unit.id, f"{unit.id} is already on the map at {start}; only a reinforcement names an 'enter' hex.")])
        checked = _Checked(move, [], start=start)
        self._walk(checked, unit, start, Fraction(0), from_reinforcement=False)
        if move.exit:
            self._check_exit(checked, unit)
        return checked

    def _check_reinforcement(self, move: Move, unit: Unit) -> _Checked:
        checked = _Checked(move, [], start=OFFMAP)
        problems = checked.problems
        hex_id = move.enter
        if hex_id is None:
            problems.append(Problem("12.2", unit.id, f"{unit.id} is a reinforcement: name the hex it is placed in as 'enter', then its path."))
            return checked
        if not self.board.land(hex_id):
            where = "off the board" if not self.board.on_board(hex_id) else "an all-sea hex"
            problems.append(Problem("5.21", unit.id, f"{unit.id} cannot be placed in {hex_id}: it is {where}."))
            return checked
        entry_hexes = self.board.entry_hexes(unit.entry)
        if unit.kind == "airassault":
            cost = Fraction(0)  # 12.42: placed in any hex, then a normal unit
        elif entry_hexes is None:
            problems.append(Problem("12.2", unit.id, f"{unit.id} has no entry area on this map ({unit.entry or 'none given'}), so it cannot be brought in."))
            return checked
        elif unit.entry == "beach" or (unit.entry != "edge" and entry_hexes <= self.board.beaches):
            if hex_id not in entry_hexes:
                problems.append(Problem("12.21", unit.id, f"{unit.id} arrives on {_entry_name(unit.entry)}, and {hex_id} is not one of its hexes ({_hex_list(entry_hexes)})."))
            cost = BEACH_ENTRY_COST
        else:
            if hex_id not in entry_hexes:
                problems.append(Problem("12.23", unit.id, f"{unit.id} arrives by {_entry_name(unit.entry)}, and {hex_id} is not one of its hexes ({_hex_list(entry_hexes)})."))
            cost = self.board.terrain(hex_id).cost
        if hex_id in self.board.closed.get(unit.side, ()):
            problems.append(Problem("16.23", unit.id, f"{unit.side} units may not enter {hex_id} in this scenario."))
        if self.placement.enemy_at(hex_id, unit.side):
            problems.append(Problem("12.21", unit.id, f"{unit.id} cannot be placed in {hex_id}: an enemy unit is there (5.12)."))
            return checked
        if unit.kind == "armor" and not (self.board.terrain(hex_id).armor or hex_id in self.board.road_hexes or hex_id in self.board.trail_hexes):
            problems.append(Problem("5.25", unit.id, f"armor {unit.id} cannot be placed in {hex_id} ({self.board.terrain(hex_id).name}) off a road or trail."))
        checked.arrived_in_zoc = self.placement.in_enemy_zoc(hex_id, unit.side)
        if checked.arrived_in_zoc and move.path:
            problems.append(Problem("12.22", unit.id, f"{unit.id} arrived in {hex_id}, next to an enemy unit, so it may move no farther this phase."))
        self._walk(checked, unit, hex_id, cost, from_reinforcement=True)
        if move.exit:
            self._check_exit(checked, unit)
        return checked

    def _check_exit(self, checked: _Checked, unit: Unit) -> None:
        """Leaving the map from an exit hex the scenario opens (Leyte 16.13), at a cost of 1 MP (assumed)."""
        where = checked.final
        if where is None:
            return
        if unit.side not in self.board.exits.get(where, ()):
            opened = sorted(h for h, sides in self.board.exits.items() if unit.side in sides)
            hint = f"the exit hexes open to {unit.side} are {', '.join(opened)}" if opened else f"no exit hex is open to {unit.side} in this scenario"
            checked.problems.append(Problem("16.13", unit.id, f"{unit.id} cannot leave the map from {where}: {hint}."))
            return
        if self.placement.in_enemy_zoc(where, unit.side):
            rule = "5.14" if unit.side == "US" else "6.13"
            checked.problems.append(Problem(rule, unit.id, f"{unit.id} is in an enemy zone of control at {where} and may not leave it in the Movement Phase, so it cannot exit."))
            return
        checked.cost += EXIT_COST
        if checked.cost > unit.move:
            checked.problems.append(Problem("5.13", unit.id, f"{unit.id}'s move and exit cost {_fmt(checked.cost)} MP (leaving the map costs {EXIT_COST}), more than its allowance of {unit.move}."))

    def _walk(self, checked: _Checked, unit: Unit, start: str, cost: Fraction, *, from_reinforcement: bool) -> None:
        """Follow the path hex by hex, adding every problem met (5.12-5.25, 6.0, 6.14)."""
        problems = checked.problems
        path = checked.move.path
        side = unit.side
        starts_in_zoc = not from_reinforcement and self.placement.in_enemy_zoc(start, side)
        stop_reported = False  # 6.14 and 6.0 overruns are reported once
        if starts_in_zoc and path:
            if side == "US":
                problems.append(Problem("5.14", unit.id, f"{unit.id} starts next to a Japanese unit and may not leave {start} in the Movement Phase."))
            elif unit.kind in ("armor", "artillery"):
                problems.append(Problem("5.15", unit.id, f"Japanese {unit.kind} {unit.id} starts next to an American unit and may not leave {start} in the Movement Phase."))
            elif unit.kind in ("infantry", "engineer"):
                stop_reported = True
                if len(path) > 1:
                    problems.append(Problem("6.14", unit.id, f"{unit.id} starts next to an American unit, so it may move one hex only, not {len(path)}."))
            else:
                problems.append(Problem("6.13", unit.id, f"Japanese {unit.kind} {unit.id} starts next to an American unit and may not leave {start} in the Movement Phase."))
        prev = start
        stop_hex = None  # the enemy-controlled hex where the move had to end (6.0)
        for step, hex_id in enumerate(path, 1):
            if not self.board.on_board(hex_id):
                problems.append(Problem("5.21", unit.id, f"{unit.id}'s path leaves the board at {hex_id} (step {step})."))
                return
            if not hexes.adjacent(prev, hex_id):
                problems.append(Problem("5.0", unit.id, f"{unit.id}'s path jumps from {prev} to {hex_id} (step {step}); each hex must touch the one before."))
                return
            if hex_id in self.board.sea:
                problems.append(Problem("5.21", unit.id, f"{unit.id} cannot enter {hex_id}: it is all sea."))
                return
            if self.board.prohibited_between(prev, hex_id):
                problems.append(Problem("5.21", unit.id, f"{unit.id} cannot cross the prohibited hexside between {prev} and {hex_id}."))
                return
            if stop_hex is not None and not stop_reported:
                problems.append(Problem("6.0", unit.id, f"{unit.id} entered an enemy zone of control at {stop_hex} and must stop there, but its path goes on to {hex_id}."))
                stop_reported = True
            if self.placement.enemy_at(hex_id, side):
                problems.append(Problem("5.12", unit.id, f"{unit.id} cannot enter {hex_id}: an enemy unit is there."))
                return
            if hex_id in self.board.closed.get(side, ()):
                problems.append(Problem("16.23", unit.id, f"{side} units may not enter {hex_id} in this scenario."))
            if unit.kind == "armor" and not self.board.armor_may_enter(prev, hex_id):
                problems.append(Problem("5.25", unit.id, f"armor {unit.id} may enter {hex_id} ({self.board.terrain(hex_id).name}) only along a road or trail."))
            cost += self.board.step_cost(prev, hex_id)
            if stop_hex is None and self.placement.in_enemy_zoc(hex_id, side):
                stop_hex = hex_id
            prev = hex_id
        if cost > unit.move:
            problems.append(Problem("5.13", unit.id, f"{unit.id}'s move costs {_fmt(cost)} MP, more than its allowance of {unit.move} (5.24)."))
        checked.final = prev
        checked.cost = cost


def check_moves(board: Board, units: dict[str, Unit], placement: Placement, phasing: Side, phase: Phase, moves: list[Move]) -> MovementOutcome:
    """Check every move and carry out those that can be, on a copy of ``placement``.

    A move with a problem is still carried out when its path leads somewhere
    real, so that attacks are checked against the position the player meant;
    the caller rejects the orders as a whole when any problem is found.
    """
    problems: list[Problem] = []
    checker = _MoveChecker(board, placement)
    checked_moves: list[_Checked] = []
    seen: set[str] = set()
    for move in moves:
        unit = units.get(move.unit)
        if unit is None:
            problems.append(Problem("5.0", move.unit, f"there is no unit '{move.unit}' in this game."))
            continue
        if phase == "combat":
            problems.append(Problem("5.11", unit.id, f"{unit.id} cannot move: this is the combat phase, and units move only in their own Movement Phase."))
            continue
        if unit.side != phasing:
            problems.append(Problem("5.11", unit.id, f"{unit.id} is {unit.side}, and only {phasing} units move in this Movement Phase."))
            continue
        if move.unit in seen:
            problems.append(Problem("5.16", unit.id, f"{unit.id} is moved twice; a unit makes one move per Movement Phase."))
            continue
        seen.add(move.unit)
        if not placement.on_map(unit.id) and placement.where(unit.id) != OFFMAP:
            problems.append(Problem("5.0", unit.id, f"{unit.id} has been eliminated and cannot move."))
            continue
        checked = checker.check(move, unit)
        problems.extend(checked.problems)
        checked_moves.append(checked)

    after = placement.copy()
    log: list[Event] = []
    # 12.1: reinforcements come in after the units already on the map have moved.
    ordered = [c for c in checked_moves if c.start != OFFMAP] + [c for c in checked_moves if c.start == OFFMAP]
    exits: list[tuple[str, str]] = []
    for c in ordered:
        if c.final is None:
            continue
        after.move(c.move.unit, c.final)
        if c.start == OFFMAP:
            log.append(events.entered(c.move.unit, c.move.enter, c.move.path, c.cost))
        elif c.move.path:
            log.append(events.moved(c.move.unit, c.start, c.move.path, c.cost))
        if c.move.exit:
            after.leave_map(c.move.unit)
            exits.append((c.move.unit, c.final))
            log.append(events.exited(c.move.unit, c.final))

    problems.extend(_stacking_problems(after, phasing, {c.move.unit for c in ordered if c.final is not None and (c.move.path or c.start == OFFMAP)}))
    arrived = frozenset(c.move.unit for c in checked_moves if c.arrived_in_zoc)
    return MovementOutcome(problems, log, after, arrived, tuple(exits))


def _stacking_problems(after: Placement, side: Side, movers: set[str]) -> list[Problem]:
    """5.31: no two friendly units may end the Movement Phase in one hex."""
    counts = Counter(after.where(u) for u in after.units_of(side))
    problems = []
    for unit_id in movers:
        hex_id = after.where(unit_id)
        if counts[hex_id] > 1:
            others = [u for u in after.at(hex_id) if u != unit_id]
            problems.append(Problem("5.31", unit_id, f"{unit_id} would end the Movement Phase in {hex_id} with {', '.join(others)}; stacking is prohibited."))
    return sorted(problems, key=lambda p: p.unit or "")
