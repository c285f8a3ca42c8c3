"""What ``pbem scenario list`` and ``pbem scenario show`` print of an SPI scenario (moved here from
``pbem/game/catalogue.py`` when the catalogue began to ask each scenario's rules system: the same rows, the same words)."""

from __future__ import annotations

from typing import Any

from pbem.game.narrate import strengths
from pbem.model.scenario import Scenario

STRENGTH_FIELDS = ("attack", "defense", "move", "barrage", "fpf", "range")


def summary(scenario: Scenario) -> dict[str, Any]:
    return {
        "id": scenario.id,
        "title": scenario.title,
        "kind": scenario.kind,
        "first_turn": scenario.first_turn,
        "last_turn": scenario.last_turn,
        "first_player": scenario.first_player,
        "edition": scenario.ruleset.edition,
    }


def details(scenario: Scenario) -> dict[str, Any]:
    """One scenario in full: its summary, every unit (set-up hex or arrival), Ground Support, objectives and special rules."""
    units = []
    for u in scenario.units:
        row: dict[str, Any] = {"id": u.id, "side": u.side, "kind": u.kind, "name": u.name}
        row |= {f: getattr(u, f) for f in STRENGTH_FIELDS if f in ("defense", "move") or getattr(u, f)}
        row["strengths"] = strengths(u.model_dump())
        if u.hex is not None:
            row["hex"] = u.hex
        else:
            row["arrives"] = {"turn": u.arrives, "where": "anywhere (12.42)" if u.kind == "airassault" else u.entry}
        row["source"] = u.source
        units.append(row)
    return summary(scenario) | {
        "description": scenario.description,
        "units": units,
        "ground_support": [g.model_dump() for g in scenario.ground_support],
        "objectives": [o.model_dump(exclude_none=True) for o in scenario.objectives],
        "victory": [t.model_dump(exclude_none=True) for t in scenario.victory],
        "withdrawals": [w.model_dump(exclude_none=True) for w in scenario.withdrawals],
        "special_rules": list(scenario.special_rules),
    }


def describe(info: dict[str, Any]) -> list[str]:
    """``details`` in words, for people."""
    lines = [
        f"{info['id']}: {info['title']}",
        f"Game-Turns {info['first_turn']}-{info['last_turn']}, {info['first_player']} moves first; edition {info['edition']}.",
    ]
    if info["description"]:
        lines.append(info["description"])
    for side in ("US", "JP"):
        placed = [u for u in info["units"] if u["side"] == side and "hex" in u]
        later = [u for u in info["units"] if u["side"] == side and "arrives" in u]
        lines += ["", f"{side}: {len(placed)} units on the map, {len(later)} to come"]
        for u in placed:
            lines.append(f"  {u['id']:<16} {u['kind']:<10} {u['strengths']:<11} {u['hex']}")
        for u in sorted(later, key=lambda u: u["arrives"]["turn"]):
            lines.append(f"  {u['id']:<16} {u['kind']:<10} {u['strengths']:<11} Game-Turn {u['arrives']['turn']} by {u['arrives']['where']}")
    if info["objectives"]:
        lines += ["", "Objectives:"] + [
            f"  {o['side']} {o['points']:>3} points for {o.get('name') or o['hex']} ({o['hex']})"
            + (" with a Line of Communications" if o.get("loc") else "")
            + (f" at the end of Game-Turn {o['at_end_of_turn']}" if o.get("at_end_of_turn") else "")
            + f" — {o['source']}"
            for o in info["objectives"]
        ]
    if info.get("withdrawals"):
        lines += ["", "Withdrawals (leave the map at the end of the Game-Turn; neither side scores them):"] + [
            f"  {w['unit']:<16} end of Game-Turn {w['turn']}"
            + (f", back on Game-Turn {w['returns']} by {w['entry']}" if w.get("returns") else ", for good")
            for w in info["withdrawals"]
        ]
    if info["special_rules"]:
        lines += ["", "Special rules:"] + [f"  {r}" for r in info["special_rules"]]
    return lines
