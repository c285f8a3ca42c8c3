"""What each side may see: the position and the last player-turn's events.

A view is plain JSON, sealed to its side.  The limited-intelligence rules
(hidden Japanese units) are not implemented yet, so both sides see every unit
on the board; the view is still built per side, and it is the only place the
position reaches a player, so hiding units later changes this module alone.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from pydantic import ValidationError

from pbem.errors import BadInput
from pbem.game.codec import state_from_json, state_to_json
from pbem.model.state import GameState

VIEW_FORMAT = "pbem-view-1"


def last_turn_record(
    side: str, valid: bool, problems: list, events: list, combats: list, note: str | None = None
) -> dict[str, Any]:
    """What happened in the player-turn just adjudicated, as both sides may see it.

    ``note`` is the free text the player wrote to his opponent in his orders;
    it is recorded only when there is one, so that records without it keep
    their old form.
    """
    record = {"side": side, "valid": valid, "problems": problems, "events": events, "combats": combats}
    if note is not None:
        record["note"] = note
    return record


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
    victory: dict | None = None,
) -> dict[str, Any]:
    return {
        "victory": victory,
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


VIEW_KEYS = ("format", "side", "game", "seq", "scenario", "ruleset", "awaiting", "over", "state", "last")
LAST_KEYS = ("side", "valid", "problems", "events", "combats")


@contextmanager
def reading_view(source: str, what: str = "the view sealed in this turn file") -> Iterator[None]:
    """Turn a view (or full state) that lacks what pbem reads from it into BadInput naming the turn file.

    A view is signed by the referee, but it may still come from another pbem
    version or a faulty referee; reading it must never end in a traceback.
    """
    try:
        yield
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, ValidationError) as exc:
        detail = _what_is_wrong(exc)
        raise BadInput(
            f"{what} is malformed ({detail})",
            file=source,
            hint="the referee's pbem may be another version; ask the referee to check the file with 'pbem verify'",
        ) from None


def _what_is_wrong(exc: Exception) -> str:
    from pbem.jsonfile import json_path

    if isinstance(exc, KeyError):
        return f"no {exc.args[0]}"
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        return f"{json_path(first['loc'])}: {first['msg']}"
    return f"{type(exc).__name__}: {exc}"[:120]


def checked_view(view: Any, source: str) -> dict[str, Any]:
    """``view`` when it holds everything a player's commands read from it; else BadInput naming ``source``."""
    from pbem.model.ruleset import Ruleset

    with reading_view(source):
        missing = [k for k in VIEW_KEYS if k not in view] if isinstance(view, dict) else list(VIEW_KEYS)
        if missing:
            raise KeyError(", ".join(missing))
        state_of_view(view)
        Ruleset(**view["ruleset"])
        last = view["last"]
        if last is not None:
            absent = [k for k in LAST_KEYS if k not in last]
            if absent:
                raise KeyError("last." + ", last.".join(absent))
            if not all(isinstance(last[k], list) for k in LAST_KEYS[2:]):
                raise TypeError("last")
    return view


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


def outlook(scenario, view: dict[str, Any]) -> dict[str, Any]:
    """What the scenario says about the rest of the game, from where ``view`` stands.

    The scenario is public (the genesis turn file carries it), so this adds
    nothing a player could not read there; it saves him reading it.  Works for
    any scenario: it holds only what the scenario model holds.
    """
    position = view["state"]["position"]
    locations = view["state"]["locations"]
    turn = position["turn"]
    to_come = [
        {"turn": u.arrives, "unit": u.id, "side": u.side, "name": u.name, "entry": u.entry or "anywhere (air assault)"}
        for u in scenario.units
        if u.arrives is not None and locations.get(u.id, "offmap") == "offmap"
    ]
    return {
        "title": scenario.title,
        "first_player": scenario.first_player,
        "first_turn": scenario.first_turn,
        "last_turn": scenario.last_turn,
        "reinforcements": sorted(to_come, key=lambda r: (r["turn"], r["side"], r["unit"])),
        "ground_support": [
            {"turn": row.turn, "US": row.US, "JP": row.JP} for row in scenario.ground_support if row.turn > turn
        ],
        "objectives": [o.model_dump(mode="json", exclude_none=True) for o in scenario.objectives],
    }
