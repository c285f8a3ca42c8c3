"""Benchmark: retreat and displacement search on a crowded position (issue: Combat).

Not a test: it prints timings.  Run with ``.venv/bin/python benchmarks/retreat_search.py``.

The position packs a 24x24 board with a 9x9 Japanese block, every hex of it
occupied, with an American line on its west side, so that most retreats can
only be made by displacing chains of friends across the block.  It times
:class:`~pbem.engine.retreat.RetreatFinder` planning D1, D2 and D3 retreats
for every unit of the block.
"""

from __future__ import annotations

import statistics
import time

from pbem.engine import hexes
from pbem.engine.board import Board
from pbem.engine.placement import Placement
from pbem.engine.retreat import RetreatFinder
from pbem.model.map import MapSpec
from pbem.model.units import Unit


def crowded_position(size: int = 24, block: range = range(8, 17)) -> tuple[Board, Placement, list[str]]:
    board = Board(MapSpec(cols=size, rows=size))
    units, where = {}, {}
    block_hexes = [hexes.hex_id(c, r) for c in block for r in block]
    for i, h in enumerate(block_hexes):
        uid = f"jp-{i}"
        units[uid] = Unit(id=uid, side="JP", kind="infantry", attack=2, defense=3, move=6)
        where[uid] = h
    # An American line along the block's west side; the east side is open, so a
    # retreat eastwards must displace a chain of friends right across the block.
    west = block.start - 1
    for r in range(block.start - 1, block.stop + 1):
        uid = f"us-{r}"
        units[uid] = Unit(id=uid, side="US", kind="infantry", attack=5, defense=5, move=5)
        where[uid] = hexes.hex_id(west, r)
    return board, Placement(units, where), [u for u in units if u.startswith("jp-")]


def main() -> None:
    board, placement, defenders = crowded_position()
    finder = RetreatFinder(board, placement)
    print(f"{len(placement.units)} units, {len(defenders)} in the Japanese block")
    for n in (1, 2, 3):
        times, eliminated, displaced = [], 0, 0
        for uid in defenders:
            start = time.perf_counter()
            plan = finder.plan(uid, n)
            times.append(time.perf_counter() - start)
            eliminated += plan.eliminated
            displaced += len(plan.displacements)
        print(
            f"D{n}: {len(times)} plans, median {statistics.median(times) * 1e3:.2f} ms, "
            f"max {max(times) * 1e3:.2f} ms, {eliminated} eliminated, {displaced} displacements"
        )


if __name__ == "__main__":
    main()
