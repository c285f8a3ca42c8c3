"""The Japanese secret set-up under the hidden-units option (docs/hidden-units.md).

Adapted from Legion 19B.2 (Japanese units deploy hidden) and 19B.6 (dummies):
before the first player-turn the Japanese player assigns each of the
scenario's listed set-up units to one of its listed set-up hexes, in any
order, and places up to the scenario's number of dummies.  The limits on
dummies are assumed (the Leyte rules have none): a land hex the Japanese may
enter, not clear (a dummy there would be exposed and removed at once,
19B.3), not next to an American unit (contact exposes it, see
:mod:`pbem.engine.dummies`), empty, and at most the scenario's radius from a
set-up hex.  Then the American intelligence roll of 2d6 (19B.7).
"""

from __future__ import annotations

from pbem.engine import hexes
from pbem.engine.board import Board
from pbem.engine.dummies import clear
from pbem.engine.problems import Problem
from pbem.model.orders import Orders
from pbem.model.state import GameState


def setup_hexes(state: GameState) -> dict[str, str]:
    """The listed set-up units and the hexes the scenario gives them (unit -> hex), before the secret set-up."""
    return {u.id: state.locations[u.id] for u in state.units if u.side == "JP" and not u.is_dummy and state.on_map(u.id)}


def dummies_of(state: GameState) -> list[str]:
    return [u.id for u in state.units if u.is_dummy]


def check_deployment(board: Board, state: GameState, orders: Orders) -> list[Problem]:
    """Every problem with the secret set-up ``orders`` (rule cases as in docs/hidden-units.md)."""
    problems: list[Problem] = []
    if orders.moves or orders.attacks or orders.defense is not None or orders.intelligence is not None:
        problems.append(Problem("19B.2", None, "the Japanese secret set-up comes before the first player-turn: these orders may hold only 'deployment' (and a note)"))
    deployment = orders.deployment
    if deployment is None:
        return problems + [Problem("19B.2", None, "the game waits for the Japanese secret set-up: write a 'deployment' block (pbem orders template writes one)")]
    listed = setup_hexes(state)
    hexes_listed = set(listed.values())
    units = state.unit_index()
    # Armor keeps to its terrain (5.25), unless the scenario itself set armor up in that hex.
    armor_hexes = {h for u, h in listed.items() if units[u].kind == "armor"}
    used: dict[str, str] = {}
    for unit, hex_id in deployment.units.items():
        if unit not in listed:
            why = "there is no such unit" if unit not in units else "it is not one of the scenario's listed Japanese set-up units"
            problems.append(Problem("19B.2", unit, f"deployment.units names {unit}: {why}."))
            continue
        if hex_id not in hexes_listed:
            problems.append(Problem("19B.2", unit, f"{unit} is set up in {hex_id}, which is not one of the scenario's set-up hexes ({_few(hexes_listed)})."))
        elif hex_id in used:
            problems.append(Problem("5.31", unit, f"{unit} and {used[hex_id]} are both set up in {hex_id}; one unit per hex."))
        else:
            used[hex_id] = unit
        if units[unit].kind == "armor" and board.on_board(hex_id) and not board.armor_may_be_placed(hex_id) and hex_id not in armor_hexes:
            problems.append(Problem("5.25", unit, f"armor {unit} may not set up in {hex_id} ({board.terrain(hex_id).name}, no road or trail)."))
    missing = [u for u in listed if u not in deployment.units]
    if missing:
        problems.append(Problem("19B.2", missing[0], f"every listed set-up unit must be set up; missing: {', '.join(missing)}."))
    problems += _dummy_problems(board, state, deployment.dummies, hexes_listed, used)
    return problems


def _dummy_problems(board: Board, state: GameState, dummies: list[str], setup: set[str], used: dict[str, str]) -> list[Problem]:
    problems: list[Problem] = []
    allowed = len(dummies_of(state))
    if len(dummies) > allowed:
        problems.append(Problem("19B.6", None, f"{len(dummies)} dummies placed; this scenario allows {allowed} (docs/hidden-units.md)."))
    american, radius = _americans(state), _radius(state)
    seen: set[str] = set()
    for hex_id in dummies:
        for rule, why in _limits_broken(board, hex_id, setup, american, radius, placed_already=hex_id in seen):
            problems.append(Problem(rule, None, f"dummy in {hex_id}: {why}"))
        seen.add(hex_id)
    return problems


def dummy_places(board: Board, state: GameState) -> list[str]:
    """Every hex a dummy may be placed in before the secret set-up (the limits :func:`check_deployment` holds)."""
    setup, american, radius = set(setup_hexes(state).values()), _americans(state), _radius(state)
    return [h for h in board.all_hexes if not _limits_broken(board, h, setup, american, radius)]


def _limits_broken(board: Board, hex_id: str, setup: set[str], american: set[str], radius: int, *, placed_already: bool = False) -> list[tuple[str, str]]:
    """(rule, why) for each limit a dummy in ``hex_id`` would break (docs/hidden-units.md)."""
    if not board.land(hex_id):
        return [("19B.6", "not a land hex of the map.")]
    broken = []
    if placed_already or hex_id in setup or hex_id in american:
        broken.append(("5.31", "the hex is taken; one unit per hex (a set-up hex left empty stays empty)."))
    if hex_id in board.closed.get("JP", ()):
        broken.append(("16.23", "Japanese units may not enter this hex."))
    if clear(board, hex_id):
        broken.append(("19B.3", "a clear hex; the dummy would be exposed and removed at once."))
    if any(hexes.adjacent(hex_id, a) for a in american):
        broken.append(("19B.6", "next to an American unit; contact would expose it at once."))
    if setup and min(hexes.distance(hex_id, s) for s in setup) > radius:
        broken.append(("19B.6", f"more than {radius} hexes from every Japanese set-up hex (the scenario's limit)."))
    return broken


def _americans(state: GameState) -> set[str]:
    return {state.locations[u.id] for u in state.units if u.side == "US" and state.on_map(u.id)}


def _radius(state: GameState) -> int:
    return state.hidden.radius if state.hidden is not None else 0


def apply_deployment(state: GameState, orders: Orders) -> GameState:
    """The position after a valid secret set-up; dummies not placed never enter the game."""
    deployment = orders.deployment
    assert deployment is not None
    locations = dict(state.locations)
    locations.update(deployment.units)
    dummy_ids = dummies_of(state)
    placed = dict(zip(dummy_ids, deployment.dummies))
    units = tuple(u for u in state.units if not u.is_dummy or u.id in placed)
    for unit in dummy_ids:
        if unit in placed:
            locations[unit] = placed[unit]
        else:
            locations.pop(unit, None)
    return state.model_copy(update={"units": units, "locations": locations})


def _few(members: set[str]) -> str:
    listed = sorted(members)
    return " ".join(listed[:10]) + (" ..." if len(listed) > 10 else "")

