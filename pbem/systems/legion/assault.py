"""Assault Combat (9A.2, 9C, 9D.1, 9F, 9G, 9H, 10, 11A, 14, 19A, 9J), and the Assault a failed Overrun becomes (6B.2c).

The order of 9A.2: the attacker's strength and Offensive Support; Retreat
Before Combat (9J); the defender's strength and Defensive Support; a Banzai
declaration's losses and doubling (19A); the odds, rounded down, and the
DRMs (terrain, Armor Bonus, Disruption, a failed Retreat Before Combat, a
failed Overrun), at most -4 in all; 1d6 on the Assault Combat Results
Table; losses (owner's allocation, mandatory ones first), retreats, advance.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from pbem.engine import hexes
from pbem.engine.events import Event
from pbem.model.common import enemy_of
from pbem.model.routes import Route
from pbem.systems.legion import odds
from pbem.systems.legion.banzai import banzai_losses
from pbem.systems.legion.exposure import after_move, reveal
from pbem.systems.legion.losses import take_losses
from pbem.systems.legion.phase import CombatPhase
from pbem.systems.legion.rbc import attempt
from pbem.systems.legion.results import parse
from pbem.systems.legion.retreat import retreat
from pbem.systems.legion.support import bs_at, defensive
from pbem.systems.legion.terrain_combat import best_hex_terrain, capped, halving, side_drm


@dataclass(frozen=True)
class Assault:
    index: int | str
    target: str
    attackers: list[str]
    support: list[str] = field(default_factory=list)
    banzai: bool = False
    advance: list[str] = field(default_factory=list)
    losses: list[str] = field(default_factory=list)
    retreats: list[Route] = field(default_factory=list)
    extra_drm: int = 0
    why_extra: str = ""


def num(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def ground_attack(phase: CombatPhase, spec: Assault, attackers: list[str], doubled: bool) -> Fraction:
    """The attackers' Attack Strength after terrain (9C: hex and hex-side halving by class) and a Banzai doubling (19A)."""
    table = phase.table
    hex_terrain = best_hex_terrain(table.board, spec.target)
    total = Fraction(0)
    for u in attackers:
        value = table.attack_strength(u)
        cls = table.cls(u)
        at = table.where(u)
        effects = [hex_terrain] + (table.board.side_effects(at, spec.target) if at != spec.target else [])
        value *= halving(effects, cls)
        if doubled and table.spec(u).banzai:
            value *= 2
        total += value
    return total


def armor(phase: CombatPhase, attackers: list[str], defenders: list[str], target: str) -> dict:
    """10A: who qualifies for the Armor Bonus, the DRM it gives after Anti-tank Effects, and who must take the first loss (10B)."""
    table = phase.table
    out = {"drm": 0, "attacker_armor": [], "defender_armor": [], "anti_tank": []}
    if not table.board.armor_effects(target):
        return out
    able = lambda u: table.disruption(u) < 2  # noqa: E731 - 14: Badly Disrupted units count for neither
    total_attack = sum((table.attack_strength(u) for u in attackers), Fraction(0))
    armor_units = [u for u in attackers if table.is_armor(u) and able(u)]
    armor_attack = sum((table.attack_strength(u) for u in armor_units), Fraction(0))
    anti_tank = [d for d in defenders if table.is_anti_tank(d) and able(d)]
    deduction = sum((table.defense_strength(d) for d in anti_tank), Fraction(0))
    if armor_units and total_attack > 0 and armor_attack * 3 >= total_attack:
        out["attacker_armor"] = armor_units
        if anti_tank:
            out["anti_tank"] = anti_tank
        if armor_attack - deduction > 0 and (armor_attack - deduction) * 3 >= total_attack:
            out["drm"] += 1
    total_defense = sum((table.defense_strength(d) for d in defenders), Fraction(0))
    armor_def = [d for d in defenders if table.is_armor(d) and able(d)]
    if armor_def and total_defense > 0 and sum((table.defense_strength(d) for d in armor_def), Fraction(0)) * 3 >= total_defense:
        out["defender_armor"] = armor_def
        out["drm"] -= 1
    return out


