"""Hex ids, neighbours and distance on the Island War grid.

Hex ids are four digits ``CCRR`` (column, then row, both from 01).  Hexes are
flat-topped in vertical columns and even-numbered columns sit half a hex lower
than odd ones (cases.md, Map).  Geometry is done once in axial/cube
coordinates: ``q = column`` and ``s = row - (column - 1) // 2`` make every
neighbour a fixed axial offset, and the distance the usual cube distance.

Everything here is pure and board-agnostic: a neighbour may lie off any given
board; :mod:`pbem.engine.board` filters by the board's bounds.
"""

from __future__ import annotations

import re
from functools import lru_cache

Hex = str
"""A hex id, ``"CCRR"``."""

HEX_PATTERN = re.compile(r"^[0-9]{4}$")

_AXIAL_NEIGHBOURS = ((0, -1), (0, 1), (1, -1), (1, 0), (-1, 0), (-1, 1))


def is_hex_id(text: object) -> bool:
    """True for a well-formed ``CCRR`` id with column and row from 01."""
    if not isinstance(text, str) or not HEX_PATTERN.match(text):
        return False
    return int(text[:2]) >= 1 and int(text[2:]) >= 1


def parse(hex_id: Hex) -> tuple[int, int]:
    """``"0405"`` -> ``(4, 5)``."""
    return int(hex_id[:2]), int(hex_id[2:])


def hex_id(col: int, row: int) -> Hex:
    """``(4, 5)`` -> ``"0405"``."""
    return f"{col:02d}{row:02d}"


def to_axial(col: int, row: int) -> tuple[int, int]:
    """Offset (column, row) to axial (q, s)."""
    return col, row - (col - 1) // 2


def from_axial(q: int, s: int) -> tuple[int, int]:
    """Axial (q, s) back to offset (column, row)."""
    return q, s + (q - 1) // 2


@lru_cache(maxsize=None)
def neighbours(hex_id_: Hex) -> tuple[Hex, ...]:
    """The up to six hexes touching ``hex_id_`` with column and row >= 1.

    Sorted by id, so that anything iterating over neighbours is
    deterministic.
    """
    q, s = to_axial(*parse(hex_id_))
    result = []
    for dq, ds in _AXIAL_NEIGHBOURS:
        col, row = from_axial(q + dq, s + ds)
        if 1 <= col <= 99 and 1 <= row <= 99:
            result.append(hex_id(col, row))
    return tuple(sorted(result))


@lru_cache(maxsize=4096)
def within(hex_id_: Hex, radius: int) -> frozenset[Hex]:
    """Every hex (column and row 01 to 99) at most ``radius`` hexes from ``hex_id_``, itself included: the hexes whose
    :func:`distance` from it is at most ``radius``, found by stepping through axial coordinates, not by measuring each."""
    q, s = axial(hex_id_)
    found = set()
    for dq in range(-radius, radius + 1):
        for ds in range(max(-radius, -dq - radius), min(radius, radius - dq) + 1):
            col, row = from_axial(q + dq, s + ds)
            if 1 <= col <= 99 and 1 <= row <= 99:
                found.add(hex_id(col, row))
    return frozenset(found)


@lru_cache(maxsize=256)
def within_any(centres: frozenset[Hex], radius: int) -> frozenset[Hex]:
    """Every hex at most ``radius`` hexes from one of ``centres`` (a set-up zone around its printed hexes)."""
    return frozenset().union(*(within(c, radius) for c in centres))


@lru_cache(maxsize=None)
def within_two(hex_id_: Hex) -> tuple[Hex, ...]:
    """The hexes one or two steps from ``hex_id_`` (column and row >= 1), itself excluded, sorted by id."""
    return tuple(sorted(within(hex_id_, 2) - {hex_id_}))


def adjacent(a: Hex, b: Hex) -> bool:
    """True when ``a`` and ``b`` share a hexside."""
    return distance(a, b) == 1


@lru_cache(maxsize=None)
def axial(hex_id_: Hex) -> tuple[int, int]:
    """A hex id's axial (q, s), worked out once per id."""
    return to_axial(*parse(hex_id_))


def distance(a: Hex, b: Hex) -> int:
    """Hexes stepped through from ``a`` to ``b``, ``a`` excluded (8.12, 2.32)."""
    qa, sa = axial(a)
    qb, sb = axial(b)
    dq, ds = qa - qb, sa - sb
    return (abs(dq) + abs(ds) + abs(dq + ds)) // 2


def hexside(a: Hex, b: Hex) -> frozenset[Hex]:
    """The unordered pair naming the hexside between two adjacent hexes."""
    return frozenset((a, b))
