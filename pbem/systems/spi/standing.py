"""The defender's standing choices written in a side's orders: checked on its own view, kept for one enemy player-turn.

A side's orders may carry a ``defense`` block (the case format's, cases.md)
that holds for the enemy's *next* player-turn: which artillery gives Final
Protective Fire to whom, retreat routes, advances after an attacker result.
Here it is checked for what can be known when it is written — the units are
the writer's own, the hexes are on the board, the edition leaves the choice
to a player (I1) — and kept in the position.  Whether an entry is legal at
its moment (range, adjacency, a vacant route) is the engine's business: an
entry that is not is dropped there and the policy decides (docs/policies.md).
"""

from __future__ import annotations

from pbem.engine.board import Board
from pbem.engine.problems import Problem
from pbem.model.common import enemy_of
from pbem.model.defense import Defense
from pbem.model.ruleset import Ruleset
from pbem.model.state import GameState

#: The dg-2009 rule case that gives each choice to the system (its text keeps the SPI numbering: 4.1 step B.c, 7.62).
DG_SYSTEM_CHOICE = {
    "fpf": ("4.1", "the system allocates Final Protective Fire for the non-phasing player"),
    "gsp_fpf": ("4.1", "the system allocates Ground Support Points as FPF for the non-phasing player"),
    "retreats": ("7.62", "the system retreats every unit"),
    "advances": ("7.62", "the system decides the defender's advance after an attacker result"),
}


def open_choices(ruleset: Ruleset) -> dict[str, bool]:
    """Which keys of the ``defense`` block a player may write under ``ruleset``: what :func:`standing_problems` accepts.

    dg-2009 leaves every choice to the system (I1); under the Leyte rules
    Ground Support Points never serve as FPF (13.13).
    """
    if ruleset.dg:
        return {key: False for key in DG_SYSTEM_CHOICE}
    return {key: not (key == "gsp_fpf" and ruleset.leyte) for key in DG_SYSTEM_CHOICE}


def standing_problems(board: Board, ruleset: Ruleset, state: GameState, side: str, defense: Defense | None) -> list[Problem]:
    """Every problem with ``side``'s standing ``defense`` on ``state`` (empty when there is none)."""
    if defense is None:
        return []
    if ruleset.dg:
        return [
            Problem(rule, None, f"defense.{key}: in the dg-2009 edition {why}; remove \"{key}\" or play the spi-1975 edition (I1)")
            for key, (rule, why) in DG_SYSTEM_CHOICE.items()
            if getattr(defense, key) is not None
        ]
    found: list[Problem] = []
    units = state.unit_index()

    def own(unit_id: str, rule: str, where: str) -> bool:
        if unit_id not in units:
            found.append(Problem(rule, unit_id, f"{where}: no unit of that id in this game"))
            return False
        if units[unit_id].side != side:
            found.append(Problem(rule, unit_id, f"{where}: is a {units[unit_id].side} unit; {side} writes choices for its own units only"))
            return False
        return True

    for i, choice in enumerate(defense.fpf or []):
        where = f"defense.fpf[{i}]"
        if own(choice.artillery, "8.4", where) and not units[choice.artillery].is_artillery:
            found.append(Problem("8.4", choice.artillery, f"{where}: is not artillery; only artillery gives Final Protective Fire"))
        own(choice.defender, "8.4", where)
    for i, given in enumerate(defense.gsp_fpf or []):
        where = f"defense.gsp_fpf[{i}]"
        if ruleset.leyte:
            found.append(Problem("13.13", given.defender, f"{where}: under the Leyte rules Ground Support Points never serve as FPF; remove \"gsp_fpf\""))
        else:
            own(given.defender, "9.1", where)
    for i, route in enumerate(defense.retreats or []):
        where = f"defense.retreats[{i}]"
        own(route.unit, "7.7", where)
        for h in route.path:
            if not board.on_board(h):
                found.append(Problem("7.7", route.unit, f"{where}: hex {h} is not on the map"))
    enemy = enemy_of(side)
    for i, advance in enumerate(defense.advances or []):
        where = f"defense.advances[{i}]"
        own(advance.unit, "7.9", where)
        if advance.follow is not None and (advance.follow not in units or units[advance.follow].side != enemy):
            found.append(Problem("7.9", advance.unit, f"{where}: follow names {advance.follow}, which is not a {enemy} unit; a unit advances along an enemy's Path of Retreat"))
    return found


def with_standing(state: GameState, side: str, defense: Defense | None) -> GameState:
    """The position after ``side``'s player-turn: the enemy's standing choices are used up, ``side``'s new ones kept.

    ``side``'s earlier ones held for the enemy's player-turn before this one, so none are left to keep.
    """
    return state.model_copy(update={"standing": {side: defense} if defense is not None else {}})
