"""The Legion Island War charts as data: what the player-aid cards print and the rule text only names.

The Series Standard Rules (2010) refer to tables it does not print — the
Fire and Assault Combat Results Tables, the Terrain Effects Chart, the
Enemy ZOC Movement Cost Table, the Stacking Value and Stacking Summary
Tables, the Unit Counter Information Chart, and the Retreat Before Combat,
Banzai, Bombardment and (Landing) Disruption Tables.  Each is one model
here, one JSON file a scenario names, and one JSON Schema generated from
the model (:mod:`pbem.systems.legion.schemas`).  Every value carries a
``source``: a rule case that states it, or ``assumed: <reason>``; the values
pbem ships are its own (docs/legion.md), and an owner of the game enters
the published ones from his card.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Source = Annotated[str, Field(min_length=1, description="The rule case stating the value, or 'assumed: <reason>'.")]
UnitClass = Literal["infantry", "cm", "artillery", "other"]
"""3A.3: Infantry, Combat/Motorized (C/M), Artillery, Other."""
Size = Literal["regiment", "battalion", "company", "platoon"]
"""3A.2: III, II, I, ••• (a battery counts as a company, 11)."""
Cost = int | Literal["P"]
"""A movement cost in MPs, or ``"P"``: prohibited (6A.1)."""

_FROZEN = ConfigDict(frozen=True, extra="forbid", defer_build=True)
CLASSES: tuple[UnitClass, ...] = ("infantry", "cm", "artillery", "other")


def _rolls(rows: list, low: int, high: int, width: int | None, field: str) -> None:
    """Every modified roll from ``low`` to ``high`` has exactly one row, each as wide as the columns."""
    seen = [r.roll for r in rows]
    wanted = list(range(low, high + 1))
    if sorted(seen) != wanted:
        raise ValueError(f"'rows' must give each roll from {low} to {high} once (min_roll..max_roll); it gives {sorted(seen)}")
    if width is not None:
        for r in rows:
            if len(getattr(r, field)) != width:
                raise ValueError(f"the row for roll {r.roll} has {len(getattr(r, field))} entries; the table has {width} columns")


class UnitTypeSpec(BaseModel):
    """One line of the Unit Counter Information Chart (3A.3, 3A.5, 10, 19A)."""

    model_config = _FROZEN

    unit_class: UnitClass
    armor: bool = Field(default=False, description="Armor sub-class of C/M (3A.3, 10: tank, light tank, flame-thrower tank, amphibious tank).")
    anti_tank: bool = Field(default=False, description="Anti-tank effects in Assault Combat (10: anti-tank and heavy anti-aircraft units).")
    heavy_equipment: bool = False
    banzai: bool = Field(default=False, description="May make and be doubled in a Banzai attack (19A: infantry and combat engineers).")
    source: Source


class UnitTypes(BaseModel):
    """The Unit Counter Information Chart: each unit type's class and abilities."""

    model_config = _FROZEN

    chart: Literal["unit-types"]
    types: dict[str, UnitTypeSpec] = Field(min_length=1)
    source: Source


class SizeValue(BaseModel):
    model_config = _FROZEN

    sp: int = Field(ge=0)
    source: Source


class HexLimit(BaseModel):
    """The Stacking Summary Table's line for one terrain (8): SPs, and artillery SPs beyond them."""

    model_config = _FROZEN

    sp: int = Field(ge=0)
    artillery_sp: int = Field(default=0, ge=0)
    source: Source


class Stacking(BaseModel):
    """The Stacking Value Table (SPs by size, 3A.4, and by type where a rule says so) and the Stacking Summary Table (8)."""

    model_config = _FROZEN

    chart: Literal["stacking"]
    sizes: dict[Size, SizeValue]
    types: dict[str, SizeValue] = Field(default_factory=dict, description="SP values that replace the size's for a unit type (HQ 16C.2, dummy 19B.6).")
    limits: dict[str, HexLimit] = Field(description="Terrain name -> the hex's limit; a hex takes the lowest limit among its terrains.")
    default_limit: HexLimit
    source: Source

    @model_validator(mode="after")
    def _every_size(self) -> "Stacking":
        missing = [s for s in ("regiment", "battalion", "company", "platoon") if s not in self.sizes]
        if missing:
            raise ValueError(f"'sizes' must give every unit size; missing: {', '.join(missing)}")
        return self


