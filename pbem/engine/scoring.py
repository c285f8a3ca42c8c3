"""Victory points and the level of victory (Leyte 15.1-15.4, 16.14, 16.24, 16.34).

:func:`victory_report` scores a position as if the scenario ended there:
points for eliminated enemy units (15.12), objectives occupied (15.2, with
a Line of Communications where the scenario asks, 15.31), the scenario's
other terms (airfields, beaches, cut-off units, regions, the western edge)
and the points awarded during the game (16.13 item 4, 16.34).  The ratio of
U.S. to Japanese points gives the level (15.4).

Reading of 15.4 (I27, docs/leyte.md): the ratio is cut, not rounded, to two
decimals, the schedule's precision, and the schedule is then read as
written: 3.00 or more is a U.S. Decisive victory, 2.50-2.99 Substantive,
2.01-2.49 Marginal, 2.00 (any ratio from 2.00 up to, not including, 2.01) a
Draw, 1.50-1.99 Japanese Marginal, 1.01-1.49 Japanese Substantive, 1.00 or
less Japanese Decisive.  So 2.995 is U.S. Substantive and 1.995 Japanese
Marginal.  With no Japanese points the ratio is infinite (U.S. Decisive),
unless neither side has any, which is read as a Draw.

Under the hidden-units option a dummy holds its hex (I28, Legion 19B.6 and
5B): it occupies an objective (15.21) or a beach hex (15.22) for Japan as a
unit would, and a report names it by its hex, the marker the American view
shows.  It is worth nothing (15.11) and is no unit for the terms that count
units or their value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from pbem.engine import hexes
from pbem.engine.board import Board
from pbem.engine.placement import Placement
from pbem.engine.victory import traced_hexes
from pbem.model.common import ELIMINATED, SIDES, Side, enemy_of
from pbem.model.scenario import Objective, Scenario, VictoryTerm
from pbem.model.state import Award, GameState

LEVELS = (
    (Decimal("3.00"), "U.S. Decisive"),
    (Decimal("2.50"), "U.S. Substantive"),
    (Decimal("2.01"), "U.S. Marginal"),
    (Decimal("2.00"), "Draw"),
    (Decimal("1.50"), "Japanese Marginal"),
    (Decimal("1.01"), "Japanese Substantive"),
)
"""15.4's schedule: the lowest ratio (cut to two decimals, I27) of each level, best for the U.S. first; below 1.01, Japanese Decisive."""


@dataclass
class Line:
    """Points of one kind for one side: what, how many, which rule, which units or hexes."""

    side: Side
    what: str
    points: int
    source: str
    items: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"side": self.side, "what": self.what, "points": self.points, "source": self.source, "items": self.items}


@dataclass
class VictoryReport:
    lines: list[Line]
    final: bool

    def total(self, side: Side) -> int:
        return sum(line.points for line in self.lines if line.side == side)

    @property
    def ratio(self) -> Fraction | None:
        us, jp = self.total("US"), self.total("JP")
        return None if jp == 0 else Fraction(us, jp)

    @property
    def level(self) -> str:
        return level_for(self.total("US"), self.total("JP"))

    def as_dict(self) -> dict:
        ratio = self.ratio
        return {
            "final": self.final,
            "points": {side: self.total(side) for side in SIDES},
            "ratio": None if ratio is None else str(shown_ratio(ratio)),
            "level": self.level,
            "rule": "15.4",
            "lines": [line.as_dict() for line in self.lines if line.points or line.items],
        }


