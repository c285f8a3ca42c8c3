"""Which hidden Japanese units the American player may examine, and when (Legion 19B.2-19B.5, 19B.7 adapted).

Island War allows one unit per hex (5.31), so a hex names a hidden unit and
exposure is per unit.  The readings (docs/hidden-units.md):

- 19B.3: a Japanese unit standing in a clear hex is exposed; one that moves
  (retreats, advances and displacements included) through a clear hex is
  seen there, and hidden again once it stands in a hex that is not clear;
- 19B.4 with Invasion Pearl Harbor 6.8: every Japanese unit that takes part
  in a combat — defender, attacker, barraging or FPF artillery — is exposed;
  orders are committed before any is, so no attack is called off;
- 19B.5: as the Japanese player-turn begins, an exposed unit stays exposed
  only if it is in a clear hex and next to an American unit;
- 19B.7: intelligence rolls expose hidden units by the American player's
  priority of hexes, then by the policy of :func:`intelligence_order`; a
  unit in a mountain hex counts two.

Every choice here depends on where markers and American units stand, never
on what a hidden unit is, so no choice betrays one.
"""

from __future__ import annotations

from typing import Iterable

from pbem.engine import hexes
from pbem.engine.board import Board
from pbem.engine.dummies import clear
from pbem.engine.events import MOVEMENT_EVENTS, Event, visited
from pbem.engine.placement import Placement

def sightings(board: Board, events: Iterable[Event], japanese: set[str]) -> dict[int, list[str]]:
    """For each movement event (by position) of a Japanese unit: the clear hexes it was seen in (19B.3)."""
    seen = {}
    for i, event in enumerate(events):
        if event["type"] in MOVEMENT_EVENTS and event.get("unit") in japanese:
            clear_hexes = [h for h in visited(event) if board.on_board(h) and clear(board, h)]
            if clear_hexes:
                seen[i] = clear_hexes
    return seen


def combatants(events: Iterable[Event]) -> set[str]:
    """Every unit that took part in a combat this player-turn (19B.4): fought, barraged or gave FPF."""
    found: set[str] = set()
    for event in events:
        if event["type"] == "combat":
            found.update(event["attackers"], event["barrage"], event["defenders"])
        elif event["type"] == "fpf":
            found.add(event["artillery"])
    return found


def hidden_again(board: Board, placement: Placement, exposed: frozenset[str]) -> frozenset[str]:
    """19B.5 as the Japanese player-turn begins: exposed units stay so only in a clear hex next to an American unit."""
    return frozenset(
        u for u in exposed
        if placement.on_map(u) and clear(board, placement.where(u)) and placement.in_enemy_zoc(placement.where(u), "JP")
    )


def exposed_now(board: Board, placement: Placement, exposed: Iterable[str], events: Iterable[Event]) -> frozenset[str]:
    """The exposed set at the end of a player-turn: those still exposed, the combatants, and units in clear hexes.

    A unit exposed before that moved (any form of movement) keeps its exposure only if it ends in a clear hex:
    one that moves on into a hex that is not clear is hidden again (19B.3)."""
    events = list(events)
    moved = {e.get("unit") for e in events if e["type"] in MOVEMENT_EVENTS}
    found = {u for u in exposed if u not in moved} | combatants(events)
    for u in placement.units_of("JP"):
        if clear(board, placement.where(u)):
            found.add(u)
    return frozenset(u for u in found if u in placement.units and placement.units[u].side == "JP"
                     and placement.on_map(u) and not placement.units[u].is_dummy)


def intelligence_order(placement: Placement, exposed: frozenset[str], priority: Iterable[str], targets: Iterable[str]) -> list[str]:
    """The hidden Japanese units an intelligence roll exposes first (19B.7), dummies among them.

    The American player's standing ``priority`` of hexes comes first; then the
    policy: the hidden units nearest an American unit on the map (or, with
    none on it, nearest the ``targets`` hexes where his units will come), ties
    by hex id.
    """
    hidden = {placement.where(u): u for u in placement.units_of("JP") if u not in exposed}
    order = [hidden[h] for h in dict.fromkeys(priority) if h in hidden]
    anchors = [placement.where(u) for u in placement.units_of("US")] or sorted(targets)
    rest = sorted((h for h in hidden if hidden[h] not in order),
                  key=lambda h: (min((hexes.distance(h, a) for a in anchors), default=0), h))
    return order + [hidden[h] for h in rest]


def intelligence_picks(board: Board, placement: Placement, exposed: frozenset[str], count: int, priority: Iterable[str], targets: Iterable[str]) -> list[str]:
    """The units ``count`` exposures reach, in order: a unit in a mountain hex counts two (19B.7), and is passed over
    when only one is left."""
    picked, left = [], count
    for unit in intelligence_order(placement, exposed, priority, targets):
        cost = 2 if board.terrain(placement.where(unit)).name == "mountain" else 1
        if cost <= left:
            picked.append(unit)
            left -= cost
        if left == 0:
            break
    return picked