class TerrainEffects(BaseModel):
    """One line of the Terrain Effects Chart (6A.1, 9C, 10A, 19B.2)."""

    model_config = _FROZEN

    hexside: bool = Field(default=False, description="A hex-side feature: its MP cost is added to the hex's (6A.1 '+').")
    move: dict[UnitClass, Cost] = Field(description="MP cost to enter (or '+' cost to cross, for a hex-side) by unit class; 'P' prohibited.")
    assault_drm: int = Field(default=0, description="Assault Combat DRM against units defending here (negative helps the defender).")
    fire_drm: int = Field(default=0, description="Fire Combat DRM against units here (hex terrain only: hex-sides do not affect Fire Combat, 9C).")
    halves: list[UnitClass | Literal["bs"]] = Field(
        default_factory=list, description="The TEC's Combat Effects column: the classes whose Attack Strength (or 'bs': B/S Strength) is halved attacking into it."
    )
    exposure: Literal["c", "o"] | None = Field(default=None, description="19B.2: (c) a Clear hex; (o) clear if the hex's other terrain is.")
    armor_effects: bool = Field(default=True, description="False where Armor Bonus and Anti-tank Effects do not apply (10A: mountain, swamp).")
    source: Source

    @model_validator(mode="after")
    def _every_class(self) -> "TerrainEffects":
        missing = [c for c in CLASSES if c not in self.move]
        if missing:
            raise ValueError(f"'move' must give a cost for every unit class; missing: {', '.join(missing)}")
        return self


class TerrainChart(BaseModel):
    """The Terrain Effects Chart: every terrain and hex-side feature a map may name."""

    model_config = _FROZEN

    chart: Literal["terrain"]
    terrain: dict[str, TerrainEffects]
    max_negative_drm: int = Field(default=-4, le=0, description="9C note: the most negative total DRM.")
    source: Source

    @model_validator(mode="after")
    def _clear(self) -> "TerrainChart":
        if "clear" not in self.terrain or self.terrain["clear"].hexside:
            raise ValueError("'terrain' must hold 'clear' (a hex terrain): roads cost what clear terrain costs (7A)")
        return self


class ZocCosts(BaseModel):
    """The Enemy ZOC Movement Cost Table (6A.3): MPs to leave a hex in an enemy ZOC, by class."""

    model_config = _FROZEN

    chart: Literal["zoc"]
    leave: dict[UnitClass, int]
    source: Source


class FireRow(BaseModel):
    model_config = _FROZEN

    roll: int
    losses: list[int]


class Column(BaseModel):
    """A column headed by the least strength it takes."""

    model_config = _FROZEN

    min: int = Field(ge=0)


class FireTable(BaseModel):
    """The Fire Combat Results Table (9A.1, 9D.2): Combat Losses inflicted, by firing strength and modified 1d6."""

    model_config = _FROZEN

    chart: Literal["fire"]
    columns: list[Column] = Field(min_length=1)
    min_roll: int
    max_roll: int
    rows: list[FireRow]
    source: Source

    @model_validator(mode="after")
    def _shape(self) -> "FireTable":
        mins = [c.min for c in self.columns]
        if mins != sorted(set(mins)):
            raise ValueError("'columns' must rise strictly by 'min'")
        _rolls(self.rows, self.min_roll, self.max_roll, len(self.columns), "losses")
        return self


ASSAULT_COLUMNS = ("1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1")
"""9A.2: worse than 1:4 is an automatic AE, beyond 7:1 a +1 DRM per ratio, 10:1 an automatic DE."""
ASSAULT_RESULT = r"^(HX|QX|(-|AE|AS|A[HQ]?[rR]?|AH|AQ)/(-|DE|D[HQ]?[rR]?))$"


class AssaultRow(BaseModel):
    model_config = _FROZEN

    roll: int
    results: list[Annotated[str, Field(pattern=ASSAULT_RESULT)]]


class AssaultTable(BaseModel):
    """The Assault Combat Results Table (9A.2, 9D.1): attacker/defender results by odds column and modified 1d6.

    An entry is ``HX`` or ``QX``, or ``attacker/defender``: ``-``; ``AE``/``DE``
    eliminated; ``AH``/``DH`` halved; ``AQ``/``DQ`` quartered; ``AS`` stopped;
    ``r``/``R`` retreat one/two hexes (``DHr``: halved, then retreat 1; ``Dr``: retreat 1).
    """

    model_config = _FROZEN

    chart: Literal["assault"]
    columns: list[str]
    min_roll: int
    max_roll: int
    rows: list[AssaultRow]
    source: Source

    @model_validator(mode="after")
    def _shape(self) -> "AssaultTable":
        if tuple(self.columns) != ASSAULT_COLUMNS:
            raise ValueError(f"'columns' must be {list(ASSAULT_COLUMNS)} (9A.2)")
        _rolls(self.rows, self.min_roll, self.max_roll, len(self.columns), "results")
        return self


class OutcomeRow(BaseModel):
    model_config = _FROZEN

    roll: int
    result: str


