"""The public bound on hidden moves, checked at once by the American player (issue 35 item 4).

With no referee, only the Japanese player knows which piece stands under each marker, so only the audit can
judge a hidden unit's move against its own allowance and path.  The marker hexes before and after every step are
public, though, and so is every rule that binds *all* Japanese pieces alike.  This module asks the question the
American player can answer from his own files alone: **could any legal play have turned the counters before the step
into the counters after it?**  It is a bipartite matching (:func:`pbem.engine.matching.augment`): each counter after
the step must be the counter of some counter before it (or a reinforcement) that could have reached its hex.  A step
that admits no such matching is refused at once, naming the counters no piece could have reached; everything that
depends on the identity under a marker (its own allowance, its kind, its path) still waits for the audit.

It must never refuse a legal game, so every term is an upper bound:

- **Movement** (Japanese player-turn only; 5.11: nothing Japanese moves in an American Movement Phase): from each
  counter before the step, the engine's own Dijkstra (:func:`pbem.engine.reach.search`, the costs of 5.21-5.23 and
  I11), once for each way of moving among the pieces that may stand under that marker, with the largest allowance
  of that way — the order of battle due by now, less the units the American view shows (on the map, eliminated),
  and the dummies while any is left (a dummy moves as the fastest Japanese unit, 19B.6, but never enters a clear hex
  unseen, 19B.3) — or, for a unit the view shows before or after, its own.  Armor keeps to its terrain (5.25); only
  infantry and engineers step out of an American zone of control (6.14); nothing enters an American unit (5.12), a
  sea hex or crosses a prohibited hexside (5.21), enters a hex closed to the Japanese (16.23), or goes on from an
  American zone of control it entered (6.0).  Friendly counters never block (5.31, 5.32).
- **Reinforcements** (12.1, 12.2): every Japanese unit of the order of appearance due by this Game-Turn and not yet
  shown may enter by its area (12.21, 12.23; 12.22 stops it in a zone of control), the air assault battalion
  anywhere on its own Game-Turn (12.42).  How many entered is bounded twice: no more than are due less those that
  must already have entered in earlier steps, and no more than the counters of the step account for (the counters
  after, less those before, plus the Japanese units the view shows eliminated and the dummies it removes).
- **Combat** (7.7-7.9): each counter may then move as far as the step's combat results allow a Japanese unit —
  its own retreat or advance, at most the longest result (a D3 or A3: three hexes; an eliminated side leaves a
  one-hex path) — plus one hex for each hex of every Japanese retreat of the step, by which it may be displaced
  (7.81, 7.82).  The results are the public record's, each checked against its die and the table before this
  check runs; the units listed in each combat are the Japanese player's word until the audit, and each widens the
  bound only by its own retreat.

What is refused names the step, the counters no legal play could have put where they stand, the nearest counter
before the step and the allowance used, and the rule cases.  Pure: no clock, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable

from pbem.engine import hexes
from pbem.engine.board import Board
from pbem.engine.matching import augment
from pbem.engine.reach import graph_of, search
from pbem.loading.datafiles import LoadedScenario
from pbem.model.common import ELIMINATED, NOT_ON_MAP

HIDDEN = "hidden"
RESULT_LENGTH = {"A1": 1, "A2": 2, "A3": 3, "Ae": 1, "D1": 1, "D2": 2, "D3": 3, "De": 1}
"""How far a combat result can move a unit of either side (7.7 retreat; 7.91 an advance along the Path of Retreat,
which an eliminated unit leaves one hex long, ``retreat.RetreatPlan.path_of_retreat``)."""
RETREATS = {"A1": 1, "A2": 2, "A3": 3, "D1": 1, "D2": 2, "D3": 3}
ARMOR, STEPS_OUT, DUMMY, OTHER = "armor", "steps out", "dummy", "other"
"""The ways Japanese pieces move: armor off roads and trails only into clear or town (5.25); infantry and engineers,
which may step out of an American zone of control (6.14); dummies, which never enter a clear hex unseen (19B.3);
and every other kind."""


def _way(kind: str) -> str:
    return {"armor": ARMOR, "infantry": STEPS_OUT, "engineer": STEPS_OUT, "dummy": DUMMY}.get(kind, OTHER)


@dataclass(frozen=True)
class Counter:
    """A Japanese counter on the map, as the American view shows it: its hex, and the unit when it is shown."""

    hex: str
    unit: str | None  # None: a marker (19B.2)


@dataclass(frozen=True)
class Seen:
    """What a view tells of the Japanese counters and the American units (or, for the set-up, its markers alone)."""

    counters: tuple[Counter, ...]
    us_hexes: frozenset[str]
    known: frozenset[str]  # every Japanese unit the view names: shown on the map, or eliminated
    eliminated: frozenset[str]
    turn: int | None

    @classmethod
    def of_view(cls, view: dict) -> "Seen":
        state = view["state"]
        where = state["locations"]
        counters, us, known, gone = [], set(), set(), set()
        for unit in state["units"]:
            at = where.get(unit["id"])
            if unit["side"] != "JP":
                if at not in NOT_ON_MAP and at is not None:
                    us.add(at)
                continue
            if unit.get("kind") == HIDDEN:
                counters.append(Counter(at, None))
                continue
            known.add(unit["id"])
            if at == ELIMINATED:
                gone.add(unit["id"])
            elif at not in NOT_ON_MAP:
                counters.append(Counter(at, unit["id"]))
        return cls(tuple(sorted(counters, key=lambda c: c.hex)), frozenset(us), frozenset(known), frozenset(gone),
                   int(state["position"]["turn"]))

    @classmethod
    def of_markers(cls, markers: Iterable[str]) -> "Seen":
        return cls(tuple(Counter(h, None) for h in sorted(markers)), frozenset(), frozenset(), frozenset(), None)


@dataclass
class MoveBound:
    """The American player's bound on hidden moves over a whole game: the scenario's public data, and how many
    reinforcements must have entered so far (carried from step to step)."""

    loaded: LoadedScenario
    entered: int = 0
    """A lower bound on the Japanese reinforcements that have entered the map in the steps checked so far."""
    _reach: dict = field(default_factory=dict, repr=False)

    @property
    def board(self) -> Board:
        return self.loaded.board

    @cached_property
    def units(self) -> dict:
        """The Japanese order of battle (and of appearance), by id."""
        return {u.id: u for u in self.loaded.scenario.units if u.side == "JP" and u.kind not in ("dummy", HIDDEN)}

    @cached_property
    def dummy_move(self) -> int:
        """A dummy's allowance, as the engine gives it (the fastest Japanese unit's, 19B.6)."""
        from pbem.engine.sequence import opening

        state = opening(self.loaded.scenario, hidden=True)
        return max((u.move for u in state.units if u.is_dummy), default=0)

    @cached_property
    def set_up_units(self) -> int:
        return sum(1 for u in self.units.values() if u.hex is not None)

    @cached_property
    def returns(self) -> bool:
        """Whether a Japanese unit may leave the map and come back (no Leyte scenario has it): then entries are not
        counted."""
        return any(r.side == "JP" and r.reenter_after for r in self.loaded.scenario.exits)

    def _due(self, turn: int) -> list:
        return [u for u in self.units.values() if u.hex is None and u.arrives is not None and u.arrives <= turn]

    # ------------------------------------------------------------------------------------------ one step

    def check(self, side: str, before: Seen, after: Seen, events: list[dict], *, dummies_left: int,
              file: str = "the step's file") -> list[str]:
        """The problems of one step (``side``: "setup", "US" or "JP"; ``file``: the file publishing it), each a
        sentence naming the counters, the allowance and the rule cases; none when some legal play gives ``after``
        from ``before``."""
        self._reach.clear()  # the American units stand elsewhere at every step
        turn = after.turn if before.turn is None else before.turn
        moving = side == "JP"
        own, pushed = _combat_slack(events, side)
        slack = own + pushed
        us = before.us_hexes
        zoc = frozenset(n for h in us for n in self.board.neighbours(h))
        blocked = us | self.board.closed.get("JP", frozenset())
        candidates = [u for u in self.units.values()
                      if u.id not in before.known and (u.hex is not None or (u.arrives or 0) <= (turn or 0))]
        under: dict[str, int] = {}  # the fastest piece of each way of moving that may stand under a marker
        for kind, move in [(_way(u.kind), u.move) for u in candidates] + ([(DUMMY, self.dummy_move)] if dummies_left > 0 else []):
            under[kind] = max(under.get(kind, 0), move)
        widest = max(under.values(), default=0)

        def moves(left: Counter, right: Counter) -> frozenset[str]:
            if not moving:
                return frozenset({left.hex})
            known = left.unit if left.unit is not None else right.unit if right.unit in self.units else None
            if known is not None and known in self.units:  # the piece is the unit shown before, or shown after
                unit = self.units[known]
                return self._moves(left.hex, _way(unit.kind), unit.move, us, zoc, blocked)
            return frozenset().union(*(self._moves(left.hex, way, move, us, zoc, blocked) for way, move in sorted(under.items())))

        def reachable(left: Counter, right: Counter) -> bool:
            if left.unit is not None and right.unit is not None and left.unit != right.unit:
                return False  # a unit shown before is the piece of its counter
            if left.unit is None and right.unit is not None and right.unit in before.known:
                return False  # a unit shown elsewhere before is not under this marker
            return right.hex in self._widened(moves(left, right), slack)

        entrants = [u for u in self._due(turn or 0) if u.id not in before.known
                    and (u.kind != "airassault" or not self.loaded.scenario.ruleset.leyte or u.arrives == turn)] \
            if moving else []

        def arrives(unit, right: Counter) -> bool:
            if right.unit is not None and right.unit != unit.id:
                return False
            reach = self._entry(unit, us, zoc, blocked)
            return right.hex in self._widened(reach, slack)

        new = list(after.counters)
        old = list(before.counters)
        options: dict = {("old", i): [j for j, r in enumerate(new) if reachable(c, r)] for i, c in enumerate(old)}
        options |= {("new", u.id): [j for j, r in enumerate(new) if arrives(u, r)] for u in entrants}
        owner: dict[int, tuple] = {}
        for i in range(len(old)):
            augment(("old", i), options, owner)
        from_old = len(owner)
        for u in entrants:
            augment(("new", u.id), options, owner)
        problems = []
        lost = [new[j] for j in range(len(new)) if j not in owner]
        if lost:
            problems.append(self._unreached(side, lost, old, widest, own, pushed, file))
        entering = len(owner) - from_old
        if moving and not self.returns:
            gone = len(after.eliminated - before.eliminated) + sum(1 for e in events if e.get("type") == "dummy_removed")
            counted = len(new) - len(old) + gone
            pool = len(self._due(turn or 0)) - self.entered
            if entering > min(pool, counted) and not lost:
                if pool < counted:
                    why = f"the order of appearance has {max(pool, 0)} Japanese reinforcement(s) left to enter by Game-Turn {turn}"
                else:
                    why = (f"the counters account for {max(counted, 0)} entering ({len(new)} after, {len(old)} before, "
                           f"{gone} eliminated or removed)")
                problems.append(f"published in {file} {entering} counter(s) on the map that no counter before the step "
                                f"could have become, where {why} (12.1, 12.2; 5.13): a counter moved beyond every "
                                "allowance, or one taken off and put back elsewhere")
            self.entered += max(entering, len(new) - len(old), 0)
        return problems

    def _unreached(self, side: str, lost: list[Counter], old: list[Counter], widest: int, own: int, pushed: int,
                   file: str) -> str:
        def nearest(c: Counter) -> str:
            if not old:
                return f"{c.hex} (no Japanese counter stood on the map before the step)"
            far = min(old, key=lambda o: (hexes.distance(o.hex, c.hex), o.hex))
            return f"{c.hex}{' (' + c.unit + ')' if c.unit else ''} (the nearest counter before the step stood in {far.hex}, " \
                   f"{hexes.distance(far.hex, c.hex)} hexes away)"

        where = "; ".join(nearest(c) for c in lost[:4]) + (f" (and {len(lost) - 4} more)" if len(lost) > 4 else "")
        combat = (f", nor any combat result of the step (a retreat or advance of at most {own} hex(es), {pushed} "
                  "displacement(s): 7.7-7.9)" if own or pushed else ", and no combat result of the step moved a Japanese unit (7.7-7.9)")
        if side == "JP":
            return (f"published in {file} counters no legal play can have put where they stand: {where}. No counter before the step "
                    f"can have reached them with the largest movement allowance of any Japanese piece that may stand under a "
                    f"marker ({widest} MP), through the terrain, American zones of control and closed hexes that bind every "
                    f"Japanese unit, nor any reinforcement due by its entry area{combat} (5.13, 5.21-5.23, 6.0, 12.2, 16.23): "
                    "a hidden unit moved beyond every allowance")
        rule = "19B.2" if side == "setup" else "5.11"
        return (f"published in {file} counters no legal play can have put where they stand: {where}. Japanese units do not move in "
                f"{'the set-up step' if side == 'setup' else 'an American player-turn'} but to retreat, advance or be displaced "
                f"after combat{combat} ({rule}): a hidden unit moved out of its player-turn")

    # ------------------------------------------------------------------------------------------ the reach, cached per step

    def _moves(self, start: str, way: str, move: int, us: frozenset, zoc: frozenset, blocked: frozenset) -> frozenset[str]:
        """Where a Japanese piece moving ``way`` with allowance ``move`` from ``start`` may end its Movement Phase, as
        :func:`pbem.engine.reach.unit_reach` finds it (see the module's docstring)."""
        key = ("move", start, way, move, us)
        if key not in self._reach:
            graph = graph_of(self.board)
            budget = graph.scaled(move)
            if way == DUMMY:  # a dummy entering (or leaving) a clear hex is seen and removed (19B.3)
                blocked = blocked | self.clear
            if move <= 0 or (way == DUMMY and start in self.clear):
                found = frozenset({start})
            elif start in zoc:  # 6.14: infantry and engineers step out one hex; the others stay (5.15, 6.13)
                found = frozenset({start} | ({n for n, w, _ in graph.steps.get(start, ()) if w <= budget and n not in blocked}
                                             if way == STEPS_OUT else set()))
            else:
                found = frozenset(search("bound", graph, {start: 0}, budget, way == ARMOR, zoc, blocked, start).cost)
            self._reach[key] = found
        return self._reach[key]

    @cached_property
    def clear(self) -> frozenset[str]:
        """The clear hexes, where a dummy is seen (19B.3, :func:`pbem.engine.dummies.clear`)."""
        from pbem.engine.dummies import clear

        return frozenset(h for h in self.board.all_hexes if clear(self.board, h))

    def _entry(self, unit, us: frozenset, zoc: frozenset, blocked: frozenset) -> frozenset[str]:
        """Where a reinforcement may end its move on entering (12.2, 12.21-12.23; anywhere for the air assault, 12.42)."""
        key = ("entry", unit.kind, unit.entry, unit.move, us)
        if key not in self._reach:
            board, graph = self.board, graph_of(self.board)
            budget = graph.scaled(unit.move)
            if unit.kind == "airassault" and self.loaded.scenario.ruleset.leyte:
                sources = {h: 0 for h in board.all_hexes if board.land(h) and h not in blocked}
            else:
                armor = unit.kind == "armor"
                sources = {h: graph.scaled(board.entry_cost(unit.entry, h)) for h in sorted(board.entry_hexes(unit.entry) or ())
                           if board.land(h) and h not in blocked and (not armor or board.armor_may_be_placed(h))}  # I22
                sources = {h: c for h, c in sources.items() if c <= budget}
            self._reach[key] = frozenset(search("bound", graph, sources, budget, unit.kind == "armor", zoc, blocked, None).cost)
        return self._reach[key]

    def _widened(self, found: frozenset[str], slack: int) -> frozenset[str]:
        """``found`` and every hex within ``slack`` steps of it that a combat result can move a unit into (7.7-7.9)."""
        if slack <= 0:
            return found
        key = ("wide", found, slack)
        if key not in self._reach:
            steps, closed = graph_of(self.board).steps, self.board.closed.get("JP", frozenset())
            seen, frontier = set(found), set(found)
            for _ in range(slack):  # a retreat, advance or displacement never enters the sea, crosses a prohibited
                # hexside (7.72, nothing crosses one) or enters a hex closed to the Japanese (16.23, I24)
                frontier = {n for h in frontier for n, _w, _a in steps.get(h, ()) if n not in closed} - seen
                seen |= frontier
            self._reach[key] = frozenset(seen)
        return self._reach[key]


def _combat_slack(events: list[dict], side: str) -> tuple[int, int]:
    """How far the step's combat results may move one Japanese unit: its own retreat or advance (the longest
    result), and one hex per hex of every Japanese unit's retreat, which may displace it (7.81, 7.82)."""
    own = pushed = 0
    for e in events:
        if e.get("type") != "combat":
            continue
        result = str(e.get("result"))
        own = max(own, RESULT_LENGTH.get(result, 0))
        japanese = e.get("attackers") if side == "JP" else e.get("defenders")
        if result[:1] == ("A" if side == "JP" else "D") and result in RETREATS:
            pushed += RETREATS[result] * len(japanese or [])
    return own, pushed


__all__ = ["Counter", "MoveBound", "Seen"]
