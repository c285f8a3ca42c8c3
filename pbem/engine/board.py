"""A map compiled for fast questions: is this hex on the board, what does entering it cost.

:class:`Board` is built once from a :class:`~pbem.model.map.MapSpec` and is
immutable.  It checks the map's own consistency (hexsides join adjacent
hexes, every terrain is in the key) and raises :class:`MapInconsistent` with
the offending field, which loaders turn into a one-line error naming the file.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cached_property

from pbem.engine import hexes
from pbem.engine.hexes import Hex
from pbem.engine.terrain import BEACH_ENTRY_COST, ROAD_COST, TRAIL_COST, Terrain, resolve_key
from pbem.model.map import MapSpec


class MapInconsistent(ValueError):
    """The map data contradicts itself; ``field`` says where."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def on_grid(cols: int, rows: int, hex_id: str) -> bool:
    """Is ``hex_id`` a hex id of a cols x rows board (0101 to cols,rows)?"""
    if not hexes.is_hex_id(hex_id):
        return False
    col, row = hexes.parse(hex_id)
    return col <= cols and row <= rows


def _sides(pairs: list[list[str]], field: str, cols: int, rows: int) -> frozenset[frozenset[Hex]]:
    sides = set()
    for i, (a, b) in enumerate(pairs):
        for h in (a, b):
            if not on_grid(cols, rows, h):
                raise MapInconsistent(f"{field}[{i}]", f"hex {h} is off the {cols}x{rows} board")
        if not hexes.adjacent(a, b):
            raise MapInconsistent(f"{field}[{i}]", f"{a} and {b} are not adjacent, so they share no hexside")
        sides.add(hexes.hexside(a, b))
    return frozenset(sides)


def _chains(chains: list[list[str]], field: str, cols: int, rows: int) -> tuple[frozenset[frozenset[Hex]], frozenset[Hex]]:
    sides, members = set(), set()
    for i, chain in enumerate(chains):
        for j, h in enumerate(chain):
            if not on_grid(cols, rows, h):
                raise MapInconsistent(f"{field}[{i}][{j}]", f"hex {h} is off the {cols}x{rows} board")
        for j in range(len(chain) - 1):
            a, b = chain[j], chain[j + 1]
            if not hexes.adjacent(a, b):
                raise MapInconsistent(f"{field}[{i}][{j + 1}]", f"{a} and {b} are not adjacent, so no road or trail joins them")
            sides.add(hexes.hexside(a, b))
        members.update(chain)
    return frozenset(sides), frozenset(members)


def _both_ways(sides: frozenset[frozenset[Hex]]) -> frozenset[tuple[Hex, Hex]]:
    return frozenset(pair for side in sides for a, b in [tuple(side)] for pair in ((a, b), (b, a)))


