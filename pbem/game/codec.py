"""The game position as canonical-JSON-ready data, and back.

Sets become sorted lists so that the same position always gives the same
bytes — the state commitment in every turn file depends on it.  A position
of a rules system that brings its own model (it says so: ``rules_system`` on
the object, ``system`` in the document) is written and read by that system
(:meth:`pbem.systems.base.RulesSystem.state_to_json`); the SPI system's
:class:`~pbem.model.state.GameState` is written here, as it always was.
"""

from __future__ import annotations

from typing import Any

from pbem.model.state import GameState

STATE_FORMAT = "pbem-game-state-1"


def state_to_json(state: GameState) -> dict[str, Any]:
    """The position as data, by the rules system whose position it is."""
    own = getattr(state, "rules_system", None)
    if own is not None:
        from pbem.systems import system_named

        return system_named(own).state_to_json(state)
    return spi_state_to_json(state)


def state_from_json(doc: dict[str, Any]) -> GameState:
    """A position :func:`state_to_json` wrote, by the rules system it names (none: the SPI system's)."""
    own = doc.get("system") if isinstance(doc, dict) else None
    if own is not None:
        from pbem.systems import system_named

        return system_named(own, field="state.system").state_from_json(doc)
    return spi_state_from_json(doc)


def spi_state_to_json(state: GameState) -> dict[str, Any]:
    """``standing`` and ``hidden`` are written only when present, so positions without them keep their bytes."""
    from pbem.model.dump import dump

    doc = {
        "format": STATE_FORMAT,
        "position": dump(state.position),
        "units": _units_json(state.units),
        "locations": dict(sorted(state.locations.items())),
        "no_fpf": sorted(state.no_fpf),
        "exits": [dump(e) for e in state.exits],
        "awards": [dump(a) for a in state.awards],
    }
    if state.standing:
        doc["standing"] = {side: dump(d, exclude_none=True) for side, d in sorted(state.standing.items())}
    if state.forfeit:  # spi-1975 forfeit choices (I26), written only when made
        doc["forfeit"] = dict(sorted(state.forfeit.items()))
    if state.hidden is not None:
        hidden = state.hidden
        doc["hidden"] = {"deployed": hidden.deployed, "exposed": sorted(hidden.exposed), "priority": list(hidden.priority), "radius": hidden.radius}
        if hidden.variant != "hidden-units":  # written only for the other fog variants, so 19B positions keep their bytes
            doc["hidden"] |= {"variant": hidden.variant, "static": sorted(hidden.static), "concealed_move": hidden.concealed_move,
                              "declared": list(hidden.declared)}
    return doc


#: Units written out lately, by id, each kept with what it gave (so that its id is never reused): a player-turn
#: writes the same units three times (the full state and both views), and most units of one player-turn are
#: the very objects of the next, which an audit writes out again for every player-turn.  Units are frozen.
_UNITS_WRITTEN: dict[int, tuple[Any, dict[str, Any]]] = {}
_UNITS_KEPT = 4096


def _units_json(units: tuple) -> list[dict[str, Any]]:
    """The units written out, each unit once; each call gets its own dicts."""
    from pbem.model.dump import dump

    written = []
    for unit in units:
        known = _UNITS_WRITTEN.get(id(unit))
        if known is None or known[0] is not unit:
            if len(_UNITS_WRITTEN) >= _UNITS_KEPT:
                _UNITS_WRITTEN.clear()
            known = _UNITS_WRITTEN[id(unit)] = (unit, dump(unit, exclude_none=True))
        written.append(dict(known[1]))
    return written


def spi_state_from_json(doc: dict[str, Any]) -> GameState:
    """A position the engine wrote and the referee signed: built without pydantic's validators where it fits (:mod:`pbem.model.construct`)."""
    from pbem.model.construct import construct

    fields = {
        "position": doc["position"],
        "units": doc["units"],
        "locations": doc["locations"],
        "no_fpf": frozenset(doc.get("no_fpf", [])),
        "exits": tuple(doc.get("exits", [])),
        "awards": tuple(doc.get("awards", [])),
        "standing": doc.get("standing", {}),
    }
    if doc.get("forfeit"):
        fields["forfeit"] = doc["forfeit"]
    if doc.get("hidden") is not None:
        fields["hidden"] = doc["hidden"]
    return construct(GameState, fields, trusted=True)
