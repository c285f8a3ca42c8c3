"""A problem about a unit id the player cannot see, said as what it is: a hidden unit, to be named by its hex.

The scenario's roster is public, so an American player may well guess which
Japanese unit stands in a hex; his view, though, holds only a marker there,
and the rules check finds "no unit" of that id.  Told "there is no unit …
Did you mean …", he would look for a typo (issue 20).  The message says
instead that the unit is hidden from him (19B) and that a hidden target is
named by its hex.  Words only: the problem itself is the rules check's.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from pbem.systems.base import Problem


def hidden_named(problems: Iterable[Problem], hidden: set[str]) -> list[Problem]:
    """``problems``, those naming an id in ``hidden`` reworded; the others unchanged."""
    out = []
    for p in problems:
        if p.unit in hidden and "there is no unit" in p.message:
            tag = p.message.split(":", 1)[0] + ": " if p.message.startswith("attack ") else ""
            p = replace(p, rule="19B.4", message=(
                f"{tag}{p.unit} is hidden from you (19B.4): your view shows only a hidden unit where it may stand, "
                "and you cannot name it by its id, even when you have guessed it; name its hex instead, "
                "e.g. \"defenders\": [\"2215\"] (docs/hidden-units.md)."
            ))
        out.append(p)
    return out
