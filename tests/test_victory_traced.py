"""Lines of Communications traced once per side give each unit the answer its own search gives (15.32, I17).

:func:`~pbem.engine.victory.traced_hexes` works backwards from the targets
for every unit of a side at once; :func:`has_line_of_communications`
searches forwards from one unit.  On random boards with dense roads and
trails, prohibited hexsides, sea, and random targets (some of them at sea
or under the enemy's zone of control), both must agree on every unit.
"""

from __future__ import annotations

import random

import pytest

from pbem.engine import hexes
from pbem.engine.board import Board
from pbem.engine.placement import Placement
from pbem.engine.victory import has_line_of_communications, traced_hexes
from tests.random_positions import random_turn

SEEDS = range(60)


def _board_with_lines(seed: int, spec) -> tuple[Board, frozenset[str]]:
    """The random turn's map with many more roads and trails, and random targets."""
    rng = random.Random(seed)
    every = [hexes.hex_id(c, r) for c in range(1, spec.cols + 1) for r in range(1, spec.rows + 1)]
    pairs = [(a, b) for a in every for b in hexes.neighbours(a) if a < b and int(b[:2]) <= spec.cols and int(b[2:]) <= spec.rows]
    roads = [list(p) for p in rng.sample(pairs, len(pairs) // 4)]
    trails = [list(p) for p in rng.sample(pairs, len(pairs) // 6)]
    board = Board(spec.model_copy(update={"roads": spec.roads + roads, "trails": trails}))
    targets = frozenset(rng.sample(every, rng.randint(1, max(2, len(every) // 25))))
    return board, targets


@pytest.mark.parametrize("seed", SEEDS)
def test_the_side_at_once_answers_as_each_unit_alone(seed):
    turn = random_turn(seed, 10 + seed % 7, 10 + seed % 5, 24 + seed % 20, choices=False)
    board, targets = _board_with_lines(seed, turn.spec)
    units = turn.state.unit_index()
    placement = Placement(units, turn.state.locations)
    for choice in (targets, None):  # random targets, and the board's beaches (none on these maps)
        for side in ("US", "JP"):
            traced = traced_hexes(board, placement, side, targets=choice)
            for u in (u for u in units.values() if u.side == side):
                alone = has_line_of_communications(board, placement, u.id, targets=choice)
                assert (placement.on_map(u.id) and placement.where(u.id) in traced) == alone, (seed, u.id, choice is None)


def test_the_random_boards_hold_both_answers_and_long_lines():
    """The comparison above means something: units with and without a line, and lines longer than the free steps."""
    answers, far = set(), 0
    for seed in SEEDS:
        turn = random_turn(seed, 10 + seed % 7, 10 + seed % 5, 24 + seed % 20, choices=False)
        board, targets = _board_with_lines(seed, turn.spec)
        placement = Placement(turn.state.unit_index(), turn.state.locations)
        for side in ("US", "JP"):
            traced = traced_hexes(board, placement, side, targets=targets)
            answers |= {placement.where(u) in traced for u in placement.units_of(side)}
            far += sum(1 for u in placement.units_of(side) if placement.where(u) in traced
                       and min(hexes.distance(placement.where(u), t) for t in targets) > 3)
    assert answers == {True, False}
    assert far > 0
