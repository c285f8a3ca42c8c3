"""Each Leyte scenario played with ``--option hidden-units`` through the command line, three folders
exchanging only files (issue 10's "done when"): the Japanese secret set-up, bot orders under fog,
``verify`` in every folder, and each player's audit of the whole game from the referee's reveal file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.games import pbem, run
from tests.mail_game import play_by_mail, verify_reveal_audit

def play_hidden(base: Path, scenario: str, seed: int = 0) -> dict:
    def by_bot(side, turn: Path, key: Path, orders: Path, _view: dict) -> None:
        pbem("bot", turn, "--key", key, "-o", orders, "--seed", seed)

    game = play_by_mail(base, scenario, by_bot, new_args=("--option", "hidden-units"))
    assert "JP sends his secret set-up first" in game["said"]
    return game | {"views": game["final"], "turns": game["last"]}


@pytest.mark.parametrize("scenario", ["leyte-assault", "leyte-mountain-barrier", "leyte-final-collapse"])
def test_hidden_units_game_plays_verifies_and_is_audited_by_each_player(tmp_path, scenario):
    game = play_hidden(tmp_path, scenario)
    folders = game["folders"]
    # the secret set-up came first, then the scenario's player-turns, none rejected
    assert game["awaited"][0] == "JP"
    assert game["public"]["over"] and game["public"]["victory"]["final"] is True
    verify_reveal_audit(folders, game["turns"])
    # the American final view shows no Japanese dummy, and every Japanese unit in it is either
    # one he may examine or a marker with no strengths
    us_state = game["views"]["US"]["state"]
    for unit in us_state["units"]:
        assert unit["kind"] != "dummy"
        if unit["side"] == "JP" and unit["kind"] == "hidden":
            numbers = {k: v for k, v in unit.items() if k not in ("id", "side", "kind")}
            assert set(numbers) == {"attack", "defense", "move", "barrage", "fpf", "range"} and set(numbers.values()) == {0}
            assert us_state["locations"][unit["id"]] == unit["id"]
    # the Japanese player sees his own dummies (those still on the map, or removed)
    jp_kinds = {u["kind"] for u in game["views"]["JP"]["state"]["units"]}
    assert "hidden" not in jp_kinds


def test_the_american_replay_of_his_own_turns_rejudges_each_verdict_and_leaves_results_to_the_audit(tmp_path):
    game = play_hidden(tmp_path, "test-skirmish")
    us = game["folders"]["US"]
    said = pbem("verify", us / "game", "--replay-mine", "--key", us / "us.key")
    assert "re-judged your orders on your own view" in said and "'pbem audit GAMEDIR --reveal FILE' replays the results" in said
    jp = game["folders"]["JP"]
    said = pbem("verify", jp / "game", "--replay-mine", "--key", jp / "jp.key")
    assert "replayed" in said and "not replayed" not in said


def test_new_refuses_an_unknown_option_and_records_a_repeated_one_once(tmp_path):
    for name in ("ref", "us", "jp"):
        pbem("keygen", name, "--dir", tmp_path, "--no-passphrase")
    common = ("new", "test-skirmish", "--us", tmp_path / "us.pub", "--jp", tmp_path / "jp.pub", "--referee", tmp_path / "ref.pub",
              "--key", tmp_path / "ref.key")
    status, _out, err = run(*common, "--out", tmp_path / "g1", "--option", "fog")
    assert status == 2 and "Traceback" not in err
    assert "unknown game option 'fog'" in err and "hidden-units" in err and not (tmp_path / "g1").exists()
    said = pbem(*common, "--out", tmp_path / "g2", "--option", "hidden-units", "--option", "hidden-units")
    assert "options: hidden-units\n" in said
    view = json.loads(pbem("view", tmp_path / "g2" / "turn-0000.pbem", "--key", tmp_path / "us.key", "--json"))
    assert view["awaiting"] == "JP" and view["state"]["hidden"]["deployed"] is False
    status, _out, err = run("orders", "template", tmp_path / "g2" / "turn-0000.pbem", "--key", tmp_path / "us.key")
    assert status == 2 and "the Japanese secret set-up comes before the first player-turn" in err
