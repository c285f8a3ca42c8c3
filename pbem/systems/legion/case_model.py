"""A Legion conformance case (docs/legion.md, Conformance cases): the SPI case format's frame, the Legion game inside.

Same keys as format v2 where the two games agree (``case``, ``title``,
``rules``, ``notes``, ``map``, ``units``, ``position``, ``orders``,
``defense``, ``dice``, ``expect``, ``queries``); ``ruleset.system`` says
which rules system the case is for (the case runner hands it here); a case
may carry its own ``charts`` so that it checks a procedure whatever the
published values (a chart it leaves out is the one pbem ships).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from pbem.model.common import HexId, Side
from pbem.systems.legion.board_model import LegionMap
from pbem.systems.legion.counters import Counter
from pbem.systems.legion.orders import LegionDefense, LegionOrders
from pbem.systems.legion.scenario import VictoryTable
from pbem.systems.legion.state import LegionPosition

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class CaseCounter(Counter):
    """A counter with its place and markers inline."""

    hex: HexId | Literal["eliminated", "removed"]
    hits: int = Field(default=0, ge=0)
    ci_side: bool = Field(default=False, description="The U.S. unit shows its Combat Ineffective side (9E).")
    disrupted: int = Field(default=0, ge=0, le=2, description="1 Disrupted, 2 Badly Disrupted (14).")
    fired: bool = False
    reserve: bool = False
    defended: int | None = Field(default=None, description="The Game-Turn it gave Defensive Support (11A).")


class CaseRuleset(BaseModel):
    model_config = _FROZEN

    system: Literal["legion-2010"]


class CaseQueries(BaseModel):
    model_config = _FROZEN

    owner: list[HexId] = Field(default_factory=list, description="Who owns each hex after the orders (5B).")
    victory: bool = Field(default=False, description="The Victory Table read after the orders (20); needs 'victory'.")
    view: Side | None = Field(default=None, description="What this side sees after the orders (19B).")


class CaseHidden(BaseModel):
    model_config = _FROZEN

    exposed: list[str] = Field(default_factory=list)


class LegionExpect(BaseModel):
    model_config = _FROZEN

    valid: bool | None = None
    error_rules: list[str] | None = None
    combats: list[dict[str, Any]] | None = None
    units: dict[str, Any] | None = None
    dice_used: int | None = None
    queries: dict[str, dict[str, Any]] | None = None
    exposed: list[str] | None = None
    view: dict[str, Any] | None = None
    victory: dict[str, Any] | None = None
    position: dict[str, Any] | None = None


class LegionCase(BaseModel):
    model_config = _FROZEN

    case: str = Field(min_length=1)
    title: str
    rules: list[str] = Field(min_length=1)
    notes: str | None = None
    ruleset: CaseRuleset
    charts: dict[str, dict[str, Any]] = Field(default_factory=dict, description="Chart name -> the chart this case uses instead of the shipped one.")
    map: LegionMap
    units: list[CaseCounter] = Field(min_length=1)
    position: LegionPosition
    owner: dict[HexId, Side] = Field(default_factory=dict)
    casualties: int = Field(default=0, ge=0)
    cp_per_unit: int = Field(default=0, ge=0)
    hidden: CaseHidden | None = None
    orders: LegionOrders
    defense: LegionDefense | None = None
    dice: list[Annotated[int, Field(ge=1, le=6)]] = Field(default_factory=list)
    victory: VictoryTable | None = None
    queries: CaseQueries | None = None
    expect: LegionExpect | None = None
