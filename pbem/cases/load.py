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
from pbem.engine.board import Board, MapInconsistent
from pbem.errors import BadInput


@dataclass(frozen=True)
class LoadedCase:
    path: Path
    case: Case
    board: Board


@lru_cache(maxsize=1)
def case_validator():
    """The Draft 2020-12 validator for case.schema.json (shipped with the package)."""
    from jsonschema import Draft202012Validator

    schema = json.loads(resources.files("pbem.data").joinpath("case.schema.json").read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


def json_path(parts) -> str:
    """``['units', 2, 'kind']`` -> ``units[2].kind``."""
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top level)"


def schema_error(validator, document, source: str, what: str) -> BadInput | None:
    """The most relevant schema violation as one BadInput, or None when the document is valid."""
    from jsonschema.exceptions import best_match

    error = best_match(validator.iter_errors(document))
    if error is None:
        return None
    message = error.message if len(error.message) <= 160 else error.message[:157] + "..."
    return BadInput(message, file=source, field=json_path(error.absolute_path), hint=f"see the {what} format")


def read_json(path: Path):
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BadInput(f"cannot read the file: {exc.strerror or exc}", file=str(path)) from None
    except UnicodeDecodeError:
        raise BadInput("the file is not UTF-8 text", file=str(path)) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}", file=str(path)) from None


def load_case(path: Path) -> LoadedCase:
    """Read, validate and build one case; raise BadInput naming the file and field."""
    document = read_json(path)
    problem = schema_error(case_validator(), document, str(path), "conformance-case (cases.md)")
    if problem:
        raise problem
    case = Case.model_validate(document)
    try:
        board = Board(case.map)
    except MapInconsistent as exc:
        raise BadInput(exc.message, file=str(path), field=exc.field) from None
    seen: set[str] = set()
    for i, unit in enumerate(case.units):
        if unit.id in seen:
            raise BadInput(f"unit id '{unit.id}' is used twice", file=str(path), field=f"units[{i}].id")
        seen.add(unit.id)
        if unit.hex != "offmap" and not board.on_board(unit.hex):
            raise BadInput(f"hex {unit.hex} is off the {board.cols}x{board.rows} board", file=str(path), field=f"units[{i}].hex")
    return LoadedCase(path, case, board)


def case_files(paths: list[Path]) -> list[Path]:
    """Expand folders (recursively, ``*.json``) and keep files; sorted for a stable report."""
    found: list[Path] = []
    for p in paths:
        if p.is_dir():
            found.extend(sorted(p.rglob("*.json")))
        else:
            found.append(p)
    return found
