"""What a player reads in ``pbem view``: where the game stands, what is to come, and what the notation means.

The text is built from the view (what the referee sealed to the side) and
the scenario the genesis file carries, so each fact is checked against the
scenario rather than against fixed strings.
"""

from __future__ import annotations

import json
import re

import pytest

from tests import games

ROOT = games.ROOT
SCENARIO = json.loads(games.SKIRMISH.read_text())
NOTE = "Your move, Bob.\nMind the battery at 0506."


def pbem(*args, expect: int = 0) -> str:
    status, out, err = games.run(*args)
    assert status == expect and "Traceback" not in err, f"{args} -> {status}\n{out}\n{err}"
    return out


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A game after the US player's first player-turn, his orders carrying a note."""
    base = tmp_path_factory.mktemp("view")
    games.small_game(base, {**games.LANDING, "note": NOTE})
    return base


@pytest.fixture()
def jp_view(game) -> str:
    return pbem("view", game / "game" / "turn-0001.pbem", "--key", game / "jp.key")


def test_the_view_says_game_turn_x_of_n_the_phasing_side_and_whose_orders_are_due(game, jp_view):
    assert f"Game-Turn 1 of {SCENARIO['last_turn']}, the JP player-turn" in jp_view
    assert f"({SCENARIO['first_player']} moves first each Game-Turn); your orders are due." in jp_view
    us_view = pbem("view", game / "game" / "turn-0001.pbem", "--key", game / "us.key")
    assert "waiting for JP's orders" in us_view


def test_the_view_lists_reinforcements_and_ground_support_still_to_come(jp_view):
    later = [u for u in SCENARIO["units"] if u.get("arrives", 0) > 1]
    assert later
    for unit in later:
        assert re.search(rf"Game-Turn {unit['arrives']}: {unit['side']} {unit['id']} \({re.escape(unit['name'])}\) enters by {unit['entry']}", jp_view)
    waiting = [u for u in SCENARIO["units"] if u.get("arrives") == 1 and u["id"] != "us-7cav"]
    for unit in waiting:
        assert f"available now: {unit['side']} {unit['id']}" in jp_view
    assert "us-7cav (" not in jp_view.split("Still to come")[1]  # it has landed
    for row in SCENARIO["ground_support"]:
        shown = f"Game-Turn {row['turn']}: Ground Support US {row.get('US', 0)}, JP {row.get('JP', 0)}"
        assert (shown in jp_view) == (row["turn"] > 1)


def test_the_view_lists_the_objectives_and_their_worth(jp_view):
    assert SCENARIO["objectives"]
    for o in SCENARIO["objectives"]:
        assert f"{o['side']}: hex {o['hex']}, {o['points']} point(s)" in jp_view


def test_the_view_names_units_and_explains_the_notation_and_turn_files(jp_view):
    for unit in SCENARIO["units"]:
        if unit.get("arrives", 1) <= 1:  # on the map, or to be brought in now
            assert re.search(rf"{re.escape(unit['id'])}\s+{re.escape(unit['name'])}\s", jp_view)
    assert "2-3-5/1-4" in jp_view and "barrage-FPF-range/defense-movement" in jp_view
    assert "'+4,5' is +4 or +5" in jp_view
    assert "turn-0000 is the opening" in jp_view


def test_the_note_reaches_the_opponent_in_his_view_and_the_json(game, jp_view):
    assert "Note from US:\n  | Your move, Bob.\n  | Mind the battery at 0506." in jp_view
    seen = json.loads(pbem("view", game / "game" / "turn-0001.pbem", "--key", game / "jp.key", "--json"))
    assert seen["last"]["note"] == NOTE
    assert seen["outlook"]["last_turn"] == SCENARIO["last_turn"]


def test_the_note_is_signed_and_bounded(game, tmp_path):
    from pbem.model.orders import NOTE_LIMIT

    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps({"moves": [], "note": "x" * (NOTE_LIMIT + 1)}))
    turn = game / "game" / "turn-0001.pbem"
    out = pbem("validate", orders, "--turn", turn, "--key", game / "jp.key", expect=2)
    assert "note" in out and "rule schema" in out


def test_no_message_names_a_command_that_does_not_exist():
    """Every 'pbem COMMAND' a message, hint or help text names is a command of the app."""
    import typer.main

    from pbem.cli import app

    click_app = typer.main.get_command(app)
    named = set()
    for path in (ROOT / "pbem").rglob("*.py"):
        named |= set(re.findall(r"['`]pbem ([a-z][a-z-]*(?: [a-z][a-z-]*)?)", path.read_text()))
    assert named
    for words in sorted(named):
        first, *rest = words.split()
        command = click_app.commands.get(first)
        assert command is not None, f"'pbem {words}' is named in a message, but there is no such command"
        if rest and hasattr(command, "commands"):
            assert rest[0] in command.commands, f"'pbem {words}' is named in a message, but there is no such command"
