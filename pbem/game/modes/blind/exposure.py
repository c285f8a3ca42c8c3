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


def strings_in(value: Any) -> Iterable[str]:
    """Every string a JSON value holds, at any depth: the names a view or its events give."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings_in(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings_in(v)


def learned(board: Board, before: GameState, after: GameState, events: list[dict]) -> set[str]:
    """Every Japanese piece the refereed American view of this step tells him about: the units it names (in its
    events, or standing exposed on the map at the end) and the dummies whose removal it shows."""
    units = {u.id: u for u in before.units} | {u.id: u for u in after.units}
    real = {u for u, unit in units.items() if unit.side == "JP" and not unit.is_dummy}
    named = {s for s in strings_in(fog.american_events(board, before, after, events)) if s in real}
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
    the markers in an American zone of control after his movement (a dummy there is removed, 19B.6); a marker displaced
    by a retreat (7.8) is judged on the piece opened, :func:`displacement_told`."""
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
        for index, attack in enumerate(orders.attacks, 1):
            for named in attack.defenders:
                where = named if named in hidden else by_id.get(named, named)
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
    return PublicExposure(required, allowed | required)


def called_off(events: list[dict], orders: Any, japanese: set[str]) -> set[int]:
    """The attacks (numbered from 1 in the American orders) the step calls off before they are fought, where its
    events show why (I9, 7.82, 7.83): every attacker listed was eliminated, retreated, advanced or displaced before
    (a public American event each), or a defender no longer stands where it stood after a Japanese retreat of the
    step that can have pushed it there.  An attack on dummies alone is called off too, but its markers are opened
    (19B.6): it is not among these."""
    from pbem.engine import hexes

    done: set[str] = set()
    paths: list[str] = []
    found: set[int] = set()
    for e in events:
        kind = e.get("type")
        if kind in ("eliminated", "retreated", "advanced", "displaced") and isinstance(e.get("unit"), str):
            done.add(e["unit"])
            if kind == "retreated" and e["unit"] in japanese:
                paths += [h for h in [e.get("from"), *(e.get("path") or [])] if isinstance(h, str)]
        if kind != "combat_cancelled" or not isinstance(e.get("index"), int) or not 1 <= e["index"] <= len(orders.attacks):
            continue
        attack, why = orders.attacks[e["index"] - 1], str(e.get("reason", ""))
        listed = list(attack.attackers) + list(attack.barrage)
        if why == "no listed attacker may still attack" and listed and all(u in done for u in listed):
            found.add(e["index"])
        elif "no longer stands in" in why and paths:
            reach = len(paths)  # a chain of displacements from a hex of a Japanese retreat (7.81, 7.82)
            if any(d in done or (hexes.is_hex_id(d) and any(hexes.distance(d, p) <= reach for p in paths))
                   for d in attack.defenders):
                found.add(e["index"])
    return found


def displacement_told(board: Board, events: list[dict], marker: str, piece: dict, japanese: set[str]) -> bool:
    """May the piece opened in ``marker`` have been displaced (7.8) and told by the step (19B.3), as its events show?

    A Japanese unit is displaced only by a Japanese unit's retreat, one hex a time, at most once for each hex of every
    such retreat (:func:`pbem.engine.retreat.RetreatFinder.displacements_for`): ``budget`` hexes in all.  A hidden unit
    so displaced is told only where it is seen, in a clear hex: a sighting naming it, or the clear hex it ends in
    shown; a dummy, where it is removed.  The piece's told hex must lie within that budget of its marker."""
    from pbem.engine import hexes
    from pbem.engine.dummies import clear

    budget = sum(len(e.get("path") or []) for e in events if e.get("type") == "retreated" and e.get("unit") in japanese)
    if budget <= 0:
        return False
    if piece.get("kind") == "dummy":
        told = [e.get("hex") for e in events if e.get("type") == "dummy_removed"]
    else:
        unit = piece.get("id")
        told = [h for e in events if e.get("type") == "sighted" and e.get("unit") == unit for h in e.get("hexes") or []]
        told += [e.get("to") for e in events if e.get("type") == "displaced" and e.get("unit") == unit
                 and isinstance(e.get("to"), str) and board.on_board(e["to"]) and clear(board, e["to"])]
    return any(isinstance(h, str) and board.on_board(h) and hexes.distance(marker, h) <= budget for h in told)
