"""A Legion map as data: hexes with one or more terrains, hex-side features, roads, sea, places.

Shaped like the SPI ``map`` block (cases.md, Map: ``cols``, ``rows``,
``sea``, ``roads``) where the two agree; a hex may hold several terrains
(6A.1), and a hex-side feature is named by the Terrain Effects Chart line
it reads (``steep``), not by a fixed list.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from pbem.model.common import HexId

HexPair = Annotated[list[HexId], Field(min_length=2, max_length=2)]
Chain = Annotated[list[HexId], Field(min_length=2)]


class HexSide(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    feature: str = Field(description="A hex-side line of the Terrain Effects Chart ('steep').")
    hexes: HexPair


class LegionMap(BaseModel):
    """The board: every hex from ``0101`` to ``cols,rows``."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    cols: int = Field(ge=1, le=99)
    rows: int = Field(ge=1, le=99)
    terrain: dict[HexId, list[str]] = Field(default_factory=dict, description="Hex -> its terrains (TEC lines); unlisted hexes are clear.")
    hexsides: list[HexSide] = Field(default_factory=list)
    roads: list[Chain] = Field(default_factory=list, description="Road chains: each consecutive pair is joined by the road (7A).")
    sea: list[HexId] = Field(default_factory=list, description="All-sea hexes: no ground unit enters them.")
    places: dict[str, HexId] = Field(default_factory=dict)
    source: str | None = Field(default=None, description="Where the map comes from, or 'assumed: <reason>'.")
