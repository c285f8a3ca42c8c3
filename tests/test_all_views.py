"""Every view of every turn file of bot games of every scenario, by every command a player reads them with.

Issue 20: once an American unit had left the map (16.13), every Japanese
map failed with an internal error, and no test had ever drawn a view of a
game with an exited unit.  Here bots play the opening player-turns of each
scenario, with and without hidden units (the American orders amended so
that a unit exits where the scenario has exits), and on each turn file, for
both keys, ``view``, ``status``, ``show`` (terminal, ``--zoc``, ``--svg``,
``--html``; ``--plain`` on the last), ``bot`` and ``orders template`` must succeed — or, for the side
not to move, refuse with a message (exit 2), never an internal error.
"""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pbem.game.catalogue import catalogue
from tests.bot_games import exited_units, play_bot_game
from tests.games import run

#: The SPI system's scenarios: the Legion test island's views are neither told nor drawn by these commands yet (its game
#: through the files is tests/test_legion_seam.py's).
SCENARIOS = [entry["id"] for entry in catalogue() if entry["system"] == "spi"]
#: Player-turns played: enough for the American unit of leyte-assault to exit, few for CI.  With hidden units it
#: exited within 7 in only 14 games of 30 on the bot of issue 21 (a CI run drew six misses running), within 9 in 30 of 30.
PLAYER_TURNS = {"test-skirmish": 8, "leyte-assault": 9}
#: Games played at most until one includes the exit the leyte-assault checks need.
ATTEMPTS = 6


def _awaiting(turn: Path, key: Path) -> str | None:
    import json

    status, out, _ = run("view", turn, "--key", key, "--json")
    assert status == 0
    view = json.loads(out)
    return None if view["over"] else view["awaiting"]


@pytest.mark.parametrize("hidden", [False, True], ids=["open", "hidden"])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_command_reads_every_view_of_a_bot_game(scenario, hidden, tmp_path):
    options = ["hidden-units"] if hidden else None
    for attempt in range(ATTEMPTS):  # the dice are drawn afresh (the bot's set-up is seed 0's): a Japanese zone of control may bar the exit
        base = tmp_path / f"try-{attempt}"
        base.mkdir()
        game = play_bot_game(base, scenario, options=options, player_turns=PLAYER_TURNS.get(scenario, 3))
        turns = sorted(game.glob("turn-*.pbem"))
        if scenario != "leyte-assault" or exited_units(turns[-1], base / "ref.key"):
            break
    assert len(turns) >= 3
    for side in ("us", "jp"):
        key = base / f"{side}.key"
        mine = base / side / "game"
        mine.mkdir(parents=True)
        for turn in turns:
            shutil.copy(turn, mine / turn.name)  # the player's folder, as his mail fills it
            awaited = _awaiting(turn, key)
            # --plain is the same drawing without colour: once, on the last turn file; --zoc on every one (its shading
            # reads the position)
            for extra in ([], ["--zoc"]) + ((["--plain"],) if turn == turns[-1] else ()):
                status, out, err = run("show", turn, "--key", key, *extra)
                assert status == 0 and out, f"show {turn.name} --key {side} {extra}: {err}"
            svg, page = base / f"{side}-{turn.stem}.svg", base / f"{side}-{turn.stem}.html"
            status, _, err = run("show", turn, "--key", key, "--svg", svg, "--html", page)
            assert status == 0, f"show --svg --html {turn.name} --key {side}: {err}"
            ET.parse(svg)
            assert "data-hex=" in page.read_text(encoding="utf-8")
            status, out, err = run("view", turn, "--key", key)
            assert status == 0 and out, f"view {turn.name} --key {side}: {err}"
            status, out, err = run("status", mine, "--key", key)
            assert status == 0 and "Next:" in out, f"status after {turn.name} --key {side}: {err}"
            for command in (["bot"], ["orders", "template"]):
                status, out, err = run(*command, turn, "--key", key)
                if awaited is not None and awaited.lower() == side:
                    assert status == 0 and out.strip().startswith("{"), f"{command} {turn.name} --key {side}: {err}"
                else:
                    assert status == 2 and "internal error" not in err and err.strip(), f"{command} {turn.name} --key {side}: {err}"
    if scenario == "leyte-assault":
        assert exited_units(turns[-1], base / "ref.key"), "the game should include an American unit that left the map"
