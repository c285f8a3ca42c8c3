"""``pbem judge init|new|poll|run|list``: the referee's side of many games, run unattended by e-mail (docs/judge.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from pbem.cli import judge_app, output

Home = Annotated[Path, typer.Argument(help="The judge's home folder (made by 'pbem judge init').")]


def _host_port(value: str, flag: str) -> dict:
    from pbem.errors import BadInput

    host, _, port = value.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise BadInput(f"{flag} is '{value}', not HOST:PORT", hint=f"e.g. {flag} mail.example.org:{993 if 'imap' in flag else 587}")
    return {"host": host, "port": int(port)}


@judge_app.command()
def init(
    home: Home,
    address: Annotated[str, typer.Option("--address", help="The judge's own mail address (players write to it).")],
    key: Annotated[Path, typer.Option("--key", help="The referee's private key (REF.key); its passphrase comes from PBEM_JUDGE_PASSPHRASE.")],
    smtp: Annotated[str, typer.Option("--smtp", help="The SMTP server that sends the judge's mail, HOST:PORT.")],
    imap: Annotated[Optional[str], typer.Option("--imap", help="Read mail from this IMAP server, HOST:PORT.")] = None,
    maildir: Annotated[Optional[Path], typer.Option("--maildir", help="Read mail from this Maildir (delivered by the host's mail server).")] = None,
    tls: Annotated[str, typer.Option("--tls", help="starttls (the default), ssl or none (only for a server on this host).")] = "starttls",
    user: Annotated[Optional[str], typer.Option("--user", help="The login for IMAP and SMTP; passwords from PBEM_JUDGE_IMAP_PASSWORD and PBEM_JUDGE_SMTP_PASSWORD.")] = None,
    make_maildir: Annotated[bool, typer.Option("--make-maildir", help="Make the --maildir folder (cur/, new/, tmp/) when it is not a Maildir yet.")] = False,
) -> None:
    """Make a judge's home: settings (judge.toml), database (judge.sqlite), readable by you only."""
    import os

    from pbem.errors import BadInput
    from pbem.judge.home import DATABASE, SETTINGS, TLS, Settings, platform_note, settings_text
    from pbem.judge.store import connect
    from pbem.protocol.files import write_new
    from pbem.protocol.keys import read_private, passphrase_needed

    if (imap is None) == (maildir is None):
        raise BadInput("give one of --imap HOST:PORT or --maildir DIR", hint="where the judge reads the mail players send it")
    if tls not in TLS:
        raise BadInput(f"--tls is '{tls}'", hint=f"use one of: {', '.join(TLS)}")
    if "@" not in address or any(c.isspace() for c in address):
        raise BadInput(f"--address '{address}' is not a mail address", hint="e.g. --address judge@example.org")
    if not key.is_file():
        raise BadInput("no such key file", file=str(key), hint="make one with 'pbem keygen referee'")
    passphrase_needed(key)  # reads it: a file that is no key is refused here, not at the first poll
    if (home / SETTINGS).exists():
        raise BadInput("is already a judge's home", file=str(home), hint="choose another folder; judge.toml is never overwritten")
    if maildir is not None:
        from pbem.judge.home import MAILDIR_PARTS, maildir_problem

        wrong = maildir_problem(maildir)
        if wrong and make_maildir and not maildir.is_file() and not any(
                (maildir / p).exists() and not (maildir / p).is_dir() for p in MAILDIR_PARTS):
            for part in MAILDIR_PARTS:
                (maildir / part).mkdir(mode=0o700, parents=True, exist_ok=True)
            typer.echo(f"made the Maildir {maildir}: have your mail server deliver the judge's mail there")
        elif wrong:
            raise BadInput(wrong, file=str(maildir), field="--maildir",
                           hint="give the Maildir your mail server delivers the judge's mail to (docs/judge.md, 'Setting up "
                                "with Dovecot'), or add --make-maildir to make this folder one")
    inbound = ({"kind": "imap"} | _host_port(imap, "--imap") | {"tls": tls, "folder": "INBOX"}) if imap else \
        {"kind": "maildir", "path": str(maildir.resolve())}
    if user:
        inbound["user"] = user
    smtp_section = _host_port(smtp, "--smtp") | {"tls": tls} | ({"user": user} if user else {})
    settings = Settings(address=address, key=str(key.resolve()), inbound=inbound, smtp=smtp_section)
    home.mkdir(parents=True, exist_ok=True)
    os.chmod(home, 0o700)
    write_new(home / SETTINGS, settings_text(settings), mode=0o600)
    connect(home / DATABASE).close()
    os.chmod(home / DATABASE, 0o600)
    typer.echo(f"made the judge's home {home}: {SETTINGS} and {DATABASE}, readable by you only")
    note = platform_note()
    if note:
        typer.echo(f"note: {note}")
    typer.echo(f"next: pbem judge new {home} SCENARIO --us US.pub --us-mail ADDR --jp JP.pub --jp-mail ADDR")


