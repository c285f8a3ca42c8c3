"""``pbem status`` gives advice that, followed literally, does no harm (issue 20).

It never chains a template into ``submit`` (a turn in which nobody moves)
nor suggests a command that overwrites a file; it says the printed set-up
is public; at the end it names the reveal file and the audit; it names a
turn file a mail client mangled; it finds the game one folder down; and
its mail subject carries the revision ``submit`` writes.
"""

from __future__ import annotations

import json
import shutil

from tests.games import new_game, pbem, run


def status(folder, key=None) -> dict:
    return json.loads(run("status", folder, "--json", *(["--key", key] if key else []))[1])


LANDING = {"moves": [{"unit": "us-7cav", "enter": "1104", "path": []}]}


def test_status_never_chains_a_template_into_submit_and_never_overwrites(tmp_path):
    game = new_game(tmp_path)
    told = status(game, tmp_path / "us.key")["next"]
    every = " ".join([told["command"] or "", *told["steps"]])
    assert ">" not in every, "a shell redirection overwrites a file"
    assert "&&" not in every
    assert not any("template" in step and "submit" in step for step in told["steps"])
    assert any("pbem bot" in step and " -o " in step for step in told["steps"])
    assert any(step.startswith("pbem validate") for step in told["steps"])
    assert told["steps"][-1].startswith("pbem submit")
    # the draft it names: once written, status moves on to checking and sending it
    draft = tmp_path / told["draft"]
    draft.write_text(json.dumps(LANDING))
    said = pbem("status", game, "--key", tmp_path / "us.key", cwd=tmp_path)
    assert f"You have a draft: {told['draft']}" in said and "pbem bot" not in said


def test_status_on_the_secret_set_up_says_the_printed_one_is_public_and_the_bot_writes_one(tmp_path):
    for name in ("ref", "us", "jp"):
        pbem("keygen", name, "--dir", tmp_path, "--no-passphrase")
    game = tmp_path / "game"
    pbem("new", "test-skirmish", "--us", tmp_path / "us.pub", "--jp", tmp_path / "jp.pub", "--referee", tmp_path / "ref.pub",
         "--key", tmp_path / "ref.key", "--out", game, "--option", "hidden-units")
    said = pbem("status", game, "--key", tmp_path / "jp.key")
    assert "public" in said and "change it" in said.lower()
    assert f"pbem bot {game / 'turn-0000.pbem'} --key {tmp_path / 'jp.key'} -o" in said


def _played_out(tmp_path):
    from tests.bot_games import play_bot_game

    return play_bot_game(tmp_path, "test-skirmish", player_turns=20)


def test_at_the_end_status_tells_the_referee_to_reveal_and_the_players_to_audit(tmp_path):
    game = _played_out(tmp_path)
    assert status(game)["over"]
    ref = status(game, tmp_path / "ref.key")["next"]
    assert any(step.startswith(f"pbem reveal {game} --key {tmp_path / 'ref.key'} -o ") for step in ref["steps"])
    assert ref["send"]["to"] == "both players" and ref["send"]["file"].endswith(".pbem")
    us = status(game, tmp_path / "us.key")["next"]
    assert any("pbem audit" in step and "--reveal" in step for step in us["steps"])
    assert "reveal" in us["action"]
    # once the reveal file is in the folder, the audit names it
    pbem("reveal", game, "--key", tmp_path / "ref.key", "-o", game / "reveal.pbem")
    us = status(game, tmp_path / "us.key")["next"]
    assert f"pbem audit {game} --reveal {game / 'reveal.pbem'}" in us["steps"]


def test_status_names_a_turn_file_the_mail_client_replaced(tmp_path):
    game = new_game(tmp_path)
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps(LANDING))
    pbem("submit", orders, "--turn", game / "turn-0000.pbem", "--key", tmp_path / "us.key")
    pbem("adjudicate", game / "turn-0000.pbem", game / "orders-0000-US.pbem", "--key", tmp_path / "ref.key")
    jp = tmp_path / "jp-folder"
    jp.mkdir()
    shutil.copy(game / "turn-0000.pbem", jp)
    (jp / "turn-0001.pbem").write_text("<html>Attachment removed by your mail server</html>\n")
    said = pbem("status", jp, "--key", tmp_path / "jp.key", code=2)
    assert "turn-0001.pbem" in said and "fresh copy" in said
    assert "answering turn file 0" not in said and "pbem submit" not in said
    (jp / "turn-0001.pbem").write_text("")
    found = json.loads(pbem("status", jp, "--key", tmp_path / "jp.key", "--json", code=2))
    assert "turn-0001.pbem" in found["problem"] and "empty" in found["problem"] and not found["verified"]


def test_status_in_the_folder_above_the_game_looks_one_level_down(tmp_path):
    game = new_game(tmp_path)
    said = pbem("status", tmp_path, "--key", tmp_path / "us.key")
    assert f"no turn files in {tmp_path}; the game is in {game}" in said
    assert "You are US." in said
    assert json.loads(pbem("status", tmp_path, "--json"))["folder"] == str(game)


def test_status_mail_subject_carries_the_revision(tmp_path):
    game = new_game(tmp_path)
    told = status(game, tmp_path / "us.key")["next"]
    assert told["send"]["subject"].endswith("US orders answering turn file 0 (revision 1)")
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps(LANDING))
    said = pbem("submit", orders, "--turn", game / "turn-0000.pbem", "--key", tmp_path / "us.key")
    subject = next(line for line in said.splitlines() if "Subject:" in line).split("Subject:", 1)[1].strip()
    assert status(game, tmp_path / "us.key")["next"]["send"]["subject"] == subject
    orders.write_text(json.dumps({"moves": [{"unit": "us-7cav", "enter": "1105", "path": []}]}))
    said = pbem("submit", orders, "--turn", game / "turn-0000.pbem", "--key", tmp_path / "us.key", "--replace")
    subject = next(line for line in said.splitlines() if "Subject:" in line).split("Subject:", 1)[1].strip()
    assert status(game, tmp_path / "us.key")["next"]["send"]["subject"] == subject and subject.endswith("(revision 2)")
