"""The Legion system's bot: the simplest legal policy, for NMR, ``pbem bot`` and ``pbem demo`` (issue 39).

``advance``, whatever policy is asked for: in the Movement Phase each unit
of the side, one at a time in id order, takes one hex step toward the
nearest objective hex (20) its side does not own — a step kept only when
the orders with it still pass the room's own check (4-8: movement points,
ZOC, stacking), so the orders are always legal; a unit with no such step
holds.  Then, for each enemy hex in id order, every unit of the side next
to it that has not attacked yet makes one Assault Combat on it (9B), or
failing that one Fire Combat (9A), kept only when the check still passes;
otherwise it does not attack (combat is voluntary, 9).  It holds in every
Exploitation Phase and declines every Night Exploitation Phase (6C.2).  It
plays to show the game through the files — moves, combats, committed dice —
not to win: docs/legion.md.
"""

from __future__ import annotations

from pbem.engine import hexes
from pbem.model.common import enemy_of
from pbem.systems.legion.adjudicator import check_orders
from pbem.systems.legion.orders import LegionAttack, LegionMove, LegionOrders
from pbem.systems.legion.state import LegionState


def orders_for(view: dict, loaded) -> dict:
    """Orders for the side whose view this is (its whole position: the hidden-units option is not played yet)."""
    state = LegionState.model_validate({k: v for k, v in view["state"].items() if k not in ("format", "system")})
    if state.position.phase != "movement":
        return {"moves": [], "attacks": []}
    return advance(loaded.board, loaded.scenario, state)


def advance(board, scenario, state: LegionState) -> dict:
    side = state.to_act()
    goals = [h for h in scenario.victory.objectives.values() if state.owner.get(h) != side]
    if not goals:
        return {"moves": [], "attacks": []}
    cp = scenario.victory.cp_per_unit
    enemy = {state.locations[u.id] for u in state.units if u.side == enemy_of(side) and state.on_map(u.id)}
    moves: list[LegionMove] = []
    for unit in sorted(state.units, key=lambda u: u.id):
        if unit.side != side or not state.on_map(unit.id) or unit.move == 0:
            continue
        here = state.locations[unit.id]
        near = min(hexes.distance(here, g) for g in goals)
        if near == 0:
            continue
        steps = sorted((min(hexes.distance(n, g) for g in goals), n) for n in hexes.neighbours(here)
                       if board.land(n) and n not in enemy)
        for distance, step in steps:
            if distance >= near:
                break
            tried = moves + [LegionMove(units=[unit.id], path=[step])]
            if not check_orders(board, state, LegionOrders(moves=tried), cp_per_unit=cp):
                moves = tried
                break
    attacks = _attacks(board, state, moves, cp)
    return {"moves": [m.model_dump(mode="json", exclude_defaults=True) for m in moves],
            "attacks": [a.model_dump(mode="json", exclude_defaults=True) for a in attacks]}


def _attacks(board, state: LegionState, moves: list[LegionMove], cp: int) -> list[LegionAttack]:
    side = state.to_act()
    where = dict(state.locations) | {m.units[0]: m.path[-1] for m in moves}
    units = state.unit_index()
    own = sorted(u for u in where if units[u].side == side and state.on_map(u) and units[u].attack > 0)
    targets = sorted({where[u] for u in where if units[u].side != side and state.on_map(u)})
    attacks: list[LegionAttack] = []
    used: set[str] = set()
    for target in targets:
        attackers = [u for u in own if u not in used and hexes.adjacent(where[u], target)]
        if not attackers:
            continue
        for kind in ("assault", "fire"):
            tried = attacks + [LegionAttack(type=kind, target=target, attackers=attackers)]
            if not check_orders(board, state, LegionOrders(moves=moves, attacks=tried), cp_per_unit=cp):
                attacks = tried
                used.update(attackers)
                break
    return attacks
