"""Limited intelligence during adjudication (19B.2-19B.6): which Japanese units the U.S. player may examine.

The readings pbem already plays for its hidden-units option
(docs/hidden-units.md, :mod:`pbem.engine.exposure`), here on the rules they
come from: a Japanese unit is Exposed when it moves into, through or out of
a Clear hex and stays so only while it stands in one (19B.3); in Assault
Combat, and in Fire Combat when it takes a loss, or when an Overrun is
declared against it (19B.4); as the Japanese player-turn begins, only an
Exposed unit in a Clear hex next to a U.S. unit stays Exposed (19B.5).  A
Dummy revealed is eliminated (19B.6).  Without limited intelligence
(``exposed`` is None) nothing here applies.
"""

from __future__ import annotations

from pbem.engine import hexes
from pbem.engine.events import Event
from pbem.systems.legion.table import Table


def reveal(table: Table, units: list[str], rule: str) -> list[Event]:
    """Expose the Japanese units among ``units``; a Dummy revealed is eliminated (19B.6)."""
    if table.exposed is None:
        return []
    events: list[Event] = []
    for u in units:
        if table.units[u].side != "JP" or not table.on_map(u):
            continue
        if table.units[u].is_dummy:
            events.append({"type": "dummy_revealed", "unit": u, "hex": table.where(u), "rule": "19B.6"})
            table.eliminate(u)
        elif u not in table.exposed:
            table.exposed.add(u)
            events.append({"type": "exposed", "unit": u, "hex": table.where(u), "rule": rule})
    return events


def after_move(table: Table, u: str, visited: list[str]) -> list[Event]:
    """19B.3 for a Japanese unit that moved, retreated or advanced through ``visited`` (its start first)."""
    if table.exposed is None or table.units[u].side != "JP":
        return []
    seen = [h for h in visited if table.board.exposure_clear(h)]
    if not seen:
        return []
    if table.units[u].is_dummy:
        table.locations[u] = seen[0]
        return reveal(table, [u], "19B.3")
    events: list[Event] = [{"type": "sighted", "unit": u, "hexes": seen, "rule": "19B.3"}]
    if table.on_map(u) and table.board.exposure_clear(table.where(u)):
        events += reveal(table, [u], "19B.3")
    else:
        table.exposed.discard(u)
    return events


def japanese_initial(table: Table) -> list[Event]:
    """19B.5: as the Japanese player-turn begins, an Exposed unit stays so only in a Clear hex next to a U.S. unit."""
    if table.exposed is None:
        return []
    american = {table.where(u) for u in table.side_units("US")}
    hidden = sorted(
        u for u in table.exposed
        if not (table.on_map(u) and table.board.exposure_clear(table.where(u)) and american & set(hexes.neighbours(table.where(u))))
    )
    for u in hidden:
        table.exposed.discard(u)
    return [{"type": "hidden_again", "units": hidden, "rule": "19B.5"}] if hidden else []
