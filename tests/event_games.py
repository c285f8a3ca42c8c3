"""Bot games for the event-audit tests and benchmark, played in this process through the real files.

Each game is what ``pbem demo`` plays (:mod:`pbem.bot.demo`), in either mode:
with a referee (optionally with hidden units), whose reveal file is written
into the game folder, or without one (``--no-referee``), where the player
who does not move adjudicates.  Identities are made in memory, without
files.  ``tamper_at=SEQ`` plays a referee who ran a modified engine for that
one adjudication: every combat's result is read from the next row of the
Combat Results Table that differs (die 6 wraps to row 1), and he signs what it gives, so the files
verify and only a replay with the true table can catch him.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from pbem.bot.play import bot_orders
from pbem.engine import crt
from pbem.loading.folder import keep_orders, turn_name
from pbem.loading.turns import load_turn, scenario_of
from pbem.game.player import side_to_move
from pbem.game.receipts import submit_orders
from pbem.game.adjudication import adjudicate_received
from pbem.game.modes.referee.start import start_game
from pbem.game.modes.referee.reveal import read_reveal, referee_reveal, reveal_text
from pbem.game.modes.two_player.turns import start_two_player_game
from pbem.protocol.files import write_new
from pbem.protocol.keys import generate

REVEAL = "reveal.pbem"


@contextlib.contextmanager
def _table_misread():
    true_result = crt.result

    def misread(col, die):
        rows = crt.results_under(col)
        return next((rows[(die - 1 + k) % 6] for k in range(1, 6) if rows[(die - 1 + k) % 6] != rows[die - 1]), rows[die - 1])

    crt.result = misread
    try:
        yield
    finally:
        crt.result = true_result


#: Each game folder's keys, so that a test can play a dishonest referee who re-signs what he reveals.
KEYS: dict[Path, dict] = {}


def play_game(folder: Path, scenario: str, *, referee: bool = True, hidden: bool = False, seed: int = 0,
              tamper_at: int | None = None) -> Path:
    """Play ``scenario`` to its end in ``folder`` (made here); return it.  A referee's game gets its reveal in the folder."""
    folder.mkdir(parents=True)
    parties = KEYS[folder] = {role: generate(role.lower()) for role in ("ref", "US", "JP")}
    options = ["hidden-units"] if hidden else None
    if referee:
        genesis = start_game(scenario, parties["ref"], parties["US"].public, parties["JP"].public, options=options)
    else:
        # the scenarios used here open with the American player-turn, so Japan starts the game
        genesis = start_two_player_game(scenario, parties["JP"], parties["US"].public, parties["JP"].public)
    path = write_new(folder / turn_name(0), genesis.text)
    while True:
        turn = load_turn(path)
        if turn.public["over"]:
            break
        side = turn.public["awaiting"]
        _, view = side_to_move(turn, parties[side])
        document = bot_orders(view, scenario_of(turn), "greedy", seed)
        sent = submit_orders(turn, parties[side], side, document)
        adjudicator = parties["ref"] if referee else parties[turn.dice.committed_by]
        with _table_misread() if tamper_at == turn.seq + 1 else contextlib.nullcontext():
            done = adjudicate_received(turn, [(sent.built.text, str(sent.path))], adjudicator)
        keep_orders(folder, turn.seq, side, sent.path, sent.built.text, sent.revision)
        path = write_new(folder / turn_name(turn.seq + 1), done.turn.text)
    if referee:
        write_new(folder / REVEAL, reveal_text(referee_reveal(folder, parties["ref"])))
    return folder


def omit_turn(reveal_path: Path, seq: int) -> None:
    """Rewrite a referee's reveal without the openings of turn file ``seq`` (a referee hiding one adjudication,
    and signing the shorter reveal with his own key)."""
    revealed = read_reveal(reveal_path)
    del revealed.turns[seq]
    reveal_path.unlink()
    write_new(reveal_path, reveal_text(revealed, KEYS[reveal_path.parent]["ref"]))


def combat_turns(folder: Path) -> list[int]:
    """The sequence numbers of the turn files whose player-turn rolled a combat die."""
    from pbem.protocol.chain import verify_chain

    return sorted(t.seq for t in verify_chain(folder).turns if any(r["purpose"].startswith("combat ") for r in t.dice.rolls))
