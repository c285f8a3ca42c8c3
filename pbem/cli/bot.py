"""``pbem bot`` (orders for your side, written by the bot) and ``pbem demo`` (a whole game, bot against bot)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from pbem.cli import output, root as app
from pbem.cli.players import KeyOption, PassphraseEnv

DEFAULT_SCENARIO = "leyte-assault"
Policy = Annotated[str, typer.Option("--policy", help="greedy (sensible play, the default), lookahead (weighs candidate turns by the dice "
                                     "and the enemy's reply; slower) or random (legal orders drawn at random, for fuzzing).")]
Think = Annotated[Optional[float], typer.Option("--think", min=0.0, help="Seconds a turn for --policy lookahead (default 3): sets how many "
                                                "candidate turns it weighs, two a second, never by the clock, so the orders stay the same for a seed.")]
Seed = Annotated[Optional[int], typer.Option("--seed", help="Seed of the bot's random choices: the same view and seed give the same orders. "
                                             "Without it the Japanese secret set-up (hidden units) is drawn from the operating system's randomness.")]


def _policy(name: str) -> str:
    from pbem.bot import POLICIES
    from pbem.errors import BadInput

    if name not in POLICIES:
        raise BadInput(f"unknown policy '{name}'", hint=f"use one of: {', '.join(POLICIES)}")
    return name


@app.command()
def bot(
    turn: Annotated[Path, typer.Argument(help="The latest turn file (keep every turn file of the game in one folder).")],
    key: KeyOption,
    out: Annotated[Optional[Path], typer.Option("-o", "--out", help="Write the orders here (never over an existing file) instead of printing them.")] = None,
    policy: Policy = "greedy",
    seed: Seed = None,
    think: Think = None,
    passphrase_env: PassphraseEnv = None,
) -> None:
    """Write orders for your side from your own view: valid by the engine's own check, ready for 'pbem submit'."""
    import json

    from pbem.loading.turns import open_turn
    from pbem.game.player import side_to_move
    from pbem.systems import system_of
    from pbem.protocol.passphrase import open_key
    from pbem.protocol.files import write_new

    policy = _policy(policy)
    game = open_turn(turn)
    turn_file = game.turn
    output.warn_if_not_latest(turn_file)
    side, seen = side_to_move(turn_file, open_key(key, passphrase_env))
    if out is not None and (out.exists() or out.is_symlink()):
        from pbem.errors import BadInput
        from pbem.game.status import draft_name

        name = draft_name(turn_file, side, setup=(seen["state"].get("hidden") or {}).get("deployed") is False)
        free, n = out.parent / name, 1
        while free.exists():
            n += 1
            free = out.parent / name.replace(".json", f"-{n}.json")
        raise BadInput(
            "already exists (orders or notes written earlier?); pbem bot never writes over a file",
            file=str(out),
            hint=f"give -o a name that is not taken, e.g. -o {free}, or move the old file away first",
        )
    document = system_of(game.scenario).bot_orders(seen, game.scenario, policy, seed, think)
    if out is None:
        output.echo_json(document)
        return
    write_new(out, json.dumps(document, indent=2) + "\n")
    if "deployment" in document:
        typer.echo(f"wrote {out}: the Japanese secret set-up ({policy} bot); check it with 'pbem validate', send it with 'pbem submit'")
        return
    typer.echo(f"wrote {out}: {side} orders, {len(document.get('moves', []))} move(s) and {len(document.get('attacks', []))} attack(s) "
               f"({policy} bot); check them with 'pbem validate', send them with 'pbem submit'")


