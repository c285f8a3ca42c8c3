"""The event's dice tests: the exact multinomial test against brute force, the switch to chi-square at 30 rolls, Holm."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from pbem.event.dice import dice_report, purpose_of
from pbem.event.stats import CHI_SQUARE, EXACT, exact_multinomial_p, face_test, holm
from pbem.game.dice_report import chi_square_p


def _brute_force_p(counts: tuple[int, ...]) -> float:
    """Every sequence of n rolls enumerated: the share whose outcome is no more likely than ``counts``."""
    n = sum(counts)
    ways = Counter(tuple(seq.count(f) for f in range(6)) for seq in itertools.product(range(6), repeat=n))
    return sum(w for w in ways.values() if w <= ways[counts]) / 6 ** n


@pytest.mark.parametrize("counts", [(1, 0, 0, 0, 0, 0), (1, 1, 0, 0, 0, 0), (3, 0, 0, 0, 0, 0), (1, 1, 1, 1, 0, 0),
                                    (4, 1, 0, 0, 0, 0), (2, 2, 1, 0, 0, 0), (1, 1, 1, 1, 1, 1), (6, 0, 0, 0, 0, 0)])
def test_the_exact_multinomial_test_is_the_share_of_outcomes_no_more_likely(counts):
    assert exact_multinomial_p(list(counts)) == pytest.approx(_brute_force_p(counts), rel=1e-12)


def test_the_exact_test_does_not_depend_on_which_face_came_up():
    assert exact_multinomial_p([5, 0, 1, 2, 0, 3]) == exact_multinomial_p([0, 3, 2, 0, 5, 1])


def test_a_loaded_die_is_caught_and_a_fair_spread_is_not():
    assert exact_multinomial_p([29, 0, 0, 0, 0, 0]) < 1e-20
    assert exact_multinomial_p([5, 5, 5, 5, 5, 4]) == 1.0


def test_chi_square_from_30_rolls_the_exact_test_below():
    below = face_test({1: 5, 2: 5, 3: 5, 4: 5, 5: 5, 6: 4})
    at = face_test({1: 5, 2: 5, 3: 5, 4: 5, 5: 5, 6: 5})
    assert below.test == EXACT and below.statistic is None and below.rolls == 29
    assert at.test == CHI_SQUARE and at.degrees_of_freedom == 5 and at.statistic == 0 and at.p_value == pytest.approx(1.0)
    loaded = face_test({1: 20, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    assert loaded.statistic == pytest.approx(sum((c - 5) ** 2 / 5 for c in (20, 2, 2, 2, 2, 2)))
    assert loaded.p_value == pytest.approx(chi_square_p(loaded.statistic))
    assert face_test({f: 0 for f in range(1, 7)}) is None


def test_holm_adjusts_step_down_and_keeps_the_order():
    # Holm (1979): sorted p 0.01, 0.03, 0.04, 0.5 times 4, 3, 2, 1, made monotone.
    assert holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert holm([0.9, 0.8]) == [1.0, 1.0]  # 0.8 × 2 is capped at 1, and no later p may fall below it
    assert holm([]) == []


def test_under_a_fair_die_small_exact_p_values_are_as_rare_as_they_claim():
    rng = random.Random(29)  # a test's own fixed generator, not a game's dice
    found = [exact_multinomial_p([Counter(rng.randint(1, 6) for _ in range(12)).get(f, 0) for f in range(1, 7)])
             for _ in range(400)]
    assert sum(p <= 0.05 for p in found) / len(found) <= 0.05 + 0.03  # valid: never more often than 5% (plus noise)


def test_rolls_are_sorted_by_purpose_and_place_and_every_test_is_corrected():
    rolls = ([{"n": 1, "purpose": "combat 1: a against b, +3 on the clear line", "value": v, "by": "ref A"} for v in range(1, 7)] * 6
             + [{"n": 2, "purpose": "intelligence roll (19B.7): 1d6", "value": 6, "by": "ref B"}]
             + [{"n": 1, "purpose": "intelligence after the set-up (19B.7): 2d6, first die", "value": 1, "by": "ref B"}])
    assert [purpose_of(r["purpose"]) for r in rolls[-2:]] == ["intelligence", "set-up"]
    report = dice_report(rolls)
    labels = [s.label for s in report.samples]
    assert labels == ["all rolls", "purpose: combat", "purpose: intelligence", "purpose: set-up", "referee: ref A", "referee: ref B",
                      "first roll of a turn file", "later rolls of a turn file"]
    tested = [s for s in report.samples if s.test]
    assert [s.test.test for s in tested] == [CHI_SQUARE, CHI_SQUARE, EXACT, EXACT, CHI_SQUARE, EXACT, CHI_SQUARE, EXACT]
    assert [s.p_holm for s in tested] == holm([s.test.p_value for s in tested])
