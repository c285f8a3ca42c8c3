"""A Legion scenario as data: map, charts, forces, turns, hex ownership and the Victory Table (20).

Every counter and every number says where it came from (``source``: a rule
case, or ``assumed: <reason>``).  ``map`` and each chart may be a file name
beside the scenario, read into one self-contained document when the game
begins, as SPI scenarios name their map.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from pbem.model.common import HexId, Side
from pbem.systems.legion.board_model import LegionMap
from pbem.systems.legion.charts import CHART_MODELS, Source
from pbem.systems.legion.counters import Counter

_FROZEN = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class ScenarioCounter(Counter):
    """A counter of the order of battle and its set-up hex."""

    hex: HexId
    source: Source


class VictoryLevel(BaseModel):
    """One line of a Victory Table: the level reached when every bound it gives holds (20)."""

    model_config = _FROZEN

    level: str
    cp_max: int | None = Field(default=None, description="U.S. Casualty Points at most.")
    cp_min: int | None = None
    objectives_min: int | None = Field(default=None, description="Objective hexes the U.S. player owns, at least.")
    objectives_max: int | None = None
    japanese_units_max: int | None = Field(default=None, description="Japanese units (not Dummies) on the map, at most.")
    japanese_units_min: int | None = None
    source: Source


class VictoryTable(BaseModel):
    """A scenario's Victory Table (20): Casualty Points, objectives, levels read top to bottom."""

    model_config = _FROZEN

    cp_per_unit: int = Field(default=0, ge=0, description="20: Casualty Points a U.S. unit's elimination adds to its Combat Losses.")
    objectives: dict[str, HexId] = Field(default_factory=dict)
    levels: list[VictoryLevel] = Field(min_length=1)
    otherwise: str
    beachhead_type: str = Field(default="beachhead", description="20 note: if every unit of this type is eliminated, a Japanese Major Victory at once.")
    source: Source


class LegionScenario(BaseModel):
    """Everything needed to start a Legion game."""

    model_config = _FROZEN

    system: Literal["legion-2010"]
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str
    description: str = ""
    kind: Literal["historical", "test"] = "test"
    map: LegionMap | str
    charts: dict[str, str | dict] = Field(description="Chart name -> its file beside the scenario (or the chart itself).")
    units: list[ScenarioCounter]
    first_player: Side
    first_turn: int = Field(default=1, ge=1)
    last_turn: int = Field(ge=1)
    pm_turns: list[int] = Field(default_factory=list, description="The PM Game-Turns (6C.2: the Japanese may declare a Night Exploitation Phase).")
    limited_intelligence: bool = Field(default=True, description="19B: the Japanese units are Hidden until Exposed.")
    owner: dict[HexId, Side] = Field(default_factory=dict, description="Hexes owned at the start beyond those the units' ZOCs give (5B).")
    victory: VictoryTable
    special_rules: list[str] = Field(default_factory=list)
    source: Source

    @model_validator(mode="after")
    def _every_chart(self) -> "LegionScenario":
        missing = [name for name in CHART_MODELS if name not in self.charts]
        unknown = [name for name in self.charts if name not in CHART_MODELS]
        if missing or unknown:
            raise ValueError(f"'charts' names each of {', '.join(CHART_MODELS)}" + (f"; missing {', '.join(missing)}" if missing else "") + (f"; unknown {', '.join(unknown)}" if unknown else ""))
        return self
