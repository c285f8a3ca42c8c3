"""How much a player's orders may hold before the engine is run on them.

Orders come from the other side of a mail; a signed file of thousands of
moves or paths of thousands of hexes would make the referee's machine
search for minutes and write a turn file nobody can open.  No real orders
come near these bounds: at most one move and one attack per unit in the
scenario, and no list inside an order (a path, the attackers, the
retreats) longer than :data:`MAX_LIST`.  Orders beyond them are rejected
like any invalid orders (the seed is spent, the same side moves again), and
a rejection records at most :data:`MAX_PROBLEMS` problems.
"""

from __future__ import annotations

from typing import Any

MAX_LIST = 64
MAX_PROBLEMS = 50


def size_problem(document: Any, units: int) -> str | None:
    """Why ``document`` is too large to adjudicate, or None."""
    if not isinstance(document, dict):
        return None  # the schema check says what is wrong with it
    for key in ("moves", "attacks"):
        items = document.get(key)
        if isinstance(items, list) and len(items) > units:
            return f"{len(items)} {key}, more than the {units} units of the scenario"
    stack = [item for key in ("moves", "attacks") if isinstance(document.get(key), list) for item in document[key]]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            if len(value) > MAX_LIST:
                return f"a list of {len(value)} items inside an order, more than {MAX_LIST}"
            stack.extend(value)
    return None


def capped(problems: list[dict]) -> list[dict]:
    """At most :data:`MAX_PROBLEMS` problems, the last saying how many more there were."""
    if len(problems) <= MAX_PROBLEMS:
        return problems
    rest = len(problems) - MAX_PROBLEMS + 1
    return problems[: MAX_PROBLEMS - 1] + [{"rule": "limits", "unit": None, "message": f"and {rest} more problem(s)"}]
