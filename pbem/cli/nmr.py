"""``pbem adjudicate TURN --nmr SIDE``: the referee plays the bot's orders for a side whose orders never came."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer


def adjudicate_nmr_command(turn: Path, orders: list[Path], key: Path, passphrase_env: Optional[str], out: Optional[Path], side: str) -> None:
    from pbem.errors import BadInput
    from pbem.loading.folder import folder_of, turn_name
    from pbem.loading.turns import load_turn
    from pbem.game.modes import mode_of
    from pbem.protocol.passphrase import open_key
    from pbem.protocol.files import write_new

    side = side.upper()
    if side not in ("US", "JP"):
        raise BadInput(f"--nmr is '{side}'", hint="name the side whose orders did not come: --nmr US or --nmr JP")
    if orders:
        raise BadInput(f"--nmr {side} with orders files given ({orders[0]})",
                       hint="orders that arrived are adjudicated, not replaced by the bot's: drop --nmr, or drop the orders files")
    turn_file = load_turn(turn)
    target = out or folder_of(turn_file.source) / turn_name(turn_file.seq + 1)
    if target.exists():
        raise BadInput("the next turn file already exists; a turn file is never overwritten",
                       file=str(target), hint="this turn may have been adjudicated already")
    done, record = mode_of(turn_file).adjudicate_nmr(turn_file, open_key(key, passphrase_env), side)
    write_new(target, done.turn.text)
    last = done.step.last
    rolls = ", ".join(str(r["value"]) for r in done.turn.dice.rolls) or "none"
    what = "carried out" if last["valid"] else f"REJECTED ({len(last['problems'])} problem(s)); nothing was applied"
    typer.echo(f"wrote {target}: no moves received from {side}, the bot's orders ({record.policy}, NMR record "
               f"{record.digest[:19]}…) {what}; {len(last['combats'])} combat(s), dice {rolls}")
    typer.echo("Mail it to both players; each can check the NMR with 'pbem verify', and after the game 'pbem audit' recomputes it.")
