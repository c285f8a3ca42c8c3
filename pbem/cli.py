"""The ``pbem`` command line: parses, calls, prints — no rules, no crypto here.

Every command imports what it needs inside its own body, so that
``pbem --help`` and the quick commands a player runs often do not pay for
modules they never use.  Every :class:`~pbem.errors.PbemError` becomes one
line on stderr and its exit status; nothing a user can type produces a
traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

app = typer.Typer(
    name="pbem",
    help="Play the Island War board wargames by e-mail: rule-checked orders, dice no one can fake, signed turn files.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
case_app = typer.Typer(help="Conformance cases: positions, orders, fixed dice and the outcome the rules demand.", no_args_is_help=True)
schema_app = typer.Typer(help="The JSON Schemas of pbem's files.", no_args_is_help=True)
orders_app = typer.Typer(help="Orders files: check them against a position.", no_args_is_help=True)
app.add_typer(case_app, name="case")
app.add_typer(orders_app, name="orders")
app.add_typer(schema_app, name="schema")


def _echo_json(data) -> None:
    import json

    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


@case_app.command("run")
def case_run(
    paths: Annotated[list[Path], typer.Argument(help="Case files, or folders searched recursively for *.json.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON array of outcomes.")] = False,
) -> None:
    """Run conformance cases; exit 0 when all pass, 1 when one fails, 2 when a case file is malformed."""
    from pbem.cases.report import run_paths

    raise typer.Exit(run_paths(paths, as_json=as_json, out=typer.echo, err=lambda s: typer.echo(s, err=True)))


def _print_problems(problems, as_json: bool, source: str) -> None:
    if as_json:
        _echo_json({"file": source, "valid": not problems, "errors": [p.as_dict() for p in problems]})
        return
    if not problems:
        typer.echo(f"{source}: orders are valid")
        return
    typer.echo(f"{source}: {len(problems)} problem(s); nothing was applied")
    for p in problems:
        typer.echo(f"  rule {p.rule:<6} {p.unit or '-':<12} {p.message}")


@orders_app.command("check")
def orders_check(
    orders: Annotated[Path, typer.Argument(help="The orders file (schemas/orders.schema.json).")],
    position: Annotated[Path, typer.Option("--position", help="A scenario (its opening position) or a conformance case (its position).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Check an orders file against a position, offline: exit 0 when valid, 2 when not."""
    from pbem.datafiles import load_orders, load_position
    from pbem.engine.adjudicator import check_orders

    where = load_position(position)
    parsed = load_orders(orders)
    problems = check_orders(where.board, where.ruleset, where.state, parsed).problems
    _print_problems(problems, as_json, str(orders))
    raise typer.Exit(0 if not problems else 2)


@schema_app.command("write")
def schema_write(
    folder: Annotated[Path, typer.Argument(help="Where to write the schemas.")] = Path("schemas"),
) -> None:
    """Regenerate the JSON Schemas from the pydantic models."""
    from pbem.schemas import write_schemas

    for path in write_schemas(folder):
        typer.echo(f"wrote {path}")


def main(argv: Optional[list[str]] = None) -> None:
    """Console entry point: run the app, turning user errors into one line and an exit status."""
    from pbem.errors import PbemError

    try:
        status = app(args=argv, prog_name="pbem", standalone_mode=False)
    except PbemError as exc:
        typer.echo(f"pbem: {exc.render()}", err=True)
        sys.exit(exc.exit_code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        typer.echo("pbem: aborted", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        typer.echo("pbem: interrupted", err=True)
        sys.exit(130)
    except Exception as exc:  # click's usage errors and friends
        import click

        if isinstance(exc, click.ClickException):
            exc.show()
            sys.exit(exc.exit_code)
        raise
    sys.exit(status if isinstance(status, int) else 0)
