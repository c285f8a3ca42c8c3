"""The American picture of a position under the hidden-units option (docs/hidden-units.md).

A hidden Japanese unit reaches the American player only as a marker: a unit
of kind ``hidden`` whose id is its hex, with no strengths — a dummy's marker
is the same.  Markers are listed by hex, after every unit he may examine, so
neither their order nor their shape tells one hidden unit from another.
His orders name a hidden target by its hex (the marker's id); the referee
reads the unit in that hex.  Events reach him as 19B.3 and 19B.4 allow: a
Japanese move only as the clear hexes it was seen in, a dummy only as the
hex it was removed from.
"""

from __future__ import annotations

import re
from typing import Any

from pbem.model.construct import construct
from pbem.engine import exposure, fog_variants
from pbem.engine.board import Board
from pbem.engine.hexes import is_hex_id
from pbem.model.common import ELIMINATED, NOT_ON_MAP
from pbem.model.orders import Orders
from pbem.model.state import GameState
from pbem.model.units import Unit

HIDDEN = "hidden"


def marker(hex_id: str) -> Unit:
    """What the American player sees of a hidden unit in ``hex_id`` (19B.2): its hex, nothing else.

    Built as validation would build it but without pydantic's validator (:mod:`pbem.model.construct`):
    building that costs every adjudication and audit under hidden units more than the markers do."""
    return construct(Unit, {"id": hex_id, "side": "JP", "kind": HIDDEN, "defense": 0, "move": 0}, trusted=True)


def visible(state: GameState) -> set[str]:
    """The Japanese units the American player may examine in ``state``: the exposed ones on the map, and those eliminated."""
    assert state.hidden is not None
    return {
        u.id for u in state.units
        if u.side == "JP" and not u.is_dummy
        and (u.id in state.hidden.exposed or state.locations.get(u.id) == ELIMINATED)
    }


def without_awards(state: GameState) -> GameState:
    """``state`` without the points awarded during the game: a timed award (Leyte 16.34, Ormoc) is scored only if a
    real unit holds the hex, so the American player learns of it only in the final report (issue 19 item 6)."""
    return state.model_copy(update={"awards": ()}) if state.awards else state


#: The last position asked for and its American picture (issue 26): a referee's player-turn asks for the
#: picture of the same position for the American view and again for the public record's position digest.
#: A position is a frozen model, so the picture of the very same object is the same picture.
_last: tuple[GameState, GameState] | None = None


def american_state(state: GameState) -> GameState:
    """``state`` as the American player may know it: hidden units as markers, nothing off the map that he has not
    seen, no timed award (:func:`without_awards`)."""
    global _last
    last = _last
    if last is not None and last[0] is state:
        return last[1]
    picture = _american_state(state)
    _last = (state, picture)
    return picture


def _american_state(state: GameState) -> GameState:
    hidden = state.hidden
    assert hidden is not None
    seen = visible(state)
    units, locations = [], {}
    markers = []
    for unit in state.units:
        where = state.locations.get(unit.id, ELIMINATED)
        if unit.side == "US" or unit.id in seen:
            units.append(unit)
            locations[unit.id] = where
        elif where not in NOT_ON_MAP:
            markers.append(where)
    for hex_id in sorted(markers):
        units.append(marker(hex_id))
        locations[hex_id] = hex_id
    shown = {u.id for u in units}
    return state.model_copy(update={
        "units": tuple(units),
        "locations": locations,
        "no_fpf": frozenset(u for u in state.no_fpf if u in shown),
        "exits": tuple(e for e in state.exits if e.unit in shown),
        # Formosa's static units are public scenario data, but a list naming hidden units is kept to those shown.
        "hidden": hidden.model_copy(update={"exposed": frozenset(u for u in hidden.exposed if u in shown),
                                            "static": frozenset(u for u in hidden.static if u in shown)}),
        "awards": (),
    })


def japanese_state(state: GameState) -> GameState:
    """``state`` as the Japanese player knows it: everything but the American intelligence priorities."""
    assert state.hidden is not None
    return state.model_copy(update={"hidden": state.hidden.model_copy(update={"priority": ()})})


def american_events(board: Board, before: GameState | None, after: GameState, events: list[dict]) -> list[dict]:
    """The events of a player-turn as the American player saw them (19B.3, 19B.4, 19B.6, 19B.7)."""
    units = {u.id: u for u in (before.units if before is not None else ())} | {u.id: u for u in after.units}
    japanese = {u for u, unit in units.items() if unit.side == "JP"}
    seen = visible(after) | exposure.combatants(events)
    for event in events:
        if event["type"] == "eliminated" and event["unit"] in japanese:
            seen.add(event["unit"])
        if event["type"] == "intelligence":
            seen.update(e["unit"] for e in event["exposed"])
    seen = {u for u in seen if u in units and not units[u].is_dummy}
    sighted = fog_variants.of(after).sightings(board, events, {u for u in japanese if not units[u].is_dummy})
    # A unit seen in a clear hex was examined there (19B.3): its sighting names it, but no other event of its moves does.
    named = seen | {events[i]["unit"] for i in sighted}
    out = []
    for i, event in enumerate(events):
        unit = event.get("unit")
        if event["type"] == "dummy_removed":
            out.append({k: v for k, v in event.items() if k != "unit"})
        elif event["type"] == "awarded":
            continue  # told in the final report only (without_awards)
        elif unit in japanese and (event["type"] in ("moved", "entered") or (event["type"] == "displaced" and unit not in seen)):
            if i in sighted:
                out.append({"type": "sighted", "unit": unit, "hexes": sighted[i], "rule": "19B.3"})
        elif unit in japanese and unit not in seen:
            continue
        else:
            out.append(event)
    hidden_ids = sorted(japanese - named, key=len, reverse=True)
    if not hidden_ids:
        return out
    pattern = re.compile("|".join(re.escape(u) for u in hidden_ids))  # once for all the events
    return [_without_names(e, pattern) for e in out]


def _without_names(event: dict, pattern: re.Pattern) -> dict:
    """No hidden unit's id (``pattern`` finds any) in free text (a cancellation's reason may name the defender that moved)."""
    return {k: pattern.sub("a hidden unit", v) if isinstance(v, str) else v for k, v in event.items()}


def named_by_hex(orders: Orders, state: GameState) -> Orders:
    """``orders`` with every target named by its hex read as the unit standing there (a hidden unit's marker
    id is its hex; a unit exposed may be named either way)."""
    at = {where: u for u, where in state.locations.items() if where not in NOT_ON_MAP}
    units = state.unit_index()

    def unit_at(name: str) -> str:
        return at.get(name, name) if name not in units or units[name].kind == HIDDEN else name

    attacks = []
    for attack in orders.attacks:
        advance = [a.model_copy(update={"follow": unit_at(a.follow)}) if a.follow else a for a in attack.advance]
        attacks.append(attack.model_copy(update={"defenders": [unit_at(d) for d in attack.defenders], "advance": advance}))
    return orders.model_copy(update={"attacks": attacks})


def blind_attack_notes(document: dict) -> list[str]:
    """Attacks on hidden units, named by their hexes: declared blind, decided by the referee (docs/hidden-units.md)."""
    notes = []
    for i, attack in enumerate(document.get("attacks") or [], 1):
        blind = [d for d in attack.get("defenders") or [] if is_hex_id(d)]
        if blind:
            notes.append(f"attack {i} is on the hidden unit(s) in {' '.join(blind)}: declared blind, it cannot be called off; "
                         "the referee resolves it with the true strengths, or cancels it if a dummy stood there (19B.4, 19B.6)")
    return notes
