"""A scenario as data: map, forces, reinforcement schedule, Ground Support, turns, victory.

Every number should say where it came from: ``source`` names the rule case
that states it (``"16.12"``) or begins with ``"assumed:"`` and gives the
reason — the Leyte map sheet and Turn Record Track are not in the rule
text, so parts of a scenario must be reconstructed and said to be.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from pbem.model.common import HexId, Side
from pbem.model.map import MapSpec
from pbem.model.ruleset import Ruleset
from pbem.model.units import Unit

Source = str


class ScenarioUnit(Unit):
    """A unit of the order of battle: where it sets up, or when it arrives (3.0, 12.1).

    A unit with ``hex`` starts on the map; one with ``arrives`` becomes an
    available reinforcement in that Game-Turn's Movement Phase and enters by
    its ``entry`` (beach or edge).
    """

    hex: HexId | None = None
    arrives: int | None = Field(default=None, ge=1)
    source: Source = Field(description="Rule case stating this unit, or 'assumed: <reason>'.")

    @model_validator(mode="after")
    def _placed_or_scheduled(self) -> "ScenarioUnit":
        if (self.hex is None) == (self.arrives is None):
            raise ValueError("a scenario unit has either a set-up 'hex' or an 'arrives' turn, not both or neither")
        if self.arrives is not None and self.entry is None and self.kind != "airassault":
            raise ValueError("a reinforcement needs an 'entry' (beach or edge)")
        return self

    def counter(self) -> Unit:
        return Unit.model_construct(**{name: getattr(self, name) for name in Unit.model_fields})  # checked as a ScenarioUnit


class GroundSupport(BaseModel):
    """Ground Support Points for one Game-Turn, US first (3.0, 9.0)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    turn: int = Field(ge=1)
    US: int = Field(default=0, ge=0)
    JP: int = Field(default=0, ge=0)
    source: Source


class Objective(BaseModel):
    """Victory points for occupying a hex (15.2).

    Scored at the end of the scenario, or at the end of Game-Turn
    ``at_end_of_turn`` when given (16.34: Ormoc at the end of Game-Turn 22).
    With ``loc`` the occupying unit must also trace a Line of
    Communications (15.31, 16.14).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    side: Side
    hex: HexId
    points: int = Field(ge=0)
    source: Source
    name: str | None = None
    loc: bool = False
    at_end_of_turn: int | None = Field(default=None, ge=1)


class ExitRule(BaseModel):
    """A hex from which a side's units may leave the map (Leyte 16.13 items 3 and 4).

    With ``reenter_after`` an exited unit comes back as a reinforcement that
    many Game-Turns later, entering by ``reenter_entry`` (a map area).  With
    ``reenter_until`` only a unit that left on or before that Game-Turn comes
    back (Leyte 16.43 item 3: Game-Turns 1-4); one that left later stays off
    the map, neither eliminated nor back.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    hex: HexId
    side: Side
    reenter_after: int | None = Field(default=None, ge=1)
    reenter_entry: str | None = None
    reenter_until: int | None = Field(default=None, ge=1)
    source: Source

    def brings_back(self, left_on: int) -> bool:
        """Does a unit that left by this exit on Game-Turn ``left_on`` come back (16.13 item 3, 16.43 item 3)?"""
        return self.reenter_after is not None and (self.reenter_until is None or left_on <= self.reenter_until)


class Withdrawal(BaseModel):
    """A unit the scenario takes off the map at the end of a Game-Turn, and when and where it comes back.

    A scenario's own schedule, for orders of appearance written for shorter
    scenarios and chained into one game (the Leyte campaign, whose 18.1 brings
    in again on Game-Turns 11-13 units that landed on 1-2): at the end of
    Game-Turn ``turn`` the unit, if on the map or still waiting off it, leaves
    (neither side scores it); at the start of Game-Turn ``returns`` it becomes
    a reinforcement entering by ``entry`` (12.1), as does a unit that left
    earlier by an exit hex.  An eliminated unit does not come back.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    unit: str
    turn: int = Field(ge=1, description="The Game-Turn at whose end the unit leaves the map.")
    returns: int | None = Field(default=None, ge=2, description="The Game-Turn it becomes a reinforcement again; absent: never.")
    entry: str | None = Field(default=None, description="Its entry when it returns (a beach area or map-edge area).")
    source: Source

    @model_validator(mode="after")
    def _returns_later(self) -> "Withdrawal":
        if self.returns is not None and (self.returns <= self.turn or self.entry is None):
            raise ValueError("a withdrawn unit returns after the Game-Turn it leaves, by an 'entry'")
        return self


class ExitRequirement(BaseModel):
    """A unit of a given type must leave by ``hex`` by the end of ``by_turn``, or one is forfeited (16.13 item 4).

    If none has left by then, at the end of that Game-Turn the enemy removes
    one such unit, which counts as eliminated for victory points.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    hex: HexId
    side: Side
    kind: str
    attack: int
    defense: int
    move: int
    by_turn: int = Field(ge=1)
    source: Source

    def fits(self, unit: Unit) -> bool:
        """Is ``unit`` of the type that must leave?"""
        return unit.side == self.side and unit.kind == self.kind and (unit.attack, unit.defense, unit.move) == (self.attack, self.defense, self.move)


