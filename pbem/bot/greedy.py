"""The greedy policy: sensible play by cheap rules of thumb, no look-ahead.

In order, each step using what the last left free:

1. The attacks the position forces (7.11, 7.12) are found; a Japanese
   infantry or engineer unit facing a hopeless one steps away if it may
   (6.14).  Units a required exit needs (Leyte 16.13 item 4) are sent
   toward it, kept out of attacks, and the enemy units barring their way
   are marked to be attacked first (waiting a Game-Turn, while one is left,
   for an attack that traps them).  A unit standing on an objective then
   holds it (on a named place, while the enemy is near): it neither moves
   nor leaves to attack.
2. Each forced attack is filled: more units into hexes touching all its
   defenders, artillery and Ground Support while a column shift pays.
3. New attacks are made where the expected worth (:mod:`.odds`) is clearly
   positive, the most valuable first.
4. Every other unit — reinforcements too — heads for the objectives by
   the cheapest way, stopping short of enemy zones of control, U.S.
   units only where they keep a Line of Communications (15.32).
5. Units the move left standing attack where that breaks even (:meth:`Greedy.rouse`).
6. Dummies move as a bluff (:mod:`.bluff`); a winner advances (7.9) into
   the hex it took when that hex is an objective or better ground; under
   hidden units the U.S. spends a Ground Support Point left over on an
   intelligence roll (19B.7).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from pbem.bot import fields
from pbem.bot.bluff import bluff_moves
from pbem.bot.contact import Group, mandatory_attacks
from pbem.bot.lines import Lines
from pbem.bot.odds import Attackers, Judge, Odds
from pbem.bot.orders import Plan
from pbem.bot.reach import Reach, graph_of as reach_graph, reach_of, reinforcement_reach
from pbem.bot.sight import Sight
from pbem.engine import crt, hexes
from pbem.engine.engagement import BANZAI_KINDS
from pbem.engine.hexes import Hex
from pbem.engine.movement import EXIT_COST
from pbem.engine.sequence import exit_requirement_met
from pbem.engine.terrain import LINE_RANK

OFFENSIVE_WORTH = 0.5
"""Expected value an optional attack must promise before units are committed to it (assumed)."""
WITHDRAW_BELOW = -1.5
"""A forced attack expected to cost more than this is avoided where the rules let the units step away (assumed)."""
GSP_PRICE = 0.4
"""What spending one Ground Support Point must buy, in expected value (assumed: points are few and lost at the turn's end, 9.14)."""
SUPPORT_GAIN = 0.05
"""The least improvement a battery or Ground Support Point must bring to be added."""
BLOCKER_WORTH = -1.0
"""What an attack on an enemy unit barring a required exit (16.13 item 4) may cost, in expected value (assumed:
forfeiting the battalion costs its 5 points for sure)."""
BLOCKER_FIRST = 10.0
"""Added to an attack's worth when ordering the attacks, for one on a unit barring a required exit."""
ROUSE_WORTH = {"US": 0.0, "JP": 0.25}
"""What an attack by units the move left standing must promise (assumed: for the attacker one expected to break even
beats standing idle beside the fight; the defender gives ground grudgingly and attacks only where it gains a little.
Over 40 Final Collapse games the U.S. margin was -44 with these, +9 with Japan at 0.0 too, -78 with the U.S. at 0.25
too, -140 with no unit roused)."""
GARRISON_NEAR = 4
"""A unit holds a named place that is no objective only while an enemy unit is this many hexes away or nearer (assumed)."""
ENTRY_POINTS = 12
"""Pull of the hex the side's reinforcements still to come must enter by, while it is the only way in (assumed:
an enemy unit standing on it keeps them all off the map)."""
PLACE_POINTS = 3
"""Pull of a named place that is no side's objective (assumed)."""


ADVANCE_DEEP = 3
"""How deep along a Path of Retreat the winners of an attack on a unit barring a required exit follow it (7.9, I8):
as far as the path goes, to the hex next to where the loser stopped."""


@dataclass
class Offer:
    """An attack as it would be made: moves into place, who attacks, and its odds."""

    group: Group
    moves: dict[str, Hex]
    odds: Odds


@dataclass(frozen=True)
class Knobs:
    """The greedy policy's thresholds; the look-ahead policy tries other settings as its candidate turns."""

    offensive: float = OFFENSIVE_WORTH
    withdraw: float = WITHDRAW_BELOW
    gsp_price: float = GSP_PRICE
    rouse: bool = True
    """Units the move left standing attack where that is expected to pay ``ROUSE_WORTH`` (False: they stand)."""
    stand: bool = False
    """Units on the map no attack or exit needs stand fast instead of heading for the goals (a defender's turn)."""


class Greedy:
    def __init__(self, sight: Sight, knobs: Knobs = Knobs()) -> None:
        self.sight = sight
        self.knobs = knobs
        self.plan = Plan.standing(sight)
        self.reach: dict[str, Reach] = {}
        self.busy: set[str] = set()
        """Units whose move is decided."""
        self.gsp_left = sight.gsp
        self.goals = self._goals()
        self.bare_places = self._bare_places()
        """Named places that pull only as places: no objective, no way in for reinforcements still to come."""
        self.scores_region = any(t.kind == "region" and t.side == sight.side for t in sight.scenario.victory)
        """The side scores its own units standing in a region (Leyte 16.24, the U.S. in the Mountain Barrier): a unit
        holding a place that scores nothing is better on its way to the fight.  (Measured over 40 Mountain Barrier games
        greedy against greedy, seeds 0-39, with :attr:`leave_places`: the U.S. won 5, none when its battalion held the
        Buri airfield all game; Japan's margin went from +33.4 to +29.1.)"""
        self.leave_places = self.bare_places if self.scores_region else self.bare_places & self._entries_done()
        """Bare places a unit standing on is not pulled by (:meth:`deploy`): all of them where the side scores a region,
        else the hexes its reinforcements came in by, once the last has come (Ormoc in the Mountain Barrier after
        Game-Turn 11, 18.2)."""
        self.held: set[Hex] = set()
        """Objectives a unit of the side holds and keeps."""
        self.steps = reach_graph(sight.board).steps
        self._reachers: dict[Hex, list[str]] | None = None
        self._by_cost: dict[str, list[Hex]] = {}
        self._radius: dict[str, int] = {}
        self.blockers: set[str] = set()
        self.exit_field: dict[Hex, int] | None = None
        """MP to the exit hex a required exit still owes (16.13 item 4), while a unit is on its way there."""
        self.exit_due: int | None = None
        """The Game-Turn by which the required exit the runner is on its way to must be made."""
        self.intel_reserved = False
        """A Ground Support Point is kept back for an intelligence roll."""
        """Enemy units whose zone of control bars the way of a unit sent to a required exit."""

    # -- helpers ---------------------------------------------------------------------
    def reach_for(self, unit: str) -> Reach:
        if unit not in self.reach:
            self.reach[unit] = reinforcement_reach(self.sight, unit) if unit in self.sight.waiting else reach_of(self.sight, unit)
        return self.reach[unit]

    def reachers(self) -> dict[Hex, list[str]]:
        """Hex -> the units that can end their move there (built once, after the forced attacks)."""
        if self._reachers is None:
            self._reachers = {}
            for u in self.free_units():
                for h in self.reach_for(u).cost:
                    self._reachers.setdefault(h, []).append(u)
        return self._reachers

    def free_for(self, unit: str, h: Hex) -> bool:
        """No other unit of the side ends its move in ``h`` (5.31)."""
        who = self.plan.occupant(h)
        return who is None or who == unit

    def judge(self) -> Judge:
        return Judge(self.sight, self.plan.final)

    def attacked(self) -> set[str]:
        return {d for g in self.plan.attacks for d in g.defenders}

    def free_units(self) -> list[str]:
        return [u for u in self.sight.mine + self.sight.waiting if u not in self.busy]

    # -- 1. forced attacks -------------------------------------------------------------
    def _best_host(self, judge: Judge):
        def choose(unit: str, options: list[Group]) -> Group:
            def gain(g: Group) -> float:
                before = judge.judge(g.attackers, g.defenders).worth
                if unit in self.sight.units and self.sight.units[unit].side == self.sight.side:
                    trial = g.attackers.copy()
                    trial.adjacent.append(unit)
                    return judge.judge(trial, g.defenders).worth - before
                return judge.judge(g.attackers, g.defenders + [unit]).worth - before
            return max(options, key=lambda g: (gain(g), -len(g.defenders)))
        return choose

    def forced(self) -> None:
        sight = self.sight
        contact = [u for u in sight.mine if sight.where[u] in sight.enemy_zoc]
        self.busy.update(contact)
        judge = self.judge()
        groups = mandatory_attacks(sight, self.plan.final, self._best_host(judge))
        withdrew = False
        for g in groups:
            odds = judge.judge(g.attackers, g.defenders)
            if odds.worth >= self.knobs.withdraw:
                continue
            stepped = []
            for a in g.attackers.adjacent:
                h = self._escape(a)
                if h is None:
                    break
                self.plan.move(a, None, [h])
                stepped.append(a)
            else:
                withdrew = True
                continue
            for a in stepped:  # all step away or none
                self.plan.unmove(a)
        if withdrew:
            groups = mandatory_attacks(sight, self.plan.final, self._best_host(self.judge()))
        self.plan.attacks = groups

    def _escape(self, unit: str) -> Hex | None:
        """A hex out of every enemy zone of control one step away (6.14), if the unit may take it."""
        reach = self.reach_for(unit)
        for h in sorted(reach.cost, key=lambda h: (-LINE_RANK[self.sight.board.terrain(h).crt], h)):
            if h != self.sight.where[unit] and h not in self.sight.enemy_zoc and self.free_for(unit, h):
                return h
        return None

    # -- 2 and 3: filling and making attacks --------------------------------------------
    def offer(self, group: Group) -> Offer | None:
        """The best way found to make ``group``'s attack with the units still free; None when no unit can attack."""
        sight = self.sight
        defenders = group.defenders
        dhexes = {sight.where[d] for d in defenders}
        attacked = self.attacked() | set(defenders)
        slots = set()
        for dh in dhexes:
            for n, _, _ in self.steps.get(dh, ()):
                if n in sight.enemy_at or n in slots:
                    continue
                if all(hexes.adjacent(n, o) for o in dhexes) and all(e in attacked for m in hexes.neighbours(n) for e in sight.enemy_at.get(m, ())):
                    slots.add(n)
        able: dict[str, list[Hex]] = {}
        reachers = self.reachers()
        sealing = self.exit_field is not None and any(d in self.blockers for d in defenders)
        for spot in sorted(slots):
            for u in reachers.get(spot, ()):
                if u not in self.busy and not sight.units[u].is_artillery and self.free_for(u, spot):
                    able.setdefault(u, []).append(spot)
        final = dict(self.plan.final)
        attackers = group.attackers.copy()
        moves: dict[str, Hex] = {}
        best = None
        if attackers.adjacent:
            best = (Judge(sight, final).judge(attackers, defenders), attackers.copy(), dict(moves))
        # Against a unit barring a required exit, first the slots whose zones of control bar its retreat toward the
        # exit (7.71), where it would bar the exit again; with those barred too a trapped unit dies (7.74).
        if sealing:
            order = self._sealing_order(dhexes, slots)
            for u in able:
                able[u].sort(key=order)
        taken: set[Hex] = set()
        for u in sorted(able, key=lambda u: (-sight.units[u].attack, -sight.units[u].defense, u)):
            spot = next((s for s in able[u] if s not in taken), None)
            if spot is None:
                continue
            taken.add(spot)
            moves[u] = spot
            final[u] = spot
            attackers.adjacent.append(u)
            odds = Judge(sight, final).judge(attackers, defenders)
            if best is None or odds.worth > best[0].worth:
                best = (odds, attackers.copy(), dict(moves))
        if best is None:
            return None
        odds, attackers, moves = best
        final = dict(self.plan.final) | moves
        odds = self._support(Judge(sight, final), attackers, defenders, moves, odds)
        return Offer(Group(list(defenders), attackers), moves, odds)

    def _sealing_order(self, dhexes: set[Hex], slots: set[Hex]):
        """Sort key for the slots of an attack on a unit barring a required exit: the slot that stands on or puts its
        zone of control on the defender's way of retreat nearest the exit first (7.71), then nearer the exit itself.

        The defender's retreat goes where no zone of control of ours lies (7.71), the system choosing among what is
        left (docs/policies.md); the hexes it could step into nearest the exit are the ones to close."""
        field = self.exit_field
        sight = self.sight
        ways = {n for dh in dhexes for n, _, _ in self.steps.get(dh, ())
                if n not in dhexes and n not in sight.enemy_at}

        def key(s: Hex) -> tuple:
            closed = [field.get(n, fields.FAR) for n in ways if n == s or hexes.adjacent(n, s)]
            return (min(closed, default=fields.FAR), field.get(s, fields.FAR), s)
        return key

    def _support(self, judge: Judge, attackers: Attackers, defenders: list[str], moves: dict[str, Hex], odds: Odds) -> Odds:
        """Add batteries, Ground Support and Banzai while each pays for itself."""
        sight = self.sight
        dhexes = [sight.where[d] for d in defenders]
        batteries = [u for u in self.free_units() if sight.units[u].is_artillery and u not in moves]
        for b in sorted(batteries, key=lambda b: (-sight.units[b].barrage, b)):
            if not self._within_fire(b, dhexes):
                continue
            spot = self._firing_hex(b, dhexes, set(moves.values()))
            if spot is None:
                continue
            trial = attackers.copy()
            trial.barrage.append(b)
            tried = judge.judge(trial, defenders)
            if tried.worth > odds.worth + SUPPORT_GAIN:
                attackers.barrage.append(b)
                moves[b] = spot
                odds = tried
        may_gsp = attackers.adjacent or not sight.ruleset.dg
        if may_gsp and self.gsp_left:
            best_points, best_odds, best_net = 0, odds, 0.0
            column = odds.column
            for points in range(1, self.gsp_left + 1):
                shifted = crt.column(odds.line, odds.differential + points).position
                if shifted == column:
                    continue  # a point that does not shift the column buys nothing
                column = shifted
                trial = attackers.copy()
                trial.gsp += points
                tried = judge.judge(trial, defenders)
                net = tried.worth - odds.worth - self.knobs.gsp_price * points
                if net > best_net + SUPPORT_GAIN:
                    best_points, best_odds, best_net = points, tried, net
            if best_points:
                attackers.gsp += best_points
                odds = best_odds
        if sight.side == "JP" and any(sight.units[a].kind in BANZAI_KINDS for a in attackers.adjacent):
            trial = attackers.copy()
            trial.banzai = True
            tried = judge.judge(trial, defenders)
            if tried.worth > odds.worth + SUPPORT_GAIN:
                attackers.banzai = True
                odds = tried
        return odds

    def _within_fire(self, battery: str, targets: list[Hex]) -> bool:
        """Could the battery reach range of any target at all (a cheap test before the real one)?"""
        here = self.sight.where.get(battery)
        if here is None:
            return True
        if battery not in self._radius:
            self._radius[battery] = max(hexes.distance(here, h) for h in self.reach_for(battery).cost)
        return min(hexes.distance(here, t) for t in targets) <= self._radius[battery] + self.sight.units[battery].range

    def _firing_hex(self, battery: str, targets: list[Hex], taken: set[Hex]) -> Hex | None:
        """Where a battery can barrage one of ``targets`` from (8.11, 8.12) without ending next to the enemy (8.31)."""
        sight = self.sight
        reach = self.reach_for(battery)
        rng = sight.units[battery].range
        here = self.plan.final.get(battery)
        if here is not None and here not in sight.enemy_zoc and min(hexes.distance(here, t) for t in targets) <= rng:
            return here
        if battery not in self._by_cost:
            self._by_cost[battery] = [h for _, h in sorted((c, h) for h, c in reach.cost.items())]
        for h in self._by_cost[battery]:
            if h not in sight.enemy_zoc and h not in taken and self.free_for(battery, h) and min(hexes.distance(h, t) for t in targets) <= rng:
                return h
        return None

    def commit(self, offer: Offer, existing: Group | None) -> None:
        for u, h in offer.moves.items():
            self.busy.add(u)
            if h != self.plan.final.get(u):
                enter, path = self.reach_for(u).path(h)
                self.plan.move(u, enter, path)
        self.gsp_left -= offer.group.attackers.gsp - (existing.attackers.gsp if existing else 0)
        if existing is None:
            self.plan.attacks.append(offer.group)
        else:
            existing.attackers = offer.group.attackers

    def fill_forced(self) -> None:
        for g in sorted(self.plan.attacks, key=lambda g: -sum(self.sight.units[d].combat_value for d in g.defenders)):
            offer = self.offer(Group(list(g.defenders), g.attackers.copy()))
            if offer is not None:
                self.commit(offer, g)

    def attack(self, floor: float | None = None) -> None:
        """Make the best optional attack, then the next best on what is left, while any is worth ``floor`` (by
        default the policy's offensive threshold).

        Lazy: an offer is worked out again only when it comes to the top, as
        what the attacks made before it took mostly makes it worse.
        """
        def threshold(e: str) -> float:
            return self._threshold(e) if floor is None else min(floor, self._threshold(e))

        queue = []
        for e in self.sight.theirs:
            if e not in self.attacked():
                offer = self.offer(Group([e]))
                if offer is not None and offer.odds.worth >= threshold(e):
                    queue.append((-self._priority(e, offer), e))
        heapq.heapify(queue)
        while queue:
            _, e = heapq.heappop(queue)
            if e in self.attacked():
                continue
            offer = self.offer(Group([e]))
            if offer is None or offer.odds.worth < threshold(e) or self._waits(e, offer):
                continue
            if queue and self._priority(e, offer) < -queue[0][0]:
                heapq.heappush(queue, (-self._priority(e, offer), e))
                continue
            self.commit(offer, None)

    def rouse(self) -> None:
        """Units the move left standing where they were (no way nearer their goal outside the enemy's zones of
        control) attack where an attack is expected to pay :data:`ROUSE_WORTH`, less than a fresh attack must:
        better than standing idle while the fight goes on beside them.  Units that moved, garrisons and
        reinforcements still off the map are not used."""
        if not self.knobs.rouse or self.knobs.stand:
            return
        self.busy.update(u for u in self.sight.waiting)
        self.busy.difference_update(self._relieved())
        self.attack(ROUSE_WORTH[self.sight.side])

    def _relieved(self) -> list[str]:
        """Garrisons of named places that score nothing, with another unit of the side standing next to the place:
        that one covers it, so the garrison may join an attack (a place is held, not a post to sit on idle)."""
        objectives = {o.hex for o in self.sight.scenario.objectives}
        final = self.plan.final
        occupied = set(final.values())
        out = []
        for h in self.held - objectives:
            here = [u for u, at in final.items() if at == h and u in self.sight.mine]
            if here and any(n in occupied for n in hexes.neighbours(h)):
                out.extend(here)
        return out

    def _downhill(self, start: Hex, field: dict[Hex, int]) -> set[Hex]:
        """The hexes of the cheapest way from ``start`` to a field's goal (ties by hex id)."""
        way, h = {start}, start
        while field.get(h, fields.FAR) > 0:
            h = min((n for n, _, _ in self.steps.get(h, ()) if field.get(n, fields.FAR) < field.get(h, fields.FAR)),
                    key=lambda n: (field[n], n), default=None)
            if h is None:
                break
            way.add(h)
        return way

    def _waits(self, enemy: str, offer: Offer) -> bool:
        """Hold off an attack on a unit barring a required exit that could not trap it, while a Game-Turn is left.

        The way to the exit is the way the attackers came by, so the defender's
        retreat (the system's choice, docs/policies.md) goes on toward the
        exit, and there it bars it again; one turn later the attackers can
        stand on its far side as well, where a result that makes it retreat
        eliminates it (7.74)."""
        if enemy not in self.blockers or self.exit_due is None or self.sight.state.position.turn + 1 >= self.exit_due:
            return False
        return not Judge(self.sight, dict(self.plan.final) | offer.moves).defender_trapped(enemy)

    def _priority(self, enemy: str, offer: Offer) -> float:
        """Which attack to make first: the most valuable, those clearing a required exit's way before all."""
        return offer.odds.worth + (BLOCKER_FIRST if enemy in self.blockers else 0.0)

    def _threshold(self, enemy: str) -> float:
        """The worth an attack on ``enemy`` must promise: less for a unit barring a required exit's way."""
        return BLOCKER_WORTH if enemy in self.blockers else self.knobs.offensive

    # -- 4. everyone else ----------------------------------------------------------------
    def _goals(self) -> list[tuple[Hex, float]]:
        """Hexes worth heading for and their pull: the side's objectives, the enemy's (half), named places."""
        sight = self.sight
        goals: dict[Hex, float] = {}
        for o in sight.scenario.objectives:
            weight = o.points if o.side == sight.side else o.points / 2
            goals[o.hex] = max(goals.get(o.hex, 0), weight)
        for h in sight.board.places.values():
            goals.setdefault(h, PLACE_POINTS)
        turn = sight.state.position.turn
        for u in sight.scenario.units:
            arrives = u.arrives
            if u.side != sight.side or not u.entry or arrives is None or arrives < turn:
                continue
            way_in = sight.board.entry_hexes(u.entry) or frozenset()
            if len(way_in) == 1:
                (h,) = way_in
                goals[h] = max(goals.get(h, 0), ENTRY_POINTS)
        return sorted(goals.items())

    def _bare_places(self) -> set[Hex]:
        """Named places that are no objective and no way in for reinforcements still to come (step 4).

        None where the scenario scores the enemy's Lines of Communications to a map edge (Leyte 16.34, the Final
        Collapse): a unit standing on a place far from the enemy may be across those lines, and there it scores.
        (Measured: letting the U.S. units leave such places took the U.S. margin greedy against greedy over 40 Final
        Collapse games from -18.8 to -72.5.)  Nor a place in a region where the enemy scores his units standing
        (16.24, the Mountain Barrier): holding it denies him ground that scores (Kananga: letting its engineer go took
        Japan's margin over 120 games from +27.1 to +22.0)."""
        sight = self.sight
        if any(t.kind == "edge-loc" and (t.of_side or t.side) != sight.side for t in sight.scenario.victory):
            return set()
        objectives = {o.hex for o in sight.scenario.objectives}
        regions = [t for t in sight.scenario.victory if t.kind == "region" and t.side != sight.side]

        def in_enemy_region(h: Hex) -> bool:
            col, row = hexes.parse(h)
            return any(col <= (t.max_col or 99) and row <= (t.max_row or 99) for t in regions)
        return {h for h, weight in self.goals if h in sight.board.places.values() and h not in objectives
                and weight <= PLACE_POINTS and not in_enemy_region(h)}

    def _entries_done(self) -> set[Hex]:
        """Hexes the side's reinforcements entered by, none of them still to come."""
        sight = self.sight
        turn = sight.state.position.turn
        used: set[Hex] = set()
        due: set[Hex] = set()
        for u in sight.scenario.units:
            if u.side != sight.side or not u.entry:
                continue
            way_in = sight.board.entry_hexes(u.entry) or frozenset()
            (due if u.arrives is not None and u.arrives >= turn else used).update(way_in)
        return used - due

    def _goal_for(self, unit: str, here: Hex | None, held: set[Hex]) -> Hex | None:
        """The goal pulling hardest on a unit: its pull over one plus the MP to it."""
        board = self.sight.board
        best, best_score = None, 0.0
        for g, weight in self.goals:
            if g in held:
                continue
            field = fields.toward(board, g)
            dist = field.get(here, fields.FAR) if here else min((field.get(h, fields.FAR) for h in self.reach_for(unit).cost), default=fields.FAR)
            score = weight / (1 + dist)
            if score > best_score:
                best, best_score = g, score
        return best

    def garrison(self) -> None:
        """A unit standing on an objective, or on a place with the enemy near, holds it: it neither moves nor leaves to attack."""
        goal_hexes = {g for g, _ in self.goals}
        objectives = {o.hex for o in self.sight.scenario.objectives}
        enemy_near = fields.hexes_from(self.sight.board, sorted(self.sight.enemy_at), limit=GARRISON_NEAR)
        for u in self.free_units():
            here = self.plan.final.get(u)
            # A named place is held while the enemy is near (ground given grudgingly); far from him its garrison joins the fight.
            if here in self.bare_places and self.scores_region:
                continue  # scores nothing, while the side scores its units in a region (16.24): free to go there
            if here in goal_hexes and here not in self.held and (here in objectives or here in enemy_near):
                self.held.add(here)
                self.busy.add(u)

    def deploy(self) -> None:
        """Move every unit still free toward its goal, out of enemy zones of control (step 4)."""
        sight, board = self.sight, self.sight.board
        held = self.held
        enemy_near = fields.hexes_from(board, sorted(sight.enemy_at), limit=4)
        lines = self._lines()
        runner, exits = self._runner()
        for u in self.free_units():
            if self.knobs.stand and u not in sight.waiting:
                continue  # stands fast; reinforcements still come in (an air assault may not be withheld, 12.42)
            unit = sight.units[u]
            reach = self.reach_for(u)
            here = self.plan.final.get(u)
            if u == runner and here in exits and here not in sight.enemy_zoc:
                self.busy.add(u)
                self.plan.move(u, None, [])
                self.plan.exits.add(u)  # leave from where it stands
                continue
            if u == runner:
                target = min(exits, key=lambda x: (fields.toward(board, x).get(here or "", fields.FAR), x))
            else:
                # A named place that scores nothing, the enemy far (else :meth:`garrison` holds it): the unit on it
                # is not pulled by its own hex, or it would stand there all game while the fight goes on elsewhere.
                target = self._goal_for(u, here, held | ({here} & self.leave_places))
            field = fields.toward(board, target) if target else None
            options = [h for h in reach.cost if h not in sight.enemy_zoc and self.free_for(u, h)]
            if not options:
                continue

            wary = unit.is_artillery or unit.defense <= 2
            toward, far = (field, fields.FAR) if field else (enemy_near, 9)
            primary = {
                h: toward.get(h, far) + (max(0, 3 - enemy_near.get(h, 9)) * 4 if wary else 0) for h in options
            }

            def score(h: Hex) -> tuple:
                return (primary[h], -LINE_RANK[board.terrain(h).crt], reach.cost[h], h)

            low = min(primary.values())
            first = min((h for h in options if primary[h] == low), key=score)
            if here is not None and here in primary and score(here) <= score(first):
                continue  # staying is as good as anything
            chosen = first if lines is None or lines.traced_from(first) else None
            if chosen is None:
                chosen = next((h for h in sorted(options, key=score)[1:4] if lines.traced_from(h)), None)
            if chosen is None and here is not None and not lines.traced_from(here):
                # Already cut off (15.32): back to where a line is traced if it can get there, else toward the fight.
                chosen = next((h for h in sorted(options, key=score) if lines.traced_from(h)), first)
            if chosen is None or chosen == here:
                continue
            self.busy.add(u)
            enter, path = reach.path(chosen)
            self.plan.move(u, enter, path)
            if u == runner and chosen in exits:
                self.plan.exits.add(u)

    def _runner(self) -> tuple[str | None, list[Hex]]:
        """The one unit sent off the map, and the exit hexes it may use (those the scenario opens to this side, 16.13).

        While an exit the scenario requires (16.13 item 4) is still owed, :meth:`run_exits` sends its units and
        nobody else leaves; otherwise the weakest infantry heads for the nearest open exit that brings it back.
        """
        sight = self.sight
        opened = sorted(h for h, sides in sight.board.exits.items() if sight.side in sides)
        if not opened:
            return None, []
        free = [u for u in self.free_units() if u in sight.mine]
        turn = sight.state.position.turn
        for need in sight.scenario.exit_requirements:
            if need.side == sight.side and need.by_turn >= turn and not exit_requirement_met(need, sight.state):
                return None, []  # run_exits sends the units a required exit needs; nobody else leaves meanwhile
        # Otherwise only an exit that brings the unit back (16.13 item 3, within 16.43 item 3's window): one that
        # does not loses it to the fight for nothing, as leaving scores no points.
        back = [h for h in opened if any(r.hex == h and r.side == sight.side and r.brings_back(turn) for r in sight.scenario.exits)]
        candidates = [u for u in free if sight.units[u].kind == "infantry"]
        if not candidates or not back:
            return None, []
        return min(candidates, key=lambda u: (sight.units[u].combat_value, u)), back

    def _lines(self) -> Lines | None:
        """Lines of Communications to keep (U.S. under Leyte, 15.31), or None when they do not matter."""
        sight = self.sight
        if sight.side != "US" or not sight.ruleset.leyte or not sight.board.beaches:
            return None
        return Lines(sight, set(self.plan.final.values()))

    # -- the exits a scenario requires (16.13 item 4) ----------------------------------------
    def run_exits(self) -> None:
        """Send units to an exit the scenario requires by a Game-Turn still to come, before any attack may take them.

        The nearest free unit of the required type (and a second one, while
        time allows, in case the first is pinned) is kept out of every attack
        and moves by the cheapest way that stays out of enemy zones of control
        (a unit in one cannot leave the map, 5.14); it leaves as soon as it
        can reach the exit hex with the MP leaving costs to spare.
        """
        sight = self.sight
        turn = sight.state.position.turn
        graph = reach_graph(sight.board)
        for need in sight.scenario.exit_requirements:
            if need.side != sight.side or need.by_turn < turn or exit_requirement_met(need, sight.state):
                continue
            field = fields.toward(sight.board, need.hex)
            fits = [u for u in self.free_units() if need.fits(sight.units[u]) and (u in sight.waiting or u not in self.busy)]
            if not fits:
                continue
            def eta(u: str) -> tuple:
                reach = self.reach_for(u)
                best = min((field.get(h, fields.FAR) for h in reach.cost if h not in sight.enemy_zoc), default=fields.FAR)
                return (best, u)
            runners = sorted(fits, key=eta)[: 1 if turn == need.by_turn else 2]
            near_exit = [e for e in sight.theirs if sight.units[e].kind == "hidden" and hexes.distance(sight.where[e], need.hex) <= 4]
            if turn < need.by_turn and near_exit and self.gsp_left >= 1 and not self.intel_reserved:
                self.gsp_left -= 1  # kept for an intelligence roll on the markers by the exit (19B.7)
                self.intel_reserved = True
            for u in runners:
                reach = self.reach_for(u)
                budget = graph.scaled(sight.units[u].move)
                leave = graph.scaled(EXIT_COST)
                here = self.plan.final.get(u)
                if need.hex in reach.cost and need.hex not in sight.enemy_zoc and reach.cost[need.hex] + leave <= budget:
                    self.busy.add(u)
                    enter, path = (None, []) if here == need.hex else reach.path(need.hex)
                    self.plan.leave(u, enter, path)  # through a friendly unit standing guard on the exit hex
                    return  # one is enough (16.13 item 4)
                enemy_near = fields.hexes_from(sight.board, sorted(sight.enemy_at), limit=3)
                options = [h for h in reach.cost if h not in sight.enemy_zoc and self.free_for(u, h)]
                if not options:
                    continue
                # Fewest MP still to go; then away from enemy units that could pin it; then cheaper now.
                chosen = min(options, key=lambda h: (field.get(h, fields.FAR), -enemy_near.get(h, 3), reach.cost[h], h))
                # Enemy units whose zones of control lie on the way still to go: attacking them clears it.
                way = self._downhill(chosen, field)
                self.exit_field = field
                self.exit_due = need.by_turn
                for e in sight.theirs:
                    if any(n in way for n in hexes.neighbours(sight.where[e])):
                        self.blockers.add(e)
                self.busy.add(u)
                if chosen != here:
                    enter, path = reach.path(chosen)
                    self.plan.move(u, enter, path)

    # -- dummies (hidden units) -------------------------------------------------------------
    def bluff(self) -> None:
        """Move the side's dummies like a screen of real units, never into a clear hex or contact (19B.3, 19B.6)."""
        sight = self.sight
        if not sight.still:
            return
        target = self._goal_for(sight.still[0], sight.where[sight.still[0]], set())
        field = fields.toward(sight.board, target) if target else None
        taken = set(self.plan.final.values())
        for d, pick in bluff_moves(sight, taken, field).items():
            if pick is None:
                continue
            reach, h = pick
            if not self.free_for(d, h):
                continue
            _, path = reach.path(h)
            self.plan.move(d, None, path)

    # -- intelligence (hidden units) --------------------------------------------------------
    def intelligence(self) -> None:
        """Spend a Ground Support Point the attacks left unused on an intelligence roll (19B.7).

        Points unspent are lost at the turn's end (9.14), so the roll costs
        nothing the attacks wanted.  It comes after the move, so it serves the
        next turn: the markers nearest a required exit first (a dummy there
        bars the way with its zone of control), then those nearest the side's
        units.
        """
        sight = self.sight
        if self.intel_reserved:
            self.gsp_left += 1
        if sight.side != "US" or sight.state.hidden is None or self.gsp_left < 1:
            return
        markers = [e for e in sight.theirs if sight.units[e].kind == "hidden"]
        if not markers:
            return
        turn = sight.state.position.turn
        exits = [n.hex for n in sight.scenario.exit_requirements
                 if n.side == sight.side and n.by_turn > turn and not exit_requirement_met(n, sight.state)]
        mine = sorted(set(self.plan.final.values()))
        if not mine:
            return

        def rank(e: str) -> tuple:
            h = sight.where[e]
            return (min((hexes.distance(h, x) for x in exits), default=99), min(hexes.distance(h, m) for m in mine), h)

        self.plan.intelligence = {"roll": True, "priority": [sight.where[e] for e in sorted(markers, key=rank)[:12]]}

    # -- 5. advances -------------------------------------------------------------------------
    def advances(self) -> None:
        """The sturdiest winner of a one-hex attack advances into it when it is a goal or better ground (7.9)."""
        sight, board = self.sight, self.sight.board
        goal_hexes = {g for g, _ in self.goals}
        for g in self.plan.attacks:
            dh = {sight.where[d] for d in g.defenders}
            if len(dh) != 1:
                continue
            target = next(iter(dh))
            movers = [a for a in g.attackers.adjacent if not sight.units[a].is_artillery]
            if not movers:
                continue
            best = max(movers, key=lambda a: (sight.units[a].defense, a))
            if self.exit_field is not None and any(d in self.blockers for d in g.defenders):
                # Follow a unit barring a required exit down its Path of Retreat (I8), past zones of control (7.93):
                # next to it, it may not move on into the exit's corner (5.14, 6.13), and the zones of control of
                # the units that went in hold others off the exit's way.
                g.advance = [{"unit": a, "to": ADVANCE_DEEP} for a in sorted(movers, key=lambda a: (-sight.units[a].defense, a))[:2]]
                continue
            better = LINE_RANK[board.terrain(target).crt] > LINE_RANK[board.terrain(self.plan.final[best]).crt]
            if target in goal_hexes or better:
                g.advance = [{"unit": best, "to": 1}]

    def decide(self) -> Plan:
        self.forced()
        self.run_exits()
        self.garrison()
        self.fill_forced()
        self.attack()
        self.deploy()
        self.rouse()
        self.bluff()
        self.advances()
        self.intelligence()
        return self.plan
