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
        return Unit(**self.model_dump(include=set(Unit.model_fields)))


class GroundSupport(BaseModel):
    """Ground Support Points for one Game-Turn, US first (3.0, 9.0)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    turn: int = Field(ge=1)
    US: int = Field(default=0, ge=0)
    JP: int = Field(default=0, ge=0)
    source: Source


class Objective(BaseModel):
    """Victory points for holding a hex at the end (15.2)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    side: Side
    hex: HexId
    points: int
    source: Source


class Scenario(BaseModel):
    """Everything needed to start a game."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str
    description: str = ""
    ruleset: Ruleset = Ruleset()
    map: MapSpec
    map_source: Source
    units: list[ScenarioUnit]
    ground_support: list[GroundSupport] = Field(default_factory=list)
    first_player: Side
    first_turn: int = Field(ge=1)
    last_turn: int = Field(ge=1)
    objectives: list[Objective] = Field(default_factory=list)
    special_rules: list[str] = Field(default_factory=list)
    kind: Literal["historical", "test"] = "historical"

    def gsp_for(self, turn: int) -> dict[Side, int]:
        for row in self.ground_support:
            if row.turn == turn:
                return {"US": row.US, "JP": row.JP}
        return {"US": 0, "JP": 0}
