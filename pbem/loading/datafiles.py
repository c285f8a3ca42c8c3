"""Loading the data files a user hands pbem: scenarios and orders.

Each is checked against the JSON Schema generated from its model (the same
one committed in ``schemas/``) before it is parsed; a scenario's map is also
checked for consistency.  Errors name the file and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.errors import BadInput
from pbem.loading.jsonfile import load_model, read_json
from pbem.shipped import scenarios_dir

if TYPE_CHECKING:  # loaded by the functions that build them: reading a scenario file as JSON needs no model
    from pbem.engine.board import Board
    from pbem.model.orders import Orders
    from pbem.model.scenario import Scenario

SCENARIO_DIRS = (Path("scenarios"), scenarios_dir())


@dataclass(frozen=True)
class LoadedScenario:
    path: Path
    scenario: Scenario
    board: Board
    system: str | None = None
    """The rules system it is played with, as the scenario names it (:mod:`pbem.systems`; None: the SPI system)."""


def scenario_paths() -> dict[str, Path]:
    """Every scenario file in ``./scenarios`` and the project's ``scenarios/`` (and their sub-folders), by id.

    A scenario file is named after its id (``scenarios/leyte/leyte-assault.json``);
    map files shared by several scenarios (``map.json``) are not scenarios.
    """
    found: dict[str, Path] = {}
    for folder in SCENARIO_DIRS:
        if folder.is_dir():
            for path in sorted(folder.rglob("*.json")):
                if path.name != "map.json" and path.stem not in found:
                    found[path.stem] = path
    from pbem.systems.folders import shipped_scenarios

    for sid, path in shipped_scenarios().items():  # a rules system's own scenarios, beside its room
        found.setdefault(sid, path)
    return found


def find_scenario(name: str) -> Path:
    """A scenario by path, or by id in ``./scenarios`` or the project's ``scenarios/``."""
    path = Path(name)
    if path.suffix == ".json" or path.exists():
        return path
    known = scenario_paths()
    if name in known:
        return known[name]
    raise BadInput(f"no scenario '{name}'", hint=f"give a scenario file or one of: {', '.join(sorted(known)) or 'none found'} (pbem scenario list)")


def scenario_document(path: Path, *, shipped: bool = False) -> dict:
    """A scenario file as one self-contained document: a ``"map": "FILE"`` reference is replaced by that map.

    The genesis turn file carries this document, so every party plays on the
    map the referee loaded, and its hash covers the map too.  ``shipped``: a
    scenario pbem ships, read by the plain JSON parser (see :func:`_read_shipped`).
    """
    read = _read_shipped if shipped else read_json
    document = read(path)
    if isinstance(document, dict) and isinstance(document.get("map"), str):
        map_path = path.parent / document["map"]
        if not map_path.is_file():
            raise BadInput(f"the map file '{document['map']}' it names is not there ({map_path})", file=str(path), field="map")
        document = document | {"map": read(map_path)}
    return document


def _read_shipped(path: Path):
    """A file pbem ships (its tests read every one with :func:`read_json`), parsed without read_json's checks.

    Every command that opens a game compares its scenario with the one pbem
    ships under the same id; the checks of a file from outside (duplicate
    keys, lone surrogates, depth) cost more than the rest of that comparison.
    A file that does not parse is read again by read_json, for its error.
    """
    import json

    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return read_json(path)


def load_scenario(name: str | Path) -> LoadedScenario:
    path = find_scenario(str(name))
    return scenario_from(scenario_document(path), path)


def scenario_from(document, path: Path, *, verified: bool = False) -> LoadedScenario:
    """Validate a scenario document (from a file or a genesis turn file) and build its board.

    ``verified``: the document is the one a signed genesis file carries,
    checked against its hash, so the schema was already checked when the game
    began (:func:`~pbem.loading.jsonfile.load_model`).
    """
    from pbem.model.scenario import Scenario

    scenario = load_model(Scenario, document, str(path), "schemas/scenario.schema.json", verified=verified)
    board = board_for(scenario.map, scenario.units, str(path), scenario=scenario)
    return LoadedScenario(path, scenario, board, scenario.system)


def board_for(spec, units, source: str, *, scenario: Scenario | None = None) -> Board:
    """The board of a case or scenario, checked for consistency with itself and its units.

    A scenario opens only the exit hexes its exit rules name, to the sides
    they name (16.13), and closes the areas its rules close (16.23).
    """
    from pbem.engine.board import Board, MapInconsistent

    try:
        board = Board(spec, **(_scenario_limits(spec, scenario) if scenario is not None else {}))
    except MapInconsistent as exc:
        raise BadInput(exc.message, file=source, field=exc.field) from None
    check_roster(units, board, source)
    return board


def _scenario_limits(spec, scenario: Scenario) -> dict:
    from pbem.engine.board import MapInconsistent

    exits: dict[str, set[str]] = {}
    for rule in [*scenario.exits, *scenario.exit_requirements]:
        exits.setdefault(rule.hex, set()).add(rule.side)
    closed: dict[str, set[str]] = {}
    for i, rule in enumerate(scenario.closed):
        if rule.area not in spec.areas:
            raise MapInconsistent(f"closed[{i}].area", f"the map has no area '{rule.area}'")
        closed.setdefault(rule.side, set()).update(spec.areas[rule.area])
    return {
        "exits": {h: frozenset(s) for h, s in exits.items()},
        "closed": {side: frozenset(h) for side, h in closed.items()},
    }


def check_roster(units, board: Board, source: str) -> None:
    """Unit ids are unique and every placed unit stands on a land hex of the board."""
    ids: set[str] = set()
    for i, unit in enumerate(units):
        if unit.id in ids:
            raise BadInput(f"unit id '{unit.id}' is used twice", file=source, field=f"units[{i}].id")
        ids.add(unit.id)
        if unit.hex not in (None, "offmap", "exited") and not board.land(unit.hex):
            where = "off the board" if not board.on_board(unit.hex) else "an all-sea hex"
            raise BadInput(f"hex {unit.hex} is {where}", file=source, field=f"units[{i}].hex")


def load_orders(path: Path) -> Orders:
    """A player's orders file (schemas/orders.schema.json)."""
    return orders_from(read_json(path), str(path))


def orders_from(document, source: str) -> Orders:
    from pbem.model.orders import Orders

    return load_model(Orders, document, source, "schemas/orders.schema.json")


