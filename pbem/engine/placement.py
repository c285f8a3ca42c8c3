"""Where every unit stands, as a mutable working copy used while adjudicating.

The public :class:`~pbem.model.state.GameState` is immutable; the engine
copies its locations into a :class:`Placement`, moves units about while it
resolves movement and combat, and freezes the result again.  Zones of
control (6.11, I10) are answered here because they depend only on where
units stand: every unit controls its six neighbours, always.
"""

from __future__ import annotations

from collections import defaultdict

from pbem.engine import hexes
from pbem.engine.hexes import Hex
from pbem.model.common import ELIMINATED, EXITED, NOT_ON_MAP, Side
from pbem.model.units import Unit


class Placement:
    """Unit id -> hex (or offmap/eliminated), with the reverse index kept in step."""

    def __init__(self, units: dict[str, Unit], locations: dict[str, str]) -> None:
        self.units = units
        self._where: dict[str, str] = {}
        self._at: dict[Hex, list[str]] = defaultdict(list)
        for unit_id in units:
            self._put(unit_id, locations.get(unit_id, ELIMINATED))

    def copy(self) -> "Placement":
        return Placement(self.units, dict(self._where))

    def _put(self, unit_id: str, where: str) -> None:
        self._where[unit_id] = where
        if where not in NOT_ON_MAP:
            self._at[where].append(unit_id)

    def _lift(self, unit_id: str) -> None:
        where = self._where[unit_id]
        if where not in NOT_ON_MAP:
            self._at[where].remove(unit_id)
            if not self._at[where]:
                del self._at[where]

    # -- changes ----------------------------------------------------------------
    def move(self, unit_id: str, to: Hex) -> None:
        self._lift(unit_id)
        self._put(unit_id, to)

    def eliminate(self, unit_id: str) -> None:
        self._lift(unit_id)
        self._put(unit_id, ELIMINATED)

    def leave_map(self, unit_id: str) -> None:
        """The unit exits by an exit hex (Leyte 16.13)."""
        self._lift(unit_id)
        self._put(unit_id, EXITED)

    # -- questions -------------------------------------------------------------
    def where(self, unit_id: str) -> str:
        return self._where[unit_id]

    def on_map(self, unit_id: str) -> bool:
        return self._where.get(unit_id, ELIMINATED) not in NOT_ON_MAP

    def at(self, hex_id: Hex) -> tuple[str, ...]:
        return tuple(self._at.get(hex_id, ()))

    def enemy_at(self, hex_id: Hex, side: Side) -> bool:
        return any(self.units[u].side != side for u in self._at.get(hex_id, ()))

    def friendly_at(self, hex_id: Hex, side: Side) -> bool:
        return any(self.units[u].side == side for u in self._at.get(hex_id, ()))

    def adjacent_enemies(self, hex_id: Hex, side: Side) -> list[str]:
        """Enemy units next to ``hex_id``: the units whose zone of control covers it."""
        found = []
        for n in hexes.neighbours(hex_id):
            for u in self._at.get(n, ()):
                if self.units[u].side != side:
                    found.append(u)
        return found

    def in_enemy_zoc(self, hex_id: Hex, side: Side) -> bool:
        """Is ``hex_id`` controlled by the enemy of ``side`` (6.0, 6.11, I10)?"""
        return any(self.enemy_at(n, side) for n in hexes.neighbours(hex_id))

    def units_of(self, side: Side) -> list[str]:
        """Ids of ``side``'s units on the map, in the order the units were given."""
        return [u for u, unit in self.units.items() if unit.side == side and self.on_map(u)]

    def locations(self) -> dict[str, str]:
        return dict(self._where)

    def vacant(self, hex_id: Hex) -> bool:
        return hex_id not in self._at
