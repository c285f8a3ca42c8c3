"""Retreat Before Combat (9J): eligible defenders may try to slip away once an attack is declared.

Which units try is the defender's standing choice (``defense.rbc``, I1);
without one, the policy has every eligible unit try when its hex is
assaulted, and none when it is only fired on (docs/legion.md).
"""

from __future__ import annotations

from pbem.engine.events import Event
from pbem.systems.legion.phase import CombatPhase
from pbem.systems.legion.retreat import retreat


def attempt(phase: CombatPhase, target: str, defenders: list[str], assault: bool, index: int) -> tuple[list[Event], bool]:
    """Each trying unit rolls 1d6 on the Retreat Before Combat Table; returns the events and whether one failed (+1 DRM)."""
    table = phase.table
    written = phase.defense.rbc
    eligible = [d for d in defenders if table.units[d].rbc and table.on_map(d) and table.disruption(d) < 2]
    trying = [d for d in (written if written is not None else (eligible if assault else [])) if d in eligible]
    events: list[Event] = []
    failed = False
    for u in trying:
        die = phase.roll(f"Retreat Before Combat of {u} in combat {index} (9J)")
        result = table.charts.lookup(die, table.charts.retreat_before_combat).result
        events.append({"type": "retreat_before_combat", "index": index, "unit": u, "die": die, "result": result, "rule": "9J"})
        if result == "success":
            events += retreat(table, u, 1, phase.retreat_route(u, phase.defense.retreats), "defender", rule="9J")
            if table.on_map(u):
                phase.retreated.add(u)
        else:
            failed = True
    return events, failed
