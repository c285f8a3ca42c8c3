"""The Movement Phase: checking and carrying out the phasing player's moves.

Rules 5.1-5.3, 6.0-6.2 and the reinforcement rules 12.1-12.2, 12.4, read as
interpretations I10, I11 and I20-I23 say.  :func:`check_moves` reports
*every* problem it finds, each with its rule case, and works out where each
unit stands afterwards: a unit whose move has a problem stays where it
started (I20), so that a mistake is reported once and not again as the
stacking or attack problems it would cause elsewhere.

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
from pbem.model.ruleset import Ruleset
from pbem.model.units import Unit

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


def _occupied_entry_rule(board: Board, unit: Unit, hex_id: str) -> str:
    """I23: an enemy in the entry hex breaks 12.21 for a unit coming ashore, 5.12 for one entering at an edge.

    A unit entering by a named area goes by the hex: a beach hex is 12.21.
    """
    if unit.entry in ("beach", "edge"):
        return "12.21" if unit.entry == "beach" else "5.12"
    return "12.21" if hex_id in board.beaches else "5.12"


def _fmt(cost: Fraction) -> str:
    return str(int(cost)) if cost.denominator == 1 else f"{float(cost):g}"


class _MoveChecker:
    def __init__(self, board: Board, placement: Placement, ruleset: Ruleset) -> None:
        self.board = board
        self.placement = placement
        self.ruleset = ruleset

    def check(self, move: Move, unit: Unit, now: Placement) -> _Checked:
        """Check one move; ``now`` is where units stand when it is made (12.1: reinforcements come last)."""
        start = self.placement.where(unit.id)
        if start == OFFMAP and unit.kind == "airassault" and self.ruleset.leyte:
            return self._check_air_assault(move, unit, now)
        if start == OFFMAP:
            return self._check_reinforcement(move, unit)
        checked = _Checked(move, [], start=start)
        if move.enter is not None:
            # I25: 12.2, and the move is still checked as a whole (I20): its path from where the unit stands.
            checked.problems.append(Problem("12.2", unit.id, f"{unit.id} is already on the map at {start}; only a reinforcement names an 'enter' hex: drop 'enter'."))
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
        if entry_hexes is None:
            problems.append(Problem("12.2", unit.id, f"{unit.id} has no entry area on this map ({unit.entry or 'none given'}), so it cannot be brought in."))
            return checked
        if hex_id not in entry_hexes:
            rule, how = ("12.21", "on") if self.board.lands_on_beach(unit.entry) else ("12.23", "by")
            problems.append(Problem(rule, unit.id, f"{unit.id} arrives {how} {_entry_name(unit.entry)}, and {hex_id} is not one of its hexes ({_hex_list(entry_hexes)})."))
        cost = self.board.entry_cost(unit.entry, hex_id)
        if hex_id in self.board.closed.get(unit.side, ()):
            problems.append(Problem("16.23", unit.id, f"{unit.side} units may not enter {hex_id} in this scenario."))
        if self.placement.enemy_at(hex_id, unit.side):
            problems.append(Problem(_occupied_entry_rule(self.board, unit, hex_id), unit.id, f"{unit.id} cannot be placed in {hex_id}: an enemy unit is there (12.21, 5.12)."))
            return checked
        if unit.kind == "armor" and not self.board.armor_may_be_placed(hex_id):
            problems.append(Problem("5.25", unit.id, f"armor {unit.id} cannot be placed in {hex_id} ({self.board.terrain(hex_id).name}) off a road or trail."))
        self._arrive(checked, unit, hex_id, cost)
        return checked

    def _check_air_assault(self, move: Move, unit: Unit, now: Placement) -> _Checked:
        """Leyte 12.42, I21: placed in any land hex empty at that moment, at no cost, whatever its entry says."""
        checked = _Checked(move, [], start=OFFMAP)
        hex_id = move.enter
        if hex_id is None:
            checked.problems.append(Problem("12.42", unit.id, f"air assault {unit.id} must be placed this turn: name the hex it lands in as 'enter', then its path."))
        elif not self.board.land(hex_id):
            where = "off the board" if not self.board.on_board(hex_id) else "an all-sea hex"
            checked.problems.append(Problem("5.21", unit.id, f"{unit.id} cannot be placed in {hex_id}: it is {where}."))
        elif now.enemy_at(hex_id, unit.side):
            checked.problems.append(Problem("5.12", unit.id, f"{unit.id} cannot be placed in {hex_id}: an enemy unit is there."))
        elif not now.vacant(hex_id):
            checked.problems.append(Problem("12.42", unit.id, f"air assault {unit.id} lands in an empty hex, and {', '.join(now.at(hex_id))} already stands in {hex_id}."))
        else:
            self._arrive(checked, unit, hex_id, Fraction(0))
        return checked

    def _arrive(self, checked: _Checked, unit: Unit, hex_id: str, cost: Fraction) -> None:
        """A reinforcement placed in ``hex_id`` at ``cost``: 12.22 if next to the enemy, then its path."""
        checked.arrived_in_zoc = self.placement.in_enemy_zoc(hex_id, unit.side)
        if checked.arrived_in_zoc and checked.move.path:
            checked.problems.append(Problem("12.22", unit.id, f"{unit.id} arrived in {hex_id}, next to an enemy unit, so it may move no farther this phase."))
        self._walk(checked, unit, hex_id, cost, from_reinforcement=True)
        if checked.move.exit:
            self._check_exit(checked, unit)

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

    def _step_why(self, a: str, b: str) -> str:
        """What a step's cost is made of: road, trail, or the terrain entered and a river crossed (5.21-5.23)."""
        board = self.board
        if board.road_between(a, b):
            return "by road"
        if board.trail_between(a, b):
            return "by trail"
        why = board.terrain(b).name
        if board.river_between(a, b):
            why += f" + river {_fmt(board.river_cost)}"
        return why

    def _walk(self, checked: _Checked, unit: Unit, start: str, cost: Fraction, *, from_reinforcement: bool) -> None:
        """Follow the path step by step until a step cannot be taken (I20).

        Every rule the failing step breaks is reported (5.0, 5.12, 5.21 and a
        6.0 or 6.14 overrun); the steps before it are checked in full
        (5.13, 5.25); the steps after it are not followed.
        """
        problems = checked.problems
        path = checked.move.path
        side = unit.side
        starts_in_zoc = not from_reinforcement and self.placement.in_enemy_zoc(start, side)
        one_step_only = False  # 6.14: a Japanese infantry or engineer unit steps out of control one hex only
        if starts_in_zoc and path:
            if side == "US":
                problems.append(Problem("5.14", unit.id, f"{unit.id} starts next to a Japanese unit and may not leave {start} in the Movement Phase."))
            elif unit.kind in ("armor", "artillery"):
                problems.append(Problem("5.15", unit.id, f"Japanese {unit.kind} {unit.id} starts next to an American unit and may not leave {start} in the Movement Phase."))
            elif unit.kind in ("infantry", "engineer"):
                one_step_only = True
            else:
                problems.append(Problem("6.13", unit.id, f"Japanese {unit.kind} {unit.id} starts next to an American unit and may not leave {start} in the Movement Phase."))
        prev = start
        # What each step cost, so that the player sees where the points went (issue 20).
        spent = [f"placed in {start} {_fmt(cost)}"] if from_reinforcement else []
        stop_hex = None  # the enemy-controlled hex where the move had to end (6.0)
        overrun_told = False  # a 6.0 overrun is reported once; the move goes on being checked
        for step, hex_id in enumerate(path, 1):
            if one_step_only and step == 2:
                problems.append(Problem("6.14", unit.id, f"{unit.id} starts next to an American unit, so it may move one hex only, not {len(path)}."))
            elif stop_hex is not None and not one_step_only and not overrun_told:
                problems.append(Problem("6.0", unit.id, f"{unit.id} entered an enemy zone of control at {stop_hex} and must stop there, but its path goes on to {hex_id}."))
                overrun_told = True
            blocked = self._blocked(unit, prev, hex_id, step)
            if blocked:
                problems.extend(blocked)
                break
            if unit.kind == "armor" and not self.board.armor_may_enter(prev, hex_id):
                problems.append(Problem("5.25", unit.id, f"armor {unit.id} may enter {hex_id} ({self.board.terrain(hex_id).name}) only along a road or trail."))
            step_cost = self.board.step_cost(prev, hex_id)
            cost += step_cost
            spent.append(f"{hex_id} {self._step_why(prev, hex_id)} {_fmt(step_cost)}")
            if stop_hex is None and self.placement.in_enemy_zoc(hex_id, side):
                stop_hex = hex_id
            prev = hex_id
        else:
            checked.final = prev
        if cost > unit.move:
            problems.append(Problem("5.13", unit.id, f"{unit.id}'s move costs {_fmt(cost)} MP, more than its allowance of {unit.move} (5.24): "
                                                     + ", ".join(spent) + "."))
        checked.cost = cost

    def _blocked(self, unit: Unit, prev: str, hex_id: str, step: int) -> list[Problem]:
        """Every rule that stops the step from ``prev`` into ``hex_id`` (5.0, 5.12, 5.21); empty when it can be taken."""
        found = []
        if not hexes.adjacent(prev, hex_id):
            found.append(Problem("5.0", unit.id, f"{unit.id}'s path jumps from {prev} to {hex_id} (step {step}); each hex must touch the one before."))
        if not self.board.on_board(hex_id):
            found.append(Problem("5.21", unit.id, f"{unit.id}'s path leaves the board at {hex_id} (step {step})."))
        elif hex_id in self.board.sea:
            found.append(Problem("5.21", unit.id, f"{unit.id} cannot enter {hex_id}: it is all sea."))
        elif not found and self.board.prohibited_between(prev, hex_id):
            found.append(Problem("5.21", unit.id, f"{unit.id} cannot cross the prohibited hexside between {prev} and {hex_id}."))
        if self.placement.enemy_at(hex_id, unit.side):
            found.append(Problem("5.12", unit.id, f"{unit.id} cannot enter {hex_id}: an enemy unit is there."))
        if hex_id in self.board.closed.get(unit.side, ()):
            found.append(Problem("16.23", unit.id, f"{unit.side} units may not enter {hex_id} in this scenario."))
        return found


