"""Retreats after combat and before it (9F.1, 9J): each hex entered the best the priorities allow.

9F.1 ranks the hexes a retreating unit may enter: (1) not in an enemy ZOC,
within the stacking limit; (2) not in an enemy ZOC, over it; (3) in an enemy
ZOC but already holding a friendly unit, within the limit; (4) the same, over
it.  Never prohibited terrain, an enemy-occupied hex, or an enemy ZOC without
a friendly unit.  Each step moves away from the hex left (a two-hex retreat
ends two hexes from it); a unit that ends over the limit goes on, never
closer, until it fits.  The owner's written route is followed while each of
its steps is of the best rank open; otherwise the policy picks, among the
best-ranked hexes, the one farthest from the nearest enemy unit, then the
lowest id (docs/legion.md).
"""

from __future__ import annotations

from pbem.engine import hexes
from pbem.engine.events import Event
from pbem.model.common import enemy_of
from pbem.systems.legion.table import Table

MAX_CONTINUE = 6
"""How far a retreat over the stacking limit may go on looking for room (9F.1) before the unit is eliminated."""


def _rank(table: Table, u: str, here: str, h: str) -> int | None:
    side = table.units[u].side
    cls = table.cls(u)
    if not table.board.land(h) or table.in_hex(h, enemy_of(side)):
        return None
    if table.board.enter_cost(cls, here, h) is None:
        return None
    fits = table.stack_ok(h, side, [u])
    if not table.in_enemy_zoc(side, h):
        return 1 if fits else 2
    if [f for f in table.in_hex(h, side) if f != u]:
        return 3 if fits else 4
    return None


def _enemy_distance(table: Table, u: str, h: str) -> int:
    enemy = [table.where(e) for e in table.side_units(enemy_of(table.units[u].side))]
    return min((hexes.distance(h, e) for e in enemy), default=99)


def _best(table: Table, u: str, here: str, origin: str, want: int, written: str | None) -> str | None:
    """The next hex: ``want`` hexes from ``origin`` at least (never closer), of the best rank open."""
    options = []
    for h in table.board.neighbours(here):
        if hexes.distance(origin, h) < want:
            continue
        rank = _rank(table, u, here, h)
        if rank is not None:
            options.append((rank, h))
    if not options:
        return None
    top = min(r for r, _ in options)
    best = [h for r, h in options if r == top]
    if written in best:
        return written
    return max(best, key=lambda h: (_enemy_distance(table, u, h), [-ord(c) for c in h]))


def retreat(table: Table, u: str, hexes_to_go: int, written: list[str] | None, chosen_by: str, rule: str = "9F.1") -> list[Event]:
    """Retreat ``u`` ``hexes_to_go`` hexes from where it stands; eliminated when it cannot (9F.1)."""
    origin = table.where(u)
    here = origin
    path: list[str] = []
    route = list(written or [])
    follows = True
    for step in range(1, hexes_to_go + MAX_CONTINUE + 1):
        if step > hexes_to_go and table.stack_ok(here, table.units[u].side):
            break
        want = step if step <= hexes_to_go else hexes.distance(origin, here)
        wanted = route[step - 1] if step - 1 < len(route) else None
        nxt = _best(table, u, here, origin, want, wanted)
        if nxt is None:
            return _gone(table, u, origin, path, chosen_by, rule)
        follows = follows and nxt == wanted
        table.locations[u] = nxt
        path.append(nxt)
        here = nxt
    else:
        if not table.stack_ok(here, table.units[u].side):
            return _gone(table, u, origin, path, chosen_by, rule)
    table.update_ownership({h for p in [origin, *path] for h in (p, *hexes.neighbours(p))})
    who = chosen_by if (written and follows and len(route) == len(path)) else "policy"
    return [{"type": "retreated", "unit": u, "from": origin, "path": path, "eliminated": False, "chosen_by": who, "rule": rule}]


def _gone(table: Table, u: str, origin: str, path: list[str], chosen_by: str, rule: str) -> list[Event]:
    table.locations[u] = origin
    table.eliminate(u)
    return [{"type": "retreated", "unit": u, "from": origin, "path": path, "eliminated": True, "chosen_by": "policy", "rule": rule}]