def resolve_assault(phase: CombatPhase, spec: Assault) -> None:
    """Resolve one Assault Combat and record it in ``phase``."""
    table = phase.table
    record: dict = {"index": spec.index, "type": "assault", "target": spec.target, "status": "resolved"}
    defender_side = enemy_of(table.phasing)
    events = phase.events
    attackers = [u for u in spec.attackers if table.on_map(u)]
    phase.attacked.update(attackers)
    phase.hexes.add(spec.target)
    events += reveal(table, table.in_hex(spec.target, defender_side) + attackers, "19B.4")
    support = [u for u in spec.support if table.on_map(u)]
    for u in support:
        phase.supported.add(u)
        table.fired.add(u)
    support_strength = sum((bs_at(table, u, spec.target, hexes.distance(table.where(u), spec.target), terrain=True) for u in support), Fraction(0))
    if phase.night:
        support_strength /= 2  # 6C.2
    defenders = table.in_hex(spec.target, defender_side)
    rbc_events, rbc_failed = attempt(phase, spec.target, defenders, True, spec.index)
    events += rbc_events
    defenders = table.in_hex(spec.target, defender_side)
    phase.attacked.update(defenders)
    counted = [d for d in defenders if d not in phase.retreated]
    if not defenders:
        record |= {"status": "vacated", "result": None}
        phase.combats.append(record)
        events += _advance(phase, spec, attackers)
        return
    if not any(table.defense_strength(d) > 0 for d in counted):
        for d in defenders:
            events.append({"type": "eliminated", "unit": d, "hex": spec.target, "cause": f"combat {spec.index}: no Defense Strength (9G)"})
            table.eliminate(d)
        record |= {"status": "automatic", "result": "-/DE", "rule": "9G"}
        phase.combats.append(record)
        events += _advance(phase, spec, attackers)
        return
    attacker_hexes = {table.where(u) for u in attackers}
    defense_support, defense_artillery = defensive(phase, spec.target, attacker_hexes, counted)
    doubled = False
    if spec.banzai:
        banzai_events = banzai_losses(phase, spec.index, spec.losses, attackers, counted)
        events += banzai_events
        attackers = [u for u in attackers if table.on_map(u)]
        doubled = True
        if not attackers:
            record |= {"status": "banzai-spent", "result": None}
            phase.combats.append(record)
            return
    attack = ground_attack(phase, spec, attackers, doubled) + support_strength
    defense = sum((table.defense_strength(d) for d in counted), Fraction(0)) + defense_support
    drm_parts = {}
    terrain = best_hex_terrain(table.board, spec.target).assault_drm
    if terrain:
        drm_parts["terrain (9C)"] = terrain
    side = side_drm(table.board, spec.target, attacker_hexes)
    if side:
        drm_parts["hex-side (9C)"] = side
    arm = armor(phase, attackers, counted, spec.target)
    if arm["drm"]:
        drm_parts["armor (10A)"] = arm["drm"]
    disrupted_sp = sum(table.sp(d) for d in counted if table.disruption(d) >= 1)
    if counted and disrupted_sp * 2 >= sum(table.sp(d) for d in counted) and disrupted_sp > 0:
        drm_parts["disrupted defenders (14)"] = 1
    if rbc_failed:
        drm_parts["failed Retreat Before Combat (9J)"] = 1
    if spec.extra_drm:
        drm_parts[spec.why_extra] = spec.extra_drm
    if phase.night:
        drm_parts["night (6C.2)"] = -1
    ratio = odds.step(attack, defense) if defense > 0 else odds.AUTO_DE
    if ratio > odds.TOP and ratio < odds.AUTO_DE:
        drm_parts["odds beyond 7:1 (9A.2)"] = ratio - odds.TOP
    drm = capped(sum(drm_parts.values()), table.board)
    record |= {
        "attack": num(attack), "defense": num(defense), "odds": odds.label(min(ratio, odds.AUTO_DE)),
        "support": support, "defensive_support": defense_artillery, "drm": drm, "drms": drm_parts, "banzai": spec.banzai,
    }
    if ratio < odds.WORST:
        result, die = "AE/-", None
        record["rule"] = "9A.2: worse than 1:4"
    elif ratio >= odds.AUTO_DE:
        result, die = "-/DE", None
        record["rule"] = "9A.2: 10:1 or more"
    else:
        column = odds.label(min(ratio, odds.TOP))
        die = phase.roll(f"combat {spec.index}: Assault Combat against {spec.target} at {column} (9A.2)")
        row = table.charts.lookup(die + drm, table.charts.assault)
        result = row.results[table.charts.assault.columns.index(column)]
        record |= {"column": column, "die": die, "modified": die + drm}
    record["result"] = result
    phase.combats.append(record)
    events.append({"type": "assault", **{k: v for k, v in record.items() if k != "type"}})
    _apply(phase, spec, result, attackers, counted, defenders, arm)
    events += _advance(phase, spec, attackers)


def _apply(phase: CombatPhase, spec: Assault, result: str, attackers: list[str], counted: list[str], defenders: list[str], arm: dict) -> None:
    """9D.1: the result, each side's losses from its own total (printed less Hit markers), then retreats."""
    table = phase.table
    events = phase.events
    effect = parse(result)
    a_total = sum(table.loss_strength(u, True) for u in attackers)
    d_total = sum(table.loss_strength(d, False) for d in counted)
    a_loss, d_loss = effect.losses(a_total, d_total)
    cause = f"combat {spec.index} ({result})"
    if effect.attacker_eliminated:
        for u in attackers:
            if table.on_map(u):
                events.append({"type": "eliminated", "unit": u, "hex": table.where(u), "cause": cause})
                table.eliminate(u)
    if effect.defender_eliminated:
        for d in defenders:
            if table.on_map(d):
                events.append({"type": "eliminated", "unit": d, "hex": table.where(d), "cause": cause})
                table.eliminate(d)
    if a_loss:
        mandatory = [arm["attacker_armor"]] if arm["attacker_armor"] else []
        got, _ = take_losses(table, attackers, a_loss, spec.losses, cause, mandatory=mandatory)
        events += got
    if d_loss:
        mandatory = [g for g in (arm["defender_armor"], arm["anti_tank"]) if g]
        got, _ = take_losses(table, counted, d_loss, phase.defense.losses, cause, mandatory=mandatory)
        events += got
    for hexes_to_go, side_units, written, who in (
        (effect.attacker_retreat, attackers, spec.retreats, "attacker"),
        (effect.defender_retreat, defenders, phase.defense.retreats, "defender"),
    ):
        if hexes_to_go:
            for u in side_units:
                if table.on_map(u):
                    events += retreat(table, u, hexes_to_go, phase.retreat_route(u, written), who)
                    if who == "defender" and table.on_map(u):
                        phase.retreated.add(u)


def _advance(phase: CombatPhase, spec: Assault, attackers: list[str]) -> list[Event]:
    """9F.3: listed attackers enter the vacated hex, up to its stacking limit; never Support artillery."""
    table = phase.table
    if table.in_hex(spec.target, enemy_of(table.phasing)):
        return []
    events: list[Event] = []
    for u in spec.advance:
        if u not in attackers or not table.on_map(u) or table.where(u) == spec.target:
            continue
        if not table.stack_ok(spec.target, table.phasing, [u]):
            continue
        start = table.where(u)
        table.locations[u] = spec.target
        events.append({"type": "advanced", "unit": u, "from": start, "path": [spec.target], "chosen_by": "attacker"})
        events += after_move(table, u, [start, spec.target])
    if events:
        table.update_ownership({spec.target, *hexes.neighbours(spec.target)})
    return events
