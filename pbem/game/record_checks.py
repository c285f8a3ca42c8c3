"""Checks of a signed public record that need no key: against the rolls it was made with, and against a side's view.

Shared by ``pbem verify`` (:mod:`pbem.game.checks`), ``pbem view``
(:mod:`pbem.game.player`) and the audit, so it sits below all three and
imports none of them.
"""

from __future__ import annotations

from typing import Any, Iterable

from pbem.game.position import shown_position
from pbem.protocol.canonical import canonical_bytes, digest


def combat_roll_problems(public: dict, rolls: Iterable[dict]) -> list[str]:
    """Where the public combat record does not show the die the public rolls made (combat N takes the roll
    whose purpose is ``combat N: …``)."""
    if not isinstance(public, dict) or not isinstance(public.get("last") or {}, dict):
        return ["the public record is not an object with a 'last' record"]
    by_combat = {}
    for roll in rolls:
        label = roll["purpose"].split(":", 1)[0]
        if label.startswith("combat "):
            by_combat[label.removeprefix("combat ")] = roll
    combats = ((public or {}).get("last") or {}).get("combats") or []
    problems, shown = [], set()
    if not isinstance(combats, list) or not all(isinstance(c, dict) and "index" in c for c in combats):
        return ["the public combat record is not a list of combats"]
    for combat in combats:
        if combat.get("die") is None:
            continue
        shown.add(str(combat["index"]))
        roll = by_combat.get(str(combat["index"]))
        if roll is None:
            problems.append(f"combat {combat['index']} shows die {combat['die']}, but no roll was made for it")
        elif roll["value"] != combat["die"]:
            problems.append(f"combat {combat['index']} shows die {combat['die']}, but roll {roll['n']} for it is {roll['value']}")
    for index in sorted(set(by_combat) - shown):
        problems.append(f"roll {by_combat[index]['n']} was made for combat {index}, which the public record does not show")
    return problems


def combat_table_problems(public: dict, rolls: Iterable[dict], ruleset: dict | None = None, source: str | None = None,
                          scenario: dict | None = None) -> list[str]:
    """Where a public record of a player-turn is not what its rules system's tables give, from public data alone
    (the SPI system: the Combat Results Table, 7.61, I2; the Legion system: the charts its genesis carries): asked of
    the system the game's ``ruleset`` pins (:mod:`pbem.systems`; None: the SPI system; ``source``: the file it came
    from, named if pbem plays no such system; ``scenario``: the scenario document the genesis carries, when known)."""
    from pbem.systems import name_in, system_named

    system = system_named(name_in(ruleset), source=source, field="ruleset.system")
    if scenario is None:
        return system.record_problems(public, list(rolls))
    return system.record_problems(public, list(rolls), scenario=scenario)


def view_problems(view: dict, public: dict) -> list[str]:
    """Where a side's view disagrees with the signed public record of the same turn file."""
    if not isinstance(view, dict) or not isinstance(public, dict):
        return ["the view or the public record is not an object"]
    problems = []
    for key in ("awaiting", "over"):
        if view.get(key) != public.get(key):
            problems.append(f"the view says {key} is {view.get(key)!r}, the public record {public.get(key)!r}")
    shown = (view.get("last") or {}).get("combats") if isinstance(view.get("last") or {}, dict) else None
    public_combats = (public.get("last") or {}).get("combats") if isinstance(public.get("last") or {}, dict) else None
    if canonical_bytes(shown) != canonical_bytes(public_combats):
        problems.append("the combats in the view are not the combats of the public record")
    if not problems:
        problems += position_problems(view, public)
    return problems


def position_problems(view: dict[str, Any], public: dict[str, Any]) -> list[str]:
    """Where ``view``'s position is not the one the public record commits to (nothing for files without one)."""
    committed = public.get("position")
    if committed is None or not isinstance(view.get("state"), dict):
        return []
    state = view["state"]
    from pbem.game.views import reading_view
    from pbem.systems import name_in, system_named

    with reading_view(f"the {view.get('side')} view"):  # the position this side works out for the record (pbem/systems/base.py)
        worked_out = system_named(name_in(view.get("ruleset")), field="ruleset.system").view_position(state, view.get("side"))
    shown = digest(shown_position(worked_out))
    if shown != committed:
        whose = ("the American view the public record commits to is not what your position gives"
                 if worked_out is not state else
                 "the position in the view is not the position the public record commits to")
        return [f"{whose} ({shown[:19]}… against {str(committed)[:19]}…)"]
    return []


PRINTED = ("side", "kind", "attack", "defense", "move", "barrage", "fpf", "range")
"""What a counter prints (3.0): a unit's side, type and strengths, which no rule of the game changes."""


def printed_problems(view: dict[str, Any], units: Iterable[dict]) -> list[str]:
    """Where ``view`` shows a unit of the scenario (``units``: its order of battle, public, as the scenario document
    writes it: a strength left out is 0) otherwise than the counter
    prints it, or shows a unit of its own side the scenario does not have (a dummy apart, 19B).

    Issue 37 item 4: a referee's lie about a hidden unit's strength in the Japanese view changed neither the American
    view nor the public record, so nothing but the audit caught it; the player who reads a view checks his own units
    (and every other unit it names) against the printed ones, at once.
    """
    state = view.get("state") if isinstance(view, dict) else None
    if not isinstance(state, dict) or not isinstance(state.get("units"), list):
        return []
    printed = {unit["id"]: unit for unit in units if isinstance(unit, dict) and "id" in unit}
    problems = []
    for shown in state["units"]:
        if not isinstance(shown, dict):
            continue
        unit = printed.get(shown.get("id"))
        if unit is None:
            if shown.get("side") == view.get("side") and shown.get("kind") != "dummy":
                problems.append(f"your view shows {shown.get('id')!r}, a {view.get('side')} unit the scenario does not have "
                                "(rule 3.0: the units are the scenario's order of battle)")
            continue
        for key in PRINTED:
            value = unit.get(key, 0 if key not in ("side", "kind") else None)
            if shown.get(key, 0 if key not in ("side", "kind") else None) != value:
                problems.append(f"your view shows {unit['id']} with {key} {shown.get(key)}, but the scenario prints {value} "
                                f"(rule 3.0: a unit's printed strengths never change)")
    return problems
