"""The Combat Phase: attacks resolved one after another, in the order listed (I9).

For each attack: cancel it if a defender has left its hex or no listed
attacker may still attack (7.83, I9); otherwise work out the figures
(:mod:`~pbem.engine.engagement`), let FPF be given (:mod:`~pbem.engine.fpf`),
roll one die, read the Integrated CRT (7.61), and apply the result with its
modifications — artillery-only attacks (8.15, I5), Japanese tenacity (Leyte
14.1, I15) — then retreats and displacement (7.7, 7.8), Banzai losses (10.0)
and advances (7.9).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.engine import advance, crt, events
from pbem.engine.banzai import banzai_losses
from pbem.engine.engagement import Engagement, Lookahead, tenacity_applies
from pbem.engine.fpf import allot
from pbem.engine.hexes import Hex
from pbem.engine.phase_state import CombatPhaseState
from pbem.engine.retreat import PLAYER, RetreatFinder
from pbem.model.orders import Attack, Route


@dataclass(frozen=True)
class CombatRecord:
    """One line of the outcome's ``combats`` list (cases.md, The outcome)."""

    index: int
    status: str
    attack: int | None = None
    defense: int | None = None
    differential: int | None = None
    terrain: str | None = None
    column: str | None = None
    die: int | None = None
    result: str | None = None

    def as_dict(self) -> dict[str, Any]:
        if self.status == "cancelled":
            return {"index": self.index, "status": self.status}
        return {
            "index": self.index,
            "status": self.status,
            "attack": self.attack,
            "defense": self.defense,
            "differential": self.differential,
            "terrain": self.terrain,
            "column": self.column,
            "die": self.die,
            "result": self.result,
        }


def _route_for(routes: list[Route] | None, unit_id: str) -> list[Hex] | None:
    for route in routes or []:
        if route.unit == unit_id:
            return list(route.path)
    return None


def _retreat(state: CombatPhaseState, unit_id: str, n: int, choice: list[Hex] | None) -> tuple[Hex, ...]:
    """Retreat one unit ``n`` hexes; return its Path of Retreat (I8)."""
    plan = RetreatFinder(state.board, state.placement).plan(unit_id, n, choice)
    for d in plan.displacements:
        state.placement.move(d.unit, d.to)
        state.displaced.add(d.unit)
        state.events.append(events.displaced(d.unit, d.start, d.to, d.by))
    state.events.append(events.retreated(unit_id, plan.start, list(plan.path), plan.eliminated, plan.chosen_by))
    state.adverse.add(unit_id)
    if plan.eliminated:
        state.placement.eliminate(unit_id)
        state.events.append(events.eliminated(unit_id, plan.final, "retreat blocked (7.74)"))
    else:
        state.placement.move(unit_id, plan.final)
        state.moved.add(unit_id)
    return plan.path_of_retreat


def _eliminate_in_place(state: CombatPhaseState, unit_id: str, cause: str) -> tuple[Hex, ...]:
    here = state.placement.where(unit_id)
    state.placement.eliminate(unit_id)
    state.adverse.add(unit_id)
    state.events.append(events.eliminated(unit_id, here, cause))
    return (here,)


def _apply_result(
    state: CombatPhaseState,
    e: Engagement,
    result: str,
    losers: tuple[str, ...],
    routes: list[Route] | None,
    tenacious: frozenset[str],
) -> dict[str, tuple[Hex, ...]]:
    """Eliminate or retreat ``losers`` as ``result`` says; return their Paths of Retreat.

    Defenders of an artillery-only attack ignore a D1 (8.15); a Japanese unit
    in rough or mountain retreats one hex less (14.1).  Units retreat one
    after another in the order the combat lists them (I6).
    """
    paths: dict[str, tuple[Hex, ...]] = {}
    if result in ("De", "Ae"):
        for u in losers:
            paths[u] = _eliminate_in_place(state, u, result)
        return paths
    hexes_due = crt.retreat_hexes(result)
    if result.startswith("D") and e.artillery_only and hexes_due == 1:
        for u in losers:
            state.events.append(events.result_modified(e.index, u, "8.15", result, "no effect"))
        return paths
    for u in losers:
        n = hexes_due
        if u in tenacious:
            n -= 1
            state.events.append(events.result_modified(e.index, u, "14.1", result, f"retreats {n}" if n else "no effect"))
        if n <= 0:
            continue
        state.forced_to_retreat.add(u)
        paths[u] = _retreat(state, u, n, _route_for(routes, u))
    return paths


