"""`pbem status`: where the game stands and what each party should do next, from a game folder."""

from __future__ import annotations

import json
import shutil

from typer.testing import CliRunner

from pbem.cli import app
from tests.games import new_game

RUNNER = CliRunner()


def pbem(*args, code=0):
    result = RUNNER.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


def status(folder, key=None):
    args = ["status", folder, "--json"] + (["--key", key] if key else [])
    return json.loads(pbem(*args))


def test_status_tells_each_party_what_to_do(tmp_path):
    game = new_game(tmp_path)
    anyone = status(game)
    assert (anyone["game_turn"], anyone["awaiting"], anyone["verified"], anyone["role"]) == (1, "US", True, None)
    us = status(game, tmp_path / "us.key")
    assert us["role"] == "US" and us["next"]["steps"][-1].startswith("pbem submit orders-0000-US.json")
    assert us["next"]["send"] == {"file": "orders-0000-US.pbem", "to": "the referee",
                                  "subject": f"[pbem {anyone['game'][:8]}] test-skirmish: US orders answering turn file 0 (revision 1)"}
    jp = status(game, tmp_path / "jp.pub")
    assert jp["role"] == "JP" and jp["next"]["action"].startswith("nothing to do")
    assert status(game, tmp_path / "ref.key")["next"]["command"] is None  # nothing to adjudicate yet

    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps({"moves": [{"unit": "us-7cav", "enter": "1104", "path": []}]}))
    pbem("submit", orders, "--turn", game / "turn-0000.pbem", "--key", tmp_path / "us.key")
    assert status(game, tmp_path / "us.key")["next"]["send"]["file"] == "orders-0000-US.pbem"
    ref = status(game, tmp_path / "ref.key")
    assert ref["next"]["command"] == f"pbem adjudicate {game / 'turn-0000.pbem'} {game / 'orders-0000-US.pbem'} --key {tmp_path / 'ref.key'}"
    assert ref["next"]["send"]["to"] == "both players"
    pbem("adjudicate", game / "turn-0000.pbem", game / "orders-0000-US.pbem", "--key", tmp_path / "ref.key")
    after = status(game, tmp_path / "jp.key")
    assert (after["latest_file"], after["awaiting"], after["role"]) == ("turn-0001.pbem", "JP", "JP")
    assert after["next"]["steps"][-1].startswith("pbem submit")


def test_status_of_a_damaged_folder_says_so(tmp_path):
    game = new_game(tmp_path)
    copy = tmp_path / "copy"
    shutil.copytree(game, copy)
    text = (copy / "turn-0000.pbem").read_text()
    lines = text.splitlines()
    middle = len(lines) // 2
    lines[middle] = lines[middle][:-1] + ("A" if lines[middle][-1] != "A" else "B")
    (copy / "turn-0000.pbem").write_text("\n".join(lines) + "\n")
    result = RUNNER.invoke(app, ["status", str(copy), "--json"])
    assert result.exit_code == 1
    found = json.loads(result.output)
    assert not found["verified"] and "damaged" in found["problem"] and "fresh copy" in found["next"]["action"]


def test_status_of_an_empty_folder(tmp_path):
    found = json.loads(pbem("status", tmp_path, "--json", code=2))
    assert found["latest_file"] is None and "pbem new" in found["next"]["action"]


def test_submit_and_adjudicate_print_a_mail_to_paste(tmp_path):
    import hashlib

    game = new_game(tmp_path)
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps({"moves": [{"unit": "us-7cav", "enter": "1104", "path": []}]}))
    said = pbem("submit", orders, "--turn", game / "turn-0000.pbem", "--key", tmp_path / "us.key")
    sent = game / "orders-0000-US.pbem"
    assert "Subject: [pbem " in said and "test-skirmish: US orders answering turn file 0 (revision 1)" in said
    assert f"Attached: orders-0000-US.pbem (sha256 {hashlib.sha256(sent.read_bytes()).hexdigest()})" in said
    said = pbem("adjudicate", game / "turn-0000.pbem", sent, "--key", tmp_path / "ref.key")
    following = game / "turn-0001.pbem"
    assert "test-skirmish: turn file 1" in said and "JP moves next" in said
    assert f"Attached: turn-0001.pbem (sha256 {hashlib.sha256(following.read_bytes()).hexdigest()})" in said


def test_status_names_the_latest_revision_and_gives_the_referee_every_one(tmp_path):
    game = new_game(tmp_path)
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps({"moves": [{"unit": "us-7cav", "enter": "1104", "path": []}]}))
    pbem("submit", orders, "--turn", game / "turn-0000.pbem", "--key", tmp_path / "us.key")
    orders.write_text(json.dumps({"moves": [{"unit": "us-7cav", "enter": "1105", "path": []}]}))
    pbem("submit", orders, "--turn", game / "turn-0000.pbem", "--key", tmp_path / "us.key", "--replace")
    assert status(game, tmp_path / "us.key")["next"]["send"]["file"] == "orders-0000-US-r2.pbem"
    command = status(game, tmp_path / "ref.key")["next"]["command"]
    assert command == (f"pbem adjudicate {game / 'turn-0000.pbem'} {game / 'orders-0000-US.pbem'} "
                       f"{game / 'orders-0000-US-r2.pbem'} --key {tmp_path / 'ref.key'}")
    said = pbem(*command.split()[1:])
    assert "revision 2, superseding 1" in said
