"""``pbem view``, ``show`` and ``dice`` on a game with hidden units and no referee (issue 24): the renderers the
turn-file commands use, fed by the blind mode's own views (:mod:`pbem.game.modes.blind.views`).  Its own module, so that
those commands reach it without an import circle through ``pbem.cli.blind``."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from pbem.cli import output


def side_view(path: Path, key: Path, passphrase_env: Optional[str]):
    """``key``'s side's view after the file ``path`` (the folder: the latest), and the game as loaded."""
    from pbem.game.modes.blind.views import side_view as view_of
    from pbem.protocol.passphrase import open_key

    return view_of(path, open_key(key, passphrase_env))


def view_game(path: Path, key: Path, passphrase_env: Optional[str], as_json: bool) -> None:
    """``pbem view`` on a game without a referee: the American player's markers, the Japanese player's own units."""
    from pbem.game.modes.blind.views import scenario_document
    from pbem.game.views import outlook, reading_view
    from pbem.systems import system_of

    seen = side_view(path, key, passphrase_env)
    with reading_view(str(path), what=f"the {seen.side} view after step {seen.step}"):
        ahead = outlook(scenario_document(seen.held), seen.view)
        text = None if as_json else system_of(seen.held.loaded).tell_view(seen.view, ahead)  # the game's rules system tells it
    if as_json:
        output.echo_json({**seen.view, "outlook": ahead})
    else:
        if seen.step == 0:  # only the Japanese player's: his set-up as committed, before the 19B.7 roll
            typer.echo("JP view of your set-up as your genesis committed it (blind-0000-JP.pbem), before step 1 "
                       "(the intelligence roll, 19B.7): your own units, rebuilt with your secret")
        else:
            typer.echo(f"{seen.side} view after step {seen.step} of a game with hidden units and no referee "
                       f"({'markers only: 19B' if seen.side == 'US' else 'your own units, replayed with your secret'})")
        typer.echo(text)


def dice_game(folder: Path, as_json: bool) -> None:
    """``pbem dice`` on a game without a referee: every published roll, checked against its seed and salt first."""
    from pbem.game.modes.blind.views import dice_of
    from pbem.game.dice_report import FACES, summarise_rolls

    found = dice_of(folder)
    summary = summarise_rolls(found.rolls)
    if as_json:
        output.echo_json({**summary.as_dict(), "steps": found.steps})
        return
    by_step = {s["seq"]: s for s in found.steps}
    shown = None
    for r in summary.rolls:
        if r["seq"] != shown:
            shown, s = r["seq"], by_step[r["seq"]]
            typer.echo(f"step {s['seq']} ({s['file']}, {'the set-up' if s['setup'] else s['mover'] + ' moves'}): "
                       f"seed {s['seed']} ({s['seed_from']}), salt {s['salt']} ({s['salt_from']})")
        typer.echo(f"step {r['seq']:>4}  roll {r['n']:>3}  {r['value']}  {r['purpose']}")
    total = len(summary.rolls)
    typer.echo(f"{total} roll(s) in {len(found.steps)} step(s), each recomputed from its seed and salt: "
               + "  ".join(f"{f}: {summary.counts[f]}" for f in FACES))
    if summary.chi_square is not None:
        note = "" if total >= 30 else " (too few rolls for the test to say much)"
        typer.echo(f"chi-square {summary.chi_square:.2f} on 5 degrees of freedom, p = {summary.p_value:.3f}{note}")
