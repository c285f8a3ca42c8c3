"""What the referee runs — or, in a two-player game, the player who adjudicates: ``new`` and ``adjudicate``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from pbem.cli import output, root as app
from pbem.cli.players import KeyOption, PassphraseEnv


@app.command()
def new(
    scenario: Annotated[str, typer.Argument(help="A scenario file, or the id of one in scenarios/ (e.g. test-skirmish).")],
    us: Annotated[Path, typer.Option("--us", help="The US player's public identity (US.pub).")],
    jp: Annotated[Path, typer.Option("--jp", help="The Japanese player's public identity (JP.pub).")],
    key: KeyOption,
    out: Annotated[Path, typer.Option("--out", help="The game folder to create; the genesis turn file goes there.")],
    referee: Annotated[Optional[Path], typer.Option("--referee", help="Your own public identity (REF.pub), as the referee.")] = None,
    no_referee: Annotated[bool, typer.Option("--no-referee", help="A game without a referee: --key is your own player's key; you must be the player who does not move first (with --option hidden-units: the Japanese player, docs/hidden-units.md).")] = False,
    edition: Annotated[Optional[str], typer.Option("--edition", help="dg-2009 (the default) or spi-1975.")] = None,
    passphrase_env: PassphraseEnv = None,
    gsp: Annotated[Optional[Path], typer.Option("--gsp", help="A JSON file replacing the scenario's Ground Support track: [{\"turn\": 1, \"US\": 4, \"JP\": 0, \"source\": \"...\"}, ...].")] = None,
    option: Annotated[Optional[list[str]], typer.Option("--option", help="A game option: hidden-units, fog-iph or fog-formosa (Japanese units hidden from the American player, one way per game, docs/hidden-units.md).")] = None,
    setup: Annotated[Optional[Path], typer.Option("--setup", help="With --no-referee --option hidden-units: the Japanese set-up orders (JSON) the genesis commits (default: the greedy bot's).")] = None,
    escrow: Annotated[Optional[Path], typer.Option("--escrow", help="With --no-referee --option hidden-units: a third party's public identity (HOLDER.pub); the Japanese secret is dealt between him and the US player (each holds a share, both are needed) and every Japanese file carries the orders it commits encrypted under it, so that the two together open the game for the audit if the Japanese player stalls (pbem blind recover).")] = None,
    stall_days: Annotated[Optional[int], typer.Option("--stall-days", metavar="N", help="With --no-referee --option hidden-units: a player who has not answered a file for N days stalls the game (1 to 365; default 14), recorded in the genesis.")] = None,
) -> None:
    """Start a game: write the genesis turn file, with the first dice commitment (as referee, or as a player with --no-referee)."""
    from pbem.errors import BadInput
    from pbem.loading.folder import turn_name
    from pbem.game.modes import mode_of, mode_to_start
    from pbem.protocol.passphrase import open_key
    from pbem.protocol.files import make_folder, write_new
    from pbem.protocol.keys import read_public

    if edition not in (None, "dg-2009", "spi-1975"):
        raise BadInput(f"unknown edition '{edition}'", hint="use dg-2009 or spi-1975")
    target = out / turn_name(0)
    if out.exists() and not out.is_dir():
        raise BadInput("is a file, not a game folder", file=str(out), hint="choose a new folder with --out")
    if target.exists():
        raise BadInput("a game already exists here", file=str(target), hint="choose a new folder with --out")
    if no_referee == (referee is not None):
        raise BadInput("give either --referee REF.pub (a refereed game) or --no-referee (a two-player game), not both"
                       if no_referee else "a game needs --referee REF.pub, or --no-referee for a two-player game without one",
                       hint="docs/PROTOCOL.md says what each mode trusts")
    identity = open_key(key, passphrase_env)
    if referee is not None:
        named = read_public(referee)
        if not identity.public.same_keys(named):
            raise BadInput(f"--key is {identity.public.describe()}, but --referee names {named.describe()}", hint="give your own .pub as --referee")
    track = None
    if gsp is not None:
        from pbem.loading.jsonfile import read_json

        track = read_json(gsp)
        if not isinstance(track, list):
            raise BadInput("the Ground Support track must be a JSON list of rows", file=str(gsp), hint='e.g. [{"turn": 1, "US": 4, "JP": 0, "source": "house rule"}]')
    mode = mode_to_start(referee=not no_referee, options=option)
    setup_orders = None
    if setup is not None:
        from pbem.game.modes.blind.files import read_orders

        if mode.name != "hidden-no-referee":
            raise BadInput("--setup is the Japanese set-up of a game with hidden units and no referee",
                           hint="give it with --no-referee --option hidden-units")
        setup_orders = read_orders(setup)
    holder = read_public(escrow) if escrow is not None else None  # a mode with no player's secret to hold refuses it
    genesis = mode.start(scenario, identity, read_public(us), read_public(jp), referee=None if referee is None else named,
                         edition=edition, ground_support=track, options=option, setup=setup_orders, escrow=holder,
                         stall_days=stall_days)
    target = out / getattr(genesis, "file_name", turn_name(0))
    if target.exists():
        raise BadInput("a game already exists here", file=str(target), hint="choose a new folder with --out")
    make_folder(out, what="game folder")
    private = getattr(genesis, "private_name", None)
    if private:  # the Japanese player's per-game secret stays in his folder, never in a file he sends
        import json

        write_new(out / private, json.dumps(genesis.private, sort_keys=True), mode=0o600)
    write_new(target, genesis.text)
    for line in mode_of(genesis).announce_genesis(genesis, target):
        typer.echo(line)


@app.command()
def adjudicate(
    turn: Annotated[Path, typer.Argument(help="The turn file the orders answer.")],
    orders: Annotated[Optional[list[Path]], typer.Argument(metavar="ORDERS", help="The orders file the player sent; give every revision he sent for this turn, and the latest is adjudicated.")] = None,
    key: KeyOption = ...,
    passphrase_env: PassphraseEnv = None,
    out: Annotated[Optional[Path], typer.Option("-o", "--out", help="Where to write the next turn file (default: beside TURN).")] = None,
    nmr: Annotated[Optional[str], typer.Option("--nmr", metavar="SIDE", help="No moves received from SIDE (US or JP) by the deadline: play the bot's orders "
                                               "(greedy) on SIDE's view, with dice fixed by TURN; verify and audit recompute them (docs/PROTOCOL.md, NMR records).")] = None,
) -> None:
    """Verify the orders, roll the committed dice, run the engine, and write the next turn file."""
    if nmr is not None:
        from pbem.cli.nmr import adjudicate_nmr_command

        adjudicate_nmr_command(turn, orders or [], key, passphrase_env, out, nmr)
        return
    if not orders:
        from pbem.errors import BadInput

        raise BadInput("no orders file given", hint="give the orders file(s) the player sent, or --nmr SIDE when none came by the deadline")
    from pbem.errors import BadInput
    from pbem.loading.folder import folder_of, keep_orders, turn_name
    from pbem.loading.turns import load_turn
    from pbem.game.adjudication import adjudicate_received
    from pbem.game.modes import mode_of
    from pbem.game.status import mail_text
    from pbem.protocol.passphrase import open_key
    from pbem.protocol.files import read_text, write_new
    from pbem.protocol.ordersfile import outer_labels

    turn_file = load_turn(turn)
    folder = folder_of(turn_file.source)
    target = out or folder / turn_name(turn_file.seq + 1)
    if target.exists():
        raise BadInput("the next turn file already exists; a turn file is never overwritten",
                       file=str(target), hint="these orders may have been adjudicated already")
    identity = open_key(key, passphrase_env)
    received = []
    for path in orders:
        text = read_text(path, what="orders file")
        if not text.strip():
            raise BadInput("the orders file is empty", file=str(path), hint="ask the player to send it again, attached or pasted whole")
        received.append((text, str(path)))
    done = adjudicate_received(turn_file, received, identity)
    # Both files or neither: the orders are kept first, and taken back if the turn file cannot be written.
    kept = [keep_orders(folder, turn_file.seq, done.orders.side, Path(source), text, outer_labels(text, source)[0]["revision"])
            for text, source in received]
    try:
        write_new(target, done.turn.text)
    except BadInput:
        for path in kept:
            if path is not None:
                path.unlink(missing_ok=True)
        raise
    last = done.step.last
    rolls = ", ".join(str(r["value"]) for r in done.turn.dice.rolls) or "none"
    if last["valid"]:
        typer.echo(f"wrote {target}: {last['side']} orders (revision {done.orders.revision}"
                   f"{', superseding ' + str(len(done.turn.superseded)) if done.turn.superseded else ''}) carried out; {len(last['combats'])} combat(s), dice {rolls}")
    else:
        typer.echo(f"wrote {target}: {last['side']} orders REJECTED ({len(last['problems'])} problem(s)); nothing was applied")
        for p in last["problems"]:
            typer.echo(f"  rule {p['rule']:<6} {p['unit'] or '-':<12} {p['message']}")
    lines, step, to = mode_of(done.turn).announce_turn(done, target)
    for line in lines:
        typer.echo(line)
    output.mail(mail_text(turn_file, f"turn file {turn_file.seq + 1}", target, step), to)
