"""What anyone may run: ``verify``, ``dice``; and the referee's post-game ``audit``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pbem.cli import app, output
from pbem.cli.players import PassphraseEnv


@app.command()
def verify(
    paths: Annotated[list[Path], typer.Argument(metavar="GAMEDIR|FILE", help="The game folder, or turn files.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Check signatures, the hash chain, seeds against commitments, and recompute every roll: exit 0 when all hold, 1 when not."""
    from pbem.game.folder import check_turn_sources
    from pbem.game.receipts import receipt_findings
    from pbem.protocol.chain import verify_chain

    check_turn_sources(paths)  # nothing named like a turn file is skipped in silence; mail damage is exit 2
    sources = paths[0] if len(paths) == 1 and paths[0].is_dir() else paths
    report = verify_chain(sources)
    findings = list(report.findings)
    if report.ok:
        findings += receipt_findings({p if p.is_dir() else p.parent for p in paths}, report.turns)
    rolls = sum(len(t.dice.rolls) for t in report.turns)
    if as_json:
        output.echo_json({
            "ok": not findings,
            "turn_files": len(report.turns),
            "rolls": rolls,
            "first_bad": findings[0].file if findings else None,
            "findings": [{"file": f.file, "seq": f.seq, "problem": f.problem} for f in findings],
        })
    elif findings:
        typer.echo(f"NOT VERIFIED: first bad file {findings[0].file}")
        for f in findings:
            typer.echo(f"  {f.render()}")
    else:
        last = max((t.seq for t in report.turns), default=0)
        typer.echo(f"verified {len(report.turns)} turn file(s), 0 to {last}: signatures, hash chain, "
                   f"seeds and all {rolls} roll(s) hold")
    raise typer.Exit(1 if findings else 0)


@app.command()
def audit(
    game: Annotated[Path, typer.Argument(help="The game folder, with every turn file and the orders files adjudicated.")],
    keys: Annotated[list[Path], typer.Option("--key", help="The referee's key; repeat with a player's key to check that side's sealed views too.")],
    passphrase_env: PassphraseEnv = None,
) -> None:
    """Replay every adjudication from the orders and confirm every turn file: exit 0 when all hold, 1 when not."""
    from pbem.errors import BadInput
    from pbem.game.audit import audit_game
    from pbem.game.folder import latest_turn, load_turn
    from pbem.game.player import role_of
    from pbem.passphrase import open_key

    latest = load_turn(latest_turn(game))
    referee, players = None, {}
    for path in keys:
        identity = open_key(path, passphrase_env)
        role = role_of(latest, identity)
        if role == "referee":
            referee = identity
        else:
            players[role] = identity
    if referee is None:
        raise BadInput("the audit needs the referee's key", hint="give --key REF.key (the referee releases it after the game)")
    report = audit_game(game, referee, players)
    if report.ok:
        typer.echo(f"audited {report.replayed} adjudication(s): every full state, public record and roll is what the engine gives"
                   + (f"; {report.views_checked} sealed view(s) opened and confirmed" if report.views_checked else ""))
        raise typer.Exit(0)
    typer.echo(f"AUDIT FAILED: first bad file {report.findings[0].file}")
    for f in report.findings:
        typer.echo(f"  {f.render()}")
    raise typer.Exit(1)


@app.command()
def dice(
    game: Annotated[Path, typer.Argument(help="The game folder.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print every roll and the statistics as JSON.")] = False,
) -> None:
    """List every roll with its purpose, the distribution, and a chi-square test of fairness."""
    from pbem.game.dice_report import FACES, summarise
    from pbem.game.folder import check_turn_sources
    from pbem.protocol.chain import verify_chain

    check_turn_sources([game])
    report = verify_chain(game)
    report.raise_if_bad()
    summary = summarise(report.turns)
    if as_json:
        output.echo_json(summary.as_dict())
        return
    for r in summary.rolls:
        typer.echo(f"turn file {r['seq']:>4}  roll {r['n']:>3}  {r['value']}  {r['purpose']}")
    total = len(summary.rolls)
    typer.echo(f"{total} roll(s): " + "  ".join(f"{f}: {summary.counts[f]}" for f in FACES))
    if summary.chi_square is not None:
        note = "" if total >= 30 else " (too few rolls for the test to say much)"
        typer.echo(f"chi-square {summary.chi_square:.2f} on 5 degrees of freedom, p = {summary.p_value:.3f}{note}")


@app.command()
def status(
    folder: Annotated[Path, typer.Argument(metavar="GAMEDIR", help="Your folder of this game's files.")],
    key: Annotated[Path | None, typer.Option("--key", help="Your key (NAME.key) or identity (NAME.pub): to be told what you should do.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the status as JSON.")] = False,
    passphrase_env: PassphraseEnv = None,
) -> None:
    """Where the game stands, whether your files verify, and what to do next (with the exact command and whom to send what)."""
    from pbem.errors import BadInput
    from pbem.game.status import game_status

    if not folder.is_dir():
        raise BadInput("is not a folder", file=str(folder), hint="give the folder where you keep this game's turn files")
    holder = None
    if key is not None:
        if key.suffix == ".pub":
            from pbem.protocol.keys import read_public

            holder = read_public(key)
        else:
            from pbem.passphrase import open_key

            holder = open_key(key, passphrase_env).public
    found = game_status(folder, holder, str(key.with_suffix(".key")) if key else "KEY")
    if as_json:
        output.echo_json(found.as_dict())
    else:
        typer.echo("\n".join(found.lines()))
    empty = found.latest is None and found.problem is not None and "no turn files found" in found.problem
    raise typer.Exit(0 if found.verified else 2 if empty else 1)
