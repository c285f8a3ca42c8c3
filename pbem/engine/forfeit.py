"""Which unit a scenario rule forfeits (Leyte 16.13 item 4), and the order that names it (I26).

16.13 item 4: if no U.S. 3-2-5 has left by 0531 by the end of Game-Turn 3,
the Japanese player removes one "of his choice" and scores it as destroyed.
Under ``spi-1975`` the choosing player (the enemy of the side that had to
leave) names the unit in his orders' ``forfeit``; the last name given
stands until replaced.  A unit not eligible when the Game-Turn ends, a
choice never made, and every ``dg-2009`` game are decided by the policy
(docs/policies.md): the first eligible unit on the map in roster order,
else the first still waiting off the map.
"""

from __future__ import annotations

from pbem.engine.problems import Problem
from pbem.model.common import OFFMAP, enemy_of
from pbem.model.orders import Orders
from pbem.model.ruleset import Ruleset
from pbem.model.scenario import ExitRequirement
from pbem.model.state import GameState


def order_problems(ruleset: Ruleset, state: GameState, orders: Orders) -> list[Problem]:
    """What is wrong with ``orders.forfeit`` whatever the moment: the edition, an unknown or friendly unit."""
    name = orders.forfeit
    if name is None:
        return []
    if ruleset.dg:
        return [Problem("16.13", name, "'forfeit': in the dg-2009 edition the system makes this choice (I26); remove it or play spi-1975")]
    units = state.unit_index()
    chooser = state.position.phasing
    if name not in units:
        return [Problem("16.13", name, f"'forfeit' names {name}: there is no such unit in this game")]
    if units[name].side == chooser:
        return [Problem("16.13", name, f"'forfeit' names {name}, one of your own units: name the enemy unit you would remove")]
    return []


def recorded(ruleset: Ruleset, state: GameState, orders: Orders) -> dict[str, str]:
    """The position's forfeit choices after ``orders`` (kept until replaced; spi-1975 only)."""
    if orders.forfeit is None or ruleset.dg:
        return dict(state.forfeit)
    return state.forfeit | {state.position.phasing: orders.forfeit}


def choose(requirement: ExitRequirement, state: GameState, ruleset: Ruleset) -> str | None:
    """The unit removed for ``requirement``: the choosing player's named one when eligible (spi-1975), else the policy's."""
    candidates = [u for u in state.units if requirement.fits(u)]
    on_map = [u.id for u in candidates if state.on_map(u.id)]
    waiting = [u.id for u in candidates if state.locations.get(u.id) == OFFMAP]
    named = state.forfeit.get(enemy_of(requirement.side))
    if not ruleset.dg and named is not None and named in on_map + waiting:
        return named
    chosen = on_map or waiting
    return chosen[0] if chosen else None
