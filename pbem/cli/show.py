"""``pbem show``: your view as a map — in the terminal, as SVG, as an offline page."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from pbem.cli import root as app
from pbem.cli.players import KeyOption, PassphraseEnv


def _write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` under a temporary name, then rename it into place (a map may be redrawn)."""
    from pbem.errors import BadInput
    from pbem.protocol.files import write_replacing

    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise BadInput(f"the folder {folder} does not exist", file=str(path), hint="create the folder first or choose another path")
    write_replacing(path, text, mode=0o600)  # your view: readable by you alone, as before
    typer.echo(f"wrote {path}")


@app.command()
def show(
    turn: Annotated[Path, typer.Argument(help="A turn file of your game (without a referee: a blind-NNNN-SIDE.pbem file or the game folder).")],
    key: KeyOption,
    passphrase_env: PassphraseEnv = None,
    around: Annotated[Optional[str], typer.Option("--around", metavar="HEX", help="Show only the hexes near this one.")] = None,
    radius: Annotated[int, typer.Option("--radius", min=0, max=40, help="With --around: how many hexes out.")] = 4,
    plain: Annotated[bool, typer.Option("--plain", help="Plain ASCII, no colour: paste it into a mail.")] = False,
    zoc: Annotated[bool, typer.Option("--zoc", help="Mark the enemy's zones of control.")] = False,
    no_events: Annotated[bool, typer.Option("--no-events", help="Leave out the last player-turn's moves and combats.")] = False,
    svg: Annotated[Optional[Path], typer.Option("--svg", metavar="FILE", help="Write the map as a standalone SVG.")] = None,
    page: Annotated[Optional[Path], typer.Option("--html", metavar="FILE", help="Write an offline page: hover units, click hexes, toggle layers.")] = None,
) -> None:
    """Draw your side's view as a hex map: in the terminal, or as SVG (--svg) or an offline page (--html)."""
    from pbem.loading.turns import open_turn
    from pbem.game.player import view_for
    from pbem.protocol.passphrase import open_key

    from pbem.cli.own_files import commands_for

    own = commands_for(turn)
    if own is not None:  # e.g. no referee, hidden units: the mode's own view (issue 24), drawn the same way
        seen, loaded = own.drawn(turn, key, passphrase_env)
    else:
        game = open_turn(turn)
        _, seen = view_for(game.turn, open_key(key, passphrase_env))
        loaded = game.scenario
    from pbem.systems import system_of

    # the game's rules system draws its own views (its board, counters and key): the renderers draw what it gives
    scene = system_of(loaded).map_scene(seen, loaded, centre=around, radius=radius, show_zoc=zoc, show_events=not no_events)
    if svg is None and page is None:
        if plain:
            from pbem.render.terminal import render_plain

            typer.echo(render_plain(scene), nl=False)
        else:
            import os

            from rich.console import Console

            from pbem.render.terminal import fit, render

            console = Console(highlight=False)
            note = None
            if around is None and (console.is_terminal or os.environ.get("COLUMNS")):
                scene, note = fit(scene, console.width)  # the part around your own units that fits (issue 20)
            console.print(render(scene, note), soft_wrap=True)
        return
    if svg is not None:
        from pbem.render.svg import render_svg

        _write(svg, render_svg(scene))
    if page is not None:
        from pbem.render.html import render_html

        _write(page, render_html(scene))
