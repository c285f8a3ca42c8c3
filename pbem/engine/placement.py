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
from pbem.model.common import ELIMINATED, EXITED, NOT_ON_MAP, SIDES, Side, enemy_of
from pbem.model.units import Unit


class Placement:
    """Unit id -> hex (or offmap/eliminated), with the reverse index kept in step.

    Also kept in step, so that the questions asked millions of times in a
    retreat search are single look-ups: how many units of each side stand in
    each hex, and how many stand next to it (the zones of control).
    """

    def __init__(self, units: dict[str, Unit], locations: dict[str, str]) -> None:
        self.units = units
        self._where: dict[str, str] = {}
        self._at: dict[Hex, list[str]] = defaultdict(list)
        self._in: dict[Side, dict[Hex, int]] = {side: defaultdict(int) for side in SIDES}
        self._near: dict[Side, dict[Hex, int]] = {side: defaultdict(int) for side in SIDES}
        self.changes: list[str] = []
        """Every unit moved or eliminated since this placement was made, in order, for callers keeping figures up to date."""
        for unit_id in units:
            self._put(unit_id, locations.get(unit_id, ELIMINATED))

    def copy(self) -> "Placement":
        twin = Placement.__new__(Placement)
        twin.units = self.units
        twin._where = dict(self._where)
        twin._at = defaultdict(list, {h: list(us) for h, us in self._at.items()})
        twin._in = {side: defaultdict(int, counts) for side, counts in self._in.items()}
        twin._near = {side: defaultdict(int, counts) for side, counts in self._near.items()}
        twin.changes = []
        return twin

    def _put(self, unit_id: str, where: str) -> None:
        self._where[unit_id] = where
        if where not in NOT_ON_MAP:
            self._at[where].append(unit_id)
            side = self.units[unit_id].side
            self._in[side][where] += 1
            near = self._near[side]
            for n in hexes.neighbours(where):
                near[n] += 1

    def _lift(self, unit_id: str) -> None:
        where = self._where[unit_id]
        if where not in NOT_ON_MAP:
            self._at[where].remove(unit_id)
            if not self._at[where]:
                del self._at[where]
            side = self.units[unit_id].side
            _drop(self._in[side], where)
            near = self._near[side]
            for n in hexes.neighbours(where):
                _drop(near, n)

    # -- changes ----------------------------------------------------------------
    def move(self, unit_id: str, to: Hex) -> None:
        self._lift(unit_id)
        self._put(unit_id, to)
        self.changes.append(unit_id)

    def eliminate(self, unit_id: str) -> None:
        self._lift(unit_id)
        self._put(unit_id, ELIMINATED)
        self.changes.append(unit_id)

    def leave_map(self, unit_id: str) -> None:
        """The unit exits by an exit hex (Leyte 16.13)."""
        self._lift(unit_id)
        self._put(unit_id, EXITED)
        self.changes.append(unit_id)

    # -- questions -------------------------------------------------------------
    def where(self, unit_id: str) -> str:
        return self._where[unit_id]

    def on_map(self, unit_id: str) -> bool:
        return self._where.get(unit_id, ELIMINATED) not in NOT_ON_MAP

    def at(self, hex_id: Hex) -> tuple[str, ...]:
        return tuple(self._at.get(hex_id, ()))

    def enemy_at(self, hex_id: Hex, side: Side) -> bool:
        return hex_id in self._in[enemy_of(side)]

    def enemies_among(self, hexes_: tuple[Hex, ...], side: Side) -> int:
        """How many of ``hexes_`` hold an enemy of ``side``."""
        enemy = self._in[enemy_of(side)]
        return sum(1 for h in hexes_ if h in enemy)

    def friendly_at(self, hex_id: Hex, side: Side) -> bool:
        return hex_id in self._in[side]

    def adjacent_enemies(self, hex_id: Hex, side: Side) -> list[str]:
        """Enemy units next to ``hex_id``: the units whose zone of control covers it."""
        if hex_id not in self._near[enemy_of(side)]:
            return []
        found = []
        for n in hexes.neighbours(hex_id):
            for u in self._at.get(n, ()):
                if self.units[u].side != side:
                    found.append(u)
        return found

    def in_enemy_zoc(self, hex_id: Hex, side: Side) -> bool:
        """Is ``hex_id`` controlled by the enemy of ``side`` (6.0, 6.11, I10)?"""
        return hex_id in self._near[enemy_of(side)]

    def units_of(self, side: Side) -> list[str]:
        """Ids of ``side``'s units on the map, in the order the units were given."""
        return [u for u, unit in self.units.items() if unit.side == side and self.on_map(u)]

    def locations(self) -> dict[str, str]:
        return dict(self._where)

    def vacant(self, hex_id: Hex) -> bool:
        return hex_id not in self._at


def _drop(counts: dict[Hex, int], hex_id: Hex) -> None:
    """One fewer in a count kept only while positive, so that membership means 'at least one'."""
    if counts[hex_id] == 1:
        del counts[hex_id]
    else:
        counts[hex_id] -= 1
