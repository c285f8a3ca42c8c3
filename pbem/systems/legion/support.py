"""Artillery Support in Assault Combat (11, 11A): who may give it, how strong, how much.

Offensive Support is the attacker's written choice, checked with his orders;
Defensive Support is the defender's standing choice (I1) or, where he wrote
none, the policy: every eligible unit, the strongest B/S first, up to the
limit of 11A.3 (docs/legion.md).
"""

from __future__ import annotations

from fractions import Fraction

from pbem.engine import hexes
from pbem.model.common import enemy_of
from pbem.systems.legion.phase import CombatPhase
from pbem.systems.legion.table import Table
from pbem.systems.legion.terrain_combat import halving, best_hex_terrain


def bs_at(table: Table, u: str, target: str, distance: int, terrain: bool) -> Fraction:
    """B/S Strength less Hit markers, halved beyond half the Range (11), and by the TEC's Combat Effects when ``terrain`` (11A.1)."""
    value = Fraction(table.bs_strength(u))
    if distance * 2 > table.units[u].range:
        value /= 2
    if terrain:
        value *= halving([best_hex_terrain(table.board, target)], "bs")
    return value


def may_support(table: Table, u: str) -> str | None:
    """Why ``u`` may not give Support now, or None (11, 11A, 14)."""
    unit = table.units[u]
    if table.cls(u) != "artillery" or unit.bs <= 0:
        return "only artillery with a B/S Strength gives Support (11)"
    if not table.on_map(u):
        return "the unit is not on the map"
    if u in table.fired:
        return "the unit has Fired and is back only in its side's next Initial Phase (11)"
    if table.disruption(u) >= 1:
        return "a Disrupted unit gives no artillery Support (14)"
    return None


def defensive(phase: CombatPhase, target: str, attacker_hexes: set[str], defenders: list[str]) -> tuple[Fraction, list[str]]:
    """The Defensive Support for an Assault on ``target`` (11A.2, 11A.3): its strength and the artillery giving it."""
    table = phase.table
    side = table.units[defenders[0]].side if defenders else enemy_of(table.phasing)
    limit = sum(table.sp(d) for d in defenders)

    def eligible(u: str) -> bool:
        if may_support(table, u) is not None or u in phase.attacked or u in phase.supported or table.where(u) == target:
            return False
        at = table.where(u)
        if any(table.where(e) in hexes.neighbours(at) for e in table.side_units(enemy_of(side))):
            return False
        return any(hexes.distance(at, h) <= table.units[u].range for h in attacker_hexes)

    written = phase.defense.support
    if written is not None:
        chosen = [c.artillery for c in written if c.hex == target and c.artillery in table.units and table.units[c.artillery].side == side]
    else:
        pool = [u for u in table.side_units(side) if table.cls(u) == "artillery"]
        chosen = sorted(pool, key=lambda u: (-table.bs_strength(u), u))
    total = Fraction(0)
    used: list[str] = []
    sps = 0
    for u in chosen:
        if u in used or not eligible(u) or sps + table.sp(u) > limit:
            continue
        near = min(hexes.distance(table.where(u), h) for h in attacker_hexes)
        total += bs_at(table, u, target, near, terrain=False)
        sps += table.sp(u)
        used.append(u)
    if phase.night:
        total /= 2  # 6C.2: artillery Support halved at night
    for u in used:
        phase.supported.add(u)
        table.fired.add(u)
        table.defended[u] = table.turn
    return total, used
