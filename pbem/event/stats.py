"""Tests of a die's fairness valid for the sample at hand, and the correction for making many of them.

A six-sided die, ``n`` rolls: Pearson's chi-square on 5 degrees of freedom
is only trusted where every expected count ``n/6`` is at least 5 (``n >=
30``).  Below that the **exact multinomial test** is used: the p-value is the
probability, under a fair die, of every outcome no more likely than the one
observed.  It is computed exactly, in integers, by summing over the
partitions of ``n`` into at most six parts (an outcome's probability depends
only on its multiset of counts), so it needs no random numbers and gives the
same figure on every machine.

Many tests on one event's dice find a small p-value by chance alone; the
**Holm** step-down correction (Holm 1979) adjusts each p-value for the
number of tests made, controlling the family-wise error rate without
assuming the tests independent.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import factorial

from pbem.game.dice_report import FACES, chi_square_p

#: The least expected count per face for which the chi-square approximation is used.
MIN_EXPECTED = 5
CHI_SQUARE = "chi-square"
EXACT = "exact multinomial"


@dataclass(frozen=True)
class FaceTest:
    """One test of one sample: which test, its statistic (chi-square only) and its p-value."""

    test: str
    rolls: int
    statistic: float | None
    degrees_of_freedom: int | None
    p_value: float


def chi_square_statistic(counts: list[int]) -> float:
    expected = sum(counts) / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def _partitions(n: int, parts: int, largest: int):
    """Non-increasing tuples of at most ``parts`` positive integers, each at most ``largest``, summing to ``n``."""
    if n == 0:
        yield ()
        return
    if parts == 0:
        return
    for first in range(min(n, largest), 0, -1):
        for rest in _partitions(n - first, parts - 1, first):
            yield (first,) + rest


def _arrangements(counts: tuple[int, ...], faces: int) -> int:
    """How many outcomes (counts per face) share this multiset of counts."""
    padded = counts + (0,) * (faces - len(counts))
    ways = factorial(faces)
    for value in set(padded):
        ways //= factorial(padded.count(value))
    return ways


def _coefficient(counts, n: int) -> int:
    """The multinomial coefficient n! / (c1! c2! ...): the number of roll sequences giving these counts."""
    result = factorial(n)
    for c in counts:
        result //= factorial(c)
    return result


def exact_multinomial_p(counts: list[int]) -> float:
    """P(an outcome no more likely than ``counts``) for ``sum(counts)`` rolls of a fair ``len(counts)``-sided die."""
    n, faces = sum(counts), len(counts)
    observed = _coefficient(counts, n)
    total = 0
    for partition in _partitions(n, faces, n):
        coefficient = _coefficient(partition, n)
        if coefficient <= observed:
            total += coefficient * _arrangements(partition, faces)
    return float(Fraction(total, faces ** n))


def face_test(counts: dict[int, int]) -> FaceTest | None:
    """The test valid for this sample (None for no rolls): chi-square when every expected count is at least 5, else exact."""
    values = [counts.get(f, 0) for f in FACES]
    n = sum(values)
    if n == 0:
        return None
    if n / len(FACES) >= MIN_EXPECTED:
        statistic = chi_square_statistic(values)
        return FaceTest(CHI_SQUARE, n, statistic, len(FACES) - 1, min(1.0, chi_square_p(statistic)))
    return FaceTest(EXACT, n, None, None, exact_multinomial_p(values))


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted
