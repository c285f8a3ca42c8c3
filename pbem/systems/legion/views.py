"""What each side sees of a Legion position (d): limited intelligence and Dummies (19B).

The American view shows the Japanese units he may examine (Exposed, or
eliminated) and every other Japanese counter — Dummies among them — only
as a marker in its hex, one per counter, listed by hex so that no order
tells them apart (19B.2, as pbem's hidden-units option shows them,
:mod:`pbem.game.fog`).  The Japanese view shows in full the U.S. units next
to a Japanese unit, and of every other U.S. stack its top unit — the one
with the highest current Defense Strength — and a marker for each unit
beneath (19B.1).  Without limited intelligence both views are the whole
position.
"""

from __future__ import annotations

from pbem.engine import hexes
from pbem.model.common import Side
from pbem.systems.legion.counters import Counter
from pbem.systems.legion.state import LegionState

HIDDEN = "hidden"


def unit_view(state: LegionState, u: str) -> dict:
    """A counter and its markers as a side that may examine it sees it."""
    unit = state.unit_index()[u]
    out = unit.model_dump(exclude_none=True, exclude_defaults=False)
    out["hex"] = state.locations.get(u)
    for key, value in (("hits", state.hits.get(u, 0)), ("disrupted", state.disrupted.get(u, 0))):
        if value:
            out[key] = value
    if u in state.ci:
        out["ci"] = True
    if u in state.fired:
        out["fired"] = True
    if u in state.reserve:
        out["reserve"] = True
    return out


def view(state: LegionState, side: Side) -> dict:
    """The position as ``side`` may know it."""
    units = state.unit_index()
    shown: list[dict] = []
    markers: list[dict] = []
    hidden_enemy = set()
    if state.exposed is not None:
        if side == "US":
            for u in units.values():
                if u.side == "JP" and state.on_map(u.id) and (u.is_dummy or u.id not in state.exposed):
                    hidden_enemy.add(u.id)
        else:
            japanese = {state.locations[u.id] for u in units.values() if u.side == "JP" and state.on_map(u.id)}
            stacks: dict[str, list[str]] = {}
            for u in units.values():
                if u.side == "US" and state.on_map(u.id):
                    stacks.setdefault(state.locations[u.id], []).append(u.id)
            for h, ids in stacks.items():
                if japanese & set(hexes.neighbours(h)):
                    continue
                top = max(ids, key=lambda i: (units[i].defense - state.hits.get(i, 0), i))
                hidden_enemy.update(i for i in ids if i != top)
    for u in sorted(units):
        if u in hidden_enemy:
            markers.append({"id": state.locations[u], "side": units[u].side, "kind": HIDDEN, "hex": state.locations[u]})
        else:
            shown.append(unit_view(state, u))
    markers.sort(key=lambda m: m["hex"])
    return {
        "side": side, "position": state.position.model_dump(), "units": shown, "markers": markers,
        "owner": dict(state.owner), "casualties": state.casualties,
    }


PRIVATE = ("moved", "retreated", "advanced", "hit", "losses", "combat_ineffective", "eliminated", "retreat_before_combat")
"""Events about one unit that the U.S. player sees of a Japanese unit only if he may examine it."""


def events_for(state: LegionState, side: Side, events: list[dict]) -> list[dict]:
    """The events ``side`` may read: under limited intelligence the U.S. player reads a Japanese unit's moves only as
    the Clear hexes it was sighted in (19B.3), and its losses only once it is Exposed or gone (19B.4)."""
    if state.exposed is None or side == "JP":
        return list(events)
    units = state.unit_index()
    japanese = {u for u, c in units.items() if c.side == "JP"}
    known = set(state.exposed) | {u for u in japanese if not state.on_map(u)}
    out = []
    for event in events:
        unit = event.get("unit")
        if event["type"] in PRIVATE and unit in japanese and unit not in known:
            continue
        if event["type"] in ("sighted", "hidden_again", "exposed") and unit in japanese and unit not in known:
            event = {k: v for k, v in event.items() if k != "unit"}
        if event["type"] == "losses" and set(event["units"]) & japanese - known:
            event = {k: v for k, v in event.items() if k != "units"}
        out.append(event)
    return out


# -- the position a side may know, as a position (the hidden-units option through the seam) ----------------------------

MARKER_SIZE = "company"
"""assumed: the size a marker is drawn with (its ZOC, 5A: a marker of any size but a platoon exerts one into the
hexes next to it, so a move judged on a view never gets past a hidden unit's ZOC that the whole position has)."""


def marker_id(hex_id: str, n: int) -> str:
    """The ``n``-th marker (from 1) in ``hex_id``: one per counter, numbered in the hex, nothing else told."""
    return f"{hex_id}.{n}"


def marker_counter(marker: str, side: Side) -> Counter:
    """A hidden counter as the other side sees it (19B.1, 19B.2): a side and a hex, no type, strength or identity."""
    return Counter(id=marker, side=side, type=HIDDEN, size=MARKER_SIZE, defense=0, move=0)


