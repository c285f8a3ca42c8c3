"""Telling a view in words, for ``pbem view``: the position, and what happened last.

Works on the view's plain JSON only, so that reading one's view costs no more
than opening it.
"""

from __future__ import annotations

import textwrap
from typing import Any

from pbem.errors import visible


def strengths(unit: dict[str, Any]) -> str:
    """The counter's numbers as printed (3.0): ``5-5-5`` or ``2-3-5/1-4`` for artillery; ``?`` for a hidden unit (19B.2)."""
    if unit["kind"] == "hidden":
        return "?"
    if unit["kind"] == "artillery":
        return f"{unit.get('barrage', 0)}-{unit.get('fpf', 0)}-{unit.get('range', 0)}/{unit['defense']}-{unit['move']}"
    return f"{unit.get('attack', 0)}-{unit['defense']}-{unit['move']}"


_TOLD = {
    "combat_cancelled": "Combat {index} did not take place: {reason}",
    "displaced": "  {unit} was displaced {from} → {to} to make way for {by}",
    "eliminated": "  {unit} eliminated in {hex} ({cause})",
    "exited": "{unit} left the map from {hex} (16.13)",
    "forfeited": "{unit} was forfeited to the enemy, as if eliminated (rule {rule})",
    "awarded": "{side} scored {points} points for {what} (rule {rule})",
    "withdrawn": "{unit} was withdrawn from play, not eliminated (rule {rule})",
    "available": "{unit} may come back as a reinforcement by {entry} (rule {rule})",
    "result_modified": "  {result} for {unit}: {effect} (rule {rule})",
    "dummy_removed": "The Japanese unit in {hex} was a dummy, removed: {why} (rule {rule})",
    "deployed": "The Japanese secret set-up is made (rule {rule})",
}
"""Events told in one fixed sentence; the others need a few choices (:func:`_event`)."""


def _event(e: dict[str, Any]) -> str | None:
    kind = e["type"]
    if kind == "moved":
        return f"{e['unit']} moved {e['from']} → {' → '.join(e['path'])} ({e['cost']} MP)"
    if kind == "entered":
        route = f", then {' → '.join(e['path'])}" if e["path"] else ""
        return f"{e['unit']} came in at {e['hex']}{route} ({e['cost']} MP)"
    if kind == "combat":
        attackers = ", ".join(e["attackers"] + e["barrage"]) or "Ground Support"
        support = f" with {e['gsp']} GSP" if e["gsp"] else ""
        banzai = " (Banzai)" if e.get("banzai") else ""
        return (
            f"Combat {e['index']}{banzai}: {attackers}{support} against {', '.join(e['defenders'])} — "
            f"{e['attack']} to {e['defense']}, {e['differential']:+d} on the {e['terrain']} line "
            f"(column {e['column']}), die {e['die']}: {e['result']}"
        )
    if kind == "fpf":
        return f"  {e['artillery']} fired FPF ({e['points']}) for {e['defender']}{_as_written(e)}"
    if kind == "gsp_fpf":
        return f"  {e['points']} Ground Support Point(s) as FPF for {e['defender']}{_as_written(e)}"
    if kind == "retreated":
        if not e["path"] and e["eliminated"]:
            return f"  {e['unit']} could not retreat from {e['from']}"
        end = " and was eliminated there" if e["eliminated"] else ""
        return f"  {e['unit']} retreated {e['from']} → {' → '.join(e['path'])}{end}{_as_written(e)}"
    if kind == "advanced":
        return f"  {e['unit']} advanced {e['from']} → {' → '.join(e['path'])}"
    if kind == "sighted":
        return f"{e['unit']} was seen moving in clear terrain: {' → '.join(e['hexes'])} (rule {e['rule']})"
    if kind == "intelligence":
        when = "after the set-up" if e["when"] == "set-up" else "in the American Movement Phase"
        seen = ", ".join(f"{x['unit']} in {x['hex']}" for x in e["exposed"]) or "no unit (only dummies, or none reachable)"
        return f"Intelligence {when} (rule {e['rule']}): a roll of {e['roll']} exposed {seen}"
    template = _TOLD.get(kind)
    return template.format_map(e) if template else None


