"""Holding an outcome against a case's ``expect`` (cases.md, Expectations).

Each key present in ``expect`` must match; anything the case does not
mention is not compared.  The result is a list of readable differences,
empty when the case passes.
"""

from __future__ import annotations

from typing import Any


def _show(value: Any) -> str:
    return repr(value) if not isinstance(value, bool) else str(value).lower()


def differences(expect: dict[str, Any], outcome: dict[str, Any]) -> list[str]:
    found: list[str] = []
    if "valid" in expect and expect["valid"] != outcome.get("valid"):
        found.append(f"valid: expected {_show(expect['valid'])}, got {_show(outcome.get('valid'))}")
    if "error_rules" in expect:
        rules = {e["rule"] for e in outcome.get("errors", [])}
        for wanted in expect["error_rules"]:
            if not any(alt in rules for alt in wanted.split("|")):
                found.append(f"error_rules: no error cites {wanted} (errors cite {', '.join(sorted(rules)) or 'nothing'})")
    if "combats" in expect:
        actual = outcome.get("combats", [])
        for i, wanted in enumerate(expect["combats"]):
            if i >= len(actual):
                found.append(f"combats[{i}]: expected a combat, got none")
                continue
            for key, value in wanted.items():
                if actual[i].get(key) != value:
                    found.append(f"combats[{i}].{key}: expected {_show(value)}, got {_show(actual[i].get(key))}")
    if "units" in expect:
        actual = outcome.get("units", {})
        for unit, wanted in expect["units"].items():
            # v2: a list is the legal alternatives, any one of which satisfies the case (a choice left to the system).
            options = wanted if isinstance(wanted, list) else [wanted]
            if actual.get(unit) not in options:
                shown = " or ".join(str(o) for o in options)
                found.append(f"units.{unit}: expected {shown}, got {actual.get(unit)}")
    if "dice_used" in expect and expect["dice_used"] != outcome.get("dice_used"):
        found.append(f"dice_used: expected {expect['dice_used']}, got {outcome.get('dice_used')}")
    if "queries" in expect:
        actual = outcome.get("queries", {})
        for kind, answers in expect["queries"].items():
            if not isinstance(answers, dict):
                found.append(f"queries.{kind}: expected answers as {{unit: value}}, the case gives {_show(answers)}")
                continue
            for unit, wanted in answers.items():
                got = actual.get(kind, {}).get(unit)
                if got != wanted:
                    found.append(f"queries.{kind}.{unit}: expected {_show(wanted)}, got {_show(got)}")
    for key in V2_KEYS:
        if key in expect:
            found += _matches(key, expect[key], outcome.get(key))
    return found


V2_KEYS = ("exposed", "view", "sightings", "intelligence", "dummies_removed", "end_of_turn", "victory")
"""Outcome keys of format v2, compared by :func:`_matches`."""


def _matches(where: str, wanted: Any, got: Any) -> list[str]:
    """v2 comparison: an object matches on the keys it gives; a list of plain values is a set (same members);
    a list of objects has as many entries, each matching a different actual one; anything else is equal."""
    if isinstance(wanted, dict):
        if not isinstance(got, dict):
            return [f"{where}: expected {_show(wanted)}, got {_show(got)}"]
        return [d for key, value in wanted.items() for d in _matches(f"{where}.{key}", value, got.get(key))]
    if isinstance(wanted, list):
        if not isinstance(got, list):
            return [f"{where}: expected {_show(wanted)}, got {_show(got)}"]
        if all(not isinstance(w, (dict, list)) for w in wanted):
            if sorted(map(repr, wanted)) != sorted(map(repr, got)):
                return [f"{where}: expected {_show(sorted(wanted, key=repr))}, got {_show(sorted(got, key=repr))}"]
            return []
        if len(wanted) != len(got):
            return [f"{where}: expected {len(wanted)} entries, got {len(got)}: {_show(got)}"]
        left = list(got)
        for i, w in enumerate(wanted):
            hit = next((g for g in left if not _matches("", w, g)), None)
            if hit is None:
                return [f"{where}[{i}]: no entry matches {_show(w)} (got {_show(got)})"]
            left.remove(hit)
        return []
    if wanted != got or isinstance(wanted, bool) != isinstance(got, bool):
        return [f"{where}: expected {_show(wanted)}, got {_show(got)}"]
    return []
