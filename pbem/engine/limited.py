"""A player-turn under the hidden-units option: the steps 19B adds around movement and combat.

:mod:`pbem.engine.adjudicator` calls these only when the position carries
limited intelligence (``GameState.hidden``), so every other game, case and
test runs exactly as before.  The rules and their readings are in
:mod:`pbem.engine.exposure`, :mod:`pbem.engine.dummies`,
:mod:`pbem.engine.deployment` and docs/hidden-units.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.engine import dummies, exposure
from pbem.engine.board import Board
from pbem.engine.dice import DiceSource
from pbem.engine.events import Event
from pbem.engine.movement import MovementOutcome
from pbem.engine.placement import Placement
from pbem.engine.problems import Problem
from pbem.model.orders import Attack, Orders
from pbem.model.state import GameState, HiddenState

INTELLIGENCE_COST = 1
"""Ground Support Points an intelligence roll costs (19B.7 spends an Air Support Point; Island War has Ground Support)."""


def order_problems(state: GameState, orders: Orders) -> list[Problem]:
    """What the option adds to checking a player-turn's orders (the secret set-up is checked elsewhere)."""
    problems = []
    if orders.deployment is not None:
        problems.append(Problem("19B.2", None, "'deployment' belongs only to the Japanese secret set-up, before the first player-turn; remove it"))
    intelligence = orders.intelligence
    if intelligence is None:
        return problems
    if state.hidden is None:
        return problems + [Problem("19B.7", None, "'intelligence' is for games with the hidden-units option; this game has none; remove it")]
    if state.position.phasing != "US":
        return problems + [Problem("19B.7", None, "only the American player makes intelligence rolls; remove 'intelligence'")]
    if intelligence.roll and state.position.gsp_of("US") < INTELLIGENCE_COST:
        problems.append(Problem("19B.7", None, "an intelligence roll costs one Ground Support Point, and none is left this Game-Turn"))
    return problems


def intelligence_cost(state: GameState, orders: Orders) -> int:
    roll = state.hidden is not None and orders.intelligence is not None and orders.intelligence.roll
    return INTELLIGENCE_COST if roll else 0


def before_japanese_attacks(board: Board, movement: MovementOutcome) -> dict[str, tuple[str, str, str]]:
    """Dummies exposed by the Japanese movement or by contact as the Combat Phase begins: removed before the
    attacks are checked, so the Japanese player neither may nor must list them.  Returns unit -> (hex, rule, why)."""
    gone = {u: (h, "19B.3", dummies.MOVING_WHY) for u, h in dummies.remove_seen_moving(board, movement.placement, movement.events).items()}
    gone |= {u: (h, "19B.6", dummies.CONTACT_WHY) for u, h in dummies.remove_in_contact(movement.placement).items()}
    return gone


@dataclass
class BeforeCombat:
    """What happens between the American movement and his combats: an intelligence roll, dummies in contact removed."""

    events: list[Event] = field(default_factory=list)
    removed: dict[str, str] = field(default_factory=dict)
    exposed: set[str] = field(default_factory=set)
    gsp_spent: int = 0
    dice_used: int = 0


def removal_events(gone: dict[str, tuple[str, str, str]]) -> list[Event]:
    return [dummies.removed(u, h, rule, why) for u, (h, rule, why) in gone.items()]


def before_american_combat(board: Board, state: GameState, orders: Orders, placement: Placement, dice: DiceSource) -> BeforeCombat:
    """19B.7 (a roll in the Movement Phase, made as it ends), then the dummies in contact or attacked (see :mod:`dummies`)."""
    step = BeforeCombat()
    hidden = state.hidden
    assert hidden is not None
    if intelligence_cost(state, orders):
        count = dice.roll("intelligence roll (19B.7): 1d6")
        step.dice_used, step.gsp_spent = 1, INTELLIGENCE_COST
        priority = orders.intelligence.priority if orders.intelligence.priority is not None else hidden.priority
        step.events += expose_by_intelligence(board, placement, hidden.exposed, count, priority, "movement", step)
    gone = {u: (h, "19B.6", dummies.CONTACT_WHY) for u, h in dummies.remove_in_contact(placement).items()}
    attacked = {d for attack in orders.attacks for d in attack.defenders}
    gone |= {u: (h, "19B.6", dummies.ATTACKED_WHY) for u, h in dummies.remove_attacked(placement, attacked).items()}
    step.removed |= {u: h for u, (h, _rule, _why) in gone.items()}
    # By hex: the order of the removals tells nothing about which dummy counter was where.
    step.events += removal_events(dict(sorted(gone.items(), key=lambda item: item[1][0])))
    return step


def expose_by_intelligence(board: Board, placement: Placement, exposed: frozenset[str], count: int, priority, when: str,
                           step: BeforeCombat) -> list[Event]:
    """Expose the units ``count`` reaches; a dummy reached is removed (19B.6, 19B.7)."""
    picks = exposure.intelligence_picks(board, placement, exposed, count, priority, board.beaches)
    events: list[Event] = []
    seen = []
    for unit in picks:
        here = placement.where(unit)
        if placement.units[unit].is_dummy:
            placement.eliminate(unit)
            step.removed[unit] = here
            events.append(dummies.removed(unit, here, "19B.7", "picked by an intelligence roll"))
        else:
            step.exposed.add(unit)
            seen.append({"unit": unit, "hex": here})
    return [{"type": "intelligence", "when": when, "roll": count, "rule": "19B.7", "exposed": seen}] + events


def strip_dummies(attacks: list[Attack], removed: dict[str, str]) -> list[Attack]:
    """Each attack without the dummies removed before it; an attack on dummies alone is kept, to be cancelled."""
    out = []
    for attack in attacks:
        left = [d for d in attack.defenders if d not in removed]
        out.append(attack if not left or len(left) == len(attack.defenders) else attack.model_copy(update={"defenders": left}))
    return out


def after_turn(board: Board, state: GameState, placement: Placement, exposed_before: frozenset[str], events: list[Event],
               orders: Orders) -> tuple[HiddenState, list[Event]]:
    """The limited-intelligence record after a player-turn; dummies pushed into or through clear hexes are removed."""
    hidden = state.hidden
    assert hidden is not None
    standing = {u: placement.where(u) for u in placement.units_of("JP") if placement.units[u].is_dummy}
    gone = dummies.remove_in_clear(board, placement, events)
    extra = [dummies.removed(u, h, "19B.3", dummies.CLEAR_WHY if standing[u] == h else dummies.DISPLACED_WHY)
             for u, h in gone.items()]
    priority = hidden.priority
    if orders.intelligence is not None and orders.intelligence.priority is not None:
        priority = tuple(orders.intelligence.priority)
    exposed = exposure.exposed_now(board, placement, exposed_before, events)
    return hidden.model_copy(update={"exposed": exposed, "priority": priority}), extra


def at_japanese_start(board: Board, state: GameState) -> frozenset[str]:
    """19B.5: the exposed units as the Japanese player-turn begins."""
    assert state.hidden is not None
    placement = Placement(state.unit_index(), state.locations)
    return exposure.hidden_again(board, placement, state.hidden.exposed)
