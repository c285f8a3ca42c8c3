"""What one Combat Phase (or the Overruns of a movement phase) carries from attack to attack (9, 9B, 9F.1)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.engine.dice import DiceSource
from pbem.engine.events import Event
from pbem.systems.legion.orders import LegionDefense
from pbem.systems.legion.table import Table


@dataclass
class CombatPhase:
    """``attacked``: units that attacked or were attacked (9B: once each); ``hexes``: hexes attacked (9: once);
    ``retreated``: units that retreated into a hex this phase (9F.1: they add nothing to its defense);
    ``supported``: artillery whose B/S Strength is spent (11)."""

    table: Table
    dice: DiceSource
    defense: LegionDefense
    events: list[Event] = field(default_factory=list)
    combats: list[dict] = field(default_factory=list)
    attacked: set[str] = field(default_factory=set)
    hexes: set[str] = field(default_factory=set)
    retreated: set[str] = field(default_factory=set)
    supported: set[str] = field(default_factory=set)
    dice_used: int = 0
    night: bool = False
    """6C.2: a Night Exploitation Phase — Assault Combat at -1, artillery Support halved."""

    def roll(self, purpose: str) -> int:
        self.dice_used += 1
        return self.dice.roll(purpose)

    def retreat_route(self, u: str, written: list | None) -> list[str] | None:
        for route in written or []:
            if route.unit == u:
                return list(route.path)
        return None
