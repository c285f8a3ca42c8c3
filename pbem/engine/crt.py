"""The Integrated Combat Results Table (7.61), held as data.

Each terrain line has its own column headings, left-aligned under the twelve
die-roll columns (I2): the Clear line uses all twelve, the River line the
first eleven, the Broken/Town line ten and the Rough line nine.  A
differential below a line's first column is resolved on its first column;
one above ``+10`` on ``+10``.

Results are the table's entries: ``A1 A2 A3 Ae D1 D2 D3 De`` and ``-`` for
the blank (no effect).
"""

from __future__ import annotations

from dataclasses import dataclass

# (label, lowest differential, highest differential) per column, per line (7.61).
_LINES: dict[str, tuple[tuple[str, int, int], ...]] = {
    "clear": (
        ("-7", -7, -7), ("-6,5", -6, -5), ("-4,3", -4, -3), ("-2", -2, -2), ("-1", -1, -1), ("0", 0, 0),
        ("+1", 1, 1), ("+2,3", 2, 3), ("+4,5", 4, 5), ("+6,7", 6, 7), ("+8,9", 8, 9), ("+10", 10, 10),
    ),
    "river": (
        ("-5", -5, -5), ("-4,3", -4, -3), ("-2", -2, -2), ("-1", -1, -1), ("0", 0, 0), ("+1", 1, 1),
        ("+2,3", 2, 3), ("+4,5", 4, 5), ("+6,7", 6, 7), ("+8,9", 8, 9), ("+10", 10, 10),
    ),
    "broken": (
        ("-3", -3, -3), ("-2", -2, -2), ("-1", -1, -1), ("0", 0, 0), ("+1", 1, 1), ("+2,3", 2, 3),
        ("+4,5", 4, 5), ("+6,7", 6, 7), ("+8,9", 8, 9), ("+10", 10, 10),
    ),
    "rough": (
        ("-2", -2, -2), ("-1", -1, -1), ("0", 0, 0), ("+1", 1, 1), ("+2,3", 2, 3), ("+4,5", 4, 5),
        ("+6,7", 6, 7), ("+8,9", 8, 9), ("+10", 10, 10),
    ),
}

# Results by die roll (1-6) across the twelve table columns (7.61); "-" is the blank.
_RESULTS: dict[int, tuple[str, ...]] = {
    1: ("A1", "A1", "-", "-", "D1", "D1", "D1", "D2", "D2", "D3", "De", "De"),
    2: ("A1", "A1", "A1", "-", "-", "D1", "D1", "D1", "D2", "D2", "D3", "De"),
    3: ("A2", "A1", "A1", "A1", "-", "-", "D1", "D1", "D1", "D2", "D2", "D3"),
    4: ("A2", "A2", "A1", "A1", "A1", "-", "-", "D1", "D1", "D1", "D2", "D2"),
    5: ("A3", "A2", "A2", "A1", "A1", "A1", "-", "-", "D1", "D1", "D1", "D2"),
    6: ("Ae", "A2", "A2", "A2", "A1", "A1", "A1", "-", "-", "D1", "D1", "D1"),
}

LINES = tuple(_LINES)
RESULTS = ("A1", "A2", "A3", "Ae", "D1", "D2", "D3", "De", "-")


@dataclass(frozen=True)
class Column:
    """A column of one line: its printed label and its place among the twelve."""

    line: str
    label: str
    position: int  # 0-based index into the twelve die-roll columns


def column(line: str, differential: int) -> Column:
    """The column a differential is resolved on, on ``line`` (I2)."""
    columns = _LINES[line]
    for position, (label, low, high) in enumerate(columns):
        if low <= differential <= high:
            return Column(line, label, position)
    if differential < columns[0][1]:
        return Column(line, columns[0][0], 0)
    return Column(line, columns[-1][0], len(columns) - 1)


def result(col: Column, die: int) -> str:
    """The table entry for a die roll (1-6) under ``col``."""
    if not 1 <= die <= 6:
        raise ValueError(f"a die roll is 1-6, not {die}")
    return _RESULTS[die][col.position]


def results_under(col: Column) -> tuple[str, ...]:
    """The six entries under a column, die 1 to 6 (for policies weighing outcomes)."""
    return tuple(_RESULTS[die][col.position] for die in range(1, 7))


def retreat_hexes(entry: str) -> int:
    """Hexes a retreat result demands: ``D2`` -> 2; 0 for the rest."""
    return int(entry[1]) if entry[0] in "AD" and entry[1].isdigit() else 0
