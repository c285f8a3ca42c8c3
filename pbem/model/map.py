"""A board as data: terrain per hex, hexside features, beaches, edges, places.

Shaped like the ``map`` block of the conformance-case format (cases.md, Map)
so that one loader serves cases and scenarios; a scenario map may also name
places (towns, objectives) for display and victory conditions.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from pbem.model.common import CrtLine, HexId

HexPair = Annotated[list[HexId], Field(min_length=2, max_length=2)]
Chain = Annotated[list[HexId], Field(min_length=2)]


class TerrainSpec(BaseModel):
    """One entry of the terrain key; any field left out keeps its default.

    ``cost`` is the MP to enter a hex of this terrain (5.21), ``hexside_cost``
    the MP to cross a hexside of this kind (the ``river`` entry), ``crt`` the
    line of the Integrated CRT used when defending in it (7.43), ``armor``
    whether armor may enter it other than along a road or trail (5.25).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    cost: float | None = Field(default=None, ge=0)
    hexside_cost: float | None = Field(default=None, ge=0)
    crt: CrtLine | None = None
    rough_or_mountain: bool | None = None
    armor: bool | None = None


class MapDisplay(BaseModel):
    """How to draw a map; nothing here changes the rules."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    north: Literal["up", "right", "down", "left"] = Field(
        default="up",
        description="Where north points when the map is drawn as numbered (columns to the right, rows down); 'pbem show' turns it up. Leyte: 'right'.",
    )


class MapSpec(BaseModel):
    """The board: every hex from ``0101`` to ``cols,rows``; nothing off it."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    cols: int = Field(ge=1, le=99)
    rows: int = Field(ge=1, le=99)
    terrain: dict[HexId, str] = Field(default_factory=dict, description="Hex -> terrain name; unlisted hexes are clear.")
    sea: list[HexId] = Field(default_factory=list, description="All-sea hexes: nothing enters or passes through them.")
    rivers: list[HexPair] = Field(default_factory=list, description="River hexsides, as pairs of adjacent hexes.")
    roads: list[Chain] = Field(default_factory=list, description="Road chains: each consecutive pair is a road hexside.")
    trails: list[Chain] = Field(default_factory=list, description="Trail chains, as roads.")
    prohibited: list[HexPair] = Field(default_factory=list, description="Hexsides nothing may cross.")
    beaches: list[HexId] = Field(default_factory=list, description="Beach hexes (12.21, 15.32).")
    edges: list[HexId] = Field(default_factory=list, description="Map-edge entry hexes (12.23).")
    key: dict[str, TerrainSpec] = Field(default_factory=dict, description="Overrides of and additions to the terrain key.")
    places: dict[str, HexId] = Field(default_factory=dict, description="Named places: towns, airfields, objectives.")
    areas: dict[str, list[HexId]] = Field(
        default_factory=dict,
        description=(
            "Named groups of hexes a reinforcement may enter by (12.2): beach areas ('N', 'E', 'S'), "
            "a port ('Or' = Ormoc) or a map-edge hexrow ('0001' west edge, '0100' south edge, '2900' north edge). "
            "A unit whose 'entry' names an area is placed in one of its hexes."
        ),
    )
    exits: list[HexId] = Field(default_factory=list, description="Hexes from which units may leave the map where a scenario allows it (Leyte 16.13).")
    display: MapDisplay | None = Field(default=None, description="Drawing hints for 'pbem show'.")
    source: str | None = Field(default=None, description="Where the map comes from, or 'assumed: <reason>' for a reconstruction.")
    notes: dict[str, str] = Field(default_factory=dict, description="Free-text notes keyed by what they explain; 'assumed:' notes mark reconstructed data.")
