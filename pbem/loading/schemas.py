"""The JSON Schemas in ``schemas/``, generated from the pydantic models.

The models are the single source; ``pbem schema write`` regenerates the
files and a test fails when a committed schema differs from its model.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
from pathlib import Path

from pydantic import BaseModel

from pbem.loading.schema_files import SCHEMA_MODELS


def _model(path: str) -> type[BaseModel]:
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


#: Schema file name -> its model (the table is :data:`pbem.loading.schema_files.SCHEMA_MODELS`).
SCHEMAS: dict[str, type[BaseModel]] = {name: _model(path) for name, path in SCHEMA_MODELS.items()}


def schema_text(model: type[BaseModel], name: str) -> str:
    schema = model.model_json_schema()
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": f"pbem/{name}", **schema}
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def write_schemas(folder: Path) -> list[Path]:
    """Write every schema, each under a temporary name first, then renamed over the old one."""
    from pbem.errors import BadInput
    from pbem.protocol.files import make_folder

    make_folder(folder, what="schema folder")
    written = []
    for name, model in SCHEMAS.items():
        path = folder / name
        temporary = folder / f".{name}.tmp"
        try:
            temporary.write_text(schema_text(model, name), encoding="utf-8")
            os.replace(temporary, path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                temporary.unlink()
            raise BadInput(f"cannot write: {exc.strerror or exc}", file=str(path), hint="choose a folder you may write to") from None
        written.append(path)
    return written
