"""Telling a view in words, for ``pbem view``: the position, and what happened last.

Works on the view's plain JSON only, so that reading one's view costs no more
than opening it.
"""

from __future__ import annotations

from typing import Any


def strengths(unit: dict[str, Any]) -> str:
    """The counter's numbers as printed (3.0): ``5-5-5`` or ``2-3-5/1-4`` for artillery."""
    if unit["kind"] == "artillery":
        return f"{unit.get('barrage', 0)}-{unit.get('fpf', 0)}-{unit.get('range', 0)}/{unit['defense']}-{unit['move']}"
    return f"{unit.get('attack', 0)}-{unit['defense']}-{unit['move']}"


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
    if kind == "combat_cancelled":
        return f"Combat {e['index']} did not take place: {e['reason']}"
    if kind == "fpf":
        return f"  {e['artillery']} fired FPF ({e['points']}) for {e['defender']}"
    if kind == "gsp_fpf":
        return f"  {e['points']} Ground Support Point(s) as FPF for {e['defender']}"
    if kind == "retreated":
        if not e["path"] and e["eliminated"]:
            return f"  {e['unit']} could not retreat from {e['from']}"
        end = " and was eliminated there" if e["eliminated"] else ""
        return f"  {e['unit']} retreated {e['from']} → {' → '.join(e['path'])}{end}"
    if kind == "displaced":
        return f"  {e['unit']} was displaced {e['from']} → {e['to']} to make way for {e['by']}"
    if kind == "advanced":
        return f"  {e['unit']} advanced {e['from']} → {' → '.join(e['path'])}"
    if kind == "eliminated":
        return f"  {e['unit']} eliminated in {e['hex']} ({e['cause']})"
    if kind == "exited":
        return f"{e['unit']} left the map from {e['hex']} (16.13)"
    if kind == "forfeited":
        return f"{e['unit']} was forfeited to the enemy, as if eliminated (rule {e['rule']})"
    if kind == "awarded":
        return f"{e['side']} scored {e['points']} points for {e['what']} (rule {e['rule']})"
    if kind == "available":
        return f"{e['unit']} may come back as a reinforcement by {e['entry']} (rule {e['rule']})"
    if kind == "result_modified":
        return f"  {e['result']} for {e['unit']}: {e['effect']} (rule {e['rule']})"
    return None


def narrate(view: dict[str, Any]) -> str:
    state = view["state"]
    position = state["position"]
    gsp = position.get("gsp", {})
    lines = [f"Game {view['game'][:8]}…, turn file {view['seq']} — you are {view['side']}"]
    if view["over"]:
        lines.append(f"The game is over (after Game-Turn {position['turn'] - 1}).")
    else:
        lines.append(
            f"Game-Turn {position['turn']}: {view['awaiting']} to move. "
            f"Ground Support left: US {gsp.get('US', 0)}, JP {gsp.get('JP', 0)}."
        )
    last = view.get("last")
    if last:
        verdict = "orders carried out" if last["valid"] else "orders REJECTED — nothing was applied; the same side moves again"
        lines += ["", f"Last player-turn ({last['side']}): {verdict}"]
        for p in last["problems"]:
            lines.append(f"  rule {p['rule']}: {p['unit'] + ': ' if p['unit'] else ''}{p['message']}")
        for e in last["events"]:
            text = _event(e)
            if text:
                lines.append(f"  {text}" if not text.startswith("  ") else f"  {text}")
    units = {u["id"]: u for u in state["units"]}
    for side in ("US", "JP"):
        lines += ["", f"{side} units:"]
        for uid, where in state["locations"].items():
            unit = units[uid]
            if unit["side"] != side:
                continue
            flag = " (no FPF this phase, 8.41)" if uid in state.get("no_fpf", []) else ""
            lines.append(f"  {uid:<14} {unit['kind']:<10} {strengths(unit):<12} {where}{flag}")
    if view.get("victory"):
        lines += [""] + victory_lines(view["victory"])
    return "\n".join(lines)


def victory_lines(report: dict[str, Any]) -> list[str]:
    """The victory report (15.4) at the end, or the running tally before it."""
    points = report["points"]
    if report["final"]:
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
def describe(event: dict[str, Any]) -> str | None:
    """One event of a view's last player-turn in words (None for a kind not told)."""
    return _event(event)
