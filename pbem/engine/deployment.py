"""The Japanese secret set-up under the hidden-units option (docs/hidden-units.md).

Adapted from Legion 19B.2 (Japanese units deploy hidden) and 19B.6 (dummies):
before the first player-turn the Japanese player sets up each of the
scenario's listed set-up units, and up to the scenario's number of dummies,
anywhere in the set-up zone: within the scenario's radius of a printed
Japanese set-up hex (:class:`SetupZone`, assumed: the Leyte rules have no
hidden units).  Units and dummies take the same hexes, but a dummy not a
clear one, so that neither a printed hex nor a marker's terrain tells a
unit from a dummy (issue 19 item 1).  Then the American intelligence roll of
2d6 (19B.7).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

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
    zone = SetupZone.of(board, state)
    units = state.unit_index()
    used: dict[str, str] = {}
    for unit, hex_id in deployment.units.items():
        if unit not in listed:
            why = "there is no such unit" if unit not in units else "it is not one of the scenario's listed Japanese set-up units"
            problems.append(Problem("19B.2", unit, f"deployment.units names {unit}: {why}."))
            continue
        for rule, why in zone.limits_broken(hex_id, taken=used.get(hex_id), armor=units[unit].kind == "armor"):
            problems.append(Problem(rule, unit, f"{unit} may not set up in {hex_id}: {why}"))
        used.setdefault(hex_id, unit)
    missing = [u for u in listed if u not in deployment.units]
    if missing:
        problems.append(Problem("19B.2", missing[0], f"every listed set-up unit must be set up; missing: {', '.join(missing)}."))
    allowed = len(dummies_of(state))
    if len(deployment.dummies) > allowed:
        problems.append(Problem("19B.6", None, f"{len(deployment.dummies)} dummies placed; this scenario allows {allowed} (docs/hidden-units.md)."))
    for hex_id in deployment.dummies:
        for rule, why in zone.limits_broken(hex_id, taken=used.get(hex_id), dummy=True):
            problems.append(Problem(rule, None, f"dummy in {hex_id}: {why}"))
        used.setdefault(hex_id, "a dummy")
    return problems


@dataclass(frozen=True)
class SetupZone:
    """Where the Japanese secret set-up may put its pieces (docs/hidden-units.md, assumed: the scenario's ``hidden_units``).

    Every listed set-up unit and every dummy takes a land hex at most
    ``radius`` hexes from a printed Japanese set-up hex, one piece per hex and
    none where an American unit stands (5.31), none closed to Japanese units
    (16.23), none on a beach hex (12.21: the landings come ashore there).
    Armor keeps to its terrain (5.25) unless the scenario printed armor in
    that hex; a dummy keeps out of clear hexes (19B.3 would expose it at
    once).  Otherwise units and dummies take the same hexes, so that a
    marker's hex tells nothing of what stands under it.
    """

    board: Board
    printed: frozenset[str]
    armor_printed: frozenset[str]
    american: frozenset[str]
    radius: int

    @classmethod
    def of(cls, board: Board, state: GameState) -> "SetupZone":
        listed = setup_hexes(state)
        units = state.unit_index()
        return cls(board, frozenset(listed.values()), frozenset(h for u, h in listed.items() if units[u].kind == "armor"),
                   frozenset(_americans(state)), state.hidden.radius if state.hidden is not None else 0)

    def limits_broken(self, hex_id: str, *, taken: str | None = None, armor: bool = False, dummy: bool = False) -> list[tuple[str, str]]:
        """(rule, why) for each limit a piece in ``hex_id`` would break; ``taken`` names what is already set up there."""
        board = self.board
        if not board.land(hex_id):
            return [("19B.2", "not a land hex of the map.")]
        broken = []
        if taken is not None:
            broken.append(("5.31", f"{taken} is set up there already; one unit per hex."))
        if hex_id in self.american:
            broken.append(("5.31", "an American unit stands there; one unit per hex."))
        if hex_id in board.closed.get("JP", ()):
            broken.append(("16.23", "Japanese units may not enter this hex."))
        if hex_id in board.beaches:
            broken.append(("12.21", "a beach hex, where the American landings come ashore."))
        if self.printed and hex_id not in hexes.within_any(self.printed, self.radius):
            broken.append(("19B.2", f"more than {self.radius} hexes from every printed Japanese set-up hex (the scenario's set-up zone)."))
        if armor and not board.armor_may_be_placed(hex_id) and hex_id not in self.armor_printed:
            broken.append(("5.25", f"armor keeps to its terrain ({board.terrain(hex_id).name}, no road or trail)."))
        if dummy and clear(board, hex_id):
            broken.append(("19B.3", "a clear hex; the dummy would be exposed and removed at once."))
        return broken

    def places(self, *, armor: bool = False, dummy: bool = False) -> list[str]:
        """Every hex a piece of this kind may take, on an empty set-up."""
        return list(_places(self, armor, dummy))


@lru_cache(maxsize=32)
def _places(zone: SetupZone, armor: bool, dummy: bool) -> tuple[str, ...]:
    """Worked out once per zone and kind: a bot or an observer draws many set-ups on one zone."""
    board = zone.board
    return tuple(h for h in board.all_hexes if board.land(h) and not zone.limits_broken(h, armor=armor, dummy=dummy))


def dummy_places(board: Board, state: GameState) -> list[str]:
    """Every hex a dummy may be placed in before the secret set-up (the limits :func:`check_deployment` holds)."""
    return SetupZone.of(board, state).places(dummy=True)


def _americans(state: GameState) -> set[str]:
    return {state.locations[u.id] for u in state.units if u.side == "US" and state.on_map(u.id)}


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



