"""What a player runs: ``keygen``, ``view``, ``orders template``, ``validate``, ``submit``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from pbem.cli import orders_app, output, root as app

KeyOption = Annotated[Path, typer.Option("--key", help="Your private key file (NAME.key).")]
PassphraseEnv = Annotated[
    Optional[str],
    typer.Option("--passphrase-env", metavar="VAR", help="Environment variable holding the key's passphrase. Without it: PBEM_PASSPHRASE_<KEY> (e.g. PBEM_PASSPHRASE_REF for ref.key, one per key), then PBEM_PASSPHRASE, else you are asked."),
]
TurnOption = Annotated[Path, typer.Option("--turn", help="The latest turn file (keep every turn file of the game in one folder).")]


@app.command()
def keygen(
    name: Annotated[str, typer.Argument(help="Your name in this game, e.g. 'alice'; the files are NAME.key and NAME.pub.")],
    directory: Annotated[Path, typer.Option("--dir", help="Where to write the two files.")] = Path("."),
    passphrase_env: PassphraseEnv = None,
    no_passphrase: Annotated[bool, typer.Option("--no-passphrase", help="Leave the private key unprotected.")] = False,
) -> None:
    """Make your identity: NAME.key (private, keep it) and NAME.pub (send it to the referee)."""
    import re

    from pbem.errors import BadInput
    from pbem.protocol.passphrase import for_new_key
    from pbem.protocol.files import make_folder, private_files_note
    from pbem.protocol.keys import generate, write_private, write_public

    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}", name):
        raise BadInput(f"'{name}' cannot be a key name", hint="use letters, digits, '-', '_' or '.', e.g. alice or ref-2026")
    passphrase = for_new_key(passphrase_env, no_passphrase, name)
    make_folder(directory, what="key folder")
    identity = generate(name)
    key_path = write_private(directory / f"{name}.key", identity, passphrase)
    pub_path = write_public(directory / f"{name}.pub", identity)
    typer.echo(f"wrote {key_path} (private: keep it, never send it; {private_files_note()})")
    typer.echo(f"wrote {pub_path} (public: send it to the referee)")
    typer.echo(f"your identity: {identity.public.line()}")


@app.command()
def view(
    turn: Annotated[Path, typer.Argument(help="A turn file of your game (without a referee: a blind-NNNN-SIDE.pbem file or the game folder).")],
    key: KeyOption,
    passphrase_env: PassphraseEnv = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the view as JSON.")] = False,
) -> None:
    """Open your side's view of a turn file: the position, what happened last, and what the scenario holds in store."""
    from pbem.cli.own_files import commands_for

    own = commands_for(turn)
    if own is not None:  # e.g. no referee, hidden units: the mode's own view (issue 24)
        own.view(turn, key, passphrase_env, as_json)
        return
    from pbem.loading.turns import load_turn, scenario_document_of
    from pbem.game.player import view_for
    from pbem.systems import name_in, system_named
    from pbem.game.views import outlook, reading_view
    from pbem.protocol.passphrase import open_key

    turn_file = load_turn(turn)
    _, seen = view_for(turn_file, open_key(key, passphrase_env), deep=False)
    with reading_view(turn_file.source):
        document, overrides = scenario_document_of(turn_file)
        ahead = outlook(document, seen, overrides)
        text = None if as_json else system_named(name_in(seen["ruleset"]), source=turn_file.source).tell_view(seen, ahead)
    from pbem.protocol.nmr import is_nmr

    missing = turn_file.orders_header["body"]["side"] if turn_file.seq > 0 and is_nmr(turn_file.orders_header) else None
    if text is not None and missing is not None:  # the orders of the last player-turn were the bot's (an NMR record)
        text = text.replace(f"Last player-turn ({missing}): ", f"Last player-turn ({missing}, no moves received: the bot's orders): ", 1)
    if as_json:
        output.echo_json({**seen, "outlook": ahead})
    else:
        typer.echo(text)


@orders_app.command("template")
def orders_template(
    turn: Annotated[Path, typer.Argument(help="The latest turn file (hidden units with no referee: the game folder or its latest blind file).")],
    key: KeyOption,
    passphrase_env: PassphraseEnv = None,
) -> None:
    """Print an orders skeleton for your side when it is your turn to move (hints go to stderr)."""
    from pbem.loading.turns import load_turn, verified_scenario_document
    from pbem.game.player import entry_hexes, orders_template as template, side_to_move
    from pbem.game.views import reading_view
    from pbem.protocol.passphrase import open_key

    from pbem.cli.own_files import commands_for

    if commands_for(turn) is not None:  # a mode with files of its own (hidden units with no referee): its folder's view
        from pbem.game.modes.blind.files import template_view
        from pbem.loading.datafiles import find_scenario, scenario_document

        seen, loaded = template_view(turn if turn.is_dir() else turn.parent, open_key(key, passphrase_env))
        skeleton, hints = template(seen, entry_hexes(scenario_document(find_scenario(loaded.scenario.id))["map"]))
        output.echo_json(skeleton)
        for hint in hints:
            typer.echo(f"# {hint}", err=True)
        return
    turn_file = load_turn(turn)
    side, seen = side_to_move(turn_file, open_key(key, passphrase_env), deep=False)
    document = verified_scenario_document(turn_file)
    with reading_view(turn_file.source):
        if (seen["state"].get("hidden") or {}).get("deployed") is False:
            from pbem.bot.setup import setup_orders
            from pbem.game.player import deployment_template
            from pbem.loading.turns import scenario_of
            from pbem.game.views import state_of_view

            board = scenario_of(turn_file).board
            drawn = setup_orders(state_of_view(seen), board, "greedy", None)  # the operating system's randomness
            skeleton, hints = deployment_template(seen, board, drawn)
        else:
            from pbem.systems import name_in, system_named

            skeleton, hints = system_named(name_in(seen["ruleset"]), source=turn_file.source).orders_template(seen, document)
    output.echo_json(skeleton)
    for hint in hints:
        typer.echo(f"# {hint}", err=True)


