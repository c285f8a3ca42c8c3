"""Reading a case file: JSON, then the case schema, then the board's own consistency.

Whatever is wrong is reported as one :class:`~pbem.errors.BadInput` naming
the file and the offending field (exit status 2), never a traceback.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from pbem.cases.model import Case
from pbem.cases.scenario import scenario_of
from pbem.model.scenario import Scenario
from pbem.errors import BadInput
from pbem.engine.board import Board
from pbem.loading.datafiles import board_for
from pbem.loading.jsonfile import load_model, read_json, strict_validator


@dataclass(frozen=True)
class LoadedCase:
    path: Path
    case: Case
    board: Board
    scenario: Scenario | None = None


@lru_cache(maxsize=1)
def case_validator():
    """The Draft 2020-12 validator for case.schema.json (shipped with the package)."""
    schema = json.loads(resources.files("pbem.data").joinpath("case.schema.json").read_text(encoding="utf-8"))
    return strict_validator(schema)


def load_case(path: Path) -> LoadedCase:
    """Read, validate and build one case; raise BadInput naming the file and field.

    A case of another rules system than SPI's (its ``ruleset.system``, issue 39) is loaded by that system's own room
    (:func:`pbem.systems.case_room`), and :func:`pbem.cases.run.run_case` lets it run itself.
    """
    from pbem.systems import case_room

    document = read_json(path)
    room = case_room(document, str(path))
    if room is not None:
        return room.load_case(path, document)
    case = load_model(Case, document, str(path), "docs/cases.md", case_validator())
    scenario = scenario_of(case)
    try:
        board = board_for(case.map, case.units, str(path), scenario=scenario)
    except BadInput as exc:
        if exc.field and exc.field.startswith("closed["):  # the scenario's closed areas are the case's scenario.closed
            exc.field = "scenario." + exc.field
        raise
    _check_v2(case, str(path))
    return LoadedCase(path, case, board, scenario)


def _check_v2(case: Case, source: str) -> None:
    """What the schema cannot say about the v2 fields: ids they name exist, arrivals are new, dummies are Japanese."""
    ids = {u.id for u in case.units}
    for i, unit in enumerate(case.units):
        if unit.kind == "dummy" and unit.side != "JP":
            raise BadInput("only the Japanese have dummies (19B.6)", file=source, field=f"units[{i}].side")
        if unit.kind in ("dummy", "hidden") and case.hidden is None:
            raise BadInput(f"kind '{unit.kind}' exists only under the hidden-units option: add a 'hidden' block", file=source, field=f"units[{i}].kind")
    if case.hidden is not None:
        for i, unit_id in enumerate(case.hidden.exposed):
            if unit_id not in ids:
                raise BadInput(f"no unit '{unit_id}' in this case", file=source, field=f"hidden.exposed[{i}]")
    if case.scenario is not None:
        for i, unit in enumerate(case.scenario.arrivals):
            if unit.id in ids:
                raise BadInput(f"unit id '{unit.id}' is already in 'units'", file=source, field=f"scenario.arrivals[{i}].id")
            if unit.arrives is None:
                raise BadInput("an arrival needs 'arrives' (the Game-Turn it becomes available)", file=source, field=f"scenario.arrivals[{i}].arrives")
    first = case.scenario.first_player if case.scenario is not None else "US"
    if case.end_of_turn and case.position.phasing == first:
        raise BadInput(
            f"the Game-Turn ends after the second player's turn, and {first} is the first player here (scenario.first_player)",
            file=source, field="end_of_turn",
        )


def case_files(paths: list[Path]) -> list[Path]:
    """Expand folders (recursively, ``*.json``) and keep files; sorted for a stable report."""
    found: list[Path] = []
    for p in paths:
        if p.is_dir():
            found.extend(sorted(p.rglob("*.json")))
        else:
            found.append(p)
    return found
