"""What terrain does to an attack (9C, 10A, 11A.1): halving by class, DRMs of hex and hex-side, the -4 floor.

The defender benefits from the single most advantageous terrain of his hex
(the most negative DRM, a halving breaking a tie); hex and hex-side effects
add up (9C).  A hex-side's DRM counts when every attacking hex attacks across
such a hex-side; its halving, for the units that cross it (docs/legion.md:
the text leaves attacks from several hexes open).
"""

from __future__ import annotations

from fractions import Fraction

from pbem.systems.legion.board import LegionBoard
from pbem.systems.legion.charts import TerrainEffects


def best_hex_terrain(board: LegionBoard, target: str) -> TerrainEffects:
    return min(board.effects(target), key=lambda e: (e.assault_drm, -len(e.halves)))


def best_fire_drm(board: LegionBoard, target: str) -> int:
    """Fire Combat reads the hex's terrain only (9C), the defender's best."""
    return min(e.fire_drm for e in board.effects(target))


def halving(effects: list[TerrainEffects], what: str) -> Fraction:
    """3C.3: each Combat Effect that halves ``what`` (a class or ``bs``) halves again."""
    factor = Fraction(1)
    for e in effects:
        if what in e.halves:
            factor /= 2
    return factor


def side_drm(board: LegionBoard, target: str, attacker_hexes: set[str]) -> int:
    """The hex-side DRM as far as every attacking hex attacks across it (9C): the least of it over those hexes."""
    per_hex = [sum(f.assault_drm for f in board.side_effects(h, target)) for h in attacker_hexes if h != target]
    return max(per_hex) if per_hex else 0


def capped(total: int, board: LegionBoard) -> int:
    """9C note: no total DRM below the chart's floor (-4); positive ones have no limit."""
    return max(total, board.charts.terrain.max_negative_drm)
