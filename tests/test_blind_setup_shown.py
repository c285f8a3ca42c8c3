"""At step 0 of a game with hidden units and no referee, the Japanese player sees the set-up he committed (issue 24).

His genesis commits a root over what stands under each marker; before the
American seed and the intelligence roll (19B.7) make it final he should be
able to check it is the set-up he meant.  ``pbem new`` prints it, ``status``,
``view`` and ``blind view`` with his key show it again, rebuilt from his
private file and checked against the root; the American player's commands
show none of it.
"""

from __future__ import annotations

import json
import re

from tests.blind_games import SCENARIO, Player
from tests.games import pbem

SETUP = {"deployment": {"dummies": ["0204", "0304"], "units": {
    "jp-1-33": "0708", "jp-1-9": "0203", "jp-16rcn": "0605", "jp-2-9": "0607", "jp-art-22": "0507"}}}


def start(tmp_path) -> tuple[dict[str, Player], str]:
    players = {side: Player(tmp_path, side) for side in ("US", "JP")}
    jp, us = players["JP"], players["US"]
    (tmp_path / "setup.json").write_text(json.dumps(SETUP))
    said = pbem("new", SCENARIO, "--us", us.pub, "--jp", jp.pub, "--key", jp.key, "--out", jp.game, "--no-referee",
                "--option", "hidden-units", "--setup", tmp_path / "setup.json")
    us.game.mkdir()
    jp.mail("blind-0000-JP.pbem", us)
    return players, said


def under_markers(text: str) -> dict[str, str]:
    """The set-up lines of a command's output: hex → the unit id, or 'dummy'."""
    return dict(re.findall(r"^  (\d{4})  (dummy|jp-[\w-]+)", text, re.M))


EXPECTED = {**{h: "dummy" for h in SETUP["deployment"]["dummies"]},
            **{h: u for u, h in SETUP["deployment"]["units"].items()}}


def test_new_and_the_japanese_player_s_status_show_what_stands_under_each_marker_as_committed(tmp_path):
    players, said = start(tmp_path)
    jp, us = players["JP"], players["US"]
    assert "committed under each marker" in said and under_markers(said) == EXPECTED
    mine = jp.status()
    assert "your set-up as committed in blind-0000-JP.pbem" in mine and under_markers(mine) == EXPECTED
    # the same command in the American player's folder, with his key, says nothing of it
    theirs = us.status()
    assert under_markers(theirs) == {} and not any(u in theirs for u in SETUP["deployment"]["units"])


def test_the_japanese_view_before_step_1_is_his_committed_set_up_and_the_american_has_none(tmp_path):
    players, _ = start(tmp_path)
    jp, us = players["JP"], players["US"]
    view = json.loads(pbem("view", jp.game, "--key", jp.key, "--json"))
    where = view["state"]["locations"]
    assert view["side"] == "JP" and view["seq"] == 0
    assert {u: where[u] for u in SETUP["deployment"]["units"]} == SETUP["deployment"]["units"]
    dummies = sorted(where[u["id"]] for u in view["state"]["units"] if u["kind"] == "dummy")
    assert dummies == sorted(SETUP["deployment"]["dummies"])
    assert {k: v for k, v in view.items() if k != "outlook"} == json.loads(pbem("blind", "view", jp.game, "--key", jp.key))
    text = pbem("view", jp.game, "--key", jp.key)
    assert "your set-up as your genesis committed it" in text and "jp-art-22" in text
    said = pbem("view", us.game, "--key", us.key, code=2)
    assert "nothing is played yet" in said


def test_a_private_file_whose_set_up_is_not_the_committed_one_is_said_so(tmp_path):
    """His private file altered (two units traded): what it holds is not what the genesis committed, and he is told."""
    players, _ = start(tmp_path)
    jp = players["JP"]
    path = jp.game / "blind-private-JP.json"
    private = json.loads(path.read_text())
    units = private["orders"]["1"]["deployment"]["units"]
    units["jp-1-9"], units["jp-2-9"] = units["jp-2-9"], units["jp-1-9"]
    path.write_text(json.dumps(private))
    said = jp.status()
    assert "your committed set-up cannot be shown" in said and "not the one your genesis committed" in said
    assert under_markers(said) == {}
    said = pbem("view", jp.game, "--key", jp.key, code=1)
    assert "blind-private-JP.json" in said and "not the one your genesis committed" in said
