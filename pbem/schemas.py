"""The JSON Schemas in ``schemas/``, generated from the pydantic models.

The models are the single source; ``pbem schema write`` regenerates the
files and a test fails when a committed schema differs from its model.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from pydantic import BaseModel

from pbem.model.blind import BlindAnswer, BlindGenesis, BlindPrivate, BlindPublication, BlindSecret, EscrowPart
from pbem.model.map import MapSpec
from pbem.model.orders import Orders
from pbem.model.scenario import Scenario

SCHEMAS: dict[str, type[BaseModel]] = {
    "orders.schema.json": Orders,
    "map.schema.json": MapSpec,
    "scenario.schema.json": Scenario,
    # hidden units with no referee (issue 24): the body of each kind of blind-NNNN-SIDE.pbem, the secret at the
    # end, each player's private file and the plaintext of an escrow part
    "blind-genesis.schema.json": BlindGenesis,
    "blind-publication.schema.json": BlindPublication,
    "blind-answer.schema.json": BlindAnswer,
    "blind-secret.schema.json": BlindSecret,
    "blind-private.schema.json": BlindPrivate,
    "blind-escrow-part.schema.json": EscrowPart,
}


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