def check_moves(
    board: Board,
    units: dict[str, Unit],
    placement: Placement,
    phasing: Side,
    phase: Phase,
    moves: list[Move],
    ruleset: Ruleset | None = None,
) -> MovementOutcome:
    """Check every move and carry out, on a copy of ``placement``, those without a problem.

    A unit whose move has a problem stands where it started (a reinforcement:
    off the map) when stacking and attacks are checked (I20), so one mistake
    is reported once and not again as its consequences; the caller rejects
    the orders as a whole when any problem is found.
    """
    ruleset = ruleset or Ruleset()
    problems: dict[int, list[Problem]] = {}
    accepted: list[tuple[int, Move, Unit]] = []
    seen: set[str] = set()
    for index, move in enumerate(moves):
        unit = units.get(move.unit)
        problem = _not_movable(move, unit, placement, phasing, phase, seen)
        if problem is not None:
            problems[index] = [problem]
            continue
        seen.add(move.unit)
        accepted.append((index, move, unit))

    checker = _MoveChecker(board, placement, ruleset)
    after = placement.copy()
    log: list[Event] = []
    done: list[_Checked] = []
    exits: list[tuple[str, str]] = []
    # 12.1: reinforcements come in after the units already on the map have moved.
    for index, move, unit in sorted(accepted, key=lambda a: placement.where(a[1].unit) == OFFMAP):
        c = checker.check(move, unit, after)
        problems[index] = c.problems
        if c.problems or c.final is None:
            continue
        done.append(c)
        after.move(c.move.unit, c.final)
        if c.start == OFFMAP:
            log.append(events.entered(c.move.unit, c.move.enter, c.move.path, c.cost))
        elif c.move.path:
            log.append(events.moved(c.move.unit, c.start, c.move.path, c.cost))
        if c.move.exit:
            after.leave_map(c.move.unit)
            exits.append((c.move.unit, c.final))
            log.append(events.exited(c.move.unit, c.final))

    found = [p for index in sorted(problems) for p in problems[index]]
    if phase == "movement" and ruleset.leyte:
        found += _withheld_air_assaults(units, placement, phasing, seen)
    found += _stacking_problems(after, phasing, {c.move.unit for c in done if c.move.path or c.start == OFFMAP})
    arrived = frozenset(c.move.unit for c in done if c.arrived_in_zoc)
    return MovementOutcome(found, log, after, arrived, tuple(exits))


