"""Combat Losses: Hit markers, the CI side, elimination, and who takes each loss (9D.3, 9E, 9H, 10B, 20).

The owning player allocates his losses (9D.3).  A written order (the
attack's ``losses`` for the attacker, the standing ``defense.losses`` for the
defender, I1) is honoured where legal; what no one wrote down the policy
decides: each loss to the unit with the highest current Defense Strength
(then the most Stacking Points, then the id), so losses spread and units
survive (docs/legion.md, policies).
"""

from __future__ import annotations

from pbem.engine.events import Event
from pbem.systems.legion.table import Table


def hit(table: Table, u: str, cause: str) -> list[Event]:
    """One Combat Loss on ``u`` (9D.3): a Hit marker; the CI side when due (9E); eliminated at Defense 0."""
    events: list[Event] = []
    unit = table.units[u]
    table.hits[u] = table.hits.get(u, 0) + 1
    events.append({"type": "hit", "unit": u, "hits": table.hits[u], "cause": cause})
    if unit.side == "US":
        table.casualties += 1
    attack, defense, _ = table.printed(u)
    if unit.ci is not None and unit.reverse is not None and u not in table.ci:
        left_attack = attack - table.hits[u]
        left_defense = defense - table.hits[u]
        if left_attack <= unit.ci or left_defense <= unit.ci:
            table.ci.add(u)
            table.hits[u] = max(0, unit.reverse.attack - max(0, left_attack))
            events.append({"type": "combat_ineffective", "unit": u, "hits": table.hits[u], "rule": "9E"})
    if table.printed(u)[1] - table.hits[u] <= 0:
        events.append({"type": "eliminated", "unit": u, "hex": table.where(u), "cause": cause})
        table.eliminate(u)
    return events


def take_losses(
    table: Table,
    units: list[str],
    count: int,
    order: list[str] | None,
    cause: str,
    *,
    mandatory: list[list[str]] = (),
    exempt: set[str] = frozenset(),
) -> tuple[list[Event], int]:
    """Allocate ``count`` Combat Losses among ``units``; returns the events and the losses taken.

    ``mandatory``: groups each of which takes a loss first (9H, 10B); ``exempt``: units no loss may fall on
    (9B: Armor when no Artillery or Armor fired).  Losses no unit can take are lost.
    """
    events: list[Event] = [{"type": "losses", "count": count, "cause": cause, "units": list(units)}]
    taken = 0
    written = [u for u in (order or []) if u in units]

    def pick(pool: list[str]) -> str | None:
        alive = [u for u in pool if table.on_map(u) and u not in exempt]
        if not alive:
            return None
        for u in written:
            if u in alive:
                return u
        return max(alive, key=lambda u: (table.defense_strength(u), table.sp(u), u))

    for group in mandatory:
        if taken >= count:
            break
        chosen = pick([u for u in group if u in units])
        if chosen is not None:
            events += hit(table, chosen, cause)
            taken += 1
    while taken < count:
        chosen = pick(units)
        if chosen is None:
            break
        events += hit(table, chosen, cause)
        taken += 1
    events[0]["taken"] = taken
    return events, taken
