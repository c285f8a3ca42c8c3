"""A conformance case as a pydantic model (format v1, case.schema.json)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from pbem.model.common import HexId
from pbem.model.defense import Defense
from pbem.model.map import MapSpec
from pbem.model.orders import Orders
from pbem.model.ruleset import Ruleset
from pbem.model.state import GameState, Position
from pbem.model.units import Unit


class CaseUnit(Unit):
    """A unit with its location and flags inline, as cases write them."""

    hex: HexId | Literal["offmap"]
    no_fpf: bool = False

    def counter(self) -> Unit:
        return Unit(**self.model_dump(exclude={"hex", "no_fpf"}))


class Queries(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    loc: list[str] = Field(default_factory=list)
    unit_vp: list[str] = Field(default_factory=list)


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

    def game_state(self) -> GameState:
        return GameState(
            position=self.position,
            units=tuple(u.counter() for u in self.units),
            locations={u.id: u.hex for u in self.units},
            no_fpf=frozenset(u.id for u in self.units if u.no_fpf),
        )
