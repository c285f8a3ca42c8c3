"""A player's orders in the making, on his own view: what ``pbem play`` asks while he clicks.

Every answer comes from the engine, on the same view and through the same
code as ``pbem validate``: the problems are :func:`~pbem.game.player.problems_on_view`,
the hexes a unit may reach are :func:`~pbem.engine.reach.unit_reach` with
stacking (5.31) judged on where the other units of the orders end, the
attacks still owed are read from the 7.11/7.12/8.31/12.22 problems the check
reports, and the odds are ``--explain``'s (:func:`~pbem.render.odds.weigh_attacks`).
Nothing here reads a file or a key: the caller opens the view.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pbem.loading.datafiles import LoadedScenario
from pbem.engine import hexes, limited
from pbem.engine.adjudicator import check_orders
from pbem.engine.placement import Placement
from pbem.engine.problems import Problem
from pbem.engine.reach import graph_of, offered
from pbem.game.views import state_of_view
from pbem.loading.jsonfile import SchemaErrors
from pbem.model.common import OFFMAP, enemy_of
from pbem.model.orders import Move, Orders
from pbem.model.ruleset import Ruleset

MUST_ATTACK = ("7.12", "8.31", "12.22")
"""Rule cases of a unit of the side to move that has an attack still owed."""
MUST_BE_ATTACKED = ("7.11",)
"""Rule case of an enemy unit that some attack still owes."""


def mp_text(mp: Fraction) -> str:
    """Movement Points as a player reads them: ``3``, ``2.5``."""
    return str(int(mp)) if mp.denominator == 1 else f"{float(mp):g}"


@dataclass
class Analysis:
    """Everything the page shows about the orders as they stand."""

    problems: list[Problem]
    must_attack: list[str]
    must_be_attacked: list[str]
    may_attack: list[str]
    odds: list[dict[str, Any]]
    gsp_left: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "valid": not self.problems,
            "problems": [p.as_dict() for p in self.problems],
            "must_attack": self.must_attack,
            "must_be_attacked": self.must_be_attacked,
            "may_attack": self.may_attack,
            "odds": self.odds,
            "gsp_left": self.gsp_left,
        }


class Planner:
    """One side's view of one turn file, and the questions its orders raise."""

    clicks = True
    """The page offers its clicking tools (moves, reach, odds) for these orders (:class:`pbem.game.orders_text.OrdersText`
    is the page's other planner: orders written as JSON)."""

    def __init__(self, view: dict[str, Any], loaded: LoadedScenario, source: str = "orders") -> None:
        self.view = view
        self.side: str = view["side"]
        self.loaded = loaded
        self.board = loaded.board
        self.ruleset_json = view["ruleset"]
        self.ruleset = Ruleset(**view["ruleset"])
        self.state = state_of_view(view)
        self.units = self.state.unit_index()
        self.placement = Placement(self.units, self.state.locations)
        self.source = source
        self.graph = graph_of(self.board)

    # -- the kind of orders due -------------------------------------------------
    @property
    def setting_up(self) -> bool:
        """The Japanese secret set-up is due (19B.2), not a player-turn."""
        return self.state.hidden is not None and not self.state.hidden.deployed

    def orders(self, document: Any) -> Orders:
        """``document`` read as ``pbem validate`` reads a file (SchemaErrors when it is off the schema)."""
        from pbem.loading.datafiles import orders_from

        return orders_from(document, self.source)

    # -- the checks ---------------------------------------------------------------
    def problems(self, document: Any) -> list[Problem]:
        """What ``pbem validate`` says of these orders on this view."""
        from pbem.game.player import problems_on_view

        try:
            orders = self.orders(document)
        except SchemaErrors as exc:
            return [Problem("schema", None, f"{field}: {message}") for field, message in exc.errors]
        return problems_on_view(self.loaded, self.ruleset_json, self.state, self.side, orders)

    def analyse(self, document: Any) -> Analysis:
        """The problems, the attacks still owed and those possible, the odds and the Ground Support left."""
        found = self.problems(document)
        must = sorted({p.unit for p in found if p.rule in MUST_ATTACK and p.unit})
        owed = sorted({p.unit for p in found if p.rule in MUST_BE_ATTACKED and p.unit})
        odds, may, used = [], [], 0
        if not self.setting_up and not any(p.rule == "schema" for p in found):
            orders = self._named(self.orders(document))
            may = self._may_attack(orders)
            odds = self._odds(orders)
            used = sum(a.gsp for a in orders.attacks) + limited.intelligence_cost(self.state, orders)  # 19B.7: a roll costs a point
        return Analysis(found, must, owed, may, odds, self.state.position.gsp_of(self.side) - used)

    def _named(self, orders: Orders) -> Orders:
        if self.state.hidden is not None and self.side == "US":
            from pbem.game.fog import named_by_hex

            return named_by_hex(orders, self.state)
        return orders

    def _after_moves(self, orders: Orders) -> Placement:
        return check_orders(self.board, self.ruleset, self.state, orders).movement.placement

    def _may_attack(self, orders: Orders) -> list[str]:
        """Units no attack lists yet that could join one: next to an enemy, or artillery with an enemy in range (7.1, 8.1)."""
        after = self._after_moves(orders)
        listed = {u for a in orders.attacks for u in a.attackers + a.barrage}
        enemies = [after.where(e) for e in after.units_of(enemy_of(self.side))]
        found = []
        for u in after.units_of(self.side):
            unit = self.units[u]
            if u in listed or unit.is_dummy:
                continue
            here = after.where(u)
            reach = unit.range if unit.is_artillery else 1
            if any(hexes.distance(here, e) <= reach for e in enemies):
                found.append(u)
        return sorted(found)

    def _odds(self, orders: Orders) -> list[dict[str, Any]]:
        from pbem.render.odds import weigh_attacks

        if not orders.attacks:
            return []
        return [dict(o.as_dict(), text=o.lines()) for o in weigh_attacks(self.board, self.ruleset, self.state, orders)]

    # -- standing choices and intelligence ------------------------------------------
    def defense_choices(self) -> dict[str, bool]:
        """The keys of the ``defense`` block this player may write (:func:`~pbem.systems.spi.standing.open_choices`)."""
        from pbem.systems.spi.standing import open_choices

        return open_choices(self.ruleset)

    def marker_hexes(self) -> list[str]:
        """The hexes of the enemy's hidden markers on this view: what an intelligence priority names (19B.7)."""
        enemy = enemy_of(self.side)
        return sorted({self.placement.where(u) for u in self.placement.units_of(enemy) if self.units[u].kind == "hidden"})

    # -- moves ----------------------------------------------------------------------
    def movable(self) -> list[str]:
        """The side's units that may be given a move: on the map or waiting to come in (12.1)."""
        return sorted(u for u, unit in self.units.items()
                      if unit.side == self.side and (self.placement.on_map(u) or self.placement.where(u) == OFFMAP))

    def reach(self, document: Any, unit_id: str):
        """The unit's :class:`~pbem.engine.reach.Reach` given the other moves of the orders (:func:`~pbem.engine.reach.offered`)."""
        position = self.state.position
        moves = list(self.orders(document).moves)
        return offered(self.board, self.ruleset, self.units, self.placement, position.phasing, position.phase, moves, unit_id)

    def reach_table(self, document: Any, unit_id: str) -> dict[str, Any]:
        """The hexes a unit may end its move in, each with the MP spent, and the exits it may leave by."""
        reach = self.reach(document, unit_id)
        if reach is None:
            return {"unit": unit_id, "hexes": {}, "exits": {}, "start": None}
        text = lambda c: mp_text(self.graph.mp(c))  # noqa: E731
        return {"unit": unit_id, "start": reach.start,
                "hexes": {h: text(c) for h, c in sorted(reach.cost.items())},
                "exits": {h: text(c) for h, c in sorted(reach.exits.items())}}

    def cheapest_move(self, document: Any, unit_id: str, to: str, exit: bool = False) -> dict[str, Any] | None:
        """The move ending in ``to`` by the cheapest legal path, as an orders entry; None when ``to`` is out of reach."""
        reach = self.reach(document, unit_id)
        if reach is None or to not in reach.cost or (exit and to not in reach.exits):
            return None
        enter, path = reach.path(to)
        move = Move(unit=unit_id, enter=enter, path=path, exit=exit)
        return move.model_dump(exclude_defaults=True) | {"path": path}

    # -- the secret set-up (19B.2, 19B.6) ------------------------------------------
    def deployment(self) -> dict[str, Any]:
        """The set-up units, the hexes each may take and where dummies may go, from the deployment rules."""
        from pbem.engine import deployment

        listed = deployment.setup_hexes(self.state)
        zone = getattr(deployment, "SetupZone", None)
        if zone is not None:  # the set-up zone of issue 19 (pbem.engine.deployment), where the engine has it
            zone = zone.of(self.board, self.state)
            places = {u: zone.places(armor=self.units[u].kind == "armor") for u in listed}
        else:  # the scenario's printed set-up hexes, in any order (19B.2)
            places = {u: sorted(set(listed.values())) for u in listed}
        return {
            "units": sorted(listed),
            "hexes": sorted({h for hs in places.values() for h in hs}),
            "unit_hexes": places,
            "dummies": len(deployment.dummies_of(self.state)),
            "dummy_hexes": deployment.dummy_places(self.board, self.state),
            "radius": self.state.hidden.radius if self.state.hidden else 0,
        }
