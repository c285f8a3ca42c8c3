"""Victory from a scenario's Victory Table (20) (e).

The U.S. Casualty Points (each U.S. Combat Loss, and each U.S. unit
eliminated by the table's ``cp_per_unit``), the objective hexes each side
owns (5B), the Japanese units left on the map; the first level of the
table whose bounds all hold is the result, else ``otherwise``.  If every
Beachhead unit is eliminated the game ends at once in a Japanese Major
Victory (20 note).  Uncommitted and withdrawn units (17) are not yet counted.
"""

from __future__ import annotations

from pbem.systems.legion.scenario import VictoryTable
from pbem.systems.legion.state import LegionState

JAPANESE_MAJOR = "Japanese Major Victory"


def victory(state: LegionState, table: VictoryTable) -> dict:
    units = state.unit_index()
    owned = {name: state.owner.get(h) for name, h in table.objectives.items()}
    us_objectives = sum(1 for side in owned.values() if side == "US")
    japanese = sum(1 for u in state.units if u.side == "JP" and not u.is_dummy and state.on_map(u.id))
    beachheads = [u.id for u in state.units if u.type == table.beachhead_type]
    report = {
        "casualty_points": state.casualties, "objectives": owned, "us_objectives": us_objectives,
        "japanese_units": japanese, "rule": "20",
    }
    if beachheads and not any(state.on_map(b) for b in beachheads):
        return report | {"level": JAPANESE_MAJOR, "why": "every Beachhead eliminated (20 note)", "ended": True}
    for line in table.levels:
        checks = (
            (line.cp_max, state.casualties, lambda a, b: b <= a), (line.cp_min, state.casualties, lambda a, b: b >= a),
            (line.objectives_min, us_objectives, lambda a, b: b >= a), (line.objectives_max, us_objectives, lambda a, b: b <= a),
            (line.japanese_units_max, japanese, lambda a, b: b <= a), (line.japanese_units_min, japanese, lambda a, b: b >= a),
        )
        if all(bound is None or holds(bound, value) for bound, value, holds in checks):
            return report | {"level": line.level, "why": line.source, "ended": False}
    del units
    return report | {"level": table.otherwise, "why": "no line of the Victory Table holds", "ended": False}
