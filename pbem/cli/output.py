"""Printing results: JSON for scripts, short lines for people."""

from __future__ import annotations

import json

import typer

from pbem.errors import visible


def echo_json(data) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


def schema_problems(exc) -> list:
    """Every violation of a :class:`~pbem.loading.jsonfile.SchemaErrors` as a problem of rule ``schema``."""
    from pbem.systems.base import Problem

    return [Problem("schema", None, f"{field}: {message}") for field, message in exc.errors]


def problems(found, as_json: bool, source: str, odds=None) -> None:
    """Rule problems with orders: every one, with its rule case; then the planned attacks weighed, when asked."""
    if as_json:
        extra = {} if odds is None else {"odds": [o.as_dict() for o in odds]}
        echo_json({"file": source, "valid": not found, "errors": [p.as_dict() for p in found]} | extra)
        return
    if not found:
        typer.echo(f"{source}: orders are valid")
    else:
        typer.echo(f"{source}: {len(found)} problem(s); nothing was applied")
    for p in found:
        typer.echo(f"  rule {p.rule:<6} {visible(p.unit or '-'):<12} {visible(p.message)}")
    if odds is not None:
        from pbem.render.odds import odds_text

        typer.echo("")
        typer.echo(odds_text(odds))


def mail(lines: list[str], to: str) -> None:
    """A mail the user can paste (from :func:`pbem.game.status.mail_text`), indented under a heading."""
    typer.echo(f"\nA mail to {to} you can paste:\n" + "\n".join(f"  {line}" for line in lines))


def warn_if_not_latest(turn_file) -> None:
    """A warning on stderr when a later turn file lies beside ``turn_file``: orders answering an old one go nowhere."""
    from pbem.loading.folder import later_turn_file

    later = later_turn_file(turn_file)
    if later is not None:
        typer.echo(
            f"warning: {turn_file.source} is not the latest turn file: {later.name} is, in the same folder; "
            f"the game has moved on since turn file {turn_file.seq}: give {later} instead",
            err=True,
        )