def _not_movable(move: Move, unit: Unit | None, placement: Placement, phasing: Side, phase: Phase, seen: set[str]) -> Problem | None:
    """Why ``move`` is not a move at all (5.0, 5.11, 5.16); a second move is otherwise ignored (I20)."""
    if unit is None:
        return Problem("5.0", move.unit, f"there is no unit '{move.unit}' in this game.")
    if phase == "combat":
        return Problem("5.11", unit.id, f"{unit.id} cannot move: this is the combat phase, and units move only in their own Movement Phase.")
    if unit.side != phasing:
        return Problem("5.11", unit.id, f"{unit.id} is {unit.side}, and only {phasing} units move in this Movement Phase.")
    if move.unit in seen:
        return Problem("5.16", unit.id, f"{unit.id} is moved twice; a unit makes one move per Movement Phase.")
    if not placement.on_map(unit.id) and placement.where(unit.id) != OFFMAP:
        return Problem("5.0", unit.id, f"{unit.id} has been eliminated and cannot move.")
    return None


def _withheld_air_assaults(units: dict[str, Unit], placement: Placement, phasing: Side, moved: set[str]) -> list[Problem]:
    """Leyte 12.42, I21: an air assault reinforcement may not be withheld."""
    return [
        Problem("12.42", uid, f"air assault {uid} may not be withheld: place it this turn with a move naming its 'enter' hex.")
        for uid, unit in units.items()
        if unit.side == phasing and unit.kind == "airassault" and placement.where(uid) == OFFMAP and uid not in moved
    ]


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
