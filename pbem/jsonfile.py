"""Reading JSON data files and checking them against their schema, with errors a user can act on.

Every incoming file is checked with jsonschema before it is parsed into a
model, so that the error names the field (``units[2].kind``) and the problem
in one line; nothing malformed reaches the engine.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from pbem.errors import BadInput


def json_path(parts) -> str:
    """``['units', 2, 'kind']`` -> ``units[2].kind``."""
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top level)"


def read_json(path: Path) -> Any:
    """The JSON document in ``path``; BadInput naming the file when it cannot be read or parsed."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadInput("no such file", file=str(path)) from None
    except IsADirectoryError:
        raise BadInput("is a folder, not a file", file=str(path)) from None
    except OSError as exc:
        raise BadInput(f"cannot read the file: {exc.strerror or exc}", file=str(path)) from None
    except UnicodeDecodeError:
        raise BadInput("the file is not UTF-8 text", file=str(path)) from None
    return parse_json(text, str(path))


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"the number {text} is too large")
    return value


def _no_constants(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def parse_json(text: str, source: str) -> Any:
    """Strict JSON: NaN, Infinity and numbers too large for a float are refused."""
    try:
        return json.loads(text, parse_float=_finite, parse_constant=_no_constants)
    except json.JSONDecodeError as exc:
        raise BadInput(f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}", file=source) from None
    except (ValueError, RecursionError) as exc:
        raise BadInput(f"not valid JSON: {exc}", file=source) from None


@lru_cache(maxsize=None)
def validator_for(model: type[BaseModel]):
    """A jsonschema validator for the schema pydantic generates from ``model``."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(model.model_json_schema())


def schema_error(validator, document: Any, source: str, what: str) -> BadInput | None:
    """The most relevant schema violation as one BadInput, or None when the document is valid."""
    from jsonschema.exceptions import best_match

    error = best_match(validator.iter_errors(document))
    if error is None:
        return None
    message = error.message if len(error.message) <= 160 else error.message[:157] + "..."
    return BadInput(message, file=source, field=json_path(error.absolute_path), hint=f"see {what}")


def load_model(model: type[BaseModel], document: Any, source: str, what: str, validator=None, *, verified: bool = False):
    """Validate ``document`` against a schema (``model``'s own by default), then build the model.

    A ``verified`` document — one pbem checked when it entered the game and
    whose signature and hash were checked since, like the scenario carried by
    a genesis turn file — is built by the model alone; the schema is asked
    only to explain a refusal.
    """
    if not verified:
        problem = schema_error(validator or validator_for(model), document, source, what)
        if problem:
            raise problem
    try:
        return model.model_validate(document)
    except ValidationError as exc:
        problem = schema_error(validator or validator_for(model), document, source, what) if verified else None
        if problem:
            raise problem from None
        first = exc.errors()[0]
        raise BadInput(first["msg"], file=source, field=json_path(first["loc"]), hint=f"see {what}") from None
