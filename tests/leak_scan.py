"""Scan what the American player can read in a hidden-units game for what he may not know (docs/hidden-units.md).

Shared by ``tests/test_hidden_leaks.py`` (a few games, in CI) and
``benchmarks/hidden_leaks.py`` (hundreds).  For every step of a bot game
played in process with the option on it checks:

(a) the canonical JSON of the American view, of the public record and every
    die's purpose name no Japanese unit (id or name) the American player may
    not know at that step, and no dummy ever;
(b) every hidden marker in the American view has the one marker shape —
    whether a dummy or a real unit stands under it — stands in the hex that
    is its id, and the markers come last, sorted by hex, one per hidden unit;
(c) non-interference: trading the identities of two hidden units (dummies
    included) in the referee's position leaves ``fog.american_state`` byte
    for byte the same — their attributes (kind, strengths, name) and their
    ids — and renaming them in the position, the position before and the
    events leaves the whole American view the same;
(d) a timed award (Leyte 16.34, Ormoc: scored only when a real unit, not a
    dummy, holds the hex) leaves the American view of every step before the
    last byte for byte the same as if it had not been scored.

"May know" is worked out here from the referee's position and events, not
by :mod:`pbem.game.fog`: a Japanese unit exposed at the end of the step, one
that took part in a combat (attacked, barraged, defended, gave FPF), one
eliminated, one whose move passed through a clear hex, one an intelligence
roll exposed.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pbem.bot.selfplay import SeededDice, play_out
from pbem.loading.datafiles import LoadedScenario
from pbem.game import fog
from pbem.game.codec import state_from_json, state_to_json
from pbem.game.step import Step, record_step
from pbem.model.common import ELIMINATED, NOT_ON_MAP
from pbem.model.state import GameState
from pbem.protocol.canonical import canonical_bytes

HIDDEN_UNITS = ["hidden-units"]
SCENARIOS = ["test-skirmish", "leyte-assault", "leyte-mountain-barrier", "leyte-final-collapse"]
POLICIES = [("greedy", "greedy"), ("random", "random"), ("greedy", "random"), ("random", "greedy")]
MOVES = ("moved", "entered", "retreated", "advanced", "displaced")
MARKER = {"side": "JP", "kind": "hidden", "attack": 0, "barrage": 0, "defense": 0, "fpf": 0, "move": 0, "range": 0}
"""A hidden unit's marker apart from its id (its hex): every strength 0, whatever stands under it."""


