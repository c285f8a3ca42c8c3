"""Every roll of a game, its distribution, and a chi-square test of fairness.

For tournament organisers: the rolls come from verified turn files only, so
each has been recomputed from the revealed seed and the player's salt.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from pbem.protocol.turnfile import TurnFile

FACES = (1, 2, 3, 4, 5, 6)


def chi_square_p(statistic: float) -> float:
    """P(X >= statistic) for a chi-square variable with 5 degrees of freedom (six faces)."""
    x = statistic
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * (1 + x / 3)


@dataclass(frozen=True)
class DiceSummary:
    rolls: list[dict]
    counts: dict[int, int]
    chi_square: float | None
    p_value: float | None

    def as_dict(self) -> dict:
        return {
            "rolls": self.rolls,
            "counts": {str(f): self.counts[f] for f in FACES},
            "chi_square": self.chi_square,
            "degrees_of_freedom": 5,
            "p_value": self.p_value,
        }


def summarise(turns: list[TurnFile]) -> DiceSummary:
    return summarise_rolls([
        {"seq": t.seq, "n": r["n"], "purpose": r["purpose"], "value": r["value"]}
        for t in sorted(turns, key=lambda t: t.seq)
        for r in t.dice.rolls
    ])


def summarise_rolls(rolls: list[dict]) -> DiceSummary:
    """The distribution and the test of ``rolls`` (each with its ``value``), in the order given."""
    counts = Counter(r["value"] for r in rolls)
    counts = {f: counts.get(f, 0) for f in FACES}
    if not rolls:
        return DiceSummary(rolls, counts, None, None)
    expected = len(rolls) / 6
    statistic = sum((counts[f] - expected) ** 2 / expected for f in FACES)
    return DiceSummary(rolls, counts, statistic, chi_square_p(statistic))
