"""Running a case: adjudicate its orders on its position and report the outcome (cases.md, The outcome).

The v2 parts of the outcome (hidden units, the end of the Game-Turn,
victory) are worked out in :mod:`pbem.cases.v2`.
"""

from __future__ import annotations

from typing import Any

from pbem.cases.compare import differences
from pbem.cases.load import LoadedCase
from pbem.cases.v2 import end_game_turn, hidden_outcome, victory_outcome
from pbem.engine.adjudicator import adjudicate
from pbem.engine.dice import DiceExhausted, FixedDice
from pbem.engine.placement import Placement
from pbem.engine.victory import has_line_of_communications
from pbem.model.common import ELIMINATED, EXITED
from pbem.model.state import GameState


def _unit_states(state: GameState) -> dict[str, dict]:
    out = {}
    for unit in state.units:
        where = state.locations.get(unit.id, ELIMINATED)
        out[unit.id] = {"eliminated": True} if where == ELIMINATED else {"exited": True} if where == EXITED else {"hex": where}
    return out


def _queries(loaded: LoadedCase, state: GameState) -> dict[str, dict]:
    """The case's queries, answered on ``state`` (after the orders; the start when they were rejected)."""
    queries = loaded.case.queries
    if queries is None:
        return {}
    units = state.unit_index()
    placement = Placement(units, state.locations)
    answers: dict[str, dict] = {}
    if queries.loc:
        answers["loc"] = {u: (u in units and has_line_of_communications(loaded.board, placement, u)) for u in queries.loc}
    if queries.unit_vp:
        answers["unit_vp"] = {u: (units[u].combat_value if u in units else None) for u in queries.unit_vp}
    return answers


def run_case(loaded: LoadedCase, *, explain: bool = False) -> dict[str, Any]:
    """The outcome of one case, with ``passed``.

    With ``explain`` the outcome also carries the event log and, for a
    failure, every difference from the expectations.
    """
    if not isinstance(loaded, LoadedCase):  # another system's case (pbem.cases.load.load_case): it runs itself
        return loaded.run(explain=explain)
    case = loaded.case
    start = case.game_state()
    outcome: dict[str, Any] = {"case": case.case}
    try:
        result = adjudicate(loaded.board, case.ruleset, start, case.orders, FixedDice(case.dice), case.defense)
    except DiceExhausted as exc:
        outcome.update({
            "valid": True, "errors": [], "combats": [], "units": _unit_states(start),
            "dice_used": len(case.dice), "queries": {}, "passed": False if case.expect is not None else None,
            "error": f"not enough dice: {exc}",
        })
        return outcome
    state = result.state
    events = list(result.events)
    ended = None
    if case.end_of_turn and result.valid:
        state, ended = end_game_turn(loaded, state)
        events += ended["events"]
    outcome.update(
        {
            "valid": result.valid,
            "errors": [p.as_dict() for p in result.problems],
            "combats": [c.as_dict() for c in result.combats],
            "units": _unit_states(state),
            "dice_used": result.dice_used,
            "queries": _queries(loaded, state),
        }
    )
    if state.hidden is not None:
        outcome |= hidden_outcome(loaded.board, state, list(result.events))
    if ended is not None:
        outcome["end_of_turn"] = {k: v for k, v in ended.items() if k != "events"}
    if case.queries is not None and case.queries.victory:
        outcome["victory"] = victory_outcome(loaded, state)
    diffs = differences(case.expect, outcome) if case.expect is not None else []
    outcome["passed"] = None if case.expect is None else not diffs
    if explain:
        outcome["events"] = events
        if diffs:
            outcome["differences"] = diffs
    return outcome
