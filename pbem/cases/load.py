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
from pbem.engine.board import Board
from pbem.datafiles import board_for
from pbem.jsonfile import load_model, read_json, strict_validator


@dataclass(frozen=True)
class LoadedCase:
    path: Path
    case: Case
    board: Board


@lru_cache(maxsize=1)
def case_validator():
    """The Draft 2020-12 validator for case.schema.json (shipped with the package)."""
    schema = json.loads(resources.files("pbem.data").joinpath("case.schema.json").read_text(encoding="utf-8"))
    return strict_validator(schema)


def load_case(path: Path) -> LoadedCase:
    """Read, validate and build one case; raise BadInput naming the file and field."""
    case = load_model(Case, read_json(path), str(path), "docs/cases.md", case_validator())
    return LoadedCase(path, case, board_for(case.map, case.units, str(path)))


def case_files(paths: list[Path]) -> list[Path]:
    """Expand folders (recursively, ``*.json``) and keep files; sorted for a stable report."""
    found: list[Path] = []
    for p in paths:
        if p.is_dir():
            found.extend(sorted(p.rglob("*.json")))
        else:
            found.append(p)
    return found