def plan(games: int) -> list[tuple[str, tuple[str, str], int]]:
    """``games`` games: every scenario in turn, then every pairing of policies, each with its own seed."""
    return [(SCENARIOS[i % len(SCENARIOS)], POLICIES[(i // len(SCENARIOS)) % len(POLICIES)], i) for i in range(games)]


class RecordingDice(SeededDice):
    """The self-play die, keeping every purpose it was asked for, by player-turn."""

    def __init__(self, seed: str) -> None:
        super().__init__(seed)
        self.purposes: list[list[str]] = [[]]

    def roll(self, purpose: str) -> int:
        self.purposes[-1].append(purpose)
        return super().roll(purpose)


@dataclass
class Scan:
    games: int = 0
    steps: int = 0
    swaps: int = 0
    awards: int = 0
    size_twins: int = 0
    growths: int = 0
    leaks: list[str] = field(default_factory=list)
    shapes: set[str] = field(default_factory=set)
    under_markers: Counter = field(default_factory=Counter)

    def leak(self, where: str, what: str) -> None:
        if len(self.leaks) < 50:
            self.leaks.append(f"{where}: {what}")


def clear(board, hex_id: str) -> bool:
    return board.on_board(hex_id) and board.terrain(hex_id).crt == "clear"


def hexes_of(event: dict) -> list[str]:
    if event["type"] == "entered":
        return [event["hex"], *event["path"]]
    if event["type"] == "displaced":
        return [event["from"], event["to"]]
    return [event["from"], *event["path"]]


def japanese(state: GameState) -> set[str]:
    return {u.id for u in state.units if u.side == "JP" and u.kind != "dummy"}


def may_know(board, state: GameState, events: list[dict]) -> set[str]:
    """The Japanese units the American player may know after a step whose true events are ``events``."""
    real = japanese(state)
    known = set(state.hidden.exposed) | {u for u in real if state.locations.get(u) == ELIMINATED}
    legion = state.hidden.variant == "hidden-units"  # IPH 6.8 and Formosa 11.0 expose nothing by terrain or intelligence
    for event in events:
        kind = event["type"]
        if kind == "combat":
            known |= set(event["attackers"]) | set(event["barrage"]) | set(event["defenders"])
        elif kind == "fpf":
            known.add(event["artillery"])
        elif kind == "intelligence" and legion:
            known |= {e["unit"] for e in event["exposed"]}
        elif legion and kind in MOVES and event["unit"] in real and any(clear(board, h) for h in hexes_of(event)):
            known.add(event["unit"])
    return known & real


def pattern(tokens) -> re.Pattern | None:
    """Any of ``tokens`` standing alone: not part of a longer id or name (jp-1-9 is not in jp-1-99, 1st in 41st)."""
    tokens = sorted({t for t in tokens if t}, key=len, reverse=True)
    if not tokens:
        return None
    return re.compile(r"(?<![\w-])(" + "|".join(re.escape(t) for t in tokens) + r")(?![\w-])")


def forbidden(state: GameState, known: set[str]) -> re.Pattern | None:
    """Every id and name of a Japanese unit the American player may not know now, and every dummy's id."""
    tokens = []
    for unit in state.units:
        if unit.side == "JP" and (unit.kind == "dummy" or unit.id not in known):
            tokens += [unit.id, unit.name]
    return pattern(tokens)


def dummies(state: GameState) -> re.Pattern | None:
    return pattern(u.id for u in state.units if u.kind == "dummy")


def without_final_report(document: dict) -> dict:
    """A view or public record of the last step without its final victory report.

    The game is over: the report is worked out on the true position and names
    the units that hold objectives or lines (docs/hidden-units.md, After the
    game); a dummy's id is never in it (one that holds an objective is named
    by its hex, I28), which the scan still checks.
    """
    return {k: v for k, v in document.items() if k != "victory"}


def scan_text(scan: Scan, where: str, text: str, banned: re.Pattern | None) -> None:
    found = banned.search(text) if banned is not None else None
    if found:
        start = max(0, found.start() - 80)
        scan.leak(where, f"'{found.group(0)}' in ...{text[start:found.end() + 80]}...")


def check_markers(scan: Scan, where: str, truth: GameState, view: dict) -> None:
    """(b): one marker shape, in its own hex, listed last by hex, one per hidden unit on the map."""
    units = view["state"]["units"]
    locations = view["state"]["locations"]
    markers = [u for u in units if u["kind"] == fog.HIDDEN]
    if units[len(units) - len(markers):] != markers or [m["id"] for m in markers] != sorted(m["id"] for m in markers):
        scan.leak(where, "markers are not listed last, by hex")
    shown = {u["id"] for u in units}
    under = {}
    for unit in truth.units:
        where_now = truth.locations.get(unit.id, ELIMINATED)
        if unit.side == "JP" and unit.id not in shown and where_now not in NOT_ON_MAP:
            under[where_now] = unit
    if sorted(under) != [m["id"] for m in markers]:
        scan.leak(where, f"markers {[m['id'] for m in markers]} but hidden units in {sorted(under)}")
    for m in markers:
        if locations.get(m["id"]) != m["id"]:
            scan.leak(where, f"marker {m['id']} stands in {locations.get(m['id'])}")
        shape = {k: v for k, v in m.items() if k != "id"}
        if shape != MARKER:
            scan.leak(where, f"marker {m['id']} is {shape}")
        scan.shapes.add(json.dumps(shape, sort_keys=True))
        if m["id"] in under:
            scan.under_markers["dummy" if under[m["id"]].kind == "dummy" else "real"] += 1


def _rename(doc: Any, swap: dict[str, str]) -> Any:
    """``doc`` with the ids in ``swap`` traded wherever they stand, in free text too."""
    names = pattern(swap)

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return names.sub(lambda m: swap[m.group(0)], value)
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {walk(k): walk(v) for k, v in value.items()}
        return value

    return walk(doc)


def _traded_attributes(state: GameState, a: str, b: str) -> GameState:
    """``a`` and ``b`` keep their ids and hexes and trade everything else (kind, strengths, name)."""
    units = state.unit_index()
    swapped = {a: units[b].model_copy(update={"id": a}), b: units[a].model_copy(update={"id": b})}
    return state.model_copy(update={"units": tuple(swapped.get(u.id, u) for u in state.units)})


def _bytes_of_view(step: Step, view: dict) -> bytes:
    return canonical_bytes(without_final_report(view) if step.over else view)


def _us_view(loaded, ruleset, step: Step, state: GameState, before: GameState, last: dict, seq: int) -> bytes:
    again = record_step(state, game="selfplay", seq=seq, scenario_ref={"id": loaded.scenario.id, "hash": "selfplay"},
                        ruleset=ruleset, over=step.over, last=last, loaded=loaded, before=before)
    return _bytes_of_view(step, again.views["US"])


def check_swaps(scan: Scan, where: str, loaded, ruleset, step: Step, before: GameState | None, known: set[str], seq: int,
                full: bool) -> None:
    """(c): trade two hidden units' identities; the American picture must not change."""
    truth = step.state
    hidden = sorted(u.id for u in truth.units if u.side == "JP" and truth.on_map(u.id) and u.id not in known)
    dummies = [u for u in hidden if truth.unit(u).kind == "dummy"]
    reals = [u for u in hidden if u not in dummies]
    pairs = {tuple(sorted(p)) for p in [(hidden[0], hidden[-1])] if p[0] != p[1]} if hidden else set()
    if dummies and reals:
        pairs.add((dummies[0], reals[-1]))
    if not pairs:
        return
    picture = canonical_bytes(state_to_json(fog.american_state(truth)))
    view = _bytes_of_view(step, step.views["US"]) if full else b""
    for a, b in sorted(pairs):
        scan.swaps += 1
        traded = _traded_attributes(truth, a, b)
        renamed = state_from_json(_rename(state_to_json(truth), {a: b, b: a}))
        for how, other in (("attributes", traded), ("ids", renamed)):
            if canonical_bytes(state_to_json(fog.american_state(other))) != picture:
                scan.leak(where, f"the American position changes when {a} and {b} trade {how}")
        if full and before is not None:
            last = _rename(step.last, {a: b, b: a})
            again = _us_view(loaded, ruleset, step, renamed, state_from_json(_rename(state_to_json(before), {a: b, b: a})), last, seq)
            if again != view:
                scan.leak(where, f"the American view changes when {a} and {b} trade ids (position, events and all)")
            earlier = before.unit_index()
            traded_before = _traded_attributes(before, a, b) if a in earlier and b in earlier else before
            again = _us_view(loaded, ruleset, step, traded, traded_before, step.last, seq)
            if again != view:
                scan.leak(where, f"the American view changes when {a} and {b} trade attributes")


def check_awards(scan: Scan, where: str, loaded, ruleset, step: Step, before: GameState | None, seq: int) -> None:
    """(d): the American view with and without the points awarded so far (and their events) is the same."""
    awarded = [e for e in (step.last or {}).get("events", []) if e["type"] == "awarded"]
    if step.over or before is None or not (step.state.awards or awarded):
        return
    scan.awards += 1
    unscored = step.state.model_copy(update={"awards": ()})
    last = {**step.last, "events": [e for e in step.last["events"] if e["type"] != "awarded"]}
    if _us_view(loaded, ruleset, step, unscored, before, last, seq) != _bytes_of_view(step, step.views["US"]):
        scan.leak(where, "the American view tells whether a timed award was scored (16.34)")


def scan_game(scan: Scan, loaded: LoadedScenario, policies: tuple[str, str], seed: int, *, full_swaps: bool = True,
              observation=None, parties=None, training: int = 300, options=HIDDEN_UNITS) -> None:
    """Play one game with the option on and check every step of it.

    With ``observation`` (:class:`tests.setup_observer.Observation`) the set-up observer guesses every marker of the
    first turn file; with ``parties`` (keys) every step is built into twin turn files whose lengths must agree
    (:mod:`tests.size_twins`)."""
    dice = RecordingDice(f"dice:{seed}")
    game = play_out(loaded, {"US": policies[0], "JP": policies[1]}, seed=seed, options=options, dice=dice,
                    on_orders=lambda step, orders: dice.purposes.append([]))
    ruleset = game.steps[0].views["US"]["ruleset"]
    scan.games += 1
    if observation is not None:
        observation.observe(loaded, game.steps[1], training=training, policy=policies[1])
    before = None
    for seq, step in enumerate(game.steps):
        scan.steps += 1
        where = f"{loaded.scenario.id} {policies[0]}/{policies[1]} seed {seed} step {seq}"
        events = step.last["events"] if step.last else []
        known = may_know(loaded.board, step.state, events)
        banned = forbidden(step.state, known)
        view, public = step.views["US"], step.public
        if step.over:  # the final victory report is decided on the true position and names the units that score (15.4)
            view, public = without_final_report(view), without_final_report(public)
            scan_text(scan, f"{where} final victory report", canonical_bytes(step.public["victory"]).decode(), dummies(step.state))
        scan_text(scan, f"{where} US view", canonical_bytes(view).decode(), banned)
        scan_text(scan, f"{where} public record", canonical_bytes(public).decode(), banned)
        for purpose in dice.purposes[seq] if seq < len(dice.purposes) else []:
            scan_text(scan, f"{where} dice purpose", purpose, banned)
        check_markers(scan, where, step.state, step.views["US"])
        check_swaps(scan, where, loaded, ruleset, step, before, known, seq, full_swaps)
        check_awards(scan, where, loaded, ruleset, step, before, seq)
        if parties is not None:
            from tests.size_twins import check_sizes

            check_sizes(scan, where, parties, loaded, step, before, seq, "0" * 32)
        before = step.state
