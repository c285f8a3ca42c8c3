"""What anyone may run: ``verify``, ``dice``; and the referee's post-game ``audit``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from pbem.cli import output, root as app
from pbem.cli.players import PassphraseEnv


@app.command()
def verify(
    paths: Annotated[list[Path], typer.Argument(metavar="GAMEDIR|FILE", help="The game folder, or turn files.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    replay_mine: Annotated[bool, typer.Option("--replay-mine", help="Also replay your own player-turns from your views, your receipts and the revealed seeds (needs --key).")] = False,
    key: Annotated[Optional[Path], typer.Option("--key", help="Your key, for --replay-mine.")] = None,
    passphrase_env: PassphraseEnv = None,
) -> None:
    """Check signatures, the hash chain, forks, seeds against commitments, every roll and your receipts: exit 0 when all hold, 1 when not."""
    from pbem.errors import BadInput
    from pbem.game.checks import verify_game
    from pbem.loading.folder import check_turn_sources
    from pbem.cli.own_files import commands_for

    own = commands_for(paths[0]) if len(paths) == 1 else None
    if own is not None:  # a mode whose games keep files of their own answers (pbem.cli.own_files)
        own.verify(paths[0], as_json)

    check_turn_sources(paths)  # nothing named like a turn file is skipped in silence; mail damage is exit 2

    if replay_mine and key is None:
        raise BadInput("--replay-mine opens your views: give your key with --key")
    identity = None
    if replay_mine:
        from pbem.protocol.passphrase import open_key

        identity = open_key(key, passphrase_env)
    sources = paths[0] if len(paths) == 1 and paths[0].is_dir() else paths
    result = verify_game(sources, {p if p.is_dir() else p.parent for p in paths}, replay_with=identity)
    findings = result.findings
    from pbem.game.nmr_turns import nmr_lines, nmr_turns
    from pbem.protocol.fog_options import fog_option

    missed = nmr_turns(result.turns)
    if as_json:
        output.echo_json({
            "ok": not findings,
            "game": result.game,
            "referee": result.referee,
            "turn_files": len(result.turns),
            "rolls": result.rolls,
            "first_bad": findings[0].file if findings else None,
            "findings": [{"file": f.file, "seq": f.seq, "problem": f.problem} for f in findings],
            "notes": result.notes,
            "nmr": [t.as_dict() for t in missed],
        })
    elif findings:
        typer.echo(f"NOT VERIFIED: first bad file {findings[0].file}")
        for f in findings:
            typer.echo(f"  {f.render()}")
    else:
        last = max((t.seq for t in result.turns), default=0)
        typer.echo(f"verified {len(result.turns)} turn file(s) of game {result.game}, {result.parties}, 0 to {last}: "
                   f"signatures, hash chain, orders headers, seeds and all {result.rolls} roll(s) hold")
        mine = _side_of(result.turns, identity) if identity is not None else None
        genesis = next((t for t in result.turns if t.seq == 0), None)
        hidden = genesis is not None and fog_option((genesis.public or {}).get("options")) is not None
        replayed = ("your view lacks the hidden units its combats met, so the audit after the game replays it"
                    if hidden and mine == "US" else "--replay-mine recomputed the bot's orders from your view and replayed them")
        for line in nmr_lines(missed, how="pbem verify checked its NMR record", mine=mine,
                              how_mine=f"pbem verify checked its NMR record; {replayed}"):
            typer.echo(f"  {line}")
        for note in result.notes:
            typer.echo(f"  {note}")
    raise typer.Exit(1 if findings else 0)


def _side_of(turns, identity) -> str | None:
    """The side ``identity`` plays in the game of ``turns`` (None for the referee or a stranger)."""
    from pbem.game.roles import role_of

    latest = max(turns, key=lambda t: t.seq, default=None)
    if latest is None:
        return None
    role = role_of(latest, identity)
    return role if role in ("US", "JP") else None


@app.command()
def reveal(
    game: Annotated[Path, typer.Argument(help="The game folder.")],
    key: Annotated[Path, typer.Option("--key", help="Your key: the referee's reveals every opening; a player's reveals his own views and orders.")],
    out: Annotated[Path, typer.Option("-o", "--out", help="The reveal file to write (publish it; it holds no key).")],
    passphrase_env: PassphraseEnv = None,
) -> None:
    """Publish the openings of the sealed parts (states, view nonces, orders) so that anyone can audit without a key."""
    from pbem.game.modes.referee.reveal import player_reveal, reveal_text
    from pbem.protocol.passphrase import open_key
    from pbem.protocol.files import write_new

    _nothing_sealed(game, "to reveal")
    identity = open_key(key, passphrase_env)
    done = player_reveal(game, identity)
    write_new(out, reveal_text(done, identity))
    typer.echo(f"wrote {out}: the openings of {len(done.turns)} turn file(s) by {done.by}; "
               f"anyone can now run 'pbem audit {game} --reveal {out.name}'")


@app.command()
def audit(
    games: Annotated[list[Path], typer.Argument(metavar="GAMEDIR", help="The game folder, with every turn file; or many, or a folder of game folders (a tournament).")],
    reveals: Annotated[Optional[list[Path]], typer.Option("--reveal", metavar="FILE", help="A reveal file (pbem reveal); repeat for several. For many games each is matched by the game id inside it; reveal files in the game folders are found too.")] = None,
    key: Annotated[Optional[Path], typer.Option("--key", help="The referee auditing his own game: his key (never anyone else's).")] = None,
    html: Annotated[Optional[Path], typer.Option("--html", metavar="FILE", help="Write the event's report as one offline page.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the event's report as JSON.")] = False,
    jobs: Annotated[Optional[int], typer.Option("--jobs", metavar="N", help="For many games: how many processes examine games side by side (default: one per CPU).")] = None,
    passphrase_env: PassphraseEnv = None,
) -> None:
    """Replay every adjudication and confirm every turn file from reveal files, with no key: exit 0 when all hold, 1 when not
    (2 when a file cannot be read).  Given many games: each game's verdict, the totals and the event's dice."""
    from pbem.errors import BadInput

    if not _one_game(games) or html is not None or as_json:
        if key is not None:
            raise BadInput("the audit of many games takes reveal files, not a key", file=str(key),
                           hint="write each game's reveal with 'pbem reveal GAMEDIR --key REF.key -o FILE' and give them with --reveal")
        _event("audit", games, reveals or [], html, as_json, jobs)
        return
    game = games[0]
    from pbem.cli.own_files import commands_for

    own = commands_for(game)
    if own is not None:
        own.audit(game)
        return
    from pbem.game.modes.referee.audit import audit_game, audit_with_key
    from pbem.loading.folder import latest_turn
    from pbem.loading.turns import load_turn
    from pbem.game.roles import role_of
    from pbem.game.modes.referee.reveal import read_reveal

    mode = _mode(game)
    if mode is not None and not mode.audit_needs_reveal:
        _audit_from_files(game, mode)
        return
    if key is not None:
        from pbem.protocol.passphrase import open_key

        identity = open_key(key, passphrase_env)
        if role_of(load_turn(latest_turn(game)), identity) != "referee":
            raise BadInput("the audit never takes a player's key", file=str(key),
                           hint="ask the player for 'pbem reveal --key' output and give it with --reveal")
        report = audit_with_key(game, identity)
    elif reveals:
        report = audit_game(game, [read_reveal(path) for path in reveals])
    else:
        raise BadInput("the audit needs a reveal file", hint="give --reveal FILE (the referee writes it with 'pbem reveal GAMEDIR --key REF.key -o FILE')")
    if not report.ok:
        typer.echo(f"AUDIT FAILED: first bad file {report.findings[0].file}")
        for f in report.findings:
            typer.echo(f"  {f.render()}")
        raise typer.Exit(1)
    parts = [f"audited {report.replayed} adjudication(s): every public record and roll is what the engine gives"]
    if report.views_checked:
        parts.append(f"{report.views_checked} sealed view(s) confirmed")
    if report.superseded_replayed:
        parts.append(f"{report.superseded_replayed} superseded revision(s) replayed, with the same dice")
    typer.echo("; ".join(parts))
    from pbem.game.nmr_turns import nmr_lines, nmr_turns
    from pbem.loading.folder import turn_files

    for line in nmr_lines(nmr_turns(load_turn(path) for path in turn_files(game)),
                          how="the audit recomputed the bot's orders from that side's view and replayed them"):
        typer.echo(f"  {line}")


def _mode(game: Path):
    """The mode of the game in the folder ``game`` (None for anything else)."""
    from pbem.loading.folder import latest_turn
    from pbem.loading.turns import load_turn
    from pbem.game.modes import mode_of

    return mode_of(load_turn(latest_turn(game))) if game.is_dir() else None


def _nothing_sealed(game: Path, what: str) -> None:
    mode = _mode(game)
    refusal = None if mode is None else mode.nothing_to_reveal(game, what)
    if refusal is not None:
        raise refusal


def _audit_from_files(game: Path, mode) -> None:
    """A game whose mode needs no reveal: the audit is the replay ``verify`` makes, from the files alone."""
    from pbem.protocol.chain import verify_chain

    chain = verify_chain(game)
    findings, replayed = (chain.findings, 0) if not chain.ok else mode.audit_from_files(chain.turns)
    if findings:
        typer.echo(f"AUDIT FAILED: first bad file {findings[0].file}")
        for f in findings:
            typer.echo(f"  {f.render()}")
        raise typer.Exit(1)
    typer.echo(mode.audit_summary(replayed))


def _one_game(paths: list[Path]) -> bool:
    """One path that is not a folder of game folders: the single-game form of a command, its output and errors as ever."""
    from pbem.loading.folder import turn_files

    if len(paths) != 1:
        return False
    from pbem.cli.own_files import commands_for

    if not paths[0].is_dir() or turn_files(paths[0]) or commands_for(paths[0]) is not None:
        return True
    from pbem.event.discover import games_under  # only when the folder holds no turn file of its own

    return not games_under(paths[0])


def _event(command: str, paths: list[Path], reveals: list[Path] | None, html: Path | None, as_json: bool, jobs: int | None) -> None:
    """Many games at once (:mod:`pbem.event`): each game's verdict, the totals, the dice; exit 0, 1 or 2."""
    from pbem.errors import BadInput
    from pbem.event.event import default_jobs, run_event
    from pbem.event.report import event_dict, event_lines

    if jobs is not None and jobs < 1:
        raise BadInput(f"--jobs {jobs}: give at least 1 process")
    event = run_event(paths, reveals, command, jobs or default_jobs())
    if html is not None:
        from pbem.event.page import render_event_page
        from pbem.protocol.files import write_replacing

        write_replacing(html, render_event_page(event))
    if as_json:
        output.echo_json(event_dict(event))
    else:
        typer.echo("\n".join(event_lines(event)))
        if html is not None:
            typer.echo(f"wrote {html}")
    raise typer.Exit(event.exit_status)


