"""``pbem scenario list`` and ``pbem scenario show``: the catalogue of scenarios."""

from __future__ import annotations

from typing import Annotated

import typer

from pbem.cli import output, scenario_app


@scenario_app.command("list")
def scenario_list(as_json: Annotated[bool, typer.Option("--json", help="Print a JSON array of objects with id, title, rules system, turns and first player.")] = False) -> None:
    """The scenarios pbem knows: their ids (for 'pbem new ID'), rules systems and titles."""
    from pbem.game.catalogue import catalogue

    rows = catalogue()
    if as_json:
        output.echo_json(rows)
        return
    for row in rows:
        mark = " (test scenario)" if row["kind"] == "test" and "test scenario" not in row["title"] else ""
        typer.echo(f"{row['id']:<24} {row['system']:<12} Game-Turns {row['first_turn']:>2}-{row['last_turn']:<2}  {row['title']}{mark}")


@scenario_app.command("show")
def scenario_show(
    scenario_id: Annotated[str, typer.Argument(metavar="ID", help="A scenario id (pbem scenario list) or file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the scenario as one JSON object.")] = False,
) -> None:
    """One scenario: its turns, every unit with its set-up hex or arrival, objectives and special rules."""
    from pbem.game.catalogue import describe, details

    info = details(scenario_id)
    if as_json:
        output.echo_json(info)
        return
    typer.echo("\n".join(describe(info)))
