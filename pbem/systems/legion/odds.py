"""Odds ratios and their columns (9A.2, 6B.2a): attacker to defender, rounded down.

An odds ratio is kept as one integer ``step``: ``n:1`` is ``n - 1`` (1:1 is
0, 8:1 is 7) and ``1:m`` is ``-(m - 1)`` (1:2 is -1), so that a column shift
(6B.2a) is an addition.
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil, floor


def step(attack: Fraction, defense: Fraction) -> int:
    """The odds of ``attack`` against ``defense`` (> 0), rounded down in the attacker's disfavour (9A.2 example: 20:8 is 2:1)."""
    if attack >= defense:
        return floor(attack / defense) - 1
    return -(ceil(defense / attack) - 1) if attack > 0 else -99


def label(value: int) -> str:
    return f"{value + 1}:1" if value >= 0 else f"1:{1 - value}"


OVERRUN_STEP = step(Fraction(8), Fraction(1))
"""6B.2a: an Overrun succeeds at 8:1 or more, after the column shifts."""
WORST = step(Fraction(1), Fraction(4))
"""9A.2: worse than 1:4 is an automatic AE."""
AUTO_DE = step(Fraction(10), Fraction(1))
"""9A.2: 10:1 or more is an automatic DE."""
TOP = step(Fraction(7), Fraction(1))
"""9A.2: the 7:1 column; each ratio beyond it is a +1 DRM."""