def _checked_orders(orders: Path, turn: Path, key: Path, passphrase_env: str | None):
    """The turn file, the holder's key, the orders as written, and their problems on the holder's own view."""
    from pbem.loading.turns import load_turn
    from pbem.game.player import check_own_orders
    from pbem.loading.jsonfile import read_json
    from pbem.protocol.passphrase import open_key

    turn_file = load_turn(turn)
    identity = open_key(key, passphrase_env)
    document = read_json(orders)
    side, found = check_own_orders(turn_file, identity, document, str(orders))
    return turn_file, identity, side, document, found


EXPLAIN_HELP = "Also weigh each planned attack: the strengths that count, the enemy's best FPF, the column and each result's chance."


def _weighed_on_own_view(turn_file, identity, document, source: str):
    """The planned attacks weighed on the holder's own view (pbem.render.odds)."""
    from pbem.loading.datafiles import orders_from
    from pbem.game.player import side_to_move
    from pbem.loading.turns import scenario_of
    from pbem.game.views import state_of_view
    from pbem.model.ruleset import Ruleset
    from pbem.render.odds import weigh_attacks

    _, view = side_to_move(turn_file, identity)
    loaded = scenario_of(turn_file)
    state = state_of_view(view)
    seen = set(state.locations)
    unseen = [u.defense for u in loaded.scenario.units if u.side != view["side"] and u.id not in seen]
    hidden = (min(unseen), max(unseen)) if state.hidden is not None and unseen else None
    return weigh_attacks(loaded.board, Ruleset(**view["ruleset"]), state, orders_from(document, source), hidden)


@app.command()
def validate(
    orders: Annotated[Path, typer.Argument(help="Your orders file (schemas/orders.schema.json).")],
    turn: TurnOption,
    key: KeyOption,
    passphrase_env: PassphraseEnv = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    explain: Annotated[bool, typer.Option("--explain", help=EXPLAIN_HELP)] = False,
) -> None:
    """Check your orders against your own view, offline: exit 0 when valid, 2 when not."""
    from pbem.loading.jsonfile import SchemaErrors

    odds, document = None, None
    try:
        turn_file, identity, _, document, found = _checked_orders(orders, turn, key, passphrase_env)
        odds = _weighed_on_own_view(turn_file, identity, document, str(orders)) if explain else None
    except SchemaErrors as exc:
        found = output.schema_problems(exc)
    output.problems(found, as_json, str(orders), odds)
    if not found and isinstance(document, dict):
        from pbem.game.fog import blind_attack_notes

        for note in blind_attack_notes(document):
            typer.echo(f"note: {note}", err=True)
    raise typer.Exit(0 if not found else 2)


@app.command()
def submit(
    orders: Annotated[Path, typer.Argument(help="Your orders file (schemas/orders.schema.json).")],
    turn: TurnOption,
    key: KeyOption,
    passphrase_env: PassphraseEnv = None,
    replace: Annotated[bool, typer.Option("--replace", help="You changed your mind: make the next revision of your orders for this turn (the latest the referee receives wins).")] = False,
    out: Annotated[Optional[Path], typer.Option("-o", "--out", help="Where to write the signed orders (default: beside the turn file).")] = None,
) -> None:
    """Sign your orders (the same orders give the same file and the same dice), seal them to the referee, and keep a receipt."""
    from pbem.game.receipts import submit_orders

    turn_file, identity, side, document, found = _checked_orders(orders, turn, key, passphrase_env)
    output.warn_if_not_latest(turn_file)
    if found:
        output.problems(found, False, str(orders))
        typer.echo("nothing was written: fix the orders and submit again", err=True)
        raise typer.Exit(2)
    done = submit_orders(turn_file, identity, side, document, replace=replace, out=out)
    if done.status == "resent":
        typer.echo(f"{done.path}: these are your revision {done.revision} already (same signed orders, same dice): send this file again")
        return
    from pbem.game.status import submission_mail

    to, mail = submission_mail(turn_file, side, done.path, done.revision)
    what = "revision 1" if done.status == "new" else f"revision {done.revision}, replacing your earlier orders"
    typer.echo(f"wrote {done.path} ({what}): send it to {to}")
    typer.echo(f"kept {done.receipt.name}: 'pbem verify' uses it to check which of your revisions the next turn file adjudicated")
    output.mail(mail, to.split(",")[0])