class RetreatBeforeCombatTable(BaseModel):
    """The Retreat Before Combat Table (9J.1): the modified 1d6 -> retreat successful or failed."""

    model_config = _FROZEN

    chart: Literal["retreat-before-combat"]
    min_roll: int
    max_roll: int
    rows: list[OutcomeRow]
    source: Source

    @model_validator(mode="after")
    def _shape(self) -> "RetreatBeforeCombatTable":
        _rolls(self.rows, self.min_roll, self.max_roll, None, "result")
        bad = [r.result for r in self.rows if r.result not in ("success", "failed")]
        if bad:
            raise ValueError(f"each 'result' is 'success' or 'failed'; found {bad[0]!r}")
        return self


class BanzaiRow(BaseModel):
    model_config = _FROZEN

    roll: int
    results: list[Literal["-", "1/4", "1/2", "1:1"]]


class BanzaiTable(BaseModel):
    """The Banzai Attack Table (19A): the defender's current Defense Strength column and 1d6 -> the Japanese losses."""

    model_config = _FROZEN

    chart: Literal["banzai"]
    columns: list[Column] = Field(min_length=1)
    min_roll: int
    max_roll: int
    rows: list[BanzaiRow]
    source: Source

    @model_validator(mode="after")
    def _shape(self) -> "BanzaiTable":
        mins = [c.min for c in self.columns]
        if mins != sorted(set(mins)):
            raise ValueError("'columns' must rise strictly by 'min'")
        _rolls(self.rows, self.min_roll, self.max_roll, len(self.columns), "results")
        return self


class BombardmentRow(BaseModel):
    model_config = _FROZEN

    roll: int
    hits: list[int]


class BombardmentTable(BaseModel):
    """The Bombardment Results Table (11B.1-2): D-hits by B/S strength column and modified 1d6 (11B is not yet played)."""

    model_config = _FROZEN

    chart: Literal["bombardment"]
    columns: list[Column] = Field(min_length=1)
    min_roll: int
    max_roll: int
    rows: list[BombardmentRow]
    source: Source

    @model_validator(mode="after")
    def _shape(self) -> "BombardmentTable":
        _rolls(self.rows, self.min_roll, self.max_roll, len(self.columns), "hits")
        return self


class DisruptionTable(BaseModel):
    """The Landing Disruption Table (18E): the modified 1d6 -> none, Disrupted, Badly Disrupted or a loss (18 is not yet played)."""

    model_config = _FROZEN

    chart: Literal["disruption"]
    min_roll: int
    max_roll: int
    rows: list[OutcomeRow]
    source: Source

    @model_validator(mode="after")
    def _shape(self) -> "DisruptionTable":
        _rolls(self.rows, self.min_roll, self.max_roll, None, "result")
        bad = [r.result for r in self.rows if r.result not in ("-", "D", "BD", "L")]
        if bad:
            raise ValueError(f"each 'result' is '-', 'D', 'BD' or 'L'; found {bad[0]!r}")
        return self


CHART_MODELS: dict[str, type[BaseModel]] = {
    "unit-types": UnitTypes,
    "stacking": Stacking,
    "terrain": TerrainChart,
    "zoc": ZocCosts,
    "fire": FireTable,
    "assault": AssaultTable,
    "retreat-before-combat": RetreatBeforeCombatTable,
    "banzai": BanzaiTable,
    "bombardment": BombardmentTable,
    "disruption": DisruptionTable,
}
"""Each chart a scenario names, by the name it is named by."""


class Charts(BaseModel):
    """Every chart of a game, read through its scenario (or carried by a case)."""

    model_config = _FROZEN

    unit_types: UnitTypes
    stacking: Stacking
    terrain: TerrainChart
    zoc: ZocCosts
    fire: FireTable
    assault: AssaultTable
    retreat_before_combat: RetreatBeforeCombatTable
    banzai: BanzaiTable
    bombardment: BombardmentTable
    disruption: DisruptionTable

    @model_validator(mode="after")
    def _names_agree(self) -> "Charts":
        for name, spec in self.stacking.types.items():
            if name not in self.unit_types.types:
                raise ValueError(f"stacking.types names the unit type '{name}', which the unit-types chart does not list")
        for name, spec in self.stacking.limits.items():
            if name not in self.terrain.terrain:
                raise ValueError(f"stacking.limits names the terrain '{name}', which the terrain chart does not list")
        return self

    def lookup(self, roll: int, table: FireTable | AssaultTable | BanzaiTable | RetreatBeforeCombatTable):
        """The row of ``table`` for a modified roll, clamped to the table's rolls."""
        clamped = max(table.min_roll, min(table.max_roll, roll))
        return next(r for r in table.rows if r.roll == clamped)


def column_index(columns: list[Column], value: float) -> int | None:
    """The last column whose ``min`` ``value`` reaches, or None below the first."""
    found = None
    for i, column in enumerate(columns):
        if value >= column.min:
            found = i
    return found


CHART_FIELDS = {name: name.replace("-", "_") for name in CHART_MODELS}
"""Chart name (as in a scenario's ``charts``) -> the :class:`Charts` field holding it."""
