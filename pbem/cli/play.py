"""``pbem play``: the local page where a player builds his orders by clicking (:mod:`pbem.web`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from pbem.cli import root as app
from pbem.cli.players import KeyOption, PassphraseEnv


@app.command()
def play(
    turn: Annotated[Path, typer.Argument(help="The latest turn file (your turn to give orders).")],
    key: KeyOption,
    orders: Annotated[Optional[Path], typer.Option("--orders", help="The orders file to load and save (default: orders-NNNN-SIDE.json beside the turn file).")] = None,
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="The port on 127.0.0.1 (default: any free one).")] = 0,
    no_browser: Annotated[bool, typer.Option("--no-browser", help="Do not open a browser: the page's address is the first line printed.")] = False,
    passphrase_env: PassphraseEnv = None,
) -> None:
    """Build your orders by clicking on your own view, in your browser: moves, attacks with their odds, every problem live; save and submit."""
    from pbem.loading.turns import load_turn
    from pbem.protocol.passphrase import open_key
    from pbem.web.serve import play as serve_play

    load_turn(turn)  # a damaged or foreign turn file is told before the passphrase is asked
    serve_play(turn, lambda: open_key(key, passphrase_env), orders, port, not no_browser, typer.echo)
