"""Fire Combat (9A.1, 9B, 9C, 9D.2, 19B.4): both sides fire at once; each owner allocates the losses he takes.

The defenders in the target hex return fire with their Defense Strength
into one attacking hex: the defender's standing choice (``return_fire``,
I1), else the policy's — the attacking hex with the most Attack Strength,
then the lowest id (docs/legion.md).  Each roll reads the Fire Combat
Results Table in the column of the firing strength, modified by the
terrain of the hex fired into (its best for the units there; hex-sides do
not count, 9C).  A side whose fire holds neither Artillery-class nor Armor
units inflicts no loss on Armor (9B).
"""

from __future__ import annotations

from fractions import Fraction

from pbem.model.common import enemy_of
from pbem.systems.legion.assault import num
from pbem.systems.legion.charts import column_index
from pbem.systems.legion.exposure import reveal
from pbem.systems.legion.losses import take_losses
from pbem.systems.legion.orders import LegionAttack
from pbem.systems.legion.phase import CombatPhase
from pbem.systems.legion.rbc import attempt
from pbem.systems.legion.terrain_combat import best_fire_drm, capped


def _fire(phase: CombatPhase, strength: Fraction, drm: int, purpose: str) -> tuple[int, int]:
    table = phase.table
    die = phase.roll(purpose)
    column = column_index(table.charts.fire.columns, strength)
    if column is None:
        return die, 0
    return die, table.charts.lookup(die + drm, table.charts.fire).losses[column]


def _exempt(table, firers: list[str], targets: list[str]) -> set[str]:
    """9B: Armor takes Fire Combat losses only from fire that includes an Artillery-class or Armor unit."""
    if any(table.cls(u) == "artillery" or table.is_armor(u) for u in firers):
        return set()
    return {t for t in targets if table.is_armor(t)}


def resolve_fire(phase: CombatPhase, index: int, attack: LegionAttack) -> None:
    table = phase.table
    target = attack.target
    defender_side = enemy_of(table.phasing)
    attackers = [u for u in attack.attackers if table.on_map(u)]
    phase.attacked.update(attackers)
    phase.hexes.add(target)
    record: dict = {"index": index, "type": "fire", "target": target, "status": "resolved"}
    defenders = table.in_hex(target, defender_side)
    rbc_events, rbc_failed = attempt(phase, target, defenders, False, index)
    phase.events.extend(rbc_events)
    defenders = [d for d in table.in_hex(target, defender_side)]
    phase.attacked.update(defenders)
    if not defenders:
        record |= {"status": "vacated"}
        phase.combats.append(record)
        return
    real = [d for d in defenders if not table.units[d].is_dummy and d not in phase.retreated]
    firing_back = [d for d in real if table.defense_strength(d) > 0]
    attack_strength = sum((table.attack_strength(u) for u in attackers), Fraction(0))
    return_strength = sum((table.defense_strength(d) for d in firing_back), Fraction(0))
    attacker_hexes = sorted({table.where(u) for u in attackers})
    into = _return_into(phase, target, attacker_hexes, attackers)
    drm = capped(best_fire_drm(table.board, target) + (1 if rbc_failed else 0), table.board)
    back_drm = capped(best_fire_drm(table.board, into), table.board)
    die, inflicted = _fire(phase, attack_strength, drm, f"combat {index}: Fire Combat against {target} (9A.1)")
    back_die, suffered = (None, 0)
    if firing_back:
        back_die, suffered = _fire(phase, return_strength, back_drm, f"return fire into {into} in combat {index} (9A.1)")
    record |= {
        "attack": num(attack_strength), "defense": num(return_strength), "drm": drm, "die": die, "return_into": into,
        "return_drm": back_drm, "return_die": back_die, "inflicted": inflicted, "suffered": suffered,
    }
    phase.combats.append(record)
    phase.events.append({"type": "fire", **{k: v for k, v in record.items() if k != "type"}})
    cause = f"combat {index} (Fire Combat)"
    targets = real if real else defenders
    hit_back = [u for u in attackers if table.where(u) == into]
    if inflicted:
        if not real:
            phase.events.extend(reveal(table, defenders, "19B.6"))
        else:
            got, _ = take_losses(table, targets, inflicted, phase.defense.losses, cause, exempt=_exempt(table, attackers, targets))
            phase.events.extend(got)
            struck = sorted({e["unit"] for e in got if e["type"] == "hit"})
            phase.events.extend(reveal(table, [d for d in struck if table.on_map(d)], "19B.4"))
    if suffered and hit_back:
        got, _ = take_losses(table, hit_back, suffered, attack.losses, cause, exempt=_exempt(table, firing_back, hit_back))
        phase.events.extend(got)


def _return_into(phase: CombatPhase, target: str, attacker_hexes: list[str], attackers: list[str]) -> str:
    table = phase.table
    for choice in phase.defense.return_fire or []:
        if choice.hex == target and choice.into in attacker_hexes:
            return choice.into
    strength = {h: sum((table.attack_strength(u) for u in attackers if table.where(u) == h), Fraction(0)) for h in attacker_hexes}
    return min(attacker_hexes, key=lambda h: (-strength[h], h))
