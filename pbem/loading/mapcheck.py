"""``pbem map check``: every problem in a map file a user has edited, one line each.

Loading a scenario stops at the first problem (:mod:`pbem.loading.datafiles`, via
:class:`~pbem.engine.board.Board`); someone correcting a reconstructed map
from the printed sheet wants them all at once.  So this module checks the
file against ``schemas/map.schema.json`` (every schema error), then the
board's own consistency (hexes on the board, hexsides joining adjacent hexes,
chains contiguous, terrains in the key), then what a scenario needs of it
(areas, exits and beaches on land, places on land), and finally that every
scenario beside it which names it as its ``map`` still sets up on land.
Nothing here raises for bad input: each problem is a :class:`MapProblem`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from pbem.engine import hexes
from pbem.engine.board import on_grid
from pbem.engine.terrain import resolve_key
from pbem.errors import BadInput
from pbem.loading.jsonfile import json_path, read_json, validator_for
from pbem.model.map import MapSpec


@dataclass(frozen=True)
class MapProblem:
    """One thing wrong: where (a field path, or a scenario file and field) and what."""

    where: str
    message: str

    def render(self, source: str) -> str:
        return f"{source}: {self.where}: {self.message}" if self.where else f"{source}: {self.message}"


@dataclass
class MapReport:
    """The outcome of checking one map file."""

    path: Path
    problems: list[MapProblem] = field(default_factory=list)
    spec: MapSpec | None = None
    scenarios: list[Path] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        """One line per problem, or one line saying the map is sound and what it holds."""
        source = str(self.path)
        if self.problems:
            return [p.render(source) for p in self.problems]
        spec = self.spec
        land = spec.cols * spec.rows - len(set(spec.sea))
        held = [
            f"{spec.cols * spec.rows} hexes", f"{land} land", f"{len(spec.roads)} roads", f"{len(spec.trails)} trails",
            f"{len(spec.rivers)} river hexsides", f"{len(spec.beaches)} beach hexes", f"{len(spec.places)} places",
            f"{len(self.scenarios)} scenario(s) set up on it",
        ]
        return [f"{source}: ok ({', '.join(held)})"]


def check_map_file(path: Path, scenarios: Path | None = None) -> MapReport:
    """Check the map in ``path``; scenarios referring to it are looked for in ``scenarios`` (default: its folder)."""
    report = MapReport(Path(path))
    try:
        document = read_json(path)
    except BadInput as exc:
        report.problems.append(MapProblem("", exc.message))
        return report
    report.problems += schema_problems(document)
    if report.problems:
        return report  # the checks below read the fields the schema has just found malformed
    try:
        spec = MapSpec.model_validate(document)
    except ValidationError as exc:  # the schema and the model agree; this is a second net, not a path
        report.problems += [MapProblem(json_path(e["loc"]), e["msg"]) for e in exc.errors()]
        return report
    report.spec = spec
    report.problems += consistency_problems(spec)
    folder = Path(scenarios) if scenarios is not None else Path(path).parent
    if not folder.is_dir():
        report.problems.append(MapProblem("--scenarios", f"{folder} is not a folder; give the folder holding the scenarios"))
    report.scenarios = scenarios_using(Path(path), folder)
    for scenario in report.scenarios:
        report.problems += setup_problems(spec, scenario)
    return report


def schema_problems(document: Any) -> list[MapProblem]:
    """Every violation of the map schema, in document order."""
    errors = sorted(validator_for(MapSpec).iter_errors(document), key=lambda e: [_order(p) for p in e.absolute_path])
    return [MapProblem(json_path(e.absolute_path), _short(e.message)) for e in errors]


def _order(part) -> tuple:
    """Sort key of one path part: list indexes by number, field names by name."""
    return (0, part, "") if isinstance(part, int) else (1, 0, str(part))


def _short(message: str) -> str:
    return message if len(message) <= 160 else message[:157] + "..."


class _Grid:
    """The questions every check asks of the board: on it, and on land."""

    def __init__(self, spec: MapSpec) -> None:
        self.cols, self.rows = spec.cols, spec.rows
        self.sea = frozenset(spec.sea)

    def on_board(self, hex_id: str) -> bool:
        return on_grid(self.cols, self.rows, hex_id)

    def where(self, hex_id: str) -> str | None:
        """None for a land hex, else why a unit cannot stand there."""
        if not self.on_board(hex_id):
            return f"hex {hex_id} is off the {self.cols}x{self.rows} board"
        if hex_id in self.sea:
            return f"hex {hex_id} is an all-sea hex"
        return None


def consistency_problems(spec: MapSpec) -> list[MapProblem]:
    """What Board refuses (reported all at once) and what scenarios rely on."""
    grid = _Grid(spec)
    found: list[MapProblem] = []
    off = f"is off the {grid.cols}x{grid.rows} board"
    terrains, _ = resolve_key(spec.key)
    for hex_id, name in spec.terrain.items():
        if not grid.on_board(hex_id):
            found.append(MapProblem(f"terrain.{hex_id}", f"hex {hex_id} {off}"))
        if name not in terrains:
            found.append(MapProblem(f"terrain.{hex_id}", f"terrain '{name}' is not in the terrain key; add it to key or use one of {', '.join(sorted(terrains))}"))
    for name in ("sea", "edges"):
        for i, hex_id in enumerate(getattr(spec, name)):
            if not grid.on_board(hex_id):
                found.append(MapProblem(f"{name}[{i}]", f"hex {hex_id} {off}"))
    for name in ("rivers", "prohibited"):
        for i, (a, b) in enumerate(getattr(spec, name)):
            found += _side_problems(grid, f"{name}[{i}]", a, b, "share no hexside")
    for name in ("roads", "trails"):
        for i, chain in enumerate(getattr(spec, name)):
            for j, hex_id in enumerate(chain):
                problem = grid.where(hex_id)
                if problem:
                    found.append(MapProblem(f"{name}[{i}][{j}]", problem))
            for j in range(1, len(chain)):
                if grid.on_board(chain[j - 1]) and grid.on_board(chain[j]) and not hexes.adjacent(chain[j - 1], chain[j]):
                    found.append(MapProblem(f"{name}[{i}][{j}]", f"{chain[j - 1]} and {chain[j]} are not adjacent, so the chain is broken there"))
    for i, hex_id in enumerate(spec.beaches):
        found += _land_problem(grid, f"beaches[{i}]", hex_id, "a beach (12.21)")
    for i, hex_id in enumerate(spec.exits):
        found += _land_problem(grid, f"exits[{i}]", hex_id, "an exit hex (16.13)")
    for name, members in spec.areas.items():
        for i, hex_id in enumerate(members):
            found += _land_problem(grid, f"areas.{name}[{i}]", hex_id, f"entry area '{name}' (12.2)")
    for name, hex_id in spec.places.items():
        found += _land_problem(grid, f"places.{name}", hex_id, f"the place '{name}'")
    return found


def _side_problems(grid: _Grid, where: str, a: str, b: str, consequence: str) -> list[MapProblem]:
    bad = [h for h in (a, b) if not grid.on_board(h)]
    if bad:
        return [MapProblem(where, f"hex {h} is off the {grid.cols}x{grid.rows} board") for h in bad]
    if not hexes.adjacent(a, b):
        return [MapProblem(where, f"{a} and {b} are not adjacent, so they {consequence}")]
    return []


def _land_problem(grid: _Grid, where: str, hex_id: str, what: str) -> list[MapProblem]:
    problem = grid.where(hex_id)
    return [MapProblem(where, f"{problem}, but {what} must be on land")] if problem else []


def scenarios_using(map_path: Path, folder: Path) -> list[Path]:
    """Scenario files in ``folder`` whose ``map`` names ``map_path`` (a path relative to the scenario)."""
    target = map_path.resolve()
    found = []
    for candidate in sorted(folder.glob("*.json")):
        if candidate.resolve() == target:
            continue
        try:
            document = read_json(candidate)
        except BadInput:
            continue  # not ours to judge: pbem refuses it when it is loaded as a scenario
        reference = document.get("map") if isinstance(document, dict) else None
        if isinstance(reference, str) and (candidate.parent / reference).resolve() == target:
            found.append(candidate)
    return found


def setup_problems(spec: MapSpec, scenario: Path) -> list[MapProblem]:
    """Every set-up hex (``units[].hex``) of a scenario that is not a land hex of this map."""
    grid = _Grid(spec)
    units = read_json(scenario).get("units")
    found = []
    for i, unit in enumerate(units if isinstance(units, list) else []):
        hex_id = unit.get("hex") if isinstance(unit, dict) else None
        if not isinstance(hex_id, str) or hex_id == "offmap":
            continue
        problem = grid.where(hex_id)
        if problem:
            who = unit.get("id", f"unit {i}")
            rule = f" ({unit['source']})" if isinstance(unit.get("source"), str) else ""
            found.append(MapProblem(f"{scenario}: units[{i}].hex", f"set-up hex of {who}{rule}: {problem}"))
    return found
