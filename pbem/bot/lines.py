"""Lines of Communications for the whole board at once (Leyte 15.31, 15.32, I17).

The engine's :func:`~pbem.engine.victory.has_line_of_communications`
answers for one unit by a search from it; the bot asks about many candidate
hexes each turn, so it answers backwards instead: first every hex from which
roads and trails alone lead to a beach through open hexes, then, for a
candidate hex, whether at most three steps of any kind reach one of those.
A hex is open when no enemy unit is in it and it is outside the enemy's
zones of control or a friendly unit holds it; which hexes friendly units
hold is taken at the start of the player-turn, so the answer is an
estimate the bot uses to choose, never a ruling.
"""

from __future__ import annotations

from collections import deque

from pbem.bot.reach import graph_of
from pbem.bot.sight import Sight
from pbem.engine.hexes import Hex
from pbem.engine.victory import FREE_STEPS


class Lines:
    def __init__(self, sight: Sight, friendly: set[Hex]) -> None:
        board = sight.board
        self.steps = graph_of(board).steps
        self.beaches = board.beaches
        self.open = lambda h: h not in sight.enemy_at and (h not in sight.enemy_zoc or h in friendly)
        roads = deque(h for h in sorted(board.beaches) if self.open(h))
        self.supplied = set(roads)
        while roads:
            h = roads.popleft()
            for n, _, _ in self.steps.get(h, ()):
                if n in self.supplied or not self.open(n):
                    continue
                if board.road_between(h, n) or board.trail_between(h, n):
                    self.supplied.add(n)
                    roads.append(n)

    def traced_from(self, h: Hex) -> bool:
        """Could a unit in ``h`` trace a Line of Communications to a beach hex?"""
        if h in self.beaches:
            return True
        frontier, seen = [h], {h}
        for _ in range(FREE_STEPS):
            nxt = []
            for x in frontier:
                for n, _, _ in self.steps.get(x, ()):
                    if n in seen or not self.open(n):
                        continue
                    if n in self.supplied:
                        return True
                    seen.add(n)
                    nxt.append(n)
            frontier = nxt
        return False
