"""``pbem map check``: every problem in a map file, one line each."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from pbem.cli import map_app


@map_app.command("check")
def map_check(
    path: Annotated[Path, typer.Argument(metavar="FILE", help="The map file (schemas/map.schema.json).")],
    scenarios: Annotated[Optional[Path], typer.Option("--scenarios", metavar="DIR", help="Where to look for scenarios whose 'map' names this file (default: the map's folder).")] = None,
) -> None:
    """Check a map against its schema, itself, and the scenarios set up on it: exit 0 sound, 2 not."""
    from pbem.loading.mapcheck import check_map_file

    report = check_map_file(path, scenarios)
    for line in report.lines():
        typer.echo(line)
    raise typer.Exit(0 if report.ok else 2)
