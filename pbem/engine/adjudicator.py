"""One player-turn: position + orders + dice -> events + new position.

The single entry point every caller uses — ``pbem case run``, the referee's
``adjudicate``, a player's offline ``validate``, the post-game ``audit`` — so
that there is one engine.  Pure: it reads no files, no clock and no global
randomness; dice come in through a :class:`~pbem.engine.dice.DiceSource`.

Orders with any problem are rejected as a whole: nothing is applied and
every problem is reported.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.engine.attacks import check_attacks
from pbem.engine.board import Board
from pbem.engine.combat import CombatRecord, resolve_combat_phase
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


@dataclass(frozen=True)
class Check:
    """The orders checked: problems found, and the movement they would make."""

    problems: tuple[Problem, ...]
    movement: MovementOutcome

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
    """Every problem with ``orders`` on ``state``, movement (5-6, 12) then attacks (7-10)."""
    units = state.unit_index()
    placement = Placement(units, state.locations)
    position = state.position
    movement = check_moves(board, units, placement, position.phasing, position.phase, list(orders.moves), ruleset)
    problems = list(movement.problems)
    problems += check_attacks(
        ruleset,
        units,
        movement.placement,
        position.phasing,
        position.gsp_of(position.phasing),
        list(orders.attacks),
        movement.arrived_in_zoc,
    )
    return Check(tuple(problems), movement)


def adjudicate(
    board: Board,
    ruleset: Ruleset,
    state: GameState,
    orders: Orders,
    dice: DiceSource,
    defense: Defense | None = None,
    *,
    fpf_gsp_reserve: int = 0,
) -> Adjudication:
    """Check and carry out one player-turn (or its combat phase alone)."""
    check = check_orders(board, ruleset, state, orders)
    if not check.valid:
        return Adjudication(False, check.problems, (), (), state, 0)
    units = state.unit_index()
    position = state.position
    phase = CombatPhaseState(
        board=board,
        ruleset=ruleset,
        units=units,
        placement=check.movement.placement,
        phasing=position.phasing,
        defense=defense or Defense.model_construct(),  # Defense(), without building its validator
        dice=dice,
        gsp_left=dict(position.gsp),
        no_fpf=state.no_fpf,
        fpf_gsp_reserve=fpf_gsp_reserve,
    )
    records = resolve_combat_phase(phase, list(orders.attacks))
    no_fpf = frozenset(u for u in phase.adverse if units[u].is_artillery and phase.placement.on_map(u))
    after = state.model_copy(
        update={
            "position": position.model_copy(update={"gsp": {s: n for s, n in phase.gsp_left.items()}}),
            "locations": phase.placement.locations(),
            "no_fpf": no_fpf,
            "exits": state.exits + tuple(ExitRecord.model_construct(unit=u, hex=h, turn=position.turn) for u, h in check.movement.exits),
        }
    )
    return Adjudication(True, (), tuple(check.movement.events) + tuple(phase.events), tuple(records), after, phase.dice_used)
