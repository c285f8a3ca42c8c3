"""Dummy counters under the hidden-units option (Legion 19B.6, adapted: docs/hidden-units.md).

A dummy is a Japanese counter that moves like the fastest Japanese unit,
holds its hex and exerts a zone of control, but never fights and adds
nothing to a combat.  It is removed the moment it is exposed, and the
American player learns only that it was a dummy.  Three moments expose one:

- it stands in or moves through a clear hex (19B.3): removed there;
- a Combat Phase begins with it in an enemy zone of control: removed before
  any attack is checked (its own side's phase) or fought (the enemy's).
  Island War makes every unit in contact attack or be attacked (7.11, 7.12)
  and a dummy can do neither, so contact exposes it — Formosa 11.2 item 1
  (concealed units in an enemy zone of control are revealed as a combat
  phase begins) read for dummies;
- an American attack names it, a barrage from a distance included: removed
  as his Combat Phase begins (19B.4 exposes what is attacked);
- an American intelligence roll picks it (19B.7).

No die is ever rolled because of a dummy: it leaves before its combat.
"""

from __future__ import annotations

from pbem.engine.board import Board
from pbem.engine.events import Event
from pbem.engine.placement import Placement
from pbem.model.common import Side
from pbem.model.units import Unit

DUMMY = "dummy"


def dummy_counters(count: int, move: int) -> list[Unit]:
    """The scenario's dummies, numbered; ``move`` is the fastest Japanese unit's allowance (19B.6)."""
    return [Unit.model_construct(id=f"JP-dummy-{n}", side="JP", kind=DUMMY, defense=0, move=move) for n in range(1, count + 1)]


def removed(unit: str, hex_id: str, rule: str, why: str) -> Event:
    """A dummy exposed and removed; the American view keeps only the hex, the rule and why."""
    return {"type": "dummy_removed", "unit": unit, "hex": hex_id, "rule": rule, "why": why}


def clear(board: Board, hex_id: str) -> bool:
    """A clear hex for exposure: one read on the Clear line of the CRT (19B.2: the TEC's (c) terrain)."""
    return board.on_board(hex_id) and board.terrain(hex_id).crt == "clear"


def remove_seen_moving(board: Board, placement: Placement, move_events: list[Event]) -> dict[str, str]:
    """Dummies whose move entered a clear hex (19B.3): removed at the first one.  Returns unit -> hex."""
    gone: dict[str, str] = {}
    for event in move_events:
        unit = event.get("unit")
        if event["type"] not in ("moved", "entered") or unit not in placement.units or not placement.units[unit].is_dummy:
            continue
        start = event["from"] if event["type"] == "moved" else event["hex"]
        seen = next((h for h in [start, *event["path"]] if clear(board, h)), None)
        if seen is not None and placement.on_map(unit):
            placement.eliminate(unit)
            gone[unit] = seen
    return gone


def remove_in_contact(placement: Placement, side_of_dummies: Side = "JP") -> dict[str, str]:
    """Dummies standing in an enemy zone of control as a Combat Phase begins: removed.  Returns unit -> hex."""
    gone: dict[str, str] = {}
    for unit in placement.units_of(side_of_dummies):
        if placement.units[unit].is_dummy:
            here = placement.where(unit)
            if placement.in_enemy_zoc(here, side_of_dummies):
                gone[unit] = here
    for unit in gone:
        placement.eliminate(unit)
    return gone


def remove_attacked(placement: Placement, defenders: set[str]) -> dict[str, str]:
    """Dummies named as defenders, a barrage from a distance included: exposed by the combat (19B.4) as the Combat
    Phase begins, and removed before any die is rolled.  Returns unit -> hex."""
    gone = {u: placement.where(u) for u in sorted(defenders)
            if u in placement.units and placement.units[u].is_dummy and placement.on_map(u)}
    for unit in gone:
        placement.eliminate(unit)
    return gone


def remove_in_clear(board: Board, placement: Placement, events: list[Event] = ()) -> dict[str, str]:
    """Dummies pushed into a clear hex by a displacement (7.8) this player-turn, whether they stand there still or
    were pushed on out of it: seen there, so removed (19B.3) at the first clear hex they were pushed into — as a
    real unit on the same path is sighted there.  Returns unit -> hex."""
    gone: dict[str, str] = {}
    for event in events:
        unit = event.get("unit")
        if (event["type"] == "displaced" and unit in placement.units and placement.units[unit].is_dummy
                and unit not in gone and placement.on_map(unit) and clear(board, event["to"])):
            gone[unit] = event["to"]
    for unit in placement.units_of("JP"):
        if placement.units[unit].is_dummy and unit not in gone and clear(board, placement.where(unit)):
            gone[unit] = placement.where(unit)
    gone = {u: gone[u] for u in placement.units_of("JP") if u in gone}  # in the order of the pieces, as always
    for unit in gone:
        placement.eliminate(unit)
    return gone


CONTACT_WHY = "in an enemy zone of control as the Combat Phase began; a dummy cannot fight"
ATTACKED_WHY = "attacked; a dummy cannot fight"
MOVING_WHY = "seen in a clear hex during its move"
CLEAR_WHY = "left standing in a clear hex"
DISPLACED_WHY = "pushed into a clear hex by a displacement"