@app.command()
def demo(
    scenario: Annotated[str, typer.Option("--scenario", help="A scenario id or file.")] = DEFAULT_SCENARIO,
    directory: Annotated[Optional[Path], typer.Option("--dir", help="Where to put the identities and the game (default: ./pbem-demo-SCENARIO, numbered if taken).")] = None,
    seed: Seed = None,
    edition: Annotated[Optional[str], typer.Option("--edition", help="dg-2009 (the default) or spi-1975.")] = None,
    us_policy: Annotated[str, typer.Option("--us", help="The US bot's policy: greedy, lookahead or random.")] = "greedy",
    jp_policy: Annotated[str, typer.Option("--jp", help="The Japanese bot's policy: greedy, lookahead or random.")] = "greedy",
    think: Think = None,
    option: Annotated[Optional[list[str]], typer.Option("--option", help="A game option: hidden-units, fog-iph or fog-formosa (one way of hiding units per game, docs/hidden-units.md).")] = None,
    no_referee: Annotated[bool, typer.Option("--no-referee", help="No referee: a two-player game (the player who does not move adjudicates, with a seed he committed; every player-turn is replayed from the files, docs/PROTOCOL.md 'Two-player mode'); with --option hidden-units, the Japanese bot commits and opens his markers and publishes his secret at the end (docs/hidden-units.md).")] = False,
    escrow: Annotated[bool, typer.Option("--escrow", help="With --no-referee --option hidden-units: a third party holds the escrow; at the end the Japanese bot vanishes and the holder recovers his secret (pbem blind recover).")] = False,
) -> None:
    """Play a whole scenario bot against bot through the real files: keys, turn files, orders, verify, audit, result."""
    from pbem.protocol.fog_options import fog_option

    if no_referee and fog_option(option) is not None:
        _blind_demo(scenario, directory, seed, us_policy, jp_policy, option, edition, escrow)
        return
    if escrow:
        from pbem.errors import BadInput

        raise BadInput("--escrow is for a demo with hidden units and no referee", hint="add --no-referee --option hidden-units")
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from pbem.bot.demo import TurnPlayed, default_folder, run_demo
    from pbem.errors import BadInput

    if edition not in (None, "dg-2009", "spi-1975"):
        raise BadInput(f"unknown edition '{edition}'", hint="use dg-2009 or spi-1975")
    policies = {"US": _policy(us_policy), "JP": _policy(jp_policy)}
    from pbem.loading.datafiles import find_scenario

    find_scenario(scenario)  # one line naming the scenarios there are, before anything is made
    from pbem.game.step import check_options

    check_options(option)  # an unknown option, or two ways of hiding units: refused before the folder is made
    folder = directory or default_folder(scenario, referee=not no_referee)
    console = Console(highlight=False, soft_wrap=True, markup=False)
    players = ", two players and no referee" if no_referee else ""
    console.print(f"pbem demo: {scenario}{players}, {policies['US']} US bot against {policies['JP']} Japanese bot, in {Path(folder)}")
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("player-turns"), TimeElapsedColumn())
    with Progress(*columns, console=console) as progress:
        task = progress.add_task("starting", total=None)

        def on_turn(t: TurnPlayed) -> None:
            dice = " ".join(map(str, t.rolls)) or "-"
            if t.setup:
                roll = ", then 2d6 of intelligence" if "hidden-units" in (option or []) else ""  # 19B.7 only
                progress.console.print(f"  Japanese secret set-up{roll}: dice {dice}")
            else:
                progress.console.print(f"  Game-Turn {t.turn:>2} {t.side:<2}  {t.moves:>3} move(s)  {t.combats:>2} combat(s)  dice {dice}")
            progress.update(task, completed=t.done, total=t.total, description=f"Game-Turn {t.turn} {t.side}")

        result = run_demo(scenario, folder, seed=seed, edition=edition, policies=policies, on_turn=on_turn, options=option, think=think,
                          referee=not no_referee)
    game = result.game
    if result.verify_findings:
        console.print(f"NOT VERIFIED: first bad file {result.verify_findings[0].file}")
    elif result.reveal is None:
        console.print(f"verified: {result.player_turns + 1} turn files — signatures, hash chain, seed commitments, every roll, "
                      "and every player-turn replayed from the files alone")
    else:
        console.print(f"verified: {result.player_turns + 1} turn files — signatures, hash chain, seeds and every roll")
    if result.audit.ok and result.reveal is None:
        console.print(f"audited with no key, from the turn files alone (a two-player game hides nothing): "
                      f"{result.audit.replayed} adjudications replayed")
    elif result.audit.ok:
        console.print(f"audited with no key, from the referee's reveal file: {result.audit.replayed} adjudications replayed, "
                      f"{result.audit.views_checked} sealed views confirmed")
    else:
        console.print(f"AUDIT FAILED: first bad file {result.audit.findings[0].file}")
    for line in result.report.lines:
        console.print(line)
    from pbem.cli.invocation import program, quote

    pbem = program()
    last = quote(Path(game) / f"turn-{result.player_turns:04d}.pbem")
    us_key, game_q = quote(result.keys["US"]), quote(game)
    console.print(f"\nThe game is in {Path(game)} and the identities in {Path(folder)}. Look at it with:")
    console.print(f"  {pbem} view {last} --key {us_key}")
    console.print(f"  {pbem} dice {game_q}")
    console.print(f"  {pbem} verify {game_q}")
    console.print(f"  {pbem} audit {game_q}" + ("" if result.reveal is None else f" --reveal {quote(result.reveal)}"))
    console.print(f"  {pbem} show {last} --key {us_key} --html map.html")
    raise typer.Exit(0 if result.audit.ok and not result.verify_findings else 1)


def _blind_demo(scenario, directory, seed, us_policy, jp_policy, option, edition, escrow=False) -> None:
    """The demo of hidden units with no referee: two folders, the files copied between them as mail would carry them."""
    from pbem.bot.blind_demo import default_blind_folder, run_blind_demo
    from pbem.loading.datafiles import find_scenario

    find_scenario(scenario)
    from pbem.game.step import check_options

    check_options(option)  # two ways of hiding units: refused before the folders are made
    folder = Path(directory or default_blind_folder(scenario))
    policies = {"US": _policy(us_policy), "JP": _policy(jp_policy)}
    typer.echo(f"pbem demo: {scenario}, hidden units with no referee, {policies['US']} US bot against {policies['JP']} "
               f"Japanese bot, in {folder} (JP/ and US/: each player's folder)")

    def on_file(side, path) -> None:
        typer.echo(f"  {side} wrote {path.name}")

    done = run_blind_demo(scenario, folder, policies=policies, seed=seed, on_file=on_file, edition=edition, escrow=escrow, options=option)
    if done.verify_findings:
        typer.echo(f"NOT VERIFIED: {done.verify_findings[0]}")
    else:
        typer.echo(f"verified: {done.files} files — signatures, chain, every opening against the roots held, "
                   "acknowledgements, seeds and rolls")
    if done.audit_findings:
        typer.echo(f"AUDIT FAILED: {done.audit_findings[0]}")
    else:
        typer.echo(f"audited with the Japanese player's {'secret recovered from the escrow by ' + done.recovered_by if done.recovered_by else 'published secret'}"
                   f": {done.steps} steps replayed with full information")
    typer.echo(f"result: {done.result}")
    us = done.folders["US"]
    typer.echo(f"\nLook at it with:\n  pbem status {us} --key {done.keys['US']}\n  pbem verify {us}\n  pbem audit {us}")
    if done.verify_findings or done.audit_findings:
        raise typer.Exit(1)
