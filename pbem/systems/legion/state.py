"""A Legion position: the Game-Turn, phase, every counter's state, hex ownership, what the U.S. player may examine.

Mirrors :class:`pbem.model.state.GameState` (``position``, ``units``,
``locations``) so that a rules-system adapter stays thin, and adds what the
Legion game keeps and the SPI one does not: Hit markers (9D.3), the CI side
(9E), Disruption (14), Fired artillery (11), Reserve markers (6B.3), hex
ownership (5B), the U.S. Casualty Points (20) and, under limited
intelligence, the Japanese units the U.S. player may examine (19B).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from pbem.model.common import Side
from pbem.systems.legion.counters import Counter

LegionPhase = Literal["movement", "combat", "exploitation", "night"]
"""Where a player-turn's orders start (4): ``movement`` plays the Initial, Movement and Combat Phases; ``night`` is the
Japanese Night Exploitation Phase of a PM Game-Turn (4.1.F, 6C.2)."""
ELIMINATED = "eliminated"
"""In the Replacement Pool (9D.3)."""
REMOVED = "removed"
"""Permanently out of play: overrun (6B.2b)."""
NOT_ON_MAP = frozenset({ELIMINATED, REMOVED, "offmap"})


class LegionPosition(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    turn: int = Field(ge=1)
    phasing: Side
    phase: LegionPhase = "movement"
    first_player: Side = "US"
    pm_turns: tuple[int, ...] = Field(default=(), description="The PM Game-Turns, when the Japanese may declare a Night Exploitation Phase (6C.2).")


class LegionState(BaseModel):
    """Everything the Legion rules need to know about a position.

    ``hits``: Hit markers under a unit (9D.3); ``ci``: U.S. units on their
    CI side (9E); ``disrupted``: 1 Disrupted, 2 Badly Disrupted (14);
    ``fired``: artillery that supported or bombarded and is not yet back (11);
    ``defended``: the Game-Turn an artillery unit last gave Defensive
    Support (11A: not both kinds in one Game-Turn); ``reserve``: units under a
    Reserve marker (6B.3); ``owner``: who owns each hex ever owned (5B);
    ``casualties``: U.S. Casualty Points (20); ``exposed``: None without
    limited intelligence, else the Japanese units the U.S. player may examine.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    # What the game layer reads of any position (pbem/systems/base.py): whose position this is (its codec), and the
    # SPI hidden-units option's own parts, which a Legion position never has (limited intelligence is ``exposed``).
    rules_system: ClassVar[str] = "legion-2010"
    hidden: ClassVar[None] = None
    awards: ClassVar[tuple] = ()
    standing: ClassVar[dict] = {}
    forfeit: ClassVar[dict] = {}

    position: LegionPosition
    units: tuple[Counter, ...]
    locations: dict[str, str]
    hits: dict[str, int] = Field(default_factory=dict)
    ci: frozenset[str] = frozenset()
    disrupted: dict[str, int] = Field(default_factory=dict)
    fired: frozenset[str] = frozenset()
    defended: dict[str, int] = Field(default_factory=dict)
    reserve: frozenset[str] = frozenset()
    owner: dict[str, Side] = Field(default_factory=dict)
    casualties: int = 0
    exposed: frozenset[str] | None = None

    def unit_index(self) -> dict[str, Counter]:
        return {u.id: u for u in self.units}

    def on_map(self, unit_id: str) -> bool:
        return self.locations.get(unit_id, ELIMINATED) not in NOT_ON_MAP

    def to_act(self) -> Side:
        return self.position.phasing
