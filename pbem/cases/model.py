"""A conformance case as a pydantic model (format v2, case.schema.json; docs/cases.md).

Version 2 adds, all optional and so backward compatible: the scenario rules
a case plays under (``scenario``: closed areas, exits, forfeits, objectives,
victory terms, active beaches, the next Game-Turn's arrivals, withdrawals), the
hidden-units option (``hidden``, dummies as units of kind ``dummy``), what
happened earlier in the game (``history``), the end of the Game-Turn
(``end_of_turn``) and the victory report (``queries.victory``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from pbem.model.common import HexId, Side
from pbem.model.defense import Defense
from pbem.model.map import MapSpec
from pbem.model.orders import Orders
from pbem.model.ruleset import Ruleset
from pbem.model.scenario import ClosedArea, ExitRequirement, ExitRule, GroundSupport, Objective, ScenarioUnit, VictoryTerm, Withdrawal
from pbem.model.state import Award, ExitRecord, GameState, HiddenState, Position
from pbem.model.units import Unit

CASE_SOURCE = "the case"
"""The ``source`` of scenario data a case gives without one."""


class CaseUnit(Unit):
    """A unit with its location and flags inline, as cases write them."""

    hex: HexId | Literal["offmap", "exited"]
    no_fpf: bool = False

    def counter(self) -> Unit:
        return Unit(**self.model_dump(exclude={"hex", "no_fpf"}))


class Queries(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    loc: list[str] = Field(default_factory=list)
    unit_vp: list[str] = Field(default_factory=list)
    victory: bool = False


def _with_sources(data: Any) -> Any:
    """Scenario data in a case may leave out ``source``: it is the case's own."""
    if not isinstance(data, dict):
        return data
    out = dict(data)
    for key in ("closed", "exits", "exit_requirements", "objectives", "victory", "arrivals", "ground_support", "withdrawals"):
        if isinstance(out.get(key), list):
            out[key] = [({"source": CASE_SOURCE} | item) if isinstance(item, dict) else item for item in out[key]]
    return out


class CaseScenario(BaseModel):
    """The scenario rules a case plays under (v2): the same shapes as a scenario file's fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    first_player: Side = "US"
    closed: list[ClosedArea] = Field(default_factory=list)
    exits: list[ExitRule] = Field(default_factory=list)
    exit_requirements: list[ExitRequirement] = Field(default_factory=list)
    objectives: list[Objective] = Field(default_factory=list)
    victory: list[VictoryTerm] = Field(default_factory=list)
    loc_beaches: list[str] | None = None
    arrivals: list[ScenarioUnit] = Field(default_factory=list)
    ground_support: list[GroundSupport] = Field(default_factory=list)
    withdrawals: list[Withdrawal] = Field(default_factory=list)

    _sources = model_validator(mode="before")(_with_sources)


class CaseHidden(BaseModel):
    """The hidden-units option (v2, docs/hidden-units.md): present means on."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    deployed: bool = True
    exposed: list[str] = Field(default_factory=list)
    priority: list[HexId] = Field(default_factory=list)
    radius: int = Field(default=3, ge=0)
    variant: Literal["hidden-units", "fog-iph", "fog-formosa"] = "hidden-units"
    """The way units are hidden (docs/hidden-units.md): 19B, IPH 6.8 or Formosa 11.0-11.2."""
    static: list[str] = Field(default_factory=list)
    concealed_move: int | None = Field(default=None, ge=0)
    declared: list[HexId] = Field(default_factory=list)


class CaseHistory(BaseModel):
    """What earlier player-turns left in the position (v2)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    exits: list[ExitRecord] = Field(default_factory=list)
    awards: list[Award] = Field(default_factory=list)
    forfeit: dict[Side, str] = Field(default_factory=dict)


class Case(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    case: str
    title: str
    rules: list[str]
    notes: str | None = None
    ruleset: Ruleset = Ruleset()
    map: MapSpec
    units: list[CaseUnit]
    position: Position
    orders: Orders
    defense: Defense | None = None
    queries: Queries | None = None
    dice: list[int] = Field(default_factory=list)
    expect: dict[str, Any] | None = None
    scenario: CaseScenario | None = None
    hidden: CaseHidden | None = None
    history: CaseHistory | None = None
    end_of_turn: bool = False

    def game_state(self) -> GameState:
        history = self.history or CaseHistory()
        hidden = None
        if self.hidden is not None:
            hidden = HiddenState(
                deployed=self.hidden.deployed, exposed=frozenset(self.hidden.exposed),
                priority=tuple(self.hidden.priority), radius=self.hidden.radius, variant=self.hidden.variant,
                static=frozenset(self.hidden.static), concealed_move=self.hidden.concealed_move, declared=tuple(self.hidden.declared),
            )
        return GameState(
            position=self.position,
            units=tuple(u.counter() for u in self.units),
            locations={u.id: u.hex for u in self.units},
            no_fpf=frozenset(u.id for u in self.units if u.no_fpf),
            exits=tuple(history.exits),
            awards=tuple(history.awards),
            forfeit=dict(history.forfeit),
            hidden=hidden,
        )
