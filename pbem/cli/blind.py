"""A game with hidden units and no referee: each player's next file, the view, the secret at the end; and what
``verify``, ``audit`` and ``status`` say about such a folder (docs/PROTOCOL.md, "Hidden units with no referee")."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from pbem.cli import blind_app, output, own_files
from pbem.cli.players import KeyOption, PassphraseEnv

NAME = "hidden-no-referee"  # pbem.protocol.blindfile.MODE, which loads the keys: not imported when the CLI starts


@blind_app.command("next")
def next_file(
    folder: Annotated[Path, typer.Argument(metavar="GAMEDIR", help="Your folder of this game's files.")],
    key: KeyOption,
    orders: Annotated[Optional[Path], typer.Option("--orders", help="Your orders (JSON), when this file carries them (status says when).")] = None,
    bot: Annotated[Optional[str], typer.Option("--bot", help="Let the bot choose your orders: greedy, lookahead or random.")] = None,
    passphrase_env: PassphraseEnv = None,
) -> None:
    """Check every file you received, then write your next file (status says which and whom to send it to)."""
    from pbem.game.modes.blind.files import read_orders, write_next
    from pbem.protocol.passphrase import open_key

    identity = open_key(key, passphrase_env)
    given = read_orders(orders) if orders is not None else None

    def choose(view, loaded, seed):
        if given is not None or bot is None:
            return given  # None: the file needs orders and none were given; the command says so and writes nothing
        from pbem.bot.play import bot_orders

        return bot_orders(view, loaded, bot, seed)  # seed: from your own per-game secret, which your opponent lacks

    written = write_next(folder, identity, choose)
    typer.echo(f"wrote {written}: every file you received checks out; send {written.name} to your opponent")


@blind_app.command("publish-secret")
def publish_secret(
    folder: Annotated[Path, typer.Argument(metavar="GAMEDIR", help="Your folder of this game's files.")],
    key: KeyOption,
    passphrase_env: PassphraseEnv = None,
) -> None:
    """The Japanese player, at the end: publish the per-game secret and your orders, so that anyone can audit the game."""
    from pbem.game.modes.blind.files import publish_secret as publish
    from pbem.protocol.passphrase import open_key

    written = publish(folder, open_key(key, passphrase_env))
    typer.echo(f"wrote {written}: send it to the US player; anyone can now run 'pbem audit {folder}'")


@blind_app.command("recover")
def recover(
    folder: Annotated[Path, typer.Argument(metavar="GAMEDIR", help="The game's folder (every file of it: the US player's copy has them all).")],
    key: KeyOption,
    passphrase_env: PassphraseEnv = None,
) -> None:
    """The escrow holder or the American player: open your share of the Japanese secret of a game whose Japanese
    player stalls or withholds his secret (blind-share-holder.pbem or blind-share-US.pbem, signed by you, with its
    proof). With both shares in the folder, the secret and every Japanese order are open: anyone runs pbem audit."""
    from pbem.game.modes.blind.recover import recover as recover_escrow
    from pbem.protocol.passphrase import open_key

    written, found, over, opened = recover_escrow(folder, open_key(key, passphrase_env))
    typer.echo(f"wrote {written}: your share of the Japanese secret, decrypted with your key and proven")
    if found:
        typer.echo(f"RECOVERY FAILED: {found[0]}")
        for f in found:
            typer.echo(f"  {f}")
        typer.echo("the Japanese player put a bad escrow part in his files: a finding against him (a forfeit in a "
                   "tournament); anyone can check it with pbem audit")
        raise typer.Exit(1)
    if not opened:
        typer.echo(f"send {written.name} to the other holder of a share (the escrow holder and the American player "
                   "both open theirs); alone it opens nothing")
        return
    typer.echo("both shares are in: the Japanese secret and orders are open"
               + ("" if over else " (the game was not over: it ends here, every marker is open)"))
    typer.echo(f"send {written.name} to the other players; anyone can now run 'pbem audit {folder}'")


@blind_app.command("view")
def view(
    folder: Annotated[Path, typer.Argument(metavar="GAMEDIR", help="Your folder of this game's files.")],
    key: Annotated[Optional[Path], typer.Option("--key", help="Your key: your own side's view (the Japanese player's: his own units, his committed set-up before step 1).")] = None,
    passphrase_env: PassphraseEnv = None,
) -> None:
    """The American view of the latest step, as JSON (what the US player writes his orders from); with --key, your side's."""
    if key is not None:
        from pbem.cli.blind_reading import side_view

        output.echo_json(side_view(folder, key, passphrase_env).view)
        return
    from pbem.game.modes.blind.files import latest_view

    output.echo_json(latest_view(folder))


def verify_folder(folder: Path, as_json: bool) -> None:
    from pbem.game.modes.blind.files import findings, load

    from pbem.game.modes.blind.stall import stall

    held = load(folder)
    found = findings(held)
    stalled = stall(held)
    if as_json:
        output.echo_json({"ok": not found and not stalled, "game": held.game, "files": len(held.messages),
                          "secret_from": _secret_from(held), "stalled": stalled.words if stalled else None,
                          "findings": [{"cheater": f.cheater, "seq": f.seq, "when": f.when, "problem": f.what} for f in found]})
    elif found:
        typer.echo(f"NOT VERIFIED: {found[0]}")
        for f in found:
            typer.echo(f"  {f}")
    elif stalled:
        typer.echo(f"STALLED: {stalled.words}")
    else:
        typer.echo(f"verified {len(held.messages)} file(s) of game {held.game}, US and JP, no referee, hidden units: "
                   f"signatures, the chain, every opening against the roots held, acknowledgements, seeds and rolls hold")
        if held.secret_recovered_by:
            from pbem.game.modes.blind.stall import left_unanswered

            typer.echo(f"  the Japanese secret came from the escrow, opened by {held.secret_recovered_by} "
                       "(blind-share-holder.pbem, blind-share-US.pbem); pbem audit replays the game with it")
            if (waiting := left_unanswered(held)) is not None:
                typer.echo(f"  ended at a stall: {waiting.words}")
        elif not held.secret_published:
            typer.echo("  the hidden moves wait for the Japanese player's secret (pbem blind publish-secret), then pbem audit")
    raise typer.Exit(1 if found or stalled else 0)