@judge_app.command()
def new(
    home: Home,
    scenario: Annotated[str, typer.Argument(help="A scenario file, or the id of one in scenarios/ (e.g. leyte-assault).")],
    us: Annotated[Path, typer.Option("--us", help="The US player's public identity (US.pub).")],
    us_mail: Annotated[str, typer.Option("--us-mail", help="The US player's mail address.")],
    jp: Annotated[Path, typer.Option("--jp", help="The Japanese player's public identity (JP.pub).")],
    jp_mail: Annotated[str, typer.Option("--jp-mail", help="The Japanese player's mail address.")],
    option: Annotated[Optional[list[str]], typer.Option("--option", help="A game option: hidden-units, fog-iph or fog-formosa (docs/hidden-units.md).")] = None,
    edition: Annotated[Optional[str], typer.Option("--edition", help="dg-2009 (the default) or spi-1975.")] = None,
    deadline: Annotated[str, typer.Option("--deadline", help="Time a player has for each orders file, e.g. 72h.")] = "72h",
    grace: Annotated[str, typer.Option("--grace", help="Grace after the deadline before the NMR policy, e.g. 24h.")] = "24h",
    nmr: Annotated[str, typer.Option("--nmr", help="No moves received after deadline and grace: hold (the game waits) or bot (the bot's "
                                     "orders on that side's view, dice fixed by the turn file; verify and audit recompute them).")] = "hold",
) -> None:
    """Start a game (the genesis file exactly as 'pbem new' writes it) and mail it to both players at the next poll."""
    from pbem.errors import BadInput
    from pbem.game.modes.referee.start import start_game
    from pbem.judge.clock import duration
    from pbem.judge.games import new_game
    from pbem.judge.home import Lock
    from pbem.judge.poll import open_judge
    from pbem.protocol.keys import read_public

    if edition not in (None, "dg-2009", "spi-1975"):
        raise BadInput(f"unknown edition '{edition}'", hint="use dg-2009 or spi-1975")
    if nmr not in ("hold", "bot"):
        raise BadInput(f"--nmr is '{nmr}'", hint="use hold (the game waits; both players are told, reminders continue) "
                                                 "or bot (the bot plays the missing side's orders, docs/judge.md)")
    for flag, mail in (("--us-mail", us_mail), ("--jp-mail", jp_mail)):
        if "@" not in mail or any(c.isspace() for c in mail):
            raise BadInput(f"{flag} '{mail}' is not a mail address", hint=f"e.g. {flag} alice@example.org")
    deadline_s, grace_s = duration(deadline, "--deadline"), duration(grace, "--grace")
    with Lock(home):
        judge = open_judge(home)
        genesis = start_game(scenario, judge.key, read_public(us), read_public(jp), edition, options=option)
        folder = new_game(judge, genesis, us_mail, jp_mail, deadline=deadline_s, grace=grace_s, nmr=nmr)
        judge.db.close()
    typer.echo(f"started game {genesis.game} ({genesis.public['title']}) in {folder}")
    typer.echo(f"turn file 0 is queued for {us_mail} (US) and {jp_mail} (JP); 'pbem judge poll {home}' sends it")


@judge_app.command()
def poll(home: Home) -> None:
    """One pass: read new mail, act on it, adjudicate, apply deadlines, send what is due."""
    from pbem.judge.poll import poll as one_pass

    report = one_pass(home)
    typer.echo(report.line())
    if report.errors:
        raise typer.Exit(2 if report.bad_settings else 1)


@judge_app.command()
def run(
    home: Home,
    every: Annotated[str, typer.Option("--every", help="Time between two polls, e.g. 60s.")] = "60s",
) -> None:
    """Poll again and again until stopped (SIGTERM or Ctrl-C): for a service manager (docs/judge.md)."""
    import signal
    import time

    from pbem.errors import PbemError
    from pbem.judge.clock import duration
    from pbem.judge.home import check_home, read_settings
    from pbem.judge.poll import open_judge_key, poll as one_pass

    pause = duration(every, "--every")
    check_home(home)
    key = open_judge_key(read_settings(home))  # once: the passphrase is read at start, not at every poll
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    typer.echo(f"judge running on {home}, polling every {pause:g}s")
    try:
        while not stop:
            try:
                report = one_pass(home, key)
                if report.fetched or report.sent or report.errors or report.adjudicated:
                    typer.echo(report.line())
            except PbemError as exc:
                typer.echo(f"pbem judge: {exc.render()}", err=True)
            end = time.monotonic() + pause
            while not stop and time.monotonic() < end:
                time.sleep(min(0.2, pause))
    except KeyboardInterrupt:
        pass
    typer.echo("judge stopped")


@judge_app.command("list")
def list_games(home: Home, as_json: Annotated[bool, typer.Option("--json", help="One JSON document for scripts.")] = False) -> None:
    """Every game: whose move, since when, the deadline."""
    from pbem.judge.clock import stamp
    from pbem.judge.home import DATABASE, check_home
    from pbem.judge.store import connect

    check_home(home)
    db = connect(home / DATABASE)
    rows = db.execute("SELECT * FROM games ORDER BY created").fetchall()
    games = [{
        "game": r["id"], "scenario": r["scenario"], "turn_file": r["seq"], "awaiting": r["awaiting"], "over": bool(r["over"]),
        "since": stamp(r["since"]), "deadline": stamp(r["deadline"]) if r["deadline"] else None,
        "grace": r["grace_s"], "nmr": r["nmr"], "extensions": r["extensions"], "us": r["us_mail"], "jp": r["jp_mail"],
    } for r in rows]
    if as_json:
        output.echo_json({"home": str(home), "games": games})
        return
    if not games:
        typer.echo(f"no games in {home}; start one with 'pbem judge new'")
    for g in games:
        doing = "over" if g["over"] else f"{g['awaiting']} to move since {g['since']}, deadline {g['deadline']}"
        typer.echo(f"{g['game'][:8]}  {g['scenario']:<22} turn file {g['turn_file']:>3}  {doing}  ({g['us']} / {g['jp']})")
