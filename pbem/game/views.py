"""What each side may see: the position and the last player-turn's events.

A view is plain JSON, sealed to its side.  The limited-intelligence rules
(hidden Japanese units) are not implemented yet, so both sides see every unit
on the board; the view is still built per side, and it is the only place the
position reaches a player, so hiding units later changes this module alone.
"""

from __future__ import annotations

from typing import Any

from pbem.game.codec import state_from_json, state_to_json
from pbem.model.state import GameState

VIEW_FORMAT = "pbem-view-1"


def last_turn_record(side: str, valid: bool, problems: list, events: list, combats: list) -> dict[str, Any]:
    """What happened in the player-turn just adjudicated, as both sides may see it."""
    return {"side": side, "valid": valid, "problems": problems, "events": events, "combats": combats}


def build_view(
    side: str,
    state: GameState,
    *,
    game: str,
    seq: int,
    scenario: dict,
    ruleset: dict,
    over: bool,
    last: dict | None,
) -> dict[str, Any]:
    """``side``'s view.  The problems of rejected orders go only to the side that wrote them: they
    name the units and hexes it meant to use, which the enemy must not learn."""
    if last is not None and last["side"] != side and last["problems"]:
        last = {**last, "problems": [], "problems_withheld": len(last["problems"])}
    return {
        "format": VIEW_FORMAT,
        "side": side,
        "game": game,
        "seq": seq,
        "scenario": scenario,
        "ruleset": ruleset,
        "awaiting": None if over else state.position.phasing,
        "over": over,
        "state": state_to_json(state),
        "last": last,
    }


def state_of_view(view: dict[str, Any]) -> GameState:
    """The position a view shows, for checking orders against it offline."""
    return state_from_json(view["state"])


def public_record(state: GameState, *, over: bool, last: dict | None) -> dict[str, Any]:
    """The unsealed part of a turn file: whose turn it is and how the last one went."""
    position = state.position
    public: dict[str, Any] = {
        "turn": position.turn,
        "phasing": position.phasing,
        "awaiting": None if over else position.phasing,
        "over": over,
    }
    if last is not None:
        public["last"] = {"side": last["side"], "valid": last["valid"], "combats": last["combats"]}
    return public
