"""Which markers a player-turn exposes, for hidden units with no referee (docs/PROTOCOL.md, docs/hidden-units.md).

With a referee, the American view of a step (:mod:`pbem.game.fog`) says
which Japanese counters the American player may examine.  With no referee
the Japanese player must *open* exactly those counters' commitments
(:mod:`pbem.protocol.commitment`).  This module asks fog what the American
view of the step names — the same functions build the refereed American
view — so the two modes cannot disagree about what a rule exposes
(19B.3 clear terrain, 19B.4 combat — defenders, attackers, barrage, FPF —,
19B.6 dummies, 19B.7 intelligence).

Where each exposure is opened:

- ``before``: counters that stood hidden under a marker when the step began
  and that the step exposes, opened against the root the American player
  already holds and acknowledged.  That is every exposure of an American
  player-turn (hidden units do not move in it before they are exposed) and
  of the intelligence roll after the set-up.
- ``after``: every Japanese unit the American view shows at the end of the
  step, opened against the step's new root, at the hex where it stands.
- ``claims``: exposures of a Japanese player-turn that neither root can
  show without saying more than the rules do (a unit seen in passing
  through a clear hex, an attacker eliminated, a dummy removed in contact):
  opening them against the root before the step would tell where the
  piece came from, which the rules keep hidden.  They stand on the
  Japanese player's word until the audit replays the player-turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from pbem.engine.board import Board
from pbem.game import fog
from pbem.model.common import NOT_ON_MAP
from pbem.model.state import GameState
from pbem.protocol.commitment import DUMMY

PIECE_FIELDS = ("id", "kind", "attack", "defense", "move", "barrage", "fpf", "range", "name")


def pieces(state: GameState) -> dict[str, dict]:
    """What a root commits to in ``state``: every Japanese counter on the map, by its hex (the marker id).

    A dummy is only ``{"kind": "dummy"}``; a unit its identity and strengths."""
    out = {}
    for unit in state.units:
        where = state.locations.get(unit.id)
        if unit.side == "JP" and where is not None and where not in NOT_ON_MAP:
            out[where] = dict(DUMMY) if unit.is_dummy else {k: getattr(unit, k) for k in PIECE_FIELDS if getattr(unit, k) is not None}
    return out


@dataclass(frozen=True)
class Exposure:
    """The openings one step demands (marker → unit id, or the dummy's id) and the exposures left to the audit."""

    side: str
    before: dict[str, str] = field(default_factory=dict)
    after: dict[str, str] = field(default_factory=dict)
    claims: frozenset[str] = frozenset()

    @property
    def identities(self) -> set[str]:
        return set(self.before.values()) | set(self.after.values()) | set(self.claims)


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def learned(board: Board, before: GameState, after: GameState, events: list[dict]) -> set[str]:
    """Every Japanese piece the refereed American view of this step tells him about: the units it names (in its
    events, or standing exposed on the map at the end) and the dummies whose removal it shows."""
    units = {u.id: u for u in before.units} | {u.id: u for u in after.units}
    real = {u for u, unit in units.items() if unit.side == "JP" and not unit.is_dummy}
    named = {s for s in _strings(fog.american_events(board, before, after, events)) if s in real}
    standing = {u for u in fog.visible(after) if after.on_map(u)}
    dummies = {e["unit"] for e in events if e["type"] == "dummy_removed"}
    return named | standing | dummies


def hidden_markers(state: GameState) -> dict[str, str]:
    """The counters the American view of ``state`` shows as markers: hex → the piece under it."""
    seen = fog.visible(state) if state.hidden is not None else set()
    return {where: u.id for u in state.units if u.side == "JP" and u.id not in seen
            for where in [state.locations.get(u.id)] if where is not None and where not in NOT_ON_MAP}


def exposure(board: Board, before: GameState, after: GameState, events: list[dict], side: str) -> Exposure:
    """The openings the rules demand for a step of ``side`` from ``before`` to ``after`` with these true ``events``.

    For the set-up, ``before`` is the deployed position before the intelligence roll (its markers are what the
    Japanese player committed to), and ``side`` is ``"setup"``: its exposures are opened as an American
    player-turn's are."""
    told = learned(board, before, after, events)
    markers = hidden_markers(before)
    already = {u for u in (fog.visible(before) if before.hidden is not None else ()) if before.on_map(u)}
    exposed_after = {after.locations[u]: u for u in told if u in fog.visible(after) and after.on_map(u)}
    opened_before: dict[str, str] = {}
    if side in ("US", "setup"):
        opened_before = {hex_id: u for hex_id, u in markers.items() if u in told}
    claims = told - set(opened_before.values()) - set(exposed_after.values()) - already
    return Exposure(side, opened_before, exposed_after, frozenset(claims))
