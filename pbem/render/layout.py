"""Hex geometry to screen: where each hex of the board is drawn, north up.

Hexes are flat-topped in vertical columns, even columns half a hex lower
(cases.md, Map; :mod:`pbem.engine.hexes`).  Drawn as numbered — column to the
right, row down the page — a map's north may point anywhere: the test
scenario has it up, the Leyte map (columns grow south to north) to the right.
A :class:`Layout` turns the drawing so that north is up, given where north
points on the map as numbered (``MapSpec.display.north``).  Coordinates are in
hex radii; the SVG scales them, the terminal snaps them to a character grid.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from pbem.engine import hexes
from pbem.engine.hexes import Hex

SQRT3 = math.sqrt(3)
TURNS = {"up": 0, "right": 1, "down": 2, "left": 3}
"""Quarter turns anticlockwise that bring north up, by where north points on the map as numbered."""


def _native(hex_id: Hex) -> tuple[float, float]:
    """The centre of a hex on the map as numbered, in hex radii (x right, y down)."""
    col, row = hexes.parse(hex_id)
    return 1.5 * col, SQRT3 * (row + (0.5 if col % 2 == 0 else 0.0))


def _turn(x: float, y: float, quarter_turns: int) -> tuple[float, float]:
    """Rotate a screen point anticlockwise (y grows downward) by quarter turns."""
    for _ in range(quarter_turns % 4):
        x, y = y, -x
    return x, y


@dataclass(frozen=True)
class Layout:
    """Screen positions of a set of hexes, turned north-up and shifted to start at 0,0."""

    shown: tuple[Hex, ...]
    north: str = "up"

    @cached_property
    def quarter_turns(self) -> int:
        return TURNS[self.north]

    @property
    def flat_topped(self) -> bool:
        """Hexes stay flat-topped on screen when turned a half turn or not at all."""
        return self.quarter_turns % 2 == 0

    @cached_property
    def _origin(self) -> tuple[float, float]:
        points = [_turn(*_native(h), self.quarter_turns) for h in self.shown]
        return min(x for x, _ in points) - self._half_width, min(y for _, y in points) - self._half_height

    @property
    def _half_width(self) -> float:
        return 1.0 if self.flat_topped else SQRT3 / 2

    @property
    def _half_height(self) -> float:
        return SQRT3 / 2 if self.flat_topped else 1.0

    def centre(self, hex_id: Hex) -> tuple[float, float]:
        # Asked for each hex by every layer of a drawing (its polygon, number, counters, labels, lines): kept once.
        found = self._centres.get(hex_id)
        if found is None:
            x, y = _turn(*_native(hex_id), self.quarter_turns)
            ox, oy = self._origin
            found = self._centres[hex_id] = (x - ox, y - oy)
        return found

    @cached_property
    def _centres(self) -> dict[Hex, tuple[float, float]]:
        return {}

    @cached_property
    def size(self) -> tuple[float, float]:
        """Width and height of the drawing, in hex radii."""
        centres = [self.centre(h) for h in self.shown]
        return max(x for x, _ in centres) + self._half_width, max(y for _, y in centres) + self._half_height

    def corners(self, hex_id: Hex) -> list[tuple[float, float]]:
        """The six corners of a hex of radius 1."""
        cx, cy = self.centre(hex_id)
        start = 0 if self.flat_topped else 30
        return [(cx + math.cos(math.radians(start + 60 * k)), cy + math.sin(math.radians(start + 60 * k))) for k in range(6)]

    def hexside(self, a: Hex, b: Hex) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two ends of the hexside between adjacent hexes ``a`` and ``b``."""
        ax, ay = self.centre(a)
        bx, by = self.centre(b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        length = math.hypot(bx - ax, by - ay)
        px, py = -(by - ay) / length / 2, (bx - ax) / length / 2  # half a side (radius 1) across the line of centres
        return (mx + px, my + py), (mx - px, my - py)

    # -- the terminal's character grid -------------------------------------------
    def cell(self, hex_id: Hex, width: int, height: int) -> tuple[int, int]:
        """Top line and left character of a hex drawn as a ``width`` x ``height`` text cell.

        Flat-topped on screen, hexes stand in columns ``width`` apart, every
        other one ``height / 2`` lines lower; pointy-topped, they lie in lines
        ``height`` apart, every other one ``width / 2`` characters further right.
        Neighbouring cells touch exactly where neighbouring hexes do.
        """
        x, y = self.centre(hex_id)
        if self.flat_topped:
            return round((y - SQRT3 / 2) / (SQRT3 / 2)) * height // 2, round((x - 1) / 1.5) * width
        return round((y - 1) / 1.5) * height, round((x - SQRT3 / 2) / (SQRT3 / 2)) * width // 2


def around(centre: Hex, radius: int, on_board) -> tuple[Hex, ...]:
    """Hexes of the board within ``radius`` of ``centre``, sorted by id."""
    col, row = hexes.parse(centre)
    found = []
    for c in range(max(1, col - radius), col + radius + 1):
        for r in range(max(1, row - radius - 1), row + radius + 2):
            h = hexes.hex_id(c, r) if c <= 99 and r <= 99 else None
            if h and on_board(h) and hexes.distance(centre, h) <= radius:
                found.append(h)
    return tuple(sorted(found))
