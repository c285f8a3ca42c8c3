"""Ground Support Points attacking alone, in random positions, against a reference of 9.1 and 8.13 (issue 40).

:func:`tests.random_positions.random_turn` with ``gsp_alone`` adds attacks by
Ground Support Points alone — no unit, no barrage — at enemies out of
contact, each at one hex or at two, to a legal player-turn.  The reference
below is written from the rules, not from pbem's checker:

* dg-2009: Ground Support only adds to an attack by at least one unit
  (DG 9.1), so every such attack is refused under 9.1, and only under it;
* spi-1975: Ground Support strikes exactly as artillery (9.0, 9.11), and a
  barrage with no unit attacking from an adjacent hex strikes a single hex
  (8.13): an attack at one hex is legal and resolved, one at two hexes is
  refused under 8.13.

The turn without the added attacks is legal (checked), so every problem is
one of theirs.
"""

from __future__ import annotations

from collections import Counter

import pytest

from pbem.engine.adjudicator import adjudicate
from pbem.engine.board import Board
from pbem.engine.dice import FixedDice
from pbem.model.ruleset import Ruleset
from tests.random_positions import random_turn

SEEDS = range(150)


def _reference(ruleset: Ruleset, alone) -> Counter:
    """The rules each added attack breaks, by the rule text alone."""
    broken: Counter = Counter()
    for attack in alone:
        if ruleset.dg:
            broken["9.1"] += 1
        elif len(attack.defenders) > 1:  # one unit per hex (5.31): two defenders stand in two hexes
            broken["8.13"] += 1
    return broken


@pytest.mark.parametrize("edition", ["spi-1975", "dg-2009"])
@pytest.mark.parametrize("exclusive", [None, "leyte"])
def test_ground_support_alone_in_random_positions(edition, exclusive):
    ruleset = Ruleset(edition=edition, exclusive=exclusive)
    seen = Counter()
    for seed in SEEDS:
        size = (8 + seed % 7, 8 + seed % 5, 12 + seed % 40)
        plain = random_turn(seed, *size, ruleset=ruleset, choices=False)
        base = adjudicate(Board(plain.spec), ruleset, plain.state, plain.orders, FixedDice(list(plain.dice)), None)
        if not base.valid:
            continue  # the generator's rare illegal turn: nothing to learn about Ground Support from it
        t = random_turn(seed, *size, ruleset=ruleset, choices=False, gsp_alone=True)
        alone = t.orders.attacks[len(plain.orders.attacks):]
        if not alone:
            continue
        result = adjudicate(Board(t.spec), ruleset, t.state, t.orders, FixedDice(list(t.dice)), None)
        expected = _reference(ruleset, alone)
        got = Counter(p.rule for p in result.problems)
        assert got == expected, (seed, [a.model_dump() for a in alone], [p.as_dict() for p in result.problems])
        assert result.valid == (not expected), seed
        if result.valid:
            assert len(result.combats) == len(t.orders.attacks), seed
        seen["one hex" if all(len(a.defenders) == 1 for a in alone) else "two hexes"] += 1
        seen["refused" if expected else "accepted"] += 1
    # The positions hold both kinds of attack, and (in spi-1975) both verdicts.
    assert seen["one hex"] >= 10 and seen["two hexes"] >= 10, seen
    if edition == "spi-1975":
        assert seen["accepted"] >= 10 and seen["refused"] >= 10, seen
