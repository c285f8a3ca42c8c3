"""What the combat phase remembers from one combat to the next.

Combats are resolved one at a time and each changes the position the next is
fought on (I9): units retreat, are displaced, advance, are eliminated;
artillery fires or gives FPF once per phase; Ground Support Points are spent.
:class:`CombatPhaseState` holds exactly that memory, and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.engine.board import Board
from pbem.engine.dice import DiceSource
from pbem.engine.events import Event
from pbem.engine.hexes import Hex
from pbem.engine.placement import Placement
from pbem.model.common import Side, enemy_of
from pbem.model.defense import Defense
from pbem.model.ruleset import Ruleset
from pbem.model.units import Unit


@dataclass
class CombatPhaseState:
    board: Board
    ruleset: Ruleset
    units: dict[str, Unit]
    placement: Placement
    phasing: Side
    defense: Defense
    dice: DiceSource
    gsp_left: dict[Side, int]
    no_fpf: frozenset[str] = frozenset()
    fpf_gsp_reserve: int = 0
    """GSP the system keeps back from FPF for the defending side's own attacks."""
    start_hex: dict[str, Hex] = field(default_factory=dict)
    moved: set[str] = field(default_factory=set)
    """Units that retreated or advanced this phase: they attack no more (7.96, I9)."""
    displaced: set[str] = field(default_factory=set)
    fpf_used: set[str] = field(default_factory=set)
    forced_to_retreat: set[str] = field(default_factory=set)
    """Defenders whose result (after 8.15 and 14.1) made them retreat (I12)."""
    adverse: set[str] = field(default_factory=set)
    """Units that suffered a combat result: their artillery gives no FPF next phase (8.41)."""
    events: list[Event] = field(default_factory=list)
    dice_used: int = 0
    memo: dict[str, Any] = field(default_factory=dict)
    """Figures a policy works out once and reuses from one combat to the next, by the policy's own key."""
    dummies_removed: dict[str, Hex] = field(default_factory=dict)
    """Hidden units only: Japanese dummies exposed and removed before the combats (unit -> hex, 19B.6)."""

    def __post_init__(self) -> None:
        if not self.start_hex:
            self.start_hex = {u: self.placement.where(u) for u in self.units if self.placement.on_map(u)}

    @property
    def defending_side(self) -> Side:
        return enemy_of(self.phasing)

    def roll(self, purpose: str) -> int:
        value = self.dice.roll(purpose)
        self.dice_used += 1
        return value