class Board:
    """The playing area and its terrain key, ready for movement and combat questions."""

    def __init__(
        self,
        spec: MapSpec,
        *,
        exits: dict[Hex, frozenset[str]] | None = None,
        closed: dict[str, frozenset[Hex]] | None = None,
    ) -> None:
        """``exits``: the exit hexes a scenario opens, and to which sides (default: the map's, to both);
        ``closed``: hexes a side may not enter (Leyte 16.23)."""
        self.spec = spec
        self.cols = spec.cols
        self.rows = spec.rows
        self.terrains, self.river_cost = resolve_key(spec.key)
        for hex_id, name in spec.terrain.items():
            if name not in self.terrains:
                raise MapInconsistent(f"map.terrain.{hex_id}", f"terrain '{name}' is not in the terrain key; add it to map.key")
        self._terrain_of = dict(spec.terrain)
        self.sea = frozenset(spec.sea)
        self.rivers = _sides(spec.rivers, "map.rivers", spec.cols, spec.rows)
        self.prohibited = _sides(spec.prohibited, "map.prohibited", spec.cols, spec.rows)
        self.road_sides, self.road_hexes = _chains(spec.roads, "map.roads", spec.cols, spec.rows)
        self.trail_sides, self.trail_hexes = _chains(spec.trails, "map.trails", spec.cols, spec.rows)
        self.beaches = frozenset(spec.beaches)
        self.edges = frozenset(spec.edges)
        self.places = dict(spec.places)
        for field in ("terrain", "sea", "beaches", "edges", "exits"):
            for hex_id in getattr(spec, field):
                if not self.on_board(hex_id):
                    raise MapInconsistent(f"map.{field}", f"hex {hex_id} is off the {self.cols}x{self.rows} board")
        for name, members in spec.areas.items():
            for hex_id in members:
                if not self.land(hex_id):
                    raise MapInconsistent(f"map.areas.{name}", f"hex {hex_id} of area {name} is not a land hex of the board")
        self.areas = {name: frozenset(members) for name, members in spec.areas.items()}
        self.exits = exits if exits is not None else {h: frozenset({"US", "JP"}) for h in spec.exits}
        self.closed = closed or {}

    def closed_to(self, side: str, hex_id: Hex) -> bool:
        """Is ``hex_id`` closed to ``side`` (Leyte 16.23 item 2)?  Closed to every way of entering (I24)."""
        return hex_id in self.closed.get(side, ())

    # -- reinforcement entry -----------------------------------------------------
    def entry_hexes(self, entry: str | None) -> frozenset[Hex] | None:
        """The hexes a reinforcement with ``entry`` may be placed in (12.2), or None for an unknown entry.

        ``beach`` and ``edge`` are every beach and every map-edge entry hex;
        any other name is one of the map's areas (a beach area, a port, a hexrow).
        """
        if entry == "beach":
            return self.beaches
        if entry == "edge":
            return self.edges
        return self.areas.get(entry or "")

    def area_hexes(self, names) -> frozenset[Hex]:
        """Every hex of the named map areas (an unknown name adds none)."""
        return frozenset().union(*(self.areas.get(name, frozenset()) for name in names))

    def lands_on_beach(self, entry: str | None) -> bool:
        """Does ``entry`` land on a beach (12.21), rather than come in at the map edge (12.23)?

        ``beach`` does, ``edge`` does not; a named area does when all its hexes are beach hexes.
        """
        hexes_ = self.entry_hexes(entry)
        return entry == "beach" or (entry != "edge" and hexes_ is not None and hexes_ <= self.beaches)

    def entry_cost(self, entry: str | None, hex_id: Hex) -> Fraction:
        """MP to place a reinforcement in ``hex_id``: 2 on a beach (12.21), the hex's own cost at an edge (12.23)."""
        return BEACH_ENTRY_COST if self.lands_on_beach(entry) else self.terrain(hex_id).cost

    def armor_may_be_placed(self, hex_id: Hex) -> bool:
        """Armor arrives in an armor terrain, or on a road or trail it comes in along (5.25, I22)."""
        return self.terrain(hex_id).armor or hex_id in self.road_hexes or hex_id in self.trail_hexes

    @cached_property
    def airfields(self) -> frozenset[Hex]:
        """Hexes of the named places that are airfields (Leyte 16.14)."""
        return frozenset(h for name, h in self.places.items() if "airfield" in name.lower())

    # -- where things are -------------------------------------------------
    def on_board(self, hex_id: Hex) -> bool:
        """True for a hex from 0101 to cols,rows (cases.md: nothing exists off it)."""
        return hex_id in self._hex_set

    def land(self, hex_id: Hex) -> bool:
        """On the board and not all-sea: a hex a unit may stand in."""
        return hex_id in self._hex_set and hex_id not in self.sea

    def neighbours(self, hex_id: Hex) -> tuple[Hex, ...]:
        """Neighbours on the board (sea included)."""
        found = self._neighbours.get(hex_id)
        if found is None:
            found = self._neighbours[hex_id] = tuple(h for h in hexes.neighbours(hex_id) if h in self._hex_set)
        return found

    @cached_property
    def all_hexes(self) -> tuple[Hex, ...]:
        return tuple(hexes.hex_id(c, r) for c in range(1, self.cols + 1) for r in range(1, self.rows + 1))

    @cached_property
    def _hex_set(self) -> frozenset[Hex]:
        return frozenset(self.all_hexes)

    @cached_property
    def _neighbours(self) -> dict[Hex, tuple[Hex, ...]]:
        """Each hex's neighbours on the board, worked out the first time asked: retreat searches ask millions of times."""
        return {}

    # -- terrain ------------------------------------------------------------
    def terrain(self, hex_id: Hex) -> Terrain:
        return self.terrains[self._terrain_of.get(hex_id, "clear")]

    def rough_or_mountain(self, hex_id: Hex) -> bool:
        """Leyte 14.1 and I15 ask this of a unit's hex."""
        return self.terrain(hex_id).rough_or_mountain

    # -- hexsides -------------------------------------------------------------
    def river_between(self, a: Hex, b: Hex) -> bool:
        return (a, b) in self._pairs["river"]

    def road_between(self, a: Hex, b: Hex) -> bool:
        return (a, b) in self._pairs["road"]

    def trail_between(self, a: Hex, b: Hex) -> bool:
        return (a, b) in self._pairs["trail"]

    def prohibited_between(self, a: Hex, b: Hex) -> bool:
        return (a, b) in self._pairs["prohibited"]

    @cached_property
    def _pairs(self) -> dict[str, frozenset[tuple[Hex, Hex]]]:
        """Each kind of hexside as ordered pairs both ways round, so that asking about one builds no frozenset."""
        kinds = {"river": self.rivers, "road": self.road_sides, "trail": self.trail_sides, "prohibited": self.prohibited}
        return {kind: _both_ways(sides) for kind, sides in kinds.items()}

    def passable(self, a: Hex, b: Hex) -> bool:
        """A step from ``a`` to adjacent ``b`` that stays on land and crosses no prohibited hexside."""
        return self.land(b) and not self.prohibited_between(a, b)

    def step_cost(self, a: Hex, b: Hex) -> Fraction:
        """MP to move from ``a`` into adjacent ``b`` (5.21-5.23, I11).

        Road hex to road hex across a road hexside costs ½ in all; trail to
        trail across a trail hexside 1 in all; otherwise the hex's terrain cost
        plus the river cost when a river hexside is crossed.
        """
        if self.road_between(a, b):
            return ROAD_COST
        if self.trail_between(a, b):
            return TRAIL_COST
        cost = self.terrain(b).cost
        if self.river_between(a, b):
            cost += self.river_cost
        return cost

    def armor_may_enter(self, a: Hex, b: Hex) -> bool:
        """Armor enters only clear and town hexes, or any hex along a road or trail (5.25)."""
        return self.terrain(b).armor or self.road_between(a, b) or self.trail_between(a, b)
