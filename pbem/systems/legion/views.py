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
