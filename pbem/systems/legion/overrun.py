"""Overrun Attacks (6B.2): 8:1 after column shifts eliminates the defenders for good; less, an Assault at -2.

The odds compare the overrunning units' Attack Strength, halved by the
overrun hex's Combat Effects, with the defenders' Defense Strength (a hex of
Dummies alone counts 1, 19B.6; Defense 0 alone is eliminated outright, 9G);
the hex's and the crossed hex-side's Assault DRMs and the Armor Bonus
(10A) shift the column.  No die is rolled unless the Overrun fails.
"""

from __future__ import annotations

from fractions import Fraction

from pbem.model.common import enemy_of
from pbem.systems.legion import odds
from pbem.systems.legion.assault import Assault, armor, ground_attack, num, resolve_assault
from pbem.systems.legion.exposure import reveal
from pbem.systems.legion.orders import LegionMove
from pbem.systems.legion.phase import CombatPhase
from pbem.systems.legion.table import Table
from pbem.systems.legion.terrain_combat import best_hex_terrain, side_drm

FAILED_OVERRUN_DRM = -2
"""6B.2c: the Assault Combat a failed Overrun becomes is rolled at -2."""


def overrun_resolver(phase: CombatPhase, move: LegionMove):
    """The resolver :func:`pbem.systems.legion.movement.carry_out` calls for each Overrun of ``move``."""

    def resolve(table: Table, units: list[str], start: str, target: str) -> bool:
        index = f"O{len([c for c in phase.combats if c['type'] == 'overrun']) + 1}"
        defenders = table.in_hex(target, enemy_of(table.phasing))
        for d in defenders:
            table.no_zoc.add(d)
        record: dict = {"index": index, "type": "overrun", "target": target, "units": list(units), "from": start}
        real = [d for d in defenders if not table.units[d].is_dummy]
        spec = Assault(index=0, target=target, attackers=list(units))
        attack = ground_attack(phase, spec, units, False)
        if real and not any(table.defense_strength(d) > 0 for d in real):
            success, defense, step, shifts = True, Fraction(0), None, 0
            record["rule"] = "9G"
        else:
            # 19B.6: a hex of Dummies alone counts 1 for the odds; beside real units a Dummy counts nothing
            defense = sum((table.defense_strength(d) for d in real), Fraction(0)) if real else Fraction(1)
            shifts = best_hex_terrain(table.board, target).assault_drm + side_drm(table.board, target, {start})
            shifts += armor(phase, units, real, target)["drm"]
            step = odds.step(attack, defense)
            success = step + shifts >= odds.OVERRUN_STEP
        record |= {
            "attack": num(attack), "defense": num(defense), "odds": None if step is None else odds.label(step),
            "shifts": shifts, "final": None if step is None else odds.label(step + shifts), "result": "success" if success else "failed",
        }
        phase.combats.append(record)
        phase.events.append({"type": "overrun", **{k: v for k, v in record.items() if k != "type"}, "rule": "6B.2"})
        for d in defenders:
            table.no_zoc.discard(d)
        phase.events.extend(reveal(table, defenders, "19B.4"))
        if success:
            for d in table.in_hex(target, enemy_of(table.phasing)):
                phase.events.append({"type": "eliminated", "unit": d, "hex": target, "cause": f"overrun {index} (6B.2b)", "permanently": True})
                table.eliminate(d, permanently=True)
            return True
        assault = Assault(
            index=index, target=target, attackers=list(units), losses=list(move.losses),
            retreats=list(move.retreats), extra_drm=FAILED_OVERRUN_DRM, why_extra="failed Overrun (6B.2c)",
        )
        before = len(phase.combats)
        resolve_assault(phase, assault)
        for c in phase.combats[before:]:
            c["index"] = index
            c["type"] = "overrun-assault"
        return False

    return resolve