def shown_ratio(ratio: Fraction) -> Decimal:
    """The ratio 15.4 reads and every report prints: cut (not rounded) to two decimals (I27).

    Exact: the hundredths are the integer part of 100 times the fraction, so 599/200 is 2.99, never 3.00.
    """
    return Decimal(ratio.numerator * 100 // ratio.denominator).scaleb(-2)


def level_for(us: int, jp: int) -> str:
    """The level of victory for these totals (15.4, read as the module docstring says)."""
    if jp == 0:
        return "Draw" if us == 0 else LEVELS[0][1]
    ratio = shown_ratio(Fraction(us, jp))
    for floor, name in LEVELS:
        if ratio >= floor:
            return name
    return "Japanese Decisive"


def victory_report(board: Board, scenario: Scenario, state: GameState, *, final: bool) -> VictoryReport:
    """The points each side holds in ``state``; ``final`` scores the end-of-scenario terms too."""
    scorer = _Scorer(board, scenario, state)
    lines = scorer.eliminations() + scorer.awards(state.awards)
    if final:
        lines += scorer.objectives(o for o in scenario.objectives if o.at_end_of_turn is None)
        for term in scenario.victory:
            lines += scorer.term(term)
    return VictoryReport(lines, final)


def timed_awards(board: Board, scenario: Scenario, state: GameState, turn: int) -> tuple[Award, ...]:
    """Objectives scored at the end of Game-Turn ``turn`` (16.34: Ormoc at the end of Game-Turn 22)."""
    scorer = _Scorer(board, scenario, state)
    lines = scorer.objectives(o for o in scenario.objectives if o.at_end_of_turn == turn)
    return tuple(Award.model_construct(side=line.side, points=line.points, what=line.what, source=line.source) for line in lines if line.points)


class _Scorer:
    def __init__(self, board: Board, scenario: Scenario, state: GameState) -> None:
        self.board = board
        self.scenario = scenario
        self.state = state
        self.units = state.unit_index()
        self.placement = Placement(self.units, state.locations)
        beaches = board.beaches
        if scenario.loc_beaches is not None:
            beaches = board.area_hexes(scenario.loc_beaches) & board.beaches
        self.loc_beaches = beaches
        self._traced: dict[tuple[Side, str | None], frozenset[str]] = {}

    def has_loc(self, unit_id: str, area: str | None = None) -> bool:
        """A Line of Communications to an active beach (15.31), or to a map area's hexes (16.34).

        Traced once per side and targets for every unit at once (:func:`traced_hexes`).
        """
        if not self.placement.on_map(unit_id):
            return False
        key = (self.units[unit_id].side, area)
        if key not in self._traced:
            targets = self.loc_beaches if area is None else self.board.area_hexes([area])
            self._traced[key] = traced_hexes(self.board, self.placement, key[0], targets=targets)
        return self.placement.where(unit_id) in self._traced[key]

    def on_map(self, side: Side) -> list[str]:
        """The side's units on the map that score by the unit: a dummy is worth nothing (15.11, 19B.6) and is no unit
        for the terms that count units or their value (16.14's airfields, 15.33, 16.24, 16.34's lines)."""
        return [u for u in self.placement.units_of(side) if not self.units[u].is_dummy]

    def holders(self, side: Side, hex_ids) -> list[str]:
        """The side's counters occupying these hexes, dummies included (I28): a dummy holds its hex "for all game
        purposes" (Legion 19B.6, 5B), so it occupies an objective (15.21) or a beach hex (15.22) as a unit does."""
        hex_ids = set(hex_ids)
        return [u for u in self.placement.units_of(side) if self.placement.where(u) in hex_ids]

    def named(self, ids: list[str]) -> list[str]:
        """How a report names the counters that score: a unit by its id; a dummy by its hex, the marker that is all
        the American view shows of it (I28: the scoring reveals nothing)."""
        return [self.placement.where(u) if self.units[u].is_dummy else u for u in ids]

    def value(self, ids) -> int:
        """The victory-point value of these units together (15.11)."""
        return sum(self.units[u].combat_value for u in ids)

    def eliminations(self) -> list[Line]:
        """15.12: each side scores the value of every enemy unit eliminated (Banzai losses and forfeits included)."""
        lines = []
        for side in SIDES:
            # A dummy removed is worth nothing and names nothing (19B.6): it is not a unit lost.
            lost = [u for u in self.units.values()
                    if u.side == enemy_of(side) and not u.is_dummy and self.state.locations.get(u.id) == ELIMINATED]
            lines.append(Line(side, "enemy units eliminated", sum(u.combat_value for u in lost), "15.12", [u.id for u in lost]))
        return lines

    def awards(self, awards) -> list[Line]:
        return [Line(a.side, a.what, a.points, a.source) for a in awards]

    def objectives(self, objectives) -> list[Line]:
        return [self._objective(objective) for objective in objectives]

    def _objective(self, objective: Objective) -> Line:
        label = objective.name or next((name for name, h in self.board.places.items() if h == objective.hex), objective.hex)
        held = [u for u in self.placement.at(objective.hex) if self.units[u].side == objective.side]  # a dummy too (I28)
        what = f"occupying {label} ({objective.hex})"
        if not held:
            return Line(objective.side, what, 0, objective.source)
        if objective.loc and not any(self.has_loc(u) for u in held):
            return Line(objective.side, what + ": no Line of Communications (15.31)", 0, objective.source, self.named(held))
        return Line(objective.side, what, objective.points, objective.source, self.named(held))

    def term(self, term: VictoryTerm) -> list[Line]:
        return getattr(self, "_" + term.kind.replace("-", "_"))(term)

    def _airfields(self, term: VictoryTerm) -> list[Line]:
        near = set(self.board.airfields)
        for h in self.board.airfields:
            near.update(hexes.neighbours(h))
        scoring = [u for u in self.on_map(term.side) if self.placement.where(u) in near]
        return [Line(term.side, "units in or next to an airfield", (term.points or 0) * len(scoring), term.source, scoring)]

    def _beaches(self, term: VictoryTerm) -> list[Line]:
        there = self.holders(term.side, self.board.area_hexes(term.areas))  # 15.22: occupying a hex, a dummy too (I28)
        return [Line(term.side, f"units on the {'/'.join(term.areas)} beaches", (term.points or 0) if there else 0, term.source,
                     self.named(there))]

    def _cut_off(self, term: VictoryTerm) -> list[Line]:
        enemy = enemy_of(term.side)
        cut = [u for u in self.on_map(enemy) if not self.has_loc(u)]
        return [Line(term.side, "enemy units without a Line of Communications", self.value(cut), term.source, cut)]

    def _region(self, term: VictoryTerm) -> list[Line]:
        inside = []
        for u in self.on_map(term.side):
            col, row = hexes.parse(self.placement.where(u))
            if col <= (term.max_col or 99) and row <= (term.max_row or 99) and self.has_loc(u):
                inside.append(u)
        what = f"own units south of hexrow {(term.max_col or 0) + 1:02d}00 and west of 00{(term.max_row or 0) + 1:02d} with a Line of Communications"
        return [Line(term.side, what, self.value(inside), term.source, inside)]

    def _edge_loc(self, term: VictoryTerm) -> list[Line]:
        of_side = term.of_side or term.side
        able, unable = [], []
        for u in self.on_map(of_side):
            (able if self.has_loc(u, term.area) else unable).append(u)
        lines = [Line(term.side, f"{of_side} units with a Line of Communications off the map edge ({term.area})", self.value(able), term.source, able)]
        if term.other_side:
            lines.append(Line(term.other_side, f"{of_side} units with no Line of Communications off the map edge ({term.area})", self.value(unable), term.source, unable))
        return lines


def lines_of_communications(board: Board, scenario: Scenario, state: GameState) -> dict[str, bool]:
    """Which units on the map can trace the Line of Communications victory asks of them.

    U.S. units to an active beach (15.31, 15.32); Japanese units only where a
    term makes them trace one (16.34: to the map area it names; 15.34
    exempts them otherwise).  Dummies are no units for victory (19B.6).
    """
    scorer = _Scorer(board, scenario, state)
    japanese_area = next((t.area for t in scenario.victory if t.kind == "edge-loc" and (t.of_side or t.side) == "JP"), None)
    found: dict[str, bool] = {}
    for unit in scorer.on_map("US"):
        found[unit] = scorer.has_loc(unit)
    if japanese_area is not None:
        for unit in scorer.on_map("JP"):
            found[unit] = scorer.has_loc(unit, japanese_area)
    return found