def _purpose(e: Engagement, differential: int, column: crt.Column) -> str:
    return (
        f"combat {e.index}: {'+'.join(e.adjacent + e.barraging) or 'ground support'} "
        f"against {'+'.join(e.defenders)}, {differential:+d} on the {column.line} line"
    )


def resolve_attack(state: CombatPhaseState, index: int, attack: Attack, lookahead: Lookahead) -> CombatRecord:
    """Resolve one attack on the current position and apply everything that follows from it."""
    e = lookahead.standing(index)
    if isinstance(e, str):
        state.events.append(events.combat_cancelled(index, e))
        return CombatRecord(index, "cancelled")
    fpf = allot(state, e, lambda: lookahead.upcoming(index))
    state.gsp_left[state.phasing] = state.gsp_left.get(state.phasing, 0) - attack.gsp
    defense = e.base_defense + fpf.strength(state)
    differential = e.attack_strength - defense
    column = crt.column(e.line, differential)
    die = state.roll(_purpose(e, differential, column))
    result = crt.result(column, die)
    state.events.append(events.combat(
        index, list(e.adjacent), list(e.barraging), attack.gsp, list(e.defenders), e.banzai,
        e.attack_strength, defense, differential, e.line, column.label, die, result,
    ))

    # 14.1 is judged where each unit stands at the moment of the combat, before anyone moves (I15).
    tenacious = frozenset(u for u in e.defenders + e.adjacent if tenacity_applies(state, u))
    if result.startswith("D"):
        paths = _apply_result(state, e, result, e.defenders, state.defense.retreats, tenacious)
        lost = _banzai(state, e)
        winners = [u for u in e.adjacent if u not in lost]
        advance.carry_out(state, list(attack.advance), winners, paths, list(e.defenders), PLAYER)
    elif result.startswith("A"):
        if e.artillery_only and state.ruleset.dg:
            for a in e.adjacent:
                state.events.append(events.result_modified(index, a, "8.15", result, "no effect"))
            paths = {}
        else:
            paths = _apply_result(state, e, result, e.adjacent, attack.retreats, tenacious)
        lost = _banzai(state, e)
        for u in lost:
            paths.pop(u, None)
        _defender_advance(state, e, paths)
    else:
        _banzai(state, e)
    return CombatRecord(index, "resolved", e.attack_strength, defense, differential, e.line, column.label, die, result)


def _banzai(state: CombatPhaseState, e: Engagement) -> list[str]:
    if not e.banzai:
        return []
    lost = banzai_losses(state, e)
    for u in lost:
        _eliminate_in_place(state, u, "Banzai loss (10.0)")
    return lost


def _defender_advance(state: CombatPhaseState, e: Engagement, paths: dict[str, tuple[Hex, ...]]) -> None:
    """7.91 after an A-result: the defenders' standing choice, else no advance (docs/policies.md)."""
    if state.defense.advances is None or not paths:
        return
    winners = [d for d in e.defenders if state.placement.on_map(d)]
    advance.carry_out(state, list(state.defense.advances), winners, paths, list(e.adjacent), PLAYER)


def resolve_combat_phase(state: CombatPhaseState, attacks: list[Attack]) -> list[CombatRecord]:
    """Resolve every attack in order; ``state`` ends holding the position after the phase."""
    lookahead = Lookahead(state, attacks)
    return [resolve_attack(state, i, a, lookahead) for i, a in lookahead.numbered]