@app.command()
def dice(
    games: Annotated[list[Path], typer.Argument(metavar="GAMEDIR", help="The game folder; or many, or a folder of game folders (a tournament).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print every roll and the statistics as JSON.")] = False,
    html: Annotated[Optional[Path], typer.Option("--html", metavar="FILE", help="Write the event's dice and games as one offline page.")] = None,
    jobs: Annotated[Optional[int], typer.Option("--jobs", metavar="N", help="For many games: how many processes examine games side by side (default: one per CPU).")] = None,
) -> None:
    """List every roll with its purpose, the distribution, and a chi-square test of fairness.  Given many games: the event's
    dice by purpose, referee and place in the stream, each with a test valid for its sample, corrected by Holm's method."""
    if not _one_game(games) or html is not None:
        _event("dice", games, None, html, as_json, jobs)
        return
    game = games[0]
    from pbem.cli.own_files import commands_for

    own = commands_for(game)
    if own is not None:  # e.g. no referee, hidden units: the rolls of the published steps (issue 24)
        own.dice(game, as_json)
        return
    from pbem.game.dice_report import FACES, summarise
    from pbem.loading.folder import check_turn_sources
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
    key: Annotated[Path | None, typer.Option("--key", help="Your key (NAME.key) or identity (NAME.pub): to be told what you should do; your key also checks your views and replays your player-turns, as verify --replay-mine does.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the status as JSON.")] = False,
    passphrase_env: PassphraseEnv = None,
) -> None:
    """Where the game stands, whether your files verify, and what to do next (with the exact command and whom to send what)."""
    from pbem.errors import BadInput
    from pbem.game.status import game_status

    if not folder.is_dir():
        raise BadInput("is not a folder", file=str(folder), hint="give the folder where you keep this game's turn files")
    from pbem.cli.own_files import commands_for

    own = commands_for(folder)
    if own is not None:
        own.status(folder, key, passphrase_env, as_json)
    holder = opened = None
    if key is not None:
        if key.suffix == ".pub":
            from pbem.protocol.keys import read_public

            holder = read_public(key)
        else:
            from pbem.protocol.passphrase import open_key

            opened = open_key(key, passphrase_env)
            holder = opened.public
    found = game_status(folder, holder, str(key.with_suffix(".key")) if key else "KEY", opened)
    if as_json:
        output.echo_json(found.as_dict())
    else:
        typer.echo("\n".join(found.lines()))
    empty = found.latest is None and found.problem is not None and "no turn files found" in found.problem
    raise typer.Exit(0 if found.verified else 2 if empty or found.unreadable else 1)
