"""The terrain key: movement cost, CRT line, rough-or-mountain, armor access.

The default key is the one cases.md prints; a map's ``key`` overrides any
field of an entry or adds new terrains.  Costs are kept as exact fractions
because roads cost ½ MP (5.22) and sums must compare exactly with a unit's
allowance (5.13).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pbem.model.map import TerrainSpec

DEFAULT_KEY: dict[str, TerrainSpec] = {  # built without pydantic's validator, which loading this module need not build
    "clear": TerrainSpec.model_construct(cost=1.0, crt="clear"),
    "town": TerrainSpec.model_construct(cost=1.0, crt="broken"),
    "broken": TerrainSpec.model_construct(cost=2.0, crt="broken"),
    "rough": TerrainSpec.model_construct(cost=3.0, crt="rough", rough_or_mountain=True),
    "mountain": TerrainSpec.model_construct(cost=4.0, crt="rough", rough_or_mountain=True),
    "river": TerrainSpec.model_construct(hexside_cost=1.0),
}

ARMOR_TERRAINS = frozenset({"clear", "town"})
"""Terrains armor may enter across any hexside (5.25)."""

LINE_RANK = {"clear": 0, "river": 1, "broken": 2, "rough": 3}
"""How much a CRT line favours the defender: rough > broken > river > clear (7.44, I3)."""

ROAD_COST = Fraction(1, 2)
TRAIL_COST = Fraction(1)
BEACH_ENTRY_COST = Fraction(2)
"""Placing a reinforcement on a beach hex costs 2 MP whatever its terrain (12.21)."""


def exact(value: float | int) -> Fraction:
    """A key number as an exact fraction (``0.5`` -> ``1/2``)."""
    return Fraction(str(value))


@dataclass(frozen=True)
class Terrain:
    """A resolved terrain-key entry: every field has a value."""

    name: str
    cost: Fraction
    crt: str
    rough_or_mountain: bool
    armor: bool


def _given(spec: TerrainSpec) -> dict:
    """The fields of an entry that are not None (its ``model_dump(exclude_none=True)``, without building a serializer)."""
    return {name: value for name, value in spec if value is not None}


def resolve_key(overrides: dict[str, TerrainSpec]) -> tuple[dict[str, Terrain], Fraction]:
    """Merge a map's key into the default; return hex terrains and the river hexside cost.

    A terrain not in the default key and not fully described defaults to cost
    1 on the Clear line.  Armor may enter a terrain when its entry says so, or
    else only when it is clear or town (5.25).
    """
    merged: dict[str, dict] = {name: _given(spec) for name, spec in DEFAULT_KEY.items()}
    for name, spec in overrides.items():
        merged.setdefault(name, {}).update(_given(spec))
    river_cost = exact(merged.get("river", {}).get("hexside_cost", 1))
    terrains: dict[str, Terrain] = {}
    for name, fields in merged.items():
        crt = fields.get("crt", "clear")
        armor = fields.get("armor")
        if armor is None:
            armor = name in ARMOR_TERRAINS
        terrains[name] = Terrain(
            name=name,
            cost=exact(fields.get("cost", 1)),
            crt=crt,
            rough_or_mountain=bool(fields.get("rough_or_mountain", False)),
            armor=bool(armor),
        )
    return terrains, river_cost
