"""Retreat after combat (7.7) and displacement of friendly units (7.8).

A retreat of N hexes is a path h1..hN, each hex adjacent to the one before
and exactly k hexes from the start h0 at step k (I6).  No hex entered may
hold an enemy unit, lie in an enemy zone of control (friendly units do not
negate it, 7.71), be sea or off the board, or lie across a prohibited
hexside (7.72).  The choice of route is ranked the way the rules rank it:

1. a full-length path through vacant hexes (7.73);
2. else a full-length path through friendly-occupied hexes whose occupants
   can all be displaced (7.73, 7.81, 7.82) — displacement is the route of
   last resort, but it beats elimination;
3. else the unit goes as far as vacant hexes allow and is eliminated in the
   last hex reached, or in place when it cannot move at all (7.74).  Nothing
   is displaced then (I7).

A displaced unit moves one hex as if retreating, never into a hex of the
retreating unit's path (h0 included), to a vacant hex where it can, and
otherwise displaces in turn (a chain, 7.82).  Units of one side are all held
back by the same zones of control, so a chain is a simple path through
friendly-occupied hexes to a vacant one, and the shortest such chain is
exactly "vacant first, displace only when you must" at every link.

Within a rank, a route the owning player wrote down is used when it is legal
at that moment; otherwise the system's policy chooses (docs/policies.md):
fewest units displaced, then the safest final hex, then the lowest hex ids.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.engine import hexes
from pbem.engine.board import Board
from pbem.engine.hexes import Hex
from pbem.engine.placement import Placement
from pbem.engine.terrain import LINE_RANK
from pbem.model.common import Side

PLAYER = "player"
SYSTEM = "system"


@dataclass(frozen=True)
class Displacement:
    """``unit`` is pushed from ``start`` to ``to`` to make way for ``by`` (7.81)."""

    unit: str
    start: Hex
    to: Hex
    by: str


@dataclass(frozen=True)
class RetreatPlan:
    """How one unit retreats: the hexes it enters, who it displaces, whether it dies.

    ``eliminated`` is true when no full-length route exists: the unit is
    eliminated in the last hex of ``path`` (or in place when ``path`` is
    empty, 7.74).
    """

    unit: str
    start: Hex
    path: tuple[Hex, ...]
    displacements: tuple[Displacement, ...]
    eliminated: bool
    chosen_by: str

    @property
    def final(self) -> Hex:
        return self.path[-1] if self.path else self.start

    @property
    def path_of_retreat(self) -> tuple[Hex, ...]:
        """The hexes an enemy may advance along (7.91, I8)."""
        if self.eliminated:
            return (self.start,) + self.path
        return ((self.start,) + self.path)[:-1]


def may_enter(board: Board, placement: Placement, side: Side, prev: Hex, nxt: Hex) -> bool:
    """May a retreating or displaced unit of ``side`` step from ``prev`` into ``nxt`` (7.71, 7.72, I6)?

    Never into hexes closed to its side (Leyte 16.23 item 2, I24: no way of entering is excepted).
    """
    return (
        board.passable(prev, nxt)
        and not board.closed_to(side, nxt)
        and not placement.enemy_at(nxt, side)
        and not placement.in_enemy_zoc(nxt, side)
    )


def safety_key(board: Board, placement: Placement, side: Side, hex_id: Hex) -> tuple[int, int, int]:
    """Smaller is safer: fewer enemy units within two hexes, better defensive terrain, more friends beside."""
    threat = placement.enemies_among(hexes.within_two(hex_id), side)
    friends = sum(1 for h in hexes.neighbours(hex_id) if placement.friendly_at(h, side))
    return (threat, -LINE_RANK[board.terrain(hex_id).crt], -friends)


class RetreatFinder:
    """Finds retreat routes and displacement chains on one position."""

    def __init__(self, board: Board, placement: Placement) -> None:
        self.board = board
        self.placement = placement
        self._enterable: dict[tuple[Hex, Hex, Side], bool] = {}

    def _may_enter(self, side: Side, prev: Hex, nxt: Hex) -> bool:
        """:func:`may_enter`, remembered: it depends on the board and the enemy's units only,
        and a plan moves none of the enemy's units, only friends out of the way."""
        key = (prev, nxt, side)
        found = self._enterable.get(key)
        if found is None:
            found = self._enterable[key] = may_enter(self.board, self.placement, side, prev, nxt)
        return found

    # -- paths ---------------------------------------------------------------------
    def _paths(self, side: Side, h0: Hex, n: int, *, vacant_only: bool) -> list[tuple[Hex, ...]]:
        """Every legal path of up to ``n`` hexes away from h0, longest first found by depth."""
        found: list[tuple[Hex, ...]] = []

        def walk(path: tuple[Hex, ...]) -> None:
            found.append(path)
            k = len(path)
            if k == n:
                return
            prev = path[-1] if path else h0
            for nxt in self.board.neighbours(prev):
                if hexes.distance(h0, nxt) != k + 1:
                    continue
                if not self._may_enter(side, prev, nxt):
                    continue
                if vacant_only and not self.placement.vacant(nxt):
                    continue
                walk(path + (nxt,))

        walk(())
        return found

    def plan(self, unit_id: str, n: int, choice: list[Hex] | None = None) -> RetreatPlan:
        """The retreat of ``unit_id`` by ``n`` hexes, honouring ``choice`` when legal."""
        side = self.placement.units[unit_id].side
        h0 = self.placement.where(unit_id)
        paths = self._paths(side, h0, n, vacant_only=False)
        full = [p for p in paths if len(p) == n]
        vacant_full = [p for p in full if all(self.placement.vacant(h) for h in p)]
        if vacant_full:
            return self._pick(unit_id, h0, side, {p: () for p in vacant_full}, choice, n, eliminated=False)
        displacing = {}
        for p in full:
            chain = self.displacements_for(unit_id, h0, p)
            if chain is not None:
                displacing[p] = chain
        if displacing:
            return self._pick(unit_id, h0, side, displacing, choice, n, eliminated=False)
        partial = self._paths(side, h0, n, vacant_only=True)
        longest = max(len(p) for p in partial)
        doomed = {p: () for p in partial if len(p) == longest}
        return self._pick(unit_id, h0, side, doomed, choice, longest, eliminated=True)

    def _pick(
        self,
        unit_id: str,
        h0: Hex,
        side: Side,
        candidates: dict[tuple[Hex, ...], tuple[Displacement, ...]],
        choice: list[Hex] | None,
        length: int,
        *,
        eliminated: bool,
    ) -> RetreatPlan:
        if choice is not None and len(choice) >= length:
            wanted = tuple(choice[:length])
            if wanted in candidates:
                return RetreatPlan(unit_id, h0, wanted, candidates[wanted], eliminated, PLAYER)

        def rank(p: tuple[Hex, ...]):
            end = p[-1] if p else h0
            return (len(candidates[p]), safety_key(self.board, self.placement, side, end), p)

        best = min(candidates, key=rank)
        return RetreatPlan(unit_id, h0, best, candidates[best], eliminated, SYSTEM)

    # -- displacement ----------------------------------------------------------------
    def displacements_for(self, unit_id: str, h0: Hex, path: tuple[Hex, ...]) -> tuple[Displacement, ...] | None:
        """Displace every occupant along ``path`` in turn; None when any cannot go (7.82)."""
        scratch = self.placement.copy()
        forbidden = frozenset((h0, *path))
        done: list[Displacement] = []
        for h in path:
            for occupant in scratch.at(h):
                chain = self.chain(scratch, occupant, forbidden, unit_id)
                if chain is None:
                    return None
                for d in chain:
                    scratch.move(d.unit, d.to)
                done.extend(chain)
        return tuple(done)

    def chain(self, placement: Placement, unit_id: str, forbidden: frozenset[Hex], by: str) -> list[Displacement] | None:
        """The shortest displacement chain moving ``unit_id`` one hex, innermost move first.

        Breadth-first through friendly-occupied hexes to the nearest vacant
        one; among chains of equal length the safest final hex wins, then the
        lowest hex ids.  None when the unit has nowhere to go.
        """
        side = placement.units[unit_id].side
        start = placement.where(unit_id)
        parents: dict[Hex, Hex] = {start: start}
        frontier = [start]
        while frontier:
            ends: list[tuple[Hex, Hex]] = []
            next_frontier: list[Hex] = []
            for here in frontier:
                for nxt in self.board.neighbours(here):
                    if nxt in forbidden or nxt in parents:
                        continue
                    if not self._may_enter(side, here, nxt):
                        continue
                    if placement.vacant(nxt):
                        ends.append((here, nxt))
                    elif nxt not in next_frontier:
                        next_frontier.append(nxt)
                        parents[nxt] = here
            if ends:
                here, end = min(ends, key=lambda e: (safety_key(self.board, placement, side, e[1]), self._route(parents, e[0]) + (e[1],)))
                return self._moves(placement, parents, here, end, by)
            frontier = next_frontier
        return None

    @staticmethod
    def _route(parents: dict[Hex, Hex], hex_id: Hex) -> tuple[Hex, ...]:
        route = [hex_id]
        while parents[route[-1]] != route[-1]:
            route.append(parents[route[-1]])
        return tuple(reversed(route))

    def _moves(self, placement: Placement, parents: dict[Hex, Hex], last: Hex, end: Hex, by: str) -> list[Displacement]:
        """Turn a chain of hexes into moves, the occupant nearest the vacant hex first."""
        route = self._route(parents, last) + (end,)
        moves = []
        pusher = by
        for i in range(len(route) - 1):
            mover = placement.at(route[i])[0]
            moves.append(Displacement(mover, route[i], route[i + 1], pusher))
            pusher = mover
        return list(reversed(moves))
