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
            if actual.get(unit) != wanted:
                found.append(f"units.{unit}: expected {wanted}, got {actual.get(unit)}")
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
    return found
