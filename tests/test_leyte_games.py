"""Each Leyte scenario played from `pbem new` to its last Game-Turn through the command line and the
referee protocol, with simple scripted orders; then verified, audited, and its victory report checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.loading.datafiles import load_scenario
from tests.leyte_script import scripted_orders
from tests.games import pbem
from tests.mail_game import play_by_mail

def play(base: Path, scenario: str, plans: dict[str, dict], *, edition: str = "dg-2009") -> dict:
    """Three folders (referee, US, JP) exchanging only files; returns the final views and the folders."""
    board = load_scenario(scenario).board

    def scripted(side, _turn, _key, orders: Path, view: dict) -> None:
        orders.write_text(json.dumps(scripted_orders(board, view, plans.get(side, {}))))

    return play_by_mail(base, scenario, scripted, new_args=("--edition", edition), limit=60)


def points_by(report: dict, side: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for line in report["lines"]:
        if line["side"] == side and line["points"]:
            out[line["source"]] = out.get(line["source"], 0) + line["points"]
    return out


def check_records(game: dict, player_turns: int) -> None:
    assert game["last"] == player_turns  # every player-turn played, no orders rejected
    for folder in game["folders"].values():
        assert "verified" in pbem("verify", folder / "game")
    folders = game["folders"]
    # the referee publishes the openings; anyone then audits a player's folder with no key at all
    reveal = folders["ref"] / "reveal.pbem"
    pbem("reveal", folders["ref"] / "game", "--key", folders["ref"] / "ref.key", "-o", reveal)
    audited = pbem("audit", folders["US"] / "game", "--reveal", reveal)
    assert audited.startswith(f"audited {player_turns} adjudication(s)"), audited
    # both views and the public part carry the same final report
    reports = [game["final"]["US"]["victory"], game["final"]["JP"]["victory"], game["public"]["victory"]]
    assert reports[0] == reports[1] == reports[2]
    assert reports[0]["final"] is True


@pytest.fixture(scope="module")
def assault(tmp_path_factory):
    plans = {
        # the 17th's battalion lands on the E beaches on Game-Turn 1 and walks to 0531 to exit (16.13 item 4)
        "US": {"us-17-bn": ("0531", True)},
        # 3/9 walks from 2626 to Carigara (2811); 2/33 steps from 1227 next to the Bayug airfield (1126)
        "JP": {"jp-3-9-bn": ("2811", False), "jp-2-33-bn": ("1127", False)},
    }
    return play(tmp_path_factory.mktemp("assault"), "leyte-assault", plans)


def test_assault_plays_eight_game_turns_and_verifies(assault):
    check_records(assault, 16)


def test_assault_victory_by_hand(assault):
    report = assault["public"]["victory"]
    # Hand-worked: no unit ever comes into contact, so nothing is eliminated. The 17th's battalion left
    # by 0531 in time, so nothing is forfeited. Japan: Carigara held by 3/9 (15, 16.14) and one unit
    # next to an airfield, 2/33 in 1127 beside Bayug 1126 (10, 16.14). No Japanese unit on the N or E
    # beaches (15.22); every U.S. unit on the map stands on a beach, so none is cut off (15.33).
    # The U.S. holds none of 2215, 2312, 2918.  U.S. 0 : Japan 25 -> ratio 0 -> Japanese Decisive.
    assert points_by(report, "JP") == {"16.14": 25}
    assert points_by(report, "US") == {}
    assert report["points"] == {"US": 0, "JP": 25}
    assert report["ratio"] == "0.00"
    assert report["level"] == "Japanese Decisive"
    exits = [e for e in json.loads(json.dumps(assault["final"]["US"]["state"]))["exits"]]
    assert [(e["unit"], e["hex"]) for e in exits] == [("us-17-bn", "0531")] and exits[0]["turn"] <= 3


def eliminated_value(view: dict, side: str) -> int:
    """Independent recount of 15.12 from a view: the value of every unit of ``side`` eliminated."""
    total = 0
    for unit in view["state"]["units"]:
        if unit["side"] == side and view["state"]["locations"][unit["id"]] == "eliminated":
            total += unit.get("barrage", 0) + unit.get("fpf", 0) + unit["defense"] if unit["kind"] == "artillery" else unit.get("attack", 0) + unit["defense"]
    return total


@pytest.mark.parametrize(("scenario", "player_turns"), [("leyte-mountain-barrier", 18), ("leyte-final-collapse", 18)])
def test_later_scenarios_play_to_the_end(tmp_path, scenario, player_turns):
    game = play(tmp_path, scenario, {})
    check_records(game, player_turns)
    report = game["public"]["victory"]
    view = game["final"]["US"]
    assert points_by(report, "US").get("15.12", 0) == eliminated_value(view, "JP")
    assert points_by(report, "JP").get("15.12", 0) == eliminated_value(view, "US")
    assert report["points"]["US"] == sum(points_by(report, "US").values())
