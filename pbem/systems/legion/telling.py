"""A Legion view in words, for ``pbem view``: whose phase it is, what the last orders did, every unit, victory (20).

Plain JSON in, text out (the view as sealed, :meth:`pbem.systems.legion.system.LegionSystem.state_to_json`): no
model is built, as ``pbem view`` builds none for an SPI view.
"""

from __future__ import annotations

from typing import Any

PHASES = {
    "movement": "the Initial, Movement and Combat Phases (4)",
    "combat": "the Combat Phase (4)",
    "exploitation": "the Exploitation Phase (6C)",
    "night": "the Night Exploitation Phase (6C.2; empty orders decline it)",
}
OFF_MAP = ("eliminated", "removed", "offmap")


def tell(view: dict[str, Any], outlook: dict[str, Any] | None = None) -> str:
    state = view["state"]
    position = state["position"]
    lines = [f"{view['side']} view of game {view['game']}, turn file {view['seq']} (rules system legion-2010)"]
    if outlook and outlook.get("title"):
        lines.append(f"{outlook['title']}: Game-Turns {outlook.get('first_turn')}-{outlook.get('last_turn')}")
    pm = " (a PM Game-Turn)" if position["turn"] in position.get("pm_turns", []) else ""
    if view["over"]:
        lines.append(f"The game is over (Game-Turn {position['turn']}).")
    else:
        lines.append(f"Game-Turn {position['turn']}{pm}: {view['awaiting']} to give orders for {PHASES.get(position['phase'], position['phase'])}.")
    if view.get("last"):
        lines += [""] + _last(view["last"])
    lines += [""] + _units(state)
    owned = state.get("owner", {})
    if view.get("victory"):
        report = view["victory"]
        legion = report.get("legion", {})
        lines += ["", report.get("headline") or f"Victory (20): {report.get('level')}"]
        for name, side in sorted(legion.get("objectives", {}).items()):
            lines.append(f"  objective {name}: owned by {side or 'nobody'}")
    lines.append(f"\nHexes owned (5B): US {sum(1 for s in owned.values() if s == 'US')}, JP {sum(1 for s in owned.values() if s == 'JP')}; "
                 f"U.S. Casualty Points {state.get('casualties', 0)} (20).")
    return "\n".join(lines)


def last_lines(last: dict[str, Any]) -> list[str]:
    """The last orders of a view in words (the judge's turn mail quotes them): :func:`tell`'s own lines."""
    return _last(last)


def _last(last: dict[str, Any]) -> list[str]:
    lines = [f"Last orders ({last['side']}): " + ("carried out." if last["valid"] else "rejected, nothing done.")]
    for problem in last.get("problems", []):
        lines.append(f"  problem (rule {problem.get('rule')}): {problem.get('message')}")
    if last.get("problems_withheld"):
        lines.append(f"  {last['problems_withheld']} problem(s), shown only to their writer")
    for event in last.get("events", []):
        lines.append("  " + _event(event))
    if last.get("note"):
        lines.append(f"  note from {last['side']}: {last['note']}")
    return lines


def _event(event: dict[str, Any]) -> str:
    kind = event.get("type")
    if kind == "moved":
        return f"{event['unit']} moved {event['from']} -> {' '.join(event['path'])} ({event.get('cost')} MP)"
    if kind in ("retreated", "advanced") and event.get("unit") and "path" in event:
        end = " and was eliminated" if event.get("eliminated") else ""
        return f"{event['unit']} {kind} {event.get('from')} -> {' '.join(event['path']) or 'nowhere'}{end} ({event.get('rule', '9F')})"
    if kind in ("assault", "fire") and "die" in event:
        return (f"combat {event['index']}: {kind} on {event['target']} at {event.get('odds') or event.get('column')}, "
                f"die {event['die']}{_drm(event)}: {event.get('result')}")
    if kind == "losses":
        return f"losses ({event.get('cause')}): {event.get('taken')} taken by {', '.join(event.get('units', [])) or 'hidden units'}"
    if kind == "hit":
        return f"{event['unit']}: {event.get('hits')} Hit marker(s) ({event.get('cause')})"
    if kind == "eliminated":
        return f"{event['unit']} eliminated"
    if kind == "combat_cancelled":
        return f"combat {event['index']} cancelled: {event.get('reason')}"
    rest = ", ".join(f"{k} {v}" for k, v in event.items() if k != "type")
    return f"{kind}: {rest}"


def _drm(event: dict[str, Any]) -> str:
    drm = event.get("drm")
    return f" {drm:+d} = {event.get('modified')}" if isinstance(drm, int) and drm else ""


def _units(state: dict[str, Any]) -> list[str]:
    hits, locations = state.get("hits", {}), state["locations"]
    ci, disrupted = set(state.get("ci", [])), state.get("disrupted", {})
    lines = []
    for side in ("US", "JP"):
        units = [u for u in state["units"] if u["side"] == side]
        on_map = [u for u in units if locations.get(u["id"]) not in OFF_MAP]
        lines.append(f"{side}: {len(on_map)} unit(s) on the map" + (f", {len(units) - len(on_map)} off it" if len(units) > len(on_map) else ""))
        for u in sorted(on_map, key=lambda u: (locations[u["id"]], u["id"])):
            if u["type"] == "hidden":  # a counter this side may not examine (19B.1, 19B.2)
                lines.append(f"  {u['id']:<12} {'hidden':<12} {'?':<9} {locations[u['id']]}")
                continue
            marks = [f"{hits[u['id']]} hit(s)"] if hits.get(u["id"]) else []
            marks += ["CI"] if u["id"] in ci else []
            marks += [("Disrupted", "Badly Disrupted")[disrupted[u["id"]] - 1]] if disrupted.get(u["id"]) else []
            lines.append(f"  {u['id']:<12} {u['type']:<12} {u.get('attack', 0)}-{u['defense']}-{u['move']:<3} {locations[u['id']]}"
                         + (f"  ({', '.join(marks)})" if marks else ""))
        for u in sorted((u for u in units if u not in on_map), key=lambda u: u["id"]):
            lines.append(f"  {u['id']:<12} {u['type']:<12} {locations.get(u['id'])}")
    for marker in state.get("markers", []):
        lines.append(f"  hidden {marker.get('side')} unit in {marker.get('hex')}")
    return lines
