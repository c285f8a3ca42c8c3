"""One player-turn: position + orders + dice -> events + new position.

The single entry point every caller uses — ``pbem case run``, the referee's
``adjudicate``, a player's offline ``validate``, the post-game ``audit`` — so
that there is one engine.  Pure: it reads no files, no clock and no global
randomness; dice come in through a :class:`~pbem.engine.dice.DiceSource`.

Orders with any problem are rejected as a whole: nothing is applied and
every problem is reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pbem.engine.attacks import check_attacks
from pbem.engine.board import Board
from pbem.engine import fog_variants, forfeit, limited
from pbem.engine.deployment import apply_deployment, check_deployment
from pbem.engine.events import Event
from pbem.engine.movement import MovementOutcome, check_moves
from pbem.engine.dice import DiceSource
from pbem.engine.phase_state import CombatPhaseState
from pbem.engine.placement import Placement
from pbem.engine.problems import Problem
from pbem.model.defense import Defense
from pbem.model.orders import Orders
from pbem.model.ruleset import Ruleset
from pbem.model.state import ExitRecord, GameState

if TYPE_CHECKING:
    # the combat modules are imported when a combat phase is played, not by validate, submit or the bot's check
    from pbem.engine.combat import CombatRecord


@dataclass(frozen=True)
class Check:
    """The orders checked: problems found, and the movement they would make."""

    problems: tuple[Problem, ...]
    movement: MovementOutcome
    dummies_gone: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    """Hidden units only: Japanese dummies removed before the Japanese attacks were checked (unit -> hex, rule, why)."""

    @property
    def valid(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class Adjudication:
    """What a player-turn did.  When ``valid`` is false nothing was applied."""

    valid: bool
    problems: tuple[Problem, ...]
    events: tuple[Event, ...]
    combats: tuple[CombatRecord, ...]
    state: GameState
    dice_used: int


def check_orders(board: Board, ruleset: Ruleset, state: GameState, orders: Orders) -> Check:
    """Every problem with ``orders`` on ``state``, movement (5-6, 12) then attacks (7-10).

    Under the hidden-units option the Japanese secret set-up comes first
    (:mod:`pbem.engine.deployment`), and Japanese dummies exposed by the
    movement leave before the attacks are checked (:mod:`pbem.engine.dummies`).
    """
    units = state.unit_index()
    placement = Placement(units, state.locations)
    position = state.position
    fog = fog_variants.of(state)
    if state.hidden is not None and not state.hidden.deployed:
        return Check(tuple(check_deployment(board, state, orders) + fog.deployment_problems(state, orders)), MovementOutcome([], [], placement))
    gone = fog.before_movement(state, orders, placement) if state.hidden is not None else {}
    moving = fog.moving_units(state, orders, units) if state.hidden is not None else units
    movement = check_moves(board, moving, placement, position.phasing, position.phase, list(orders.moves), ruleset)
    problems = list(movement.problems) + fog.order_problems(state, orders) + forfeit.order_problems(ruleset, state, orders)
    if state.hidden is not None and position.phasing == "JP":
        gone |= fog.before_japanese_attacks(board, movement)
    problems += check_attacks(
        ruleset,
        units,
        movement.placement,
        position.phasing,
        # An intelligence roll's point is not available to the attacks (9.1); a roll with none left is refused (19B.7).
        max(0, position.gsp_of(position.phasing) - fog.intelligence_cost(state, orders)),
        list(orders.attacks),
        movement.arrived_in_zoc,
        frozenset(p.unit for p in movement.problems if p.unit),
    )
    return Check(tuple(problems), movement, gone)


def adjudicate(
    board: Board,
    ruleset: Ruleset,
    state: GameState,
    orders: Orders,
    dice: DiceSource,
    defense: Defense | None = None,
    *,
    fpf_gsp_reserve: int = 0,
    checked: Check | None = None,
) -> Adjudication:
    """Check and carry out one player-turn (or its combat phase alone).

    ``checked``: what :func:`check_orders` gave for these very orders on this very state and ruleset, when the
    caller has just asked it (the referee judges orders before carrying them out): not worked out twice.
    """
    check = checked if checked is not None else check_orders(board, ruleset, state, orders)
    if not check.valid:
        return Adjudication(False, check.problems, (), (), state, 0)
    if state.hidden is not None and not state.hidden.deployed:
        return _secret_setup(board, state, orders, dice)
    units = state.unit_index()
    position = state.position
    placement = check.movement.placement
    gsp_left = dict(position.gsp)
    before: list[Event] = limited.removal_events(check.dummies_gone)
    removed = {u: h for u, (h, _rule, _why) in check.dummies_gone.items()}
    exposed = frozenset()
    extra_dice = 0
    fog = fog_variants.of(state)
    if state.hidden is not None:
        exposed = fog.exposed_as_combat_begins(board, state, orders, placement)
        if position.phasing == "US":
            step = fog.before_american_combat(board, state, orders, placement, dice)
            before += step.events
            removed |= step.removed
            exposed |= step.exposed
            gsp_left["US"] = gsp_left.get("US", 0) - step.gsp_spent
            extra_dice = step.dice_used
    phase = CombatPhaseState(
        board=board,
        ruleset=ruleset,
        units=units,
        placement=placement,
        phasing=position.phasing,
        defense=defense or Defense.model_construct(),  # Defense(), without building its validator
        dice=dice,
        gsp_left=gsp_left,
        no_fpf=state.no_fpf,
        fpf_gsp_reserve=fpf_gsp_reserve,
        dummies_removed=removed,
    )
    attacks = limited.strip_dummies(list(orders.attacks), removed) if removed else list(orders.attacks)
    from pbem.engine.combat import resolve_combat_phase

    records = resolve_combat_phase(phase, attacks)
    events = list(check.movement.events) + before + list(phase.events)
    no_fpf = frozenset(u for u in phase.adverse if units[u].is_artillery and phase.placement.on_map(u))
    update = {
        "position": position.model_copy(update={"gsp": {s: n for s, n in phase.gsp_left.items()}}),
        "no_fpf": no_fpf,
        "exits": state.exits + tuple(ExitRecord.model_construct(unit=u, hex=h, turn=position.turn) for u, h in check.movement.exits),
    }
    if orders.forfeit is not None:
        update["forfeit"] = forfeit.recorded(ruleset, state, orders)
    if state.hidden is not None:
        update["hidden"], after_events = fog.after_turn(board, state, phase.placement, exposed, events, orders)
        events += after_events
    update["locations"] = phase.placement.locations()
    after = state.model_copy(update=update)
    return Adjudication(True, (), tuple(events), tuple(records), after, phase.dice_used + extra_dice)


def _secret_setup(board: Board, state: GameState, orders: Orders, dice: DiceSource) -> Adjudication:
    """The Japanese secret set-up carried out, then the American intelligence roll of 2d6 (19B.7)."""
    placed = apply_deployment(state, orders)
    placement = Placement(placed.unit_index(), placed.locations)
    fog = fog_variants.of(state)
    if not fog.setup_intelligence_dice:  # IPH 6.8 and Formosa 11.0 roll no intelligence: the set-up alone
        events: list[Event] = [{"type": "deployed", "side": "JP", "rule": fog.rule}]
        hidden, extra = fog.after_turn(board, placed, placement, frozenset(), events, orders)
        after = placed.model_copy(update={"hidden": hidden.model_copy(update={"deployed": True}), "locations": placement.locations()})
        return Adjudication(True, (), tuple(events + extra), (), after, 0)
    count = dice.roll("intelligence after the set-up (19B.7): 2d6, first die") + dice.roll("intelligence after the set-up (19B.7): 2d6, second die")
    step = limited.BeforeCombat()
    events: list[Event] = [{"type": "deployed", "side": "JP", "rule": "19B.2"}]
    events += limited.expose_by_intelligence(board, placement, frozenset(), count, placed.hidden.priority, "set-up", step)
    hidden, extra = limited.after_turn(board, placed, placement, frozenset(step.exposed), events, orders)
    after = placed.model_copy(update={"hidden": hidden.model_copy(update={"deployed": True}), "locations": placement.locations()})
    return Adjudication(True, (), tuple(events + extra), (), after, 2)
