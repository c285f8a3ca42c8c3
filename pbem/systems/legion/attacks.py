"""Checking a Combat Phase's attacks before any die is rolled (9, 9A, 9B, 9E, 9F.3, 9G, 9I, 11, 11A, 14, 19A).

Checked on the position the moves leave (every Overrun assumed won).  An
attack whose moment never comes — its defenders gone, an attacker lost in
an earlier combat — is cancelled when it is reached, as in the SPI system.
"""

from __future__ import annotations

from pbem.engine import hexes
from pbem.engine.problems import Problem
from pbem.model.common import enemy_of
from pbem.systems.legion.orders import LegionAttack
from pbem.systems.legion.support import may_support
from pbem.systems.legion.table import Table


def same_hex(table: Table) -> list[str]:
    """Hexes holding units of both sides (9I)."""
    found = set()
    for u, at in table.locations.items():
        if table.on_map(u) and table.units[u].side == table.phasing and table.in_hex(at, enemy_of(table.phasing)):
            found.add(at)
    return sorted(found)


def check_attacks(table: Table, attacks: list[LegionAttack]) -> list[Problem]:
    problems: list[Problem] = []
    side = table.phasing
    enemy = enemy_of(side)
    used: dict[str, int] = {}
    supporting: dict[str, int] = {}
    targets: dict[str, int] = {}
    for i, attack in enumerate(attacks, 1):
        label = f"attack {i}"
        target = attack.target
        if target in targets:
            problems.append(Problem("9", None, f"{label}: hex {target} is already attacked by attack {targets[target]} (once per Combat Phase; not Fire and Assault both)"))
        targets[target] = i
        if not table.in_hex(target, enemy):
            problems.append(Problem("9", None, f"{label}: hex {target} holds no enemy unit"))
        ground = []
        for u in attack.attackers:
            if u not in table.units:
                problems.append(Problem("9", u, f"{label}: no unit '{u}' in this game"))
                continue
            unit = table.units[u]
            if unit.side != side or not table.on_map(u):
                problems.append(Problem("9", u, f"{label}: only the phasing player's units on the map attack"))
                continue
            if u in used:
                problems.append(Problem("9B", u, f"{label}: the unit already attacks in attack {used[u]} (once per Combat Phase)"))
            used[u] = i
            at = table.where(u)
            if at != target and not hexes.adjacent(at, target):
                problems.append(Problem("9", u, f"{label}: the unit in {at} is not adjacent to {target}"))
            if u in table.ci:
                problems.append(Problem("9E", u, f"{label}: a Combat Ineffective unit does not attack"))
            if table.disruption(u) >= 2:
                problems.append(Problem("14", u, f"{label}: a Badly Disrupted unit does not attack"))
            if unit.is_dummy:
                problems.append(Problem("19B.6", u, f"{label}: a Dummy counter conducts no combat"))
            if attack.type == "assault" and at != target:
                cls = table.cls(u)
                crossing = table.board.side_prohibited(cls, at, target) or table.board.hex_prohibited(cls, target)
                if crossing and not table.board.road(at, target):
                    problems.append(Problem("9B", u, f"{label}: no Assault Combat into or across terrain prohibited to a {cls} unit (9B, 9C)"))
            ground.append(u)
        if ground and not any(table.attack_strength(u) > 0 for u in ground):
            problems.append(Problem("9G", None, f"{label}: units of Attack Strength 0 attack only beside a unit stronger than 0"))
        problems += _support(table, attack, label, ground, supporting, i)
        if attack.banzai:
            if side != "JP" or attack.type != "assault":
                problems.append(Problem("19A", None, f"{label}: only a Japanese Assault Combat may be a Banzai attack"))
            elif not any(table.spec(u).banzai for u in ground):
                problems.append(Problem("19A", None, f"{label}: a Banzai attack needs infantry or combat engineers"))
        for u in attack.advance:
            if u not in attack.attackers:
                problems.append(Problem("9F.3", u, f"{label}: only an attacker advances after combat (never Support artillery)"))
            elif attack.type != "assault":
                problems.append(Problem("9F.3", u, f"{label}: only Assault Combat advances"))
        for u in attack.losses:
            if u not in attack.attackers:
                problems.append(Problem("9D.3", u, f"{label}: 'losses' lists only this attack's attackers"))
    for u in supporting:
        if u in used:
            problems.append(Problem("11", u, f"attack {supporting[u]}: an artillery unit attacking this Combat Phase gives no Offensive Support"))
    for h in same_hex(table):
        i = targets.get(h)
        mine = set(table.in_hex(h, side))
        attacking = set(attacks[i - 1].attackers) if i else set()
        if i is None or attacks[i - 1].type != "assault" or not mine <= attacking:
            problems.append(Problem("9I", None, f"hex {h} holds both sides' units: the phasing units there must assault the enemy there"))
    return problems


def _support(table: Table, attack: LegionAttack, label: str, ground: list[str], supporting: dict[str, int], i: int) -> list[Problem]:
    """11, 11A.1, 11A.3: Offensive Support by artillery within Range, not Fired, within twice the attackers' SPs."""
    problems: list[Problem] = []
    if attack.support and attack.type != "assault":
        return [Problem("11A", None, f"{label}: artillery Support is for Assault Combat")]
    for u in attack.support:
        if u not in table.units or table.units[u].side != table.phasing:
            problems.append(Problem("11A", u, f"{label}: not an artillery unit of the phasing player"))
            continue
        if u in supporting:
            problems.append(Problem("11", u, f"{label}: a B/S Strength is not split between combats (already in attack {supporting[u]})"))
            continue
        supporting[u] = i
        why = may_support(table, u)
        if why is not None:
            problems.append(Problem("14" if "Disrupted" in why else "11", u, f"{label}: {why}"))
            continue
        if table.defended.get(u) == table.turn:
            problems.append(Problem("11A", u, f"{label}: it gave Defensive Support this Game-Turn, so no Offensive Support (11A)"))
        if hexes.distance(table.where(u), attack.target) > table.units[u].range:
            problems.append(Problem("11", u, f"{label}: {attack.target} is beyond its Range of {table.units[u].range}"))
    artillery_sp = sum(table.sp(u) for u in attack.support if u in table.units)
    ground_sp = sum(table.sp(u) for u in ground)
    if len(attack.support) > 1 and artillery_sp > 2 * ground_sp:
        problems.append(Problem("11A.3", None, f"{label}: {artillery_sp} SPs of artillery Support exceed twice the attackers' {ground_sp} SPs"))
    return problems
