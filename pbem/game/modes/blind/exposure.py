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


# ---------------------------------------------------------------------------------------------- what the American computes


@dataclass(frozen=True)
class PublicExposure:
    """The markers an American player-turn (or the set-up's intelligence roll) exposes, as the American player
    computes them from public data alone (issue 35): ``required`` must each be opened against the root before the
    step; ``allowed`` may be (a dummy in contact is opened only if it is one).  Each hex maps to the rule case."""

    required: dict[str, str]
    allowed: dict[str, str]


def public_exposure(board: Board, seen: GameState, markers: list[str], orders: Any, rolls: list[dict], *,
                    setup: bool, beaches: Iterable[str] = (), cancelled: Iterable[int] = ()) -> PublicExposure:
    """``seen``: the American view's position before the step (the set-up: after it, its American units unmoved);
    ``markers``: the hexes the root before the step commits to that stand hidden; ``orders``: his parsed orders
    (None for the set-up); ``rolls``: the step's rolls (the intelligence die is public and checked); ``cancelled``:
    the attacks (numbered from 1 in his orders) the step's events call off before they are fought.

    Required: every marker named as a defender, a barrage's included (19B.4; a dummy is removed, 19B.6), every
    marker of the set-up in a clear hex (19B.3: exposed there as the set-up ends), and every
    pick of the intelligence roll (19B.7: the priority, then the policy, from the hexes and the die).  Allowed besides:
    the markers in an American zone of control after his movement (a dummy there is removed, 19B.6) and those next to
    a defender (a retreating defender may displace them, 7.8)."""
    from pbem.engine.exposure import intelligence_picks
    from pbem.engine.placement import Placement
    from pbem.model.common import OFFMAP

    hidden = set(markers)
    cancelled = set(cancelled)
    # his units where he sees them, and a marker (its id its hex) on every hex the root before commits hidden
    units = {u.id: u for u in seen.units if u.side != "JP"} | {h: fog.marker(h) for h in sorted(hidden)}
    locations = {u: seen.locations.get(u, OFFMAP) for u in units if u not in hidden} | {h: h for h in hidden}
    by_id = {u.id: seen.locations.get(u.id) for u in seen.units if u.side == "JP"}
    required: dict[str, str] = {}
    allowed: dict[str, str] = {}
    priority = list((seen.hidden.priority if seen.hidden is not None else None) or [])
    if orders is not None:
        for move in orders.moves:  # his own movement: where his units stand as the Combat Phase begins
            if move.unit in units and units[move.unit].side == "US":
                end = move.path[-1] if move.path else move.enter or locations.get(move.unit)
                locations[move.unit] = OFFMAP if move.exit else end
        defended = set()
        for index, attack in enumerate(orders.attacks, 1):
            for named in attack.defenders:
                where = named if named in hidden else by_id.get(named, named)
                defended.add(where)
                if where in hidden:  # an attack called off before it is fought (I9, 7.82, 7.83) exposes no one
                    (allowed if index in cancelled else required).setdefault(where, "19B.4")
        if orders.intelligence is not None and orders.intelligence.priority is not None:
            priority = list(orders.intelligence.priority)
    placement = Placement(units, locations)
    if setup:  # a unit set up in a clear hex is exposed there as the set-up ends (19B.3; no dummy may be, 19B.2)
        from pbem.engine.dummies import clear

        for where in sorted(h for h in hidden if clear(board, h)):
            required.setdefault(where, "19B.3")
    dice = [r for r in rolls if str(r.get("purpose", "")).startswith("intelligence")]
    if dice:
        count = sum(int(r["value"]) for r in dice)
        exposed: frozenset[str] = frozenset()  # only markers are JP units of this placement
        for unit in intelligence_picks(board, placement, exposed, count, priority, beaches):
            required.setdefault(placement.where(unit), "19B.7")
    if not setup:
        for where in hidden:
            if placement.in_enemy_zoc(where, "JP"):
                allowed.setdefault(where, "19B.6")
        from pbem.engine import hexes

        for where in hidden:  # a defender's retreat (at most 3 hexes, 7.7) may displace a marker on its way (7.8)
            if orders is not None and any(d not in NOT_ON_MAP and hexes.distance(where, d) <= 3 for d in defended):
                allowed.setdefault(where, "7.8")
    return PublicExposure(required, allowed | required)
