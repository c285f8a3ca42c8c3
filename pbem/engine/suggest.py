""""Did you mean …?" for a unit id that is not in the game.

A mistyped id (``us-7cv``, ``US-7cav``, an id with a zero-width space pasted
from a forum) is the commonest slip in an orders file; the closest ids of the
game are named so the player can fix it at once.  This only adds words to a
problem the rules check already found; it decides nothing.
"""

from __future__ import annotations

import difflib
from dataclasses import replace
from typing import Iterable

from pbem.engine.problems import Problem


def closest(name: str, known: Iterable[str]) -> list[str]:
    """Up to three known ids that look like ``name``, best first (case and invisible characters ignored)."""
    by_folded = {_folded(k): k for k in known}
    if _folded(name) in by_folded and by_folded[_folded(name)] != name:
        return [by_folded[_folded(name)]]  # differs only by case or an invisible character
    matches = difflib.get_close_matches(_folded(name), list(by_folded), n=3, cutoff=0.6)
    return [by_folded[m] for m in matches if by_folded[m] != name]


def _folded(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isprintable() and not ch.isspace())


def with_suggestions(problems: Iterable[Problem], known: Iterable[str]) -> list[Problem]:
    """``problems``, each about an id not in ``known`` extended with the closest ids."""
    known = list(known)
    known_set = set(known)
    out = []
    for p in problems:
        if p.unit and p.unit not in known_set:
            near = closest(p.unit, known)
            if near:
                p = replace(p, message=f"{p.message} Did you mean {' or '.join(repr(n) for n in near)}?")
        out.append(p)
    return out
