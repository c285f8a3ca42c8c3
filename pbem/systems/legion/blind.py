"""Legion hidden units with no referee: what the Japanese player commits under each marker and opens (19B).

The no-referee mode (pbem/game/modes/blind/) commits every Japanese counter on the map under a marker and opens the
counters the rules expose.  A Legion hex holds a stack, so a marker is one counter of it: ``HEX.N``, the counters of a
hex numbered from 1 in an order drawn from the Japanese player's secret (``key``, a new one each step): the number
says nothing of the counter, and an opening tells nothing of the counters beside it.  What a step exposes is what the
refereed American view of it names (:func:`pbem.systems.legion.views.known_events`), so the two modes agree.
"""

from __future__ import annotations

import hashlib
import hmac

from pbem.systems.legion.counters import Counter
from pbem.systems.legion.state import NOT_ON_MAP, LegionState
from pbem.systems.legion.views import HIDDEN, known_events, strings_in

DUMMY = {"kind": "dummy"}
"""A Dummy under its marker (pbem.protocol.commitment's): nothing but that it is one (19B.6)."""
PIECE_FIELDS = ("id", "type", "size", "attack", "defense", "move", "bs", "range")
"""What a root commits of a unit: its identity and what its counter prints (3A)."""


def piece(unit: Counter) -> dict:
    """A unit as a root commits it, and as the American player checks an opening against the order of battle."""
    return {k: getattr(unit, k) for k in PIECE_FIELDS}


def assignment(state: LegionState, key: bytes) -> dict[str, str]:
    """Marker id -> the Japanese counter under it, for every Japanese counter on the map."""
    stacks: dict[str, list[str]] = {}
    for u in state.units:
        if u.side == "JP" and state.on_map(u.id):
            stacks.setdefault(state.locations[u.id], []).append(u.id)
    out = {}
    for h, ids in stacks.items():
        ids.sort(key=lambda u: hmac.new(key, u.encode(), hashlib.sha256).digest())
        out.update({f"{h}.{n}": u for n, u in enumerate(ids, 1)})
    return out


def pieces(state: LegionState, key: bytes) -> dict[str, dict]:
    units = state.unit_index()
    return {m: dict(DUMMY) if units[u].is_dummy else piece(units[u]) for m, u in assignment(state, key).items()}


def view_markers(view: dict) -> list[str]:
    """The markers of an American view: one for each Japanese counter on the map, examined or not, hex by hex."""
    state = view["state"]
    where = state["locations"]
    count: dict[str, int] = {}
    for u in state["units"]:
        h = where.get(u["id"])
        if u["side"] == "JP" and h is not None and h not in NOT_ON_MAP:
            count[h] = count.get(h, 0) + 1
    return sorted(f"{h}.{n}" for h, c in count.items() for n in range(1, c + 1))



def exposure(before: LegionState, after: LegionState, events: list[dict], side: str,
             keys: tuple[bytes, bytes]) -> tuple[dict[str, str], dict[str, str], frozenset[str]]:
    """The openings a step demands: ``before`` (an American step's exposures, against the root before it: the
    defenders of his attacks, 19B.4, and the Dummies they reveal, 19B.6), ``after`` (every Japanese unit Exposed on
    the map at the end, against the new root) and the claims neither can show (a Japanese unit sighted in passing,
    19B.3, a Dummy revealed moving, 19B.6: opened against the root before, they would tell where it came from)."""
    units = before.unit_index() | after.unit_index()
    real = {u for u, c in units.items() if c.side == "JP" and not c.is_dummy and c.type != HIDDEN}
    named = {s for s in strings_in(known_events(after, "US", events)) if s in real}
    standing = {u for u in (after.exposed or ()) if after.on_map(u) and u in real}
    dummies = {e["unit"] for e in events if e.get("type") == "dummy_revealed"}
    told = named | standing | dummies
    already = {u for u in (before.exposed or ()) if before.on_map(u)}
    was = assignment(before, keys[0])
    now = assignment(after, keys[1])
    opened_before = {m: u for m, u in was.items() if u in told and u not in already} if side in ("US", "setup") else {}
    exposed_after = {m: u for m, u in now.items() if u in standing}
    claims = told - set(opened_before.values()) - set(exposed_after.values()) - already
    return opened_before, exposed_after, frozenset(claims)
