"""NMR policy ``bot``: at the deadline plus grace the judge plays the bot's orders for the missing side.

The turn file is made by the game layer (:func:`pbem.game.modes.referee.nmr.adjudicate_nmr`:
the bot's orders on the missing side's view, the dice salt derived from the
turn file answered, an NMR record signed in place of the player's orders
header) and then written and mailed like any other turn file
(:func:`pbem.judge.games.reconcile`), so a crash anywhere in between writes
it once and mails it once.  Orders held but rejected for rule problems do
not stop the NMR: the player had until the deadline to correct them.
"""

from __future__ import annotations

import sqlite3

from pbem.errors import PbemError
from pbem.loading.turns import load_turn
from pbem.loading.folder import turn_name
from pbem.judge.games import Judge, folder_of, reconcile
from pbem.protocol.files import write_new


def play_nmr(judge: Judge, row: sqlite3.Row) -> int:
    """Write the NMR turn file answering the game's current turn (once) and queue its mails; returns mails queued."""
    from pbem.game.modes import mode_of

    folder = folder_of(judge, row)
    turn = load_turn(folder / turn_name(row["seq"]))
    target = folder / turn_name(turn.seq + 1)
    if not target.exists():
        try:
            done, _ = mode_of(turn).adjudicate_nmr(turn, judge.key, row["awaiting"])
        except PbemError as exc:  # the game's own files are at fault: reported by the poll, the other games go on
            judge.errors.append(f"game {row['id']}: the NMR cannot be played: {exc.render()}")
            return 0
        write_new(target, done.turn.text, mode=0o600)
    return 2 * reconcile(judge, row)
