"""``pbem case run``, ``pbem orders check``, ``pbem schema write``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pbem.cli import case_app, orders_app, schema_app, output
from pbem.cli.players import EXPLAIN_HELP


@case_app.command("run")
def case_run(
    paths: Annotated[list[Path], typer.Argument(metavar="PATH", help="Case files, or folders searched recursively for *.json.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON array of outcomes.")] = False,
    explain: Annotated[bool, typer.Option("--explain", help="With --json, add each case's event log and every difference from its expectations.")] = False,
) -> None:
    """Run conformance cases; exit 0 when all pass, 1 when one fails, 2 when a case file is malformed."""
    from pbem.cases.report import run_paths

    raise typer.Exit(run_paths(paths, as_json=as_json, explain=explain, out=typer.echo, err=lambda s: typer.echo(s, err=True)))


@orders_app.command("check")
def orders_check(
    orders: Annotated[Path, typer.Argument(help="The orders file (schemas/orders.schema.json).")],
    position: Annotated[str, typer.Option("--position", help="A scenario file or id (its opening position, e.g. test-skirmish), or a conformance case (its position).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    explain: Annotated[bool, typer.Option("--explain", help=EXPLAIN_HELP)] = False,
) -> None:
    """Check an orders file against a scenario's opening or a case's position: exit 0 valid, 2 not."""
    from pbem.loading.datafiles import load_orders
    from pbem.cases.position import load_position
    from pbem.engine.adjudicator import check_orders
    from pbem.systems.spi.standing import standing_problems
    from pbem.loading.jsonfile import SchemaErrors
    from pbem.engine.suggest import with_suggestions

    where = load_position(position)
    try:
        planned = load_orders(orders)
        found = list(check_orders(where.board, where.ruleset, where.state, planned).problems)
        found += standing_problems(where.board, where.ruleset, where.state, where.state.position.phasing, planned.defense)
    except SchemaErrors as exc:
        planned, found = None, output.schema_problems(exc)
    found = with_suggestions(found, where.state.locations)
    odds = None
    if explain and planned is not None:
        from pbem.render.odds import weigh_attacks

        odds = weigh_attacks(where.board, where.ruleset, where.state, planned)
    output.problems(found, as_json, str(orders), odds)
    raise typer.Exit(0 if not found else 2)


@schema_app.command("write")
def schema_write(
    folder: Annotated[Path, typer.Argument(help="Where to write the schemas.")] = Path("schemas"),
) -> None:
    """Regenerate the JSON Schemas from the pydantic models."""
    from pbem.loading.schemas import write_schemas

    for path in write_schemas(folder):
        typer.echo(f"wrote {path}")