def hidden_from(state: LegionState, side: Side) -> set[str]:
    """The counters of the enemy of ``side`` that ``side`` may not examine (19B.1 for the U.S. units, 19B.2 for the
    Japanese): what :func:`view` shows as markers."""
    units = state.unit_index()
    if state.exposed is None:
        return set()
    if side == "US":
        return {u.id for u in units.values() if u.side == "JP" and state.on_map(u.id)
                and (u.type == HIDDEN or u.is_dummy or u.id not in state.exposed)}
    japanese = {state.locations[u.id] for u in units.values() if u.side == "JP" and state.on_map(u.id)}
    stacks: dict[str, list[str]] = {}
    for u in units.values():
        if u.side == "US" and state.on_map(u.id):
            stacks.setdefault(state.locations[u.id], []).append(u.id)
    hidden: set[str] = set()
    for h, ids in stacks.items():
        if japanese & set(hexes.neighbours(h)):
            continue
        top = max(ids, key=lambda i: (units[i].defense - state.hits.get(i, 0), i))
        hidden.update(i for i in ids if i != top)
    return hidden


def picture(state: LegionState, hide: set[str], drop: set[str] = frozenset()) -> LegionState:
    """``state`` with the counters ``hide`` as markers, numbered hex by hex (a marker already there stays one), and
    nothing said of them: no Hit, Disruption, CI, Fired, Reserve or Defensive Support mark (19B.2: examining a unit is
    what shows them); the counters ``drop`` not at all."""
    if not hide and not drop:
        return state
    units = state.unit_index()
    kept = [u for u in state.units if u.id not in hide and u.id not in drop]
    per_hex: dict[tuple[str, str], int] = {}
    for u in sorted(hide, key=lambda i: (state.locations[i], i)):
        key = (state.locations[u], units[u].side)
        per_hex[key] = per_hex.get(key, 0) + 1
    markers, where = [], {u: h for u, h in state.locations.items() if u not in hide and u not in drop}
    for (h, side), n in sorted(per_hex.items()):
        for i in range(1, n + 1):
            m = marker_id(h, i) if side == "JP" else f"{h}.u{i}"  # apart from a Japanese marker in a hex of both (9I)
            markers.append(marker_counter(m, side))
            where[m] = h
    shown = {u.id for u in kept} | {m.id for m in markers}
    return state.model_copy(update={
        "units": tuple(kept) + tuple(markers), "locations": where,
        "hits": {u: v for u, v in state.hits.items() if u in shown}, "ci": frozenset(state.ci & shown),
        "disrupted": {u: v for u, v in state.disrupted.items() if u in shown}, "fired": frozenset(state.fired & shown),
        "defended": {u: v for u, v in state.defended.items() if u in shown}, "reserve": frozenset(state.reserve & shown),
        "exposed": frozenset(state.exposed & shown) if state.exposed is not None else None,
    })


def gone_dummies(state: LegionState) -> set[str]:
    """The Dummies off the map (revealed and eliminated, 19B.6): the U.S. player knew one only as a marker."""
    return {u.id for u in state.units if u.is_dummy and not state.on_map(u.id)}


def known(state: LegionState, side: Side) -> LegionState:
    """The position ``side`` may know (19B.1, 19B.2): the enemy counters it may not examine as markers, and for the
    U.S. player no Dummy once gone (which of them went tells nothing he may know)."""
    return picture(state, hidden_from(state, side), gone_dummies(state) if side == "US" else set())


def common(state: LegionState) -> LegionState:
    """The position both sides can work out from their own view: every counter one side may not examine as a
    marker.  The same from the whole position, the U.S. view's and the Japanese view's (a marker stays a marker, the
    top of a U.S. stack is the same unit), so the public record's digest is checked by each side at once."""
    return picture(state, hidden_from(state, "US") | hidden_from(state, "JP"), gone_dummies(state))


def hidden_named(value, names: set[str]):
    """``value`` (an event, plain JSON) with every name of ``names`` (hidden counters) in it read as "a hidden unit"."""
    if isinstance(value, str):
        return "a hidden unit" if value in names else _words_without(value, names)
    if isinstance(value, dict):
        return {k: hidden_named(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [hidden_named(v, names) for v in value]
    return value


def _words_without(text: str, names: set[str]) -> str:
    for name in sorted((n for n in names if n in text), key=len, reverse=True):
        text = text.replace(name, "a hidden unit")
    return text


def known_events(state: LegionState, side: Side, events: list[dict]) -> list[dict]:
    """The events ``side`` may read (:func:`events_for`), no counter it may not examine named in them (a move called
    off names its units, a reason may name a defender), and no Dummy by its name (19B.6: revealed, it is told by its hex)."""
    told = events_for(state, side, events)
    names = hidden_from(state, side)
    if side == "US":
        names |= {u.id for u in state.units if u.side == "JP" and u.is_dummy}
    return [hidden_named(e, names) for e in told] if names else told


def strings_in(value):
    """Every string a JSON value holds, at any depth: the names a view or its events give."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_in(v)
