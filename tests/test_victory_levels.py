"""15.4: the ratio of U.S. to Japanese points and the level it gives, at every boundary of the schedule."""

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
        (2001, 1000, "Draw"),  # 2.001 rounds to 2.00
        (2005, 1000, "U.S. Marginal"),  # 2.005 rounds half up to 2.01
        (1999, 1000, "Draw"),  # 1.999 rounds to 2.00: the table's precision
        (199, 100, "Japanese Marginal"),  # 1.99
        (150, 100, "Japanese Marginal"),  # 1.50
        (149, 100, "Japanese Substantive"),  # 1.49
        (101, 100, "Japanese Substantive"),  # 1.01
        (100, 100, "Japanese Decisive"),  # 1.00
        (0, 5, "Japanese Decisive"),  # 0.00
        (5, 0, "U.S. Decisive"),  # no Japanese points: an infinite ratio
        (0, 0, "Draw"),  # nobody scored: read as a draw
        (2495, 1000, "U.S. Substantive"),  # 2.495 rounds half up to 2.50
    ],
)
def test_level_of_victory(us, jp, level):
    assert level_for(us, jp) == level
