"""One bipartite matching step (Kuhn's augmenting path), shared by every caller that pairs things one to one.

The bot pairs each enemy in contact with one of its units (7.11, 7.12), the
odds report pairs guns with attacked hexes (Leyte 13.11), the tests pair
attackers with defenders; each grows a matching one item at a time.
"""

from __future__ import annotations

from typing import Hashable, Mapping, Sequence, TypeVar

L = TypeVar("L", bound=Hashable)
R = TypeVar("R", bound=Hashable)


def augment(left: L, options: Mapping[L, Sequence[R]], owner: dict[R, L], seen: set[R] | None = None) -> bool:
    """Match ``left`` to one of its ``options``, moving earlier matches along an augmenting path if need be.

    ``owner`` maps each matched right-hand item to its left-hand item and is
    updated in place; True when ``left`` got a match.
    """
    seen = set() if seen is None else seen
    for right in options.get(left, ()):
        if right in seen:
            continue
        seen.add(right)
        if right not in owner or augment(owner[right], options, owner, seen):
            owner[right] = left
            return True
    return False
