"""Orders written as JSON on the ``pbem play`` page, checked by the game's rules system: the page for any system.

The clicking page (:class:`pbem.game.planning.Planner`) knows the SPI
system's moves, reach and odds; a system without such a planner is still
played on the page by writing its orders document in a text area, which this
planner checks exactly as ``pbem validate`` does — the system's own schema
(:meth:`~pbem.systems.base.RulesSystem.read_orders`), then its check on the
side's own view, every problem with its rule case.  It knows no rule itself.
"""

from __future__ import annotations

from typing import Any

from pbem.errors import BadInput
from pbem.systems.base import Problem


class OrdersText:
    """One side's view of one turn file, its orders checked as the system checks a file."""

    clicks = False
    """The page offers a text area of orders, not the SPI clicking tools (:attr:`pbem.game.planning.Planner.clicks`)."""

    def __init__(self, view: dict[str, Any], loaded: Any, source: str, blank: dict[str, Any], hints: list[str]) -> None:
        from pbem.game.views import state_of_view

        self.view = view
        self.side: str = view["side"]
        self.loaded = loaded
        self.source = source
        self.state = state_of_view(view)
        self.blank = blank
        """The empty orders the phase takes (``pbem orders template``): what the text area starts with."""
        self.hints = hints

    def problems(self, document: Any) -> list[Problem]:
        """What ``pbem validate`` says of ``document`` on this view: a schema fault as one ``schema`` problem."""
        from pbem.game.player import problems_on_view
        from pbem.systems import system_of

        try:
            orders = system_of(self.loaded).read_orders(document, self.source)
        except BadInput as exc:
            return [Problem("schema", None, exc.render())]
        return problems_on_view(self.loaded, self.view["ruleset"], self.state, self.side, orders)

    def analyse(self, document: Any) -> "Checked":
        return Checked(self.problems(document))

    def reach_table(self, document: Any, unit_id: str) -> dict[str, Any]:
        raise BadInput("this game's orders are written as JSON on the page, not clicked: there is no reach to ask",
                       hint="write the orders in the text area; 'pbem orders template' shows their shape")

    def cheapest_move(self, document: Any, unit_id: str, to: str, exit: bool = False) -> dict[str, Any] | None:
        self.reach_table(document, unit_id)
        return None


class Checked:
    """The page's analysis of written orders: valid or not, and every problem (the clicking page's keys, empty)."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems

    def as_dict(self) -> dict[str, Any]:
        return {"valid": not self.problems, "problems": [p.as_dict() for p in self.problems], "must_attack": [],
                "must_be_attacked": [], "may_attack": [], "odds": [], "gsp_left": None}