def audit_folder(folder: Path) -> None:
    from pbem.game.modes.blind.files import audit_findings, findings, load
    from pbem.game.modes.blind.stall import NOT_OVER, audited_to_the_stall, stall, stopped_at, stopped_lines
    from pbem.game.modes import BLIND_MODE

    held = load(folder)
    if not findings(held) and not held.secret_published and not held.over:  # in progress, or stalled: never a pass
        stalled = stall(held)
        typer.echo(f"STALLED: {stalled.words}" if stalled else f"NOT AUDITED: {NOT_OVER}")
        raise typer.Exit(1)
    found = audit_findings(held)
    if found:
        typer.echo(f"AUDIT FAILED: {found[0]}")
        for f in found:
            typer.echo(f"  {f}")
        for line in stopped_lines(held):
            typer.echo(line)
        raise typer.Exit(1)
    stopped = stopped_at(held)
    if stopped is not None:  # opened at a stall and nothing found: the stall's verdict still, never a pass (issue 36)
        typer.echo(f"STALLED: {stopped.words}")
        typer.echo(audited_to_the_stall(len(held.record.publications)))
    else:
        typer.echo(BLIND_MODE.audit_summary(len(held.record.publications)))
    for line in stopped_lines(held):
        typer.echo(line)
    if held.secret_recovered_by:
        typer.echo(f"  the secret and the Japanese orders came from the escrow, opened by {held.secret_recovered_by}: "
                   "the Japanese player did not publish them")
    if stopped is not None:
        raise typer.Exit(1)


def status_folder(folder: Path, key: Optional[Path], passphrase_env: Optional[str], as_json: bool = False) -> None:
    from pbem.game.modes.blind.files import load, role_in
    from pbem.game.modes import BLIND_MODE

    role = None
    if key is not None:
        from pbem.protocol.keys import read_public

        if key.suffix == ".pub":
            holder = read_public(key)
        else:
            from pbem.protocol.passphrase import open_key

            holder = open_key(key, passphrase_env).public
        role = role_in(load(folder), holder)
    hint = str(key.with_suffix(".key")) if key else "KEY"
    lines, found, ok = BLIND_MODE.advice(folder, role, hint)
    stalled = next((line for line in lines if line.startswith("STALLED: ")), None)
    if role:
        lines.insert(1, f"you are {role}")
    if as_json:
        held = load(folder)
        output.echo_json({"folder": str(folder), "mode": BLIND_MODE.name, "game": held.game, "role": role,
                          "files": len(held.messages), "steps": len(held.record.publications), "over": held.over,
                          "secret_published": held.secret_published, "secret_from": _secret_from(held),
                          "escrow": _escrow_holder(held), "stall_days": _stall_days(held),
                          "next_writer": held.next_writer,
                          "verified": not found, "stalled": stalled.removeprefix("STALLED: ") if stalled else None,
                          "findings": [{"cheater": f.cheater, "seq": f.seq, "when": f.when, "problem": f.what} for f in found],
                          "next": [line.removeprefix("next: ") for line in lines if line.startswith("next: ")]})
    else:
        typer.echo("\n".join(lines))
    raise typer.Exit(0 if not found and not stalled else 1)


class _FolderCommands:
    """``verify``, ``audit``, ``status``, ``view``, ``show`` and ``dice`` on this mode's folder (:mod:`pbem.cli.own_files`).
    The reading ones load :mod:`pbem.cli.blind_reading` only when they run."""

    verify = staticmethod(verify_folder)
    audit = staticmethod(audit_folder)
    status = staticmethod(status_folder)

    @staticmethod
    def view(path: Path, key: Path, passphrase_env: Optional[str], as_json: bool) -> None:
        from pbem.cli.blind_reading import view_game

        view_game(path, key, passphrase_env, as_json)

    @staticmethod
    def drawn(path: Path, key: Path, passphrase_env: Optional[str]):
        from pbem.cli.blind_reading import side_view

        seen = side_view(path, key, passphrase_env)
        return seen.view, seen.held.loaded

    @staticmethod
    def dice(path: Path, as_json: bool) -> None:
        from pbem.cli.blind_reading import dice_game

        dice_game(path, as_json)


own_files.register(NAME, _FolderCommands())
def _secret_from(held) -> str | None:
    """Where the published secret came from: JP, the escrow, or nowhere yet."""
    return None if not held.secret_published else "escrow" if held.secret_recovered_by else "JP"


def _stall_days(held) -> int:
    from pbem.game.modes.blind.stall import stall_days

    return stall_days(held)


def _escrow_holder(held) -> str | None:
    from pbem.game.modes.blind.escrow import holder_of

    holder = holder_of(held.messages[0])
    return holder.describe() if holder else None
