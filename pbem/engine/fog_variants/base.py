"""What every way of hiding Japanese units answers (docs/hidden-units.md, *Three ways side by side*).

A variant is a small object the adjudicator asks at each moment a rule of
fog may act: what the orders may hold, which units may move and how far,
what is exposed as a Combat Phase begins, and what stays exposed after the
player-turn.  :mod:`.legion_19b` answers with the existing 19B modules
(:mod:`pbem.engine.limited`); :mod:`.iph` and :mod:`.formosa` with their
own texts.  Each answer depends only on the position, the orders and the
variant's scenario data held in ``GameState.hidden``: the engine stays pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from pbem.engine.board import Board
from pbem.engine.dice import DiceSource
from pbem.engine.events import Event
from pbem.engine.limited import BeforeCombat
from pbem.engine.movement import MovementOutcome
from pbem.engine.placement import Placement
from pbem.engine.problems import Problem
from pbem.model.orders import Orders
from pbem.model.state import GameState, HiddenState
from pbem.model.units import Unit


@dataclass(frozen=True)
class Sight:
    """What each side sees and when, in one line each: the rows of the side-by-side table of docs/hidden-units.md."""

    japanese_sees: str
    american_sees: str
    attack_commits: str
    japanese_may_reveal: str
    never_move_concealed: str
    no_referee_opening: str


class FogVariant:
    """One way of hiding the Japanese units.  Subclasses override what their rule text changes."""

    option: str = ""
    rule: str = ""
    """The rule case a problem of this variant cites when no finer case applies."""
    sight: Sight
    setup_intelligence_dice: int = 0
    """Dice of intelligence rolled after the Japanese secret set-up (19B.7: 2d6; the other texts: none)."""

    # --- the secret set-up -------------------------------------------------------------------------
    def deployment_problems(self, state: GameState, orders: Orders) -> list[Problem]:
        """What the variant adds to checking the Japanese secret set-up."""
        return []

    # --- a player-turn's orders --------------------------------------------------------------------
    def order_problems(self, state: GameState, orders: Orders) -> list[Problem]:
        """What the variant refuses in a player-turn's orders (fields of other variants included)."""
        return []

    def intelligence_cost(self, state: GameState, orders: Orders) -> int:
        return 0

    def before_movement(self, state: GameState, orders: Orders, placement: Placement) -> dict[str, tuple[str, str, str]]:
        """Pieces removed before any move is checked (a deception unit revealed by order); unit -> (hex, rule, why)."""
        return {}

    def moving_units(self, state: GameState, orders: Orders, units: Mapping[str, Unit]) -> Mapping[str, Unit]:
        """The units as movement reads them (a concealed unit's allowance may not be its printed one)."""
        return units

    def before_japanese_attacks(self, board: Board, movement: MovementOutcome) -> dict[str, tuple[str, str, str]]:
        return {}

    def exposed_as_combat_begins(self, board: Board, state: GameState, orders: Orders, placement: Placement) -> frozenset[str]:
        """The Japanese units exposed as the phasing player's Combat Phase begins."""
        assert state.hidden is not None
        return state.hidden.exposed

    def before_american_combat(self, board: Board, state: GameState, orders: Orders, placement: Placement, dice: DiceSource) -> BeforeCombat:
        return BeforeCombat()

    def after_turn(self, board: Board, state: GameState, placement: Placement, exposed_before: frozenset[str],
                   events: list[Event], orders: Orders) -> tuple[HiddenState, list[Event]]:
        raise NotImplementedError

    # --- the American view -------------------------------------------------------------------------
    def sightings(self, board: Board, events: Iterable[Event], japanese: set[str]) -> dict[int, list[str]]:
        """Japanese moves the American player sees in passing (19B.3 only): event index -> hexes."""
        return {}


def japanese_units(placement: Placement) -> list[str]:
    """The real Japanese units on the map (no dummy or deception counter)."""
    return [u for u in placement.units_of("JP") if not placement.units[u].is_dummy]


def alive(placement: Placement, units: Iterable[str]) -> frozenset[str]:
    """``units`` that are real Japanese units still on the map."""
    return frozenset(u for u in units if u in placement.units and placement.units[u].side == "JP"
                     and not placement.units[u].is_dummy and placement.on_map(u))


def misplaced_fields(state: GameState, orders: Orders, variant: str) -> list[Problem]:
    """Orders fields of another way of hiding units, refused with that way's rule case."""
    problems = []
    hidden_variant = state.hidden.variant if state.hidden is not None else None
    if orders.reveal is not None and hidden_variant != "fog-formosa":
        problems.append(Problem("11.1", None, "'reveal' is for games with the fog-formosa option (Formosa 11.1); remove it"))
    if orders.intelligence is not None and hidden_variant not in (None, "hidden-units"):
        problems.append(Problem("19B.7", None, f"'intelligence' is a roll of the hidden-units option (19B.7); this game plays {variant}: remove it"))
    return problems