class ClosedArea(BaseModel):
    """Hexes one side may not enter (16.23 item 2: no Japanese unit in hexrow 0100)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    side: Side
    area: str = Field(description="A map area name, e.g. '0100'.")
    source: Source


class VictoryTerm(BaseModel):
    """One way of scoring besides eliminated units (15.12) and objectives (15.2).

    ``kind``:
    - ``airfields``: ``side`` scores ``points`` for each of its units in or next to an airfield hex (16.14);
    - ``beaches``: ``side`` scores ``points`` once if any of its units is on a beach hex of ``areas`` (15.22);
    - ``cut-off``: ``side`` scores the full value of each enemy unit unable to trace a Line of Communications (15.33);
    - ``region``: ``side`` scores the full value of each of its own units in the hexes with column at most ``max_col``
      and row at most ``max_row`` that can trace a Line of Communications (16.24);
    - ``edge-loc``: the units of ``of_side`` trace a Line of Communications to the map area ``area``;
      ``side`` scores the full value of those that can, ``other_side`` of those that cannot (16.34).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    kind: Literal["airfields", "beaches", "cut-off", "region", "edge-loc"]
    side: Side
    points: int | None = Field(default=None, ge=0)
    areas: list[str] = Field(default_factory=list)
    max_col: int | None = None
    max_row: int | None = None
    area: str | None = None
    of_side: Side | None = None
    other_side: Side | None = None
    source: Source


class HiddenUnits(BaseModel):
    """What a scenario allows the Japanese player under the hidden-units option (docs/hidden-units.md).

    Neither the SPI nor the dg Leyte rules have hidden units, so these limits
    are assumed and say so in ``source``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    dummies: int = Field(default=0, ge=0, le=20, description="How many dummy counters the Japanese player may place (19B.6).")
    radius: int = Field(default=3, ge=0, description="The set-up zone: each Japanese set-up unit and each dummy sets up at most this many hexes from a printed Japanese set-up hex.")
    source: Source


class Scenario(BaseModel):
    """Everything needed to start a game."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str
    description: str = ""
    ruleset: Ruleset = Ruleset.model_construct()  # not Ruleset(): that would build its validator at import
    map: MapSpec
    map_source: Source
    units: list[ScenarioUnit]
    ground_support: list[GroundSupport] = Field(default_factory=list)
    first_player: Side
    first_turn: int = Field(ge=1)
    last_turn: int = Field(ge=1)
    objectives: list[Objective] = Field(default_factory=list)
    victory: list[VictoryTerm] = Field(default_factory=list)
    loc_beaches: list[str] | None = Field(
        default=None, description="Map areas whose beach hexes are active for U.S. Lines of Communications (15.31); default: every beach hex."
    )
    loc_beaches_source: Source | None = None
    exits: list[ExitRule] = Field(default_factory=list)
    exit_requirements: list[ExitRequirement] = Field(default_factory=list)
    closed: list[ClosedArea] = Field(default_factory=list)
    withdrawals: list[Withdrawal] = Field(default_factory=list)
    special_rules: list[str] = Field(default_factory=list)
    kind: Literal["historical", "test"] = "historical"
    hidden_units: HiddenUnits | None = Field(default=None, description="Limits of the hidden-units option; absent: no dummies, radius 3.")
    system: str | None = Field(
        default=None, pattern=r"^[a-z0-9][a-z0-9-]*$",
        description="The rules system the scenario is played with (pbem.systems); absent: the SPI system (pbem/engine).",
    )

    @model_validator(mode="after")
    def _no_markers_in_the_order_of_battle(self) -> "Scenario":
        for unit in self.units:
            if unit.kind in ("dummy", "hidden"):
                raise ValueError(f"unit {unit.id}: kind '{unit.kind}' is made by the hidden-units option, not listed in a scenario")
        return self

    @model_validator(mode="after")
    def _withdrawals_name_units(self) -> "Scenario":
        ids = {u.id for u in self.units}
        for w in self.withdrawals:
            if w.unit not in ids:
                raise ValueError(f"withdrawal of '{w.unit}': no unit of the scenario has that id")
        return self

    def gsp_for(self, turn: int) -> dict[Side, int]:
        for row in self.ground_support:
            if row.turn == turn:
                return {"US": row.US, "JP": row.JP}
        return {"US": 0, "JP": 0}
