"""The SPI system's check of a signed public combat record against its Combat Results Table (7.61, I2).

What ``pbem verify`` and the audits ask the system of every player-turn's
public record (:meth:`pbem.systems.base.RulesSystem.record_problems`), from
public data alone: no key, no scenario.
"""

from __future__ import annotations

from typing import Iterable


def combat_table_problems(public: dict, rolls: Iterable[dict]) -> list[str]:
    """Where a public combat record is not what the Combat Results Table gives (7.61, I2), from public data alone:
    attack less defense is the differential; the differential and terrain line give the column; column and die
    give the result; the roll made for the combat names the same differential and line.  (The record's shape is
    :func:`pbem.game.record_checks.combat_roll_problems`'s to judge.)"""
    from pbem.engine import crt

    if not isinstance(public, dict) or not isinstance(public.get("last") or {}, dict):
        return []
    combats = (public.get("last") or {}).get("combats") or []
    if not isinstance(combats, list):
        return []
    purposes = {}
    for roll in rolls:
        label, _, rest = roll["purpose"].partition(":")
        if label.startswith("combat "):
            purposes[label.removeprefix("combat ")] = rest
    problems = []
    for combat in combats:
        if not isinstance(combat, dict) or combat.get("status") != "resolved":
            continue
        tag = f"combat {combat.get('index')}"
        numbers = {k: combat.get(k) for k in ("attack", "defense", "differential", "die")}
        if any(not isinstance(v, int) or isinstance(v, bool) for v in numbers.values()) or combat.get("terrain") not in crt.LINES:
            problems.append(f"{tag} is resolved but its record lacks the strengths, differential, terrain line or die "
                            "that the table is read with (7.61)")
            continue
        if numbers["attack"] - numbers["defense"] != numbers["differential"]:
            problems.append(f"{tag} shows attack {numbers['attack']} against defense {numbers['defense']}, "
                            f"a differential of {numbers['attack'] - numbers['defense']:+d}, not {numbers['differential']:+d} (7.0, procedure)")
            continue
        column = crt.column(combat["terrain"], numbers["differential"])
        if combat.get("column") != column.label:
            problems.append(f"{tag} shows column {combat.get('column')}, but a differential of {numbers['differential']:+d} "
                            f"on the {combat['terrain']} line is column {column.label} (7.61, I2)")
            continue
        if not 1 <= numbers["die"] <= 6:
            problems.append(f"{tag} shows die {numbers['die']}, which no die shows")
            continue
        expected = crt.result(column, numbers["die"])
        if combat.get("result") != expected:
            problems.append(f"{tag} shows column {column.label}, die {numbers['die']}: {combat.get('result')}, "
                            f"but the table (7.61) gives {expected}")
        said = purposes.get(str(combat.get("index")))
        if said is not None and not said.endswith(f", {numbers['differential']:+d} on the {combat['terrain']} line"):
            problems.append(f"{tag} shows {numbers['differential']:+d} on the {combat['terrain']} line, but the roll made "
                            f"for it says{said.rsplit(',', 1)[-1]}")
    return problems
