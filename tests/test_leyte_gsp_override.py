"""`pbem new --gsp FILE`: the assumed Ground Support track replaced for one game, recorded in the genesis file."""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from pbem.cli import app
from pbem.loading.turns import scenario_of
from pbem.protocol.turnfile import read_turn


def run(*args):
    return subprocess.run([sys.executable, "-m", "pbem", *map(str, args)], capture_output=True, text=True)


def keys(tmp_path):
    runner = CliRunner()
    for name in ("ref", "us", "jp"):
        assert runner.invoke(app, ["keygen", name, "--dir", str(tmp_path), "--no-passphrase"]).exit_code == 0


def test_the_override_is_what_the_game_plays_with(tmp_path):
    keys(tmp_path)
    track = tmp_path / "track.json"
    track.write_text(json.dumps([{"turn": t, "US": 7, "JP": 2, "source": "the printed track of my copy"} for t in range(1, 9)]))
    result = run("new", "leyte-assault", "--us", tmp_path / "us.pub", "--jp", tmp_path / "jp.pub", "--referee", tmp_path / "ref.pub",
                 "--key", tmp_path / "ref.key", "--out", tmp_path / "game", "--gsp", track)
    assert result.returncode == 0, result.stderr
    genesis = read_turn(tmp_path / "game" / "turn-0000.pbem")
    assert genesis.public["overrides"]["ground_support"][0]["US"] == 7
    assert scenario_of(genesis).scenario.gsp_for(3) == {"US": 7, "JP": 2}
    # the scenario document itself is the shipped one: its hash names the real scenario
    shipped = scenario_of(genesis).scenario.model_copy(update={"ground_support": []})
    assert shipped.id == "leyte-assault"
    view = run("view", tmp_path / "game" / "turn-0000.pbem", "--key", tmp_path / "us.key")
    assert "Ground Support left this Game-Turn: US 7, JP 2" in view.stdout


def test_a_malformed_override_is_refused_with_exit_2(tmp_path):
    keys(tmp_path)
    track = tmp_path / "track.json"
    track.write_text(json.dumps([{"turn": 0, "US": -1}]))
    result = run("new", "leyte-assault", "--us", tmp_path / "us.pub", "--jp", tmp_path / "jp.pub", "--referee", tmp_path / "ref.pub",
                 "--key", tmp_path / "ref.key", "--out", tmp_path / "game", "--gsp", track)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "Ground Support override" in result.stderr
    assert not (tmp_path / "game" / "turn-0000.pbem").exists()


def test_an_edited_leyte_scenario_under_its_real_id_is_refused(tmp_path):
    """11.5 for a scenario in a sub-folder that shares a map file: the id names the shipped content, map included."""
    import shutil
    from pathlib import Path

    keys(tmp_path)
    shipped = Path(__file__).resolve().parent.parent / "scenarios" / "leyte"
    mine = tmp_path / "mine"
    mine.mkdir()
    shutil.copy(shipped / "map.json", mine / "map.json")
    scenario = json.loads((shipped / "leyte-assault.json").read_text())
    scenario["units"][0]["defense"] += 1
    (mine / "leyte-assault.json").write_text(json.dumps(scenario))
    result = run("new", mine / "leyte-assault.json", "--us", tmp_path / "us.pub", "--jp", tmp_path / "jp.pub",
                 "--referee", tmp_path / "ref.pub", "--key", tmp_path / "ref.key", "--out", tmp_path / "game")
    assert result.returncode == 2 and "is not the leyte-assault pbem ships" in result.stderr
    # the unchanged copy, map file beside it, is the shipped scenario
    shutil.copy(shipped / "leyte-assault.json", mine / "leyte-assault.json")
    result = run("new", mine / "leyte-assault.json", "--us", tmp_path / "us.pub", "--jp", tmp_path / "jp.pub",
                 "--referee", tmp_path / "ref.pub", "--key", tmp_path / "ref.key", "--out", tmp_path / "game")
    assert result.returncode == 0, result.stderr
