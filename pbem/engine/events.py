"""What happened, as data: the log the engine returns with every adjudication.

Each event is a plain JSON-ready dict with a ``type`` key, so that turn files
can carry it, per-side views can filter it and renderers can draw it without
knowing the engine.  The constructors here are the only place event shapes
are defined.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

Event = dict[str, Any]

MOVEMENT_EVENTS = ("moved", "entered", "retreated", "advanced", "displaced")
"""The events that move a unit from hex to hex."""


def visited(event: Event) -> list[str]:
    """The hexes a movement event's unit stood in, in order (start included)."""
    if event["type"] == "entered":
        return [event["hex"], *event["path"]]
    if event["type"] == "displaced":
        return [event["from"], event["to"]]
    return [event["from"], *event["path"]]


def mp(value: Fraction) -> int | float:
    """A movement-point amount as JSON: an int when whole, else a float (halves are exact)."""
    return int(value) if value.denominator == 1 else float(value)


def moved(unit: str, start: str, path: list[str], cost: Fraction) -> Event:
    return {"type": "moved", "unit": unit, "from": start, "path": list(path), "cost": mp(cost)}


def entered(unit: str, hex_id: str, path: list[str], cost: Fraction) -> Event:
    return {"type": "entered", "unit": unit, "hex": hex_id, "path": list(path), "cost": mp(cost)}


def exited(unit: str, hex_id: str) -> Event:
    """A unit left the map from an exit hex (Leyte 16.13)."""
    return {"type": "exited", "unit": unit, "hex": hex_id}


def combat(
    index: int, attackers: list[str], barrage: list[str], gsp: int, defenders: list[str], banzai: bool,
    attack: int, defense: int, differential: int, terrain: str, column: str, die: int, result: str,
) -> Event:
    """A resolved combat: who fought, the strengths, the CRT line and column, the die and the entry read (7.61)."""
    return {
        "type": "combat", "index": index, "attackers": attackers, "barrage": barrage, "gsp": gsp,
        "defenders": defenders, "banzai": banzai, "attack": attack, "defense": defense,
        "differential": differential, "terrain": terrain, "column": column, "die": die, "result": result,
    }


def combat_cancelled(index: int, reason: str) -> Event:
    return {"type": "combat_cancelled", "index": index, "reason": reason}


def fpf_given(index: int, artillery: str, defender: str, points: int, chosen_by: str) -> Event:
    return {"type": "fpf", "index": index, "artillery": artillery, "defender": defender, "points": points, "chosen_by": chosen_by}


def gsp_fpf_given(index: int, side: str, defender: str, points: int, chosen_by: str) -> Event:
    return {"type": "gsp_fpf", "index": index, "side": side, "defender": defender, "points": points, "chosen_by": chosen_by}


def retreated(unit: str, start: str, path: list[str], eliminated: bool, chosen_by: str) -> Event:
    return {"type": "retreated", "unit": unit, "from": start, "path": list(path), "eliminated": eliminated, "chosen_by": chosen_by}


def displaced(unit: str, start: str, to: str, by: str) -> Event:
    return {"type": "displaced", "unit": unit, "from": start, "to": to, "by": by}


def advanced(unit: str, start: str, path: list[str], chosen_by: str) -> Event:
    return {"type": "advanced", "unit": unit, "from": start, "path": list(path), "chosen_by": chosen_by}


def eliminated(unit: str, hex_id: str, cause: str) -> Event:
    return {"type": "eliminated", "unit": unit, "hex": hex_id, "cause": cause}


def result_modified(index: int, unit: str, rule: str, result: str, effect: str) -> Event:
    return {"type": "result_modified", "index": index, "unit": unit, "rule": rule, "result": result, "effect": effect}
