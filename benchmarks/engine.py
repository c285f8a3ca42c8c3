"""Benchmark: player-turns the engine adjudicates per second, at 50, 150 and 300 units on a Leyte-sized map.

Not a test: it prints figures.  Run with ``.venv/bin/python benchmarks/engine.py``
(``--rounds N`` for more rounds, ``--quick`` for one round of fewer turns).

Each size is a set of seeded random player-turns on a 29x32 map (Leyte's
size) with legal orders: a movement phase of quiet units stepping one hex,
then every contact attacked, artillery on both sides so that the Final
Protective Fire policy has choices to weigh, retreats through crowded
hexes (``tests/random_positions.py`` builds them; the engine comparison test
uses the same turns).  Positions and boards are built before timing; a
player-turn is :func:`~pbem.engine.adjudicator.adjudicate`, checking and
resolving.  Time is the process's CPU time, which other work on a shared
machine disturbs less than the wall clock; each round times every turn once,
and the median round is reported.  The growth exponent k (cost ~ N^k) is the
least-squares slope of log(time per turn) against log(units).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.engine.adjudicator import adjudicate  # noqa: E402
from pbem.engine.board import Board  # noqa: E402
from pbem.engine.dice import FixedDice  # noqa: E402
from pbem.model.ruleset import Ruleset  # noqa: E402
from tests.random_positions import random_turn  # noqa: E402

SIZES = (50, 150, 300)


def turns_per_second(count: int, seeds: int, rounds: int) -> tuple[float, float, float]:
    """Median player-turns per second over ``rounds``, with the mean attacks and units per turn."""
    turns = [random_turn(seed, 29, 32, count, ruleset=Ruleset(exclusive="leyte"), choices=False) for seed in range(seeds)]
    boards = [Board(t.spec) for t in turns]
    samples = []
    for _ in range(rounds):
        start = time.process_time()
        for t, board in zip(turns, boards):
            result = adjudicate(board, t.ruleset, t.state, t.orders, FixedDice(list(t.dice)), t.defense)
            assert result.valid, result.problems
        samples.append(len(turns) / (time.process_time() - start))
    attacks = statistics.mean(len(t.orders.attacks) for t in turns)
    units = statistics.mean(sum(1 for h in t.state.locations.values() if h != "eliminated") for t in turns)
    return statistics.median(samples), attacks, units


def growth(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of log(seconds per turn) against log(units)."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(1 / rate) for _, rate in points]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seeds", type=int, default=12, help="player-turns per size")
    parser.add_argument("--quick", action="store_true", help="one round of four turns per size")
    args = parser.parse_args()
    rounds, seeds = (1, 4) if args.quick else (args.rounds, args.seeds)
    points = []
    print(f"{'units':>5}  {'on map':>6}  {'attacks':>7}  {'player-turns/s':>14}  {'ms/turn':>7}")
    for count in SIZES:
        rate, attacks, units = turns_per_second(count, seeds, rounds)
        points.append((units, rate))
        print(f"{count:>5}  {units:>6.0f}  {attacks:>7.1f}  {rate:>14.1f}  {1000 / rate:>7.2f}")
    print(f"growth: time per turn ~ N^{growth(points):.2f} (from {SIZES[0]} to {SIZES[-1]} units)")


if __name__ == "__main__":
    main()
