"""The Legion map read through the Terrain Effects Chart: costs to enter and cross, combat effects, stacking limits.

Geometry is pbem's own (:mod:`pbem.engine.hexes`: the same ``CCRR`` grid as
the SPI games).  Every number comes from the charts; nothing here knows a
value of its own.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cached_property

from pbem.engine import hexes
from pbem.systems.legion.board_model import LegionMap
from pbem.systems.legion.charts import Charts, HexLimit, TerrainEffects, UnitClass


class MapInconsistent(ValueError):
    """The map breaks itself or the charts: ``field`` names where."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


class LegionBoard:
    """A map and the charts that give its terrain meaning."""

    def __init__(self, spec: LegionMap, charts: Charts) -> None:
        self.spec = spec
        self.charts = charts
        self.sea = frozenset(spec.sea)
        self._terrain = {h: tuple(names) for h, names in spec.terrain.items()}
        self._sides: dict[frozenset[str], tuple[str, ...]] = {}
        self._roads: set[frozenset[str]] = set()
        self._check()

    def _check(self) -> None:
        tec = self.charts.terrain.terrain
        for h, names in self.spec.terrain.items():
            if not self.on_board(h):
                raise MapInconsistent(f"terrain.{h}", f"hex {h} is off the {self.spec.cols}x{self.spec.rows} board")
            for name in names:
                if name not in tec or tec[name].hexside:
                    raise MapInconsistent(f"terrain.{h}", f"'{name}' is not a hex terrain of the Terrain Effects Chart")
        for i, side in enumerate(self.spec.hexsides):
            a, b = side.hexes
            if not (self.on_board(a) and self.on_board(b) and hexes.adjacent(a, b)):
                raise MapInconsistent(f"hexsides[{i}].hexes", f"{a} and {b} are not adjacent hexes of the board")
            if side.feature not in tec or not tec[side.feature].hexside:
                raise MapInconsistent(f"hexsides[{i}].feature", f"'{side.feature}' is not a hex-side line of the Terrain Effects Chart")
            self._sides[frozenset((a, b))] = self._sides.get(frozenset((a, b)), ()) + (side.feature,)
        for i, chain in enumerate(self.spec.roads):
            for a, b in zip(chain, chain[1:]):
                if not (self.on_board(a) and self.on_board(b) and hexes.adjacent(a, b)):
                    raise MapInconsistent(f"roads[{i}]", f"{a} and {b} are not adjacent hexes of the board")
                self._roads.add(frozenset((a, b)))
        for h in self.spec.sea:
            if not self.on_board(h):
                raise MapInconsistent("sea", f"hex {h} is off the board")

    # -- the grid -----------------------------------------------------------------
    def on_board(self, h: str) -> bool:
        if not hexes.is_hex_id(h):
            return False
        col, row = hexes.parse(h)
        return col <= self.spec.cols and row <= self.spec.rows

    def land(self, h: str) -> bool:
        return self.on_board(h) and h not in self.sea

    def neighbours(self, h: str) -> tuple[str, ...]:
        return tuple(n for n in hexes.neighbours(h) if self.land(n))

    @cached_property
    def all_land(self) -> tuple[str, ...]:
        return tuple(hexes.hex_id(c, r) for c in range(1, self.spec.cols + 1) for r in range(1, self.spec.rows + 1) if self.land(hexes.hex_id(c, r)))

    # -- terrain ------------------------------------------------------------------
    def terrains(self, h: str) -> tuple[str, ...]:
        return self._terrain.get(h, ("clear",))

    def effects(self, h: str) -> list[TerrainEffects]:
        tec = self.charts.terrain.terrain
        return [tec[name] for name in self.terrains(h)]

    def side_features(self, a: str, b: str) -> tuple[str, ...]:
        return self._sides.get(frozenset((a, b)), ())

    def side_effects(self, a: str, b: str) -> list[TerrainEffects]:
        tec = self.charts.terrain.terrain
        return [tec[name] for name in self.side_features(a, b)]

    def road(self, a: str, b: str) -> bool:
        """7A: the two hexes are directly joined by a road."""
        return frozenset((a, b)) in self._roads

    def hex_prohibited(self, cls: UnitClass, h: str) -> bool:
        return not self.land(h) or any(e.move[cls] == "P" for e in self.effects(h))

    def side_prohibited(self, cls: UnitClass, a: str, b: str) -> bool:
        return any(e.move[cls] == "P" for e in self.side_effects(a, b))

    def enter_cost(self, cls: UnitClass, a: str, b: str) -> Fraction | None:
        """MPs for a unit of class ``cls`` to step from ``a`` into adjacent ``b``; None when prohibited.

        Along a road, the clear-terrain cost, whatever the hex and hex-side (7A,
        which also lets a road carry a unit through prohibited terrain); else the
        costliest terrain of the hex (6A.1) plus every hex-side feature crossed.
        """
        if not self.land(b):
            return None
        if self.road(a, b):
            clear = self.charts.terrain.terrain["clear"].move[cls]
            return None if clear == "P" else Fraction(clear)
        if self.hex_prohibited(cls, b) or self.side_prohibited(cls, a, b):
            return None
        costs = [e.move[cls] for e in self.effects(b)]
        total = Fraction(max(costs))
        for e in self.side_effects(a, b):
            total += e.move[cls]
        return total

    def exposure_clear(self, h: str) -> bool:
        """19B.2: a Clear hex — a (c) terrain, or (o) terrain whose other terrains are Clear."""
        found = [e.exposure for e in self.effects(h)]
        if any(x is None for x in found):
            return False
        return "c" in found

    def limit(self, h: str) -> HexLimit:
        """The hex's stacking limit (8): the lowest among its terrains' lines of the Stacking Summary Table."""
        table = self.charts.stacking
        lines = [table.limits[name] for name in self.terrains(h) if name in table.limits]
        return min(lines, key=lambda line: (line.sp, line.artillery_sp)) if lines else table.default_limit

    def armor_effects(self, h: str) -> bool:
        """10A: Armor Bonus and Anti-tank Effects apply unless the defender's hex is one that excludes them."""
        return all(e.armor_effects for e in self.effects(h))
