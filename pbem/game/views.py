"""What each side may see: the position and the last player-turn's events.

A view is plain JSON, sealed to its side, and the only place the position
reaches a player.  Without the hidden-units option both sides see every
unit.  With it, the American view shows hidden Japanese units only as
markers and the Japanese moves only as 19B allows (:mod:`pbem.game.fog`),
and the Japanese view lacks the American intelligence priorities.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator

from pbem.errors import BadInput

if TYPE_CHECKING:
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
    board: Any = None,
    before: GameState | None = None,
) -> dict[str, Any]:
    """``side``'s view.  The problems of rejected orders go only to the side that wrote them: they
    name the units and hexes it meant to use, which the enemy must not learn.

    Under the hidden-units option ``board`` (and ``before``, the position the
    last player-turn started from) let the American view show the Japanese
    moves as they were seen."""
    from pbem.systems import system_of_state

    system = system_of_state(state)
    hides = system.hides(state)
    if last is not None and last["side"] != side and last["problems"]:
        # Under hidden units even the number of Japanese problems could hint at hidden units: only "some".
        withheld = 1 if hides and side == "US" else len(last["problems"])
        last = {**last, "problems": [], "problems_withheld": withheld}
    if hides:  # what this side may know, as the rules system hides its units (pbem/systems/base.py)
        if last is not None:
            events = system.known_events(board, before, state, side, last["events"])
            if events is not last["events"]:
                last = {**last, "events": events}
        state = system.known_position(state, side)
    return {
        "victory": victory,
        "format": VIEW_FORMAT,
        "side": side,
        "game": game,
        "seq": seq,
        "scenario": scenario,
        "ruleset": ruleset,
        "awaiting": None if over else state.to_act(),
        "over": over,
        "state": _state_json(_own_standing(state, side)),
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
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:  # pydantic's ValidationError is a ValueError
        detail = _what_is_wrong(exc)
        raise BadInput(
            f"{what} is malformed ({detail})",
            file=source,
            hint="the referee's pbem may be another version; ask the referee to check the file with 'pbem verify'",
        ) from None


def _what_is_wrong(exc: Exception) -> str:
    from pbem.loading.jsonfile import json_path

    if isinstance(exc, KeyError):
        return f"no {exc.args[0]}"
    if type(exc).__name__ == "ValidationError" and callable(getattr(exc, "errors", None)):
        first = exc.errors()[0]
        return f"{json_path(first['loc'])}: {first['msg']}"
    return f"{type(exc).__name__}: {exc}"[:120]


def checked_view(view: Any, source: str, *, deep: bool = True) -> dict[str, Any]:
    """``view`` when it holds everything a player's commands read from it; else BadInput naming ``source``.

    ``deep`` also builds the position and rules from it, as the commands that
    check orders must; ``pbem view`` only reads the JSON (inside
    :func:`reading_view`), so it skips that and loads no model.
    """
    with reading_view(source):
        missing = [k for k in VIEW_KEYS if k not in view] if isinstance(view, dict) else list(VIEW_KEYS)
        if missing:
            raise KeyError(", ".join(missing))
        if deep:
            from pbem.systems import name_in, system_named

            state_of_view(view)
            system_named(name_in(view["ruleset"]), source=source).rules(view["ruleset"])
        elif isinstance(view["state"], dict) and "system" in view["state"]:
            state_of_view(view)  # a position of another system than SPI's: read by its own codec (pbem.game.codec)
        else:
            _shape_of_state(view["state"])
        last = view["last"]
        if last is not None:
            absent = [k for k in LAST_KEYS if k not in last]
            if absent:
                raise KeyError("last." + ", last.".join(absent))
            if not all(isinstance(last[k], list) for k in LAST_KEYS[2:]):
                raise TypeError("last")
    return view


UNIT_KINDS = ("infantry", "cavalry", "engineer", "recon", "armor", "artillery", "airassault", "dummy", "hidden")
"""The unit kinds of :data:`pbem.model.common.Kind`, here without loading pydantic (a test keeps them equal)."""
STRENGTHS = ("attack", "defense", "move", "barrage", "fpf", "range")


def _shape_of_state(state: Any) -> None:
    """The shape ``pbem view`` reads from a position, checked without building models (TypeError/KeyError when wrong)."""
    position, units, locations = state["position"], state["units"], state["locations"]
    if not isinstance(position["turn"], int) or position["phasing"] not in ("US", "JP"):
        raise TypeError("state.position")
    if not isinstance(units, list) or not isinstance(locations, dict):
        raise TypeError("state.units or state.locations")
    for i, unit in enumerate(units):
        if not isinstance(unit["id"], str) or unit["side"] not in ("US", "JP") or unit["kind"] not in UNIT_KINDS:
            raise TypeError(f"state.units[{i}]")
        if any(not isinstance(unit.get(f, 0), int) or isinstance(unit.get(f, 0), bool) for f in STRENGTHS):
            raise TypeError(f"state.units[{i}] strengths")
        if not isinstance(locations.get(unit["id"]), str):
            raise KeyError(f"state.locations.{unit['id']}")


def _own_standing(state: GameState, side: str) -> GameState:
    """The position with only ``side``'s own standing choices: the enemy's FPF plan, routes and forfeit choice (I26) are his secret."""
    if all(s == side for s in state.standing) and all(s == side for s in state.forfeit):
        return state
    return state.model_copy(update={
        "standing": {s: d for s, d in state.standing.items() if s == side},
        "forfeit": {s: u for s, u in state.forfeit.items() if s == side},
    })


def _state_json(state: GameState) -> dict[str, Any]:
    from pbem.game.codec import state_to_json

    return state_to_json(state)


def state_of_view(view: dict[str, Any]) -> GameState:
    """The position a view shows, for checking orders against it offline."""
    from pbem.game.codec import state_from_json

    return state_from_json(view["state"])


def public_record(state: GameState, *, over: bool, last: dict | None) -> dict[str, Any]:
    """The unsealed part of a turn file: whose turn it is and how the last one went."""
    position = state.position
    public: dict[str, Any] = {
        "turn": position.turn,
        "phasing": position.phasing,
        "awaiting": None if over else state.to_act(),
        "over": over,
    }
    from pbem.systems import system_of_state

    if not over and system_of_state(state).awaits_secret_setup(state):
        public["setup"] = True  # the Japanese secret set-up is awaited (docs/hidden-units.md)
    from pbem.game.position import position_digest

    public["position"] = position_digest(state)  # the position both views must show (pbem/game/position.py)
    if last is not None:
        public["last"] = {"side": last["side"], "valid": last["valid"], "combats": last["combats"]}
    return public


def outlook(scenario: dict[str, Any], view: dict[str, Any], overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the scenario says about the rest of the game, from where ``view`` stands.

    ``scenario`` is the scenario document the genesis turn file carries (and
    ``overrides`` the referee's recorded overrides, such as a Ground Support
    track), read as plain JSON so that ``pbem view`` loads no model.  The
    scenario is public, so this adds nothing a player could not read there;
    it saves him reading it.  Works for any scenario.
    """
    position = view["state"]["position"]
    locations = view["state"]["locations"]
    turn = position["turn"]
    # Under hidden units the American view does not say whether a Japanese reinforcement came in:
    # only those whose Game-Turn has not come yet are still to come for him.
    fogged = view["side"] == "US" and view["state"].get("hidden") is not None
    to_come = [
        {"turn": u["arrives"], "unit": u["id"], "side": u["side"], "name": u.get("name"),
         "entry": u.get("entry") or "anywhere (air assault)"}
        for u in scenario.get("units", [])
        if u.get("arrives") is not None and (
            u["arrives"] > turn if fogged and u["side"] == "JP" else locations.get(u["id"], "offmap") == "offmap")
    ]
    track = (overrides or {}).get("ground_support") or scenario.get("ground_support", [])
    return {
        "title": scenario.get("title"),
        "first_player": scenario.get("first_player"),
        "first_turn": scenario.get("first_turn"),
        "last_turn": scenario.get("last_turn"),
        "reinforcements": sorted(to_come, key=lambda r: (r["turn"], r["side"], r["unit"])),
        "ground_support": [
            {"turn": row["turn"], "US": row.get("US", 0), "JP": row.get("JP", 0)} for row in track if row["turn"] > turn
        ],
        "objectives": [dict(o) for o in scenario.get("objectives", [])],
    }
