"""A Legion player-turn, or its later phases: position + orders + dice -> events + new position (4).

One entry point for checking and one for carrying out, as in the SPI
engine (:mod:`pbem.engine.adjudicator`), and pure the same way: no files, no
clock, no randomness; dice come from a :class:`~pbem.engine.dice.DiceSource`.
Orders with any problem are rejected whole, every problem reported.

The position's ``phase`` says where the orders start (4): ``movement`` plays
the Initial Phase (Disruption off the enemy, 14; Fired markers off, 11;
Reserve markers, 6B.3; 19B.5), the Movement Phase and the Combat Phase;
``combat`` the Combat Phase alone; both leave the position at
``exploitation``, whose orders (written once the combat results are known)
end the player-turn and, after the second player's, the Game-Turn.  On a PM
Game-Turn the Japanese Exploitation Phase leads to ``night``, the Night
Exploitation Phase (6C.2): exploitation moves, then Assault Combat only at
-1 with artillery Support halved; empty orders decline it.  The Bombardment
Phase (11B) is not yet played.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.engine import hexes
from pbem.engine.dice import DiceSource
from pbem.engine.events import Event, visited
from pbem.engine.problems import Problem
from pbem.model.common import enemy_of
from pbem.systems.legion.assault import Assault, resolve_assault
from pbem.systems.legion.attacks import check_attacks
from pbem.systems.legion.board import LegionBoard
from pbem.systems.legion.exposure import after_move, japanese_initial
from pbem.systems.legion.fire import resolve_fire
from pbem.systems.legion.movement import PhaseMoves, carry_out, check_move
from pbem.systems.legion.orders import LegionDefense, LegionOrders
from pbem.systems.legion.overrun import overrun_resolver
from pbem.systems.legion.phase import CombatPhase
from pbem.systems.legion.state import LegionState
from pbem.systems.legion.table import Table

_NO_DEFENSE = LegionDefense()


@dataclass(frozen=True)
class LegionAdjudication:
    """What the orders did.  When ``valid`` is false nothing was applied."""

    valid: bool
    problems: tuple[Problem, ...]
    events: tuple[Event, ...]
    combats: tuple[dict, ...]
    state: LegionState
    dice_used: int


class _NoDice:
    def roll(self, purpose: str) -> int:  # pragma: no cover - checking never rolls
        raise AssertionError(f"checking orders rolled a die for {purpose}")


def check_orders(board: LegionBoard, state: LegionState, orders: LegionOrders, *, cp_per_unit: int = 0) -> tuple[Problem, ...]:
    """Every problem with ``orders`` on ``state``, each with its rule case (every Overrun assumed won)."""
    run = _Run(board, state, orders, None, _NO_DEFENSE, cp_per_unit)
    return tuple(run.problems)


def adjudicate(
    board: LegionBoard, state: LegionState, orders: LegionOrders, dice: DiceSource, defense: LegionDefense | None = None, *, cp_per_unit: int = 0,
    checked: bool = False,
) -> LegionAdjudication:
    """Check, then carry out, the phasing player's orders from the position's phase on (``checked``: already checked,
    on the position the phasing side may know under limited intelligence; a move the whole position then refuses is
    called off as it comes, 6B.2c, as a failed Overrun's later moves are)."""
    problems = () if checked else check_orders(board, state, orders, cp_per_unit=cp_per_unit)
    if problems:
        return LegionAdjudication(False, problems, (), (), state, 0)
    run = _Run(board, state, orders, dice, defense or _NO_DEFENSE, cp_per_unit)
    return LegionAdjudication(True, (), tuple(run.events), tuple(run.combats), run.after(), run.dice_used)


class _Run:
    """One pass over the orders: checking (``dice`` None, Overruns assumed won) or carrying out."""

    def __init__(self, board, state, orders, dice, defense, cp_per_unit) -> None:
        self.table = Table(board, state, cp_per_unit)
        self.orders = orders
        self.checking = dice is None
        self.dice = dice or _NoDice()
        self.defense = defense
        self.problems: list[Problem] = []
        self.events: list[Event] = []
        self.combats: list[dict] = []
        self.dice_used = 0
        self.phase = state.position.phase
        self._misplaced()
        if self.problems:
            return
        if self.phase == "movement":
            self._initial()
            self._moves(list(orders.moves), "movement")
        if self.phase in ("movement", "combat", "night"):
            if self.phase == "night":
                self._moves(list(orders.exploitation), "exploitation")
            self._combat()
        else:
            self._moves(list(orders.exploitation), "exploitation")

    def _misplaced(self) -> None:
        """4: each block of orders belongs to a phase; a position awaits the orders of its phase and those after it."""
        o = self.orders
        if self.phase not in ("exploitation", "night") and o.exploitation:
            self.problems.append(Problem("4", None, "exploitation moves are ordered once the Combat Phase is over (the position's phase is 'exploitation')"))
        if self.phase == "exploitation" and (o.moves or o.attacks or o.reserves):
            self.problems.append(Problem("4", None, "the Exploitation Phase takes only 'exploitation' moves"))
        if self.phase == "combat" and (o.moves or o.reserves):
            self.problems.append(Problem("4", None, "the Combat Phase takes only 'attacks'"))
        if self.phase == "night":
            if o.moves or o.reserves:
                self.problems.append(Problem("6C.2", None, "the Night Exploitation Phase takes 'exploitation' moves and 'attacks'"))
            for i, attack in enumerate(o.attacks, 1):
                if attack.type != "assault":
                    self.problems.append(Problem("6C.2", None, f"attack {i}: at night only Assault Combat"))

    def _initial(self) -> None:
        """4.1.A, 14, 11, 6B.3, 19B.5: the phasing player's Initial Phase."""
        table = self.table
        side = table.phasing
        for u in list(table.disrupted):
            if table.units[u].side != side:
                del table.disrupted[u]
        table.fired = {u for u in table.fired if table.units[u].side != side}
        table.reserve = {u for u in table.reserve if table.units[u].side != side}
        for u in self.orders.reserves:
            if u not in table.units or table.units[u].side != side or not table.on_map(u):
                self.problems.append(Problem("6B.3", u, "only the phasing player's units on the map are put in Reserve"))
            else:
                table.reserve.add(u)
        if side == "JP":
            self.events += japanese_initial(table)

    def _moves(self, moves, phase_name: str) -> None:
        table = self.table
        record = PhaseMoves(phase_name, start={u: table.where(u) for u in table.side_units(table.phasing)})
        combat = CombatPhase(table, self.dice, self.defense)
        for i, move in enumerate(moves, 1):
            label = f"{'exploitation ' if phase_name == 'exploitation' else ''}move {i}"
            problems, steps = check_move(table, move, record, label)
            if problems:
                if self.checking:
                    self.problems += problems
                    continue
                self.events.append({"type": "move_cancelled", "index": i, "units": list(move.units), "reason": problems[0].message, "rule": "6B.2c"})
                continue
            got = carry_out(table, move, steps, record, None if self.checking else overrun_resolver(combat, move))
            self.events += combat.events
            combat.events = []
            self.events += got
            for event in got:
                if table.on_map(event["unit"]) and self.phase != "night":  # 19B.3: not Exposed moving at night
                    self.events += after_move(table, event["unit"], visited(event))
        self.combats += combat.combats
        self.dice_used += combat.dice_used
        if self.checking:
            for h in sorted({table.where(u) for u in table.side_units(table.phasing)}):
                if not table.stack_ok(h, table.phasing):
                    self.problems.append(Problem("8", None, f"at the end of the {phase_name} phase the units in {h} exceed its stacking limit"))

    def _combat(self) -> None:
        table = self.table
        attacks = list(self.orders.attacks)
        if self.checking:
            self.problems += check_attacks(table, attacks)
            return
        phase = CombatPhase(table, self.dice, self.defense, night=self.phase == "night")
        for h in sorted({table.where(u) for u in table.side_units(table.phasing)}):
            if table.in_hex(h, enemy_of(table.phasing)):
                phase.events.append({"type": "same_hex", "hex": h, "rule": "9I"})
        for i, attack in enumerate(attacks, 1):
            why = self._cancelled(phase, attack)
            if why:
                phase.combats.append({"index": i, "type": attack.type, "target": attack.target, "status": "cancelled", "reason": why})
                phase.events.append({"type": "combat_cancelled", "index": i, "reason": why})
                continue
            if attack.type == "fire":
                resolve_fire(phase, i, attack)
            else:
                resolve_assault(phase, Assault(
                    index=i, target=attack.target, attackers=list(attack.attackers), support=list(attack.support),
                    banzai=attack.banzai, advance=list(attack.advance), losses=list(attack.losses), retreats=list(attack.retreats),
                ))
        self.events += phase.events
        self.combats += phase.combats
        self.dice_used += phase.dice_used
        table.update_ownership()

    def _cancelled(self, phase: CombatPhase, attack) -> str | None:
        """I9 as the SPI system reads it: an attack whose moment never comes (its defenders gone, an attacker lost or moved away) is cancelled, no die rolled."""
        table = self.table
        if not table.in_hex(attack.target, enemy_of(table.phasing)):
            return f"no enemy unit is left in {attack.target}"
        gone = [u for u in attack.attackers if not table.on_map(u) or (table.where(u) != attack.target and not hexes.adjacent(table.where(u), attack.target))]
        if gone:
            return f"attacker {gone[0]} is no longer on the map next to {attack.target}"
        return None

    def after(self) -> LegionState:
        """The new position: the phase after this one, or the next player-turn (4.2, 4.3)."""
        state = self.table.frozen()
        position = state.position
        if self.phase in ("movement", "combat"):
            return state.model_copy(update={"position": position.model_copy(update={"phase": "exploitation"})})
        if self.phase == "exploitation" and position.phasing == "JP" and position.turn in position.pm_turns:
            return state.model_copy(update={"position": position.model_copy(update={"phase": "night"})})
        second = position.phasing != position.first_player
        return state.model_copy(update={"position": position.model_copy(update={
            "phasing": enemy_of(position.phasing), "phase": "movement", "turn": position.turn + (1 if second else 0),
        })})
