"""15.4: the ratio of U.S. to Japanese points and the level it gives, at every boundary of the schedule.

I27: the ratio is cut (not rounded) to two decimals, the schedule's precision, and then read as written.
"""

import pytest

from pbem.engine.scoring import level_for


@pytest.mark.parametrize(
    ("us", "jp", "level"),
    [
        (300, 100, "U.S. Decisive"),  # 3.00
        (299, 100, "U.S. Substantive"),  # 2.99
        (250, 100, "U.S. Substantive"),  # 2.50
        (249, 100, "U.S. Marginal"),  # 2.49
        (201, 100, "U.S. Marginal"),  # 2.01
        (200, 100, "Draw"),  # 2.00
        (2001, 1000, "Draw"),  # 2.001 is cut to 2.00
        (2005, 1000, "Draw"),  # 2.005 is cut to 2.00 (I27): a Draw, not U.S. Marginal
        (2009, 1000, "Draw"),  # 2.009: still below 2.01
        (1999, 1000, "Japanese Marginal"),  # 1.999 is cut to 1.99 (I27): not a Draw
        (1995, 1000, "Japanese Marginal"),  # 1.995: Japanese Marginal, not a Draw (I27's example)
        (599, 200, "U.S. Substantive"),  # 2.995: 15.4 asks 3.0 or more for Decisive (I27's example)
        (2999, 1000, "U.S. Substantive"),  # 2.999
        (199, 100, "Japanese Marginal"),  # 1.99
        (150, 100, "Japanese Marginal"),  # 1.50
        (149, 100, "Japanese Substantive"),  # 1.49
        (101, 100, "Japanese Substantive"),  # 1.01
        (1009, 1000, "Japanese Decisive"),  # 1.009: below 1.01
        (100, 100, "Japanese Decisive"),  # 1.00
        (0, 5, "Japanese Decisive"),  # 0.00
        (5, 0, "U.S. Decisive"),  # no Japanese points: an infinite ratio
        (0, 0, "Draw"),  # nobody scored: read as a draw
        (2495, 1000, "U.S. Marginal"),  # 2.495 is cut to 2.49 (I27)
        (2499, 1000, "U.S. Marginal"),  # 2.499
        (1495, 1000, "Japanese Substantive"),  # 1.495 is cut to 1.49
    ],
)
def test_level_of_victory(us, jp, level):
    assert level_for(us, jp) == level


@pytest.mark.parametrize(
    ("us", "jp", "shown"),
    [(599, 200, "2.99"), (1995, 1000, "1.99"), (2005, 1000, "2.00"), (2, 3, "0.66"), (300, 100, "3.00"), (201, 100, "2.01")],
)
def test_i27_the_ratio_shown_is_the_ratio_read(us, jp, shown):
    """The ratio a report prints is the one 15.4 reads (I27): cut, not rounded, so it never names a level above it."""
    from fractions import Fraction

    from pbem.engine.scoring import shown_ratio

    assert str(shown_ratio(Fraction(us, jp))) == shown