LEGEND = (
    "Notation: a unit's numbers are attack-defense-movement (5-5-5); artillery's are "
    "barrage-FPF-range/defense-movement (2-3-5/1-4) (2.31).",
    "Combat: the differential is attack strength minus defense strength; on the defender's terrain line "
    "it picks a column of the Combat Results Table, named by the differentials it covers "
    "('+4,5' is +4 or +5) (7.0, 7.43, 7.61).",
    "Results (7.62): D1, D2, D3 the defender retreats that many hexes, De the defender is eliminated; "
    "A1, A2, A3 and Ae the same for the attacker; '-' no effect.",
    "Turn files: turn-0000 is the opening; each later one records one player-turn, two to a Game-Turn, "
    "and one more each time orders are rejected (the same side then moves again).",
)


def _header(view: dict[str, Any], outlook: dict[str, Any] | None) -> list[str]:
    position = view["state"]["position"]
    title = f", {outlook['title']}" if outlook else ""
    lines = [f"Game {view['game'][:8]}…{title} — you are {view['side']}"]
    of = f" of {outlook['last_turn']}" if outlook else ""
    if view["over"]:
        lines.append(f"Turn file {view['seq']}: the game is over (after Game-Turn {position['turn'] - 1}{of}).")
        return lines
    order = f" ({outlook['first_player']} moves first each Game-Turn)" if outlook else ""
    due = "your orders are due" if view["awaiting"] == view["side"] else f"waiting for {view['awaiting']}'s orders"
    if (view["state"].get("hidden") or {}).get("deployed") is False:
        due = ("your secret set-up is due: pbem orders template writes one (docs/hidden-units.md)" if view["side"] == "JP"
               else "waiting for the Japanese secret set-up")
    gsp = position.get("gsp", {})
    lines.append(f"Turn file {view['seq']}: Game-Turn {position['turn']}{of}, the {position['phasing']} player-turn{order}; {due}.")
    lines.append(f"Ground Support left this Game-Turn: US {gsp.get('US', 0)}, JP {gsp.get('JP', 0)}.")
    return lines


def _last(last: dict[str, Any]) -> list[str]:
    verdict = "orders carried out" if last["valid"] else "orders REJECTED — nothing was applied; the same side moves again"
    lines = ["", f"Last player-turn ({last['side']}): {verdict}"]
    for p in last["problems"]:
        lines.append(f"  rule {p['rule']}: {p['unit'] + ': ' if p['unit'] else ''}{p['message']}")
    for e in telling_order(last["events"]):
        text = _event(e)
        if text:
            lines.append(f"  {text}")
    if last.get("note"):
        lines.append(f"  Note from {last['side']}:")
        lines += [f"  | {visible(line)}" for line in str(last["note"]).splitlines()]
    return lines


def last_lines(last: dict[str, Any]) -> list[str]:
    """The last player-turn of a view, told as ``pbem view`` tells it (the judge's turn mail uses it too)."""
    return _last(last)


def _units(state: dict[str, Any]) -> list[str]:
    units = {u["id"]: u for u in state["units"]}
    lines = []
    for side in ("US", "JP"):
        lines += ["", f"{side} units:"]
        for uid, where in state["locations"].items():
            unit = units[uid]
            if unit["side"] != side:
                continue
            flag = " (no FPF this phase, 8.41)" if uid in state.get("no_fpf", []) else ""
            name = unit.get("name") or ""
            lines.append(f"  {uid:<14} {name:<22} {unit['kind']:<10} {strengths(unit):<12} {where}{flag}")
    return lines


def _to_come(outlook: dict[str, Any], turn: int) -> list[str]:
    lines = []
    for row in outlook["reinforcements"]:
        when = "available now" if row["turn"] <= turn else f"Game-Turn {row['turn']}"
        name = f" ({row['name']})" if row["name"] else ""
        lines.append(f"  {when}: {row['side']} {row['unit']}{name} enters by {row['entry']}")
    for row in outlook["ground_support"]:
        lines.append(f"  Game-Turn {row['turn']}: Ground Support US {row['US']}, JP {row['JP']}")
    if not lines:
        return []
    return ["", "Still to come (12.1, 9.1):", *lines]


def _objectives(outlook: dict[str, Any]) -> list[str]:
    if not outlook["objectives"]:
        return []
    lines = ["", "Objectives (Victory Points for holding the hex, 15.2):"]
    for o in outlook["objectives"]:
        name = f"{o['name']} " if o.get("name") else ""
        when = f" at the end of Game-Turn {o['at_end_of_turn']}" if o.get("at_end_of_turn") else " at the end"
        loc = ", with a Line of Communications (15.31)" if o.get("loc") else ""
        assumed = " (value assumed)" if "assumed:" in o.get("source", "") else ""
        lines.append(f"  {o['side']}: {name}hex {o['hex']}, {o['points']} point(s){when}{loc}{assumed}")
    return lines


def narrate(view: dict[str, Any], outlook: dict[str, Any] | None = None) -> str:
    """The view in words; with the scenario's ``outlook`` (:func:`pbem.game.views.outlook`) also what is to come."""
    lines = _header(view, outlook)
    if view.get("last"):
        lines += _last(view["last"])
    lines += _units(view["state"])
    if outlook:
        lines += _to_come(outlook, view["state"]["position"]["turn"])
        lines += _objectives(outlook)
    if view.get("victory"):
        lines += [""] + victory_lines(view["victory"])
    lines.append("")
    for paragraph in LEGEND:
        lines += textwrap.wrap(paragraph, width=78, subsequent_indent="  ")
    return "\n".join(lines)


def victory_lines(report: dict[str, Any]) -> list[str]:
    """The victory report (15.4) at the end, or the running tally before it."""
    points = report["points"]
    if report.get("headline"):  # a rules system that words its own result (its victory rule is not 15.4)
        lines = [report["headline"]]
    elif report["final"]:
        ratio = f"ratio {report['ratio']} to 1" if report["ratio"] is not None else "no Japanese points"
        lines = [f"Victory (15.4): US {points['US']} points, JP {points['JP']} points — {ratio}: {report['level']}."]
    else:
        lines = [f"Victory points so far (eliminations and awards; objectives count at the end): US {points['US']}, JP {points['JP']}."]
    for line in report["lines"]:
        items = f" [{', '.join(line['items'])}]" if line["items"] else ""
        rule = line["source"].split(" ")[0].rstrip(";,")
        assumed = ", value assumed" if "assumed:" in line["source"] else ""
        lines.append(f"  {line['side']} {line['points']:>4}  {line['what']} (rule {rule}{assumed}){items}")
    return lines
def telling_order(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events as they are told: Final Protective Fire under the combat it was fired in.

    The engine records FPF as it is given, before the combat's own event (the
    combat is resolved with it), so in record order it would fall under the
    combat told before (issue 20).  Each FPF event names its combat's index.
    """
    fire = {"fpf", "gsp_fpf"}
    held: dict[int, list[dict[str, Any]]] = {}
    for e in events:
        if e["type"] in fire and isinstance(e.get("index"), int):
            held.setdefault(e["index"], []).append(e)
    combats = {e["index"] for e in events if e["type"] == "combat"}
    told = []
    for e in events:
        if e["type"] in fire and e.get("index") in combats:
            continue
        told.append(e)
        if e["type"] == "combat":
            told += held.get(e["index"], [])
    return told


def describe(event: dict[str, Any]) -> str | None:
    """One event of a view's last player-turn in words (None for a kind not told)."""
    return _event(event)


def _as_written(e: dict) -> str:
    """Say when a player's written choice was followed; the system's policy (docs/policies.md) is the unmarked case.

    Advances go unmarked: the system never advances a unit of its own accord, so every advance is written.
    """
    return " (as written)" if e.get("chosen_by") == "player" else ""
