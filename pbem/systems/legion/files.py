"""Reading a Legion scenario and its charts from files, every fault named (file, field, what to do), exit 2.

The only module of the room that touches files.  A chart is checked against
the JSON Schema generated from its model, then by the model's own rules
(every roll has a row, every row as wide as the columns...); the map against
the charts (every terrain a line of the Terrain Effects Chart); the order of
battle against the map and the Unit Counter Information Chart.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from pbem.errors import BadInput
from pbem.loading.jsonfile import inline_refs, load_model, read_json, strict_validator
from pbem.systems.legion.board import LegionBoard, MapInconsistent
from pbem.systems.legion.board_model import LegionMap
from pbem.systems.legion.charts import CHART_FIELDS, CHART_MODELS, Charts
from pbem.systems.legion.scenario import LegionScenario

DATA = Path(__file__).resolve().parent / "data"
"""The data pbem ships for the Legion system: the test island and the assumed charts."""
CHARTS_HINT = "docs/legion.md (entering the charts from the player-aid card)"


@lru_cache(maxsize=None)
def validator(model: type[BaseModel]):
    return strict_validator(inline_refs(model.model_json_schema()))


def load(model: type[BaseModel], document: Any, source: str, what: str = CHARTS_HINT):
    """``document`` checked against ``model``'s schema, then built by the model (its own rules too): BadInput naming
    the file and the field, with what to do (exit 2)."""
    return load_model(model, document, source, what, validator(model))


@dataclass(frozen=True)
class LoadedLegion:
    path: Path
    scenario: LegionScenario
    charts: Charts
    board: LegionBoard
    document: dict


def charts_from(named: dict[str, Any], base: Path, source: str, overrides: dict[str, Any] | None = None) -> tuple[Charts, dict]:
    """Every chart a scenario names (a file beside it, or the chart itself); ``overrides`` are a case's own tables.

    Returns the charts and the self-contained document of them (what a genesis would pin).
    """
    built: dict[str, Any] = {}
    documents: dict[str, Any] = {}
    for name, model in CHART_MODELS.items():
        where = (overrides or {}).get(name, named.get(name))
        if isinstance(where, str):
            path = base / where
            if not path.is_file():
                raise BadInput(f"the chart file '{where}' it names is not there ({path})", file=source, field=f"charts.{name}", hint=CHARTS_HINT)
            document = read_json(path)
            built[CHART_FIELDS[name]] = load(model, document, str(path))
        else:
            document = where
            built[CHART_FIELDS[name]] = load(model, document, f"{source}: charts.{name}")
        documents[name] = document
    try:
        charts = Charts.model_validate(built)
    except Exception as exc:  # noqa: BLE001 - the cross-chart rules, one message
        message = str(exc).splitlines()[-1] if str(exc) else type(exc).__name__
        raise BadInput(f"the charts disagree: {message}", file=source, field="charts", hint=CHARTS_HINT) from None
    return charts, documents


def board_of(spec: LegionMap, charts: Charts, source: str) -> LegionBoard:
    try:
        return LegionBoard(spec, charts)
    except MapInconsistent as exc:
        raise BadInput(exc.message, file=source, field=f"map.{exc.field}", hint="name terrains the Terrain Effects Chart holds (docs/legion.md)") from None


def check_units(units, board: LegionBoard, source: str, field: str = "units") -> None:
    """Ids unique, types on the Unit Counter Information Chart, every counter on a land hex of the board."""
    seen: set[str] = set()
    for i, unit in enumerate(units):
        if unit.id in seen:
            raise BadInput(f"unit id '{unit.id}' is used twice", file=source, field=f"{field}[{i}].id")
        seen.add(unit.id)
        if unit.type not in board.charts.unit_types.types:
            raise BadInput(f"unit type '{unit.type}' is not on the Unit Counter Information Chart", file=source, field=f"{field}[{i}].type",
                           hint="add the type to the unit-types chart or use one it lists (docs/legion.md)")
        where = getattr(unit, "hex", None)
        if where not in (None, "offmap", "eliminated", "removed") and not board.land(where):
            raise BadInput(f"hex {where} is {'off the board' if not board.on_board(where) else 'an all-sea hex'}", file=source, field=f"{field}[{i}].hex")
        if unit.ci is not None and unit.reverse is None:
            raise BadInput("a CI Number needs the reverse (CI) side's ratings (9E)", file=source, field=f"{field}[{i}].reverse")


def scenario_paths() -> dict[str, Path]:
    """The Legion scenarios pbem ships, by id."""
    return {p.stem: p for p in sorted(DATA.glob("*.json")) if not p.stem.startswith("map")}


def load_scenario(name: str | Path) -> LoadedLegion:
    """A Legion scenario by path or by id, with its map and charts read and checked."""
    path = Path(name)
    if not path.is_file():
        known = scenario_paths()
        if str(name) not in known:
            raise BadInput(f"no Legion scenario '{name}'", hint=f"give a scenario file or one of: {', '.join(sorted(known))}")
        path = known[str(name)]
    return scenario_from(read_json(path), path)


def scenario_from(document: Any, path: Path, *, verified: bool = False) -> LoadedLegion:
    """A Legion scenario document (a file's, or the self-contained one a genesis carries) checked and built, every
    file it names (its map, its charts) read beside ``path``; ``verified``: a genesis's, checked when the game began."""
    if isinstance(document, dict) and isinstance(document.get("map"), str):
        map_path = path.parent / document["map"]
        if not map_path.is_file():
            raise BadInput(f"the map file '{document['map']}' it names is not there ({map_path})", file=str(path), field="map")
        document = document | {"map": read_json(map_path)}
    scenario = load(LegionScenario, document, str(path), "docs/legion.md")
    charts, chart_documents = charts_from(scenario.charts, path.parent, str(path))
    board = board_of(scenario.map, charts, str(path))
    check_units(scenario.units, board, str(path))
    for name, h in scenario.victory.objectives.items():
        if not board.land(h):
            raise BadInput(f"objective '{name}' is not a land hex of the map", file=str(path), field=f"victory.objectives.{name}")
    del verified  # the checks above are cheap on a test island; a genesis's document is checked again the same way
    return LoadedLegion(path, scenario, charts, board, document | {"charts": chart_documents})
