"""An event audit never passes over a game with hidden units and no referee (issue 24 in an event).

Before, ``pbem audit EVENT`` found only folders of turn files: a blind game's
folder (``blind-NNNN-SIDE.pbem``) was not a game to it, so a tournament whose
games all ran without a referee would audit "every game holds" over nothing,
and a Japanese player who withheld his secret or published a false one would
go unnoticed.  Each game here is played by the bots through the real files
(the American player's folder, the one a tournament collects).
"""

from __future__ import annotations

import base64
import json
import os
import shutil
from pathlib import Path

import pytest

from pbem.bot.blind_demo import run_blind_demo
from pbem.game.modes.blind import files as blind_files
from pbem.protocol.passphrase import open_key
from pbem.protocol import blindfile
from tests.event_games import play_game
from tests.games import run

GREEDY = {"US": "greedy", "JP": "greedy"}


def _blind(base: Path, name: str, seed: int) -> Path:
    """A blind game played to its end with the secret published; the American player's folder, moved into the event."""
    played = run_blind_demo("test-skirmish", base / "played" / name, policies=GREEDY, seed=seed)
    assert not played.verify_findings and not played.audit_findings
    folder = base / "event" / name
    shutil.copytree(played.folders["US"], folder)
    return folder


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    base = tmp_path_factory.mktemp("blind-event")
    good = [_blind(base, f"b{i}", seed=i) for i in range(3)]
    play_game(base / "event" / "r0", "test-skirmish", seed=0)  # a refereed game beside them, with its reveal

    # The cheats' games are copies of good ones, each a game of its own in the event (the audit reads each folder
    # by itself), the secret then withheld or replaced: what is audited is the secret, not the play.
    withheld = base / "event" / "b-withheld"
    shutil.copytree(good[1], withheld)
    (withheld / blindfile.SECRET_NAME).unlink()  # the game is over and the Japanese player never published

    false = base / "event" / "b-false-secret"  # a secret, signed by him, that is not the one he committed to
    shutil.copytree(good[2], false)
    secret_path = false / blindfile.SECRET_NAME
    message = blindfile.read(secret_path.read_text(), str(secret_path))
    body = {k: v for k, v in message.body.items() if k not in ("format", "mode")}
    body["secret"] = base64.b64encode(os.urandom(32)).decode()
    secret_path.unlink()
    jp = open_key(base / "played" / "b2" / "jp.key", None)
    secret_path.write_text(blindfile.write(jp, body))

    unfinished = base / "event" / "b-unfinished"  # a game still being played: six files so far
    unfinished.mkdir()
    for path in blindfile.numbered_files(good[0])[:6]:
        shutil.copy(path, unfinished / path.name)
    return {"base": base, "root": base / "event", "good": good, "withheld": withheld, "false": false,
            "unfinished": unfinished}


def _audit(*args) -> tuple[int, dict]:
    code, out, err = run("audit", *args, "--json")
    assert "Traceback" not in err, err
    return code, json.loads(out)


def _games(report: dict) -> dict[str, dict]:
    return {Path(g["folder"]).name: g for g in report["games"]}


def test_blind_games_are_found_audited_and_hold(event):
    code, report = _audit(*event["good"], event["root"] / "r0")
    games = _games(report)
    assert code == 0, report
    assert set(games) == {"b0", "b1", "b2", "r0"}
    for name in ("b0", "b1", "b2"):
        held = blind_files.load(event["root"] / name)
        assert games[name]["verdict"] == "holds", games[name]
        assert games[name]["adjudications_replayed"] == len(held.record.publications) > 0


def test_a_withheld_secret_and_a_false_one_fail_their_games_naming_the_japanese_player(event):
    code, report = _audit(event["root"])
    games = _games(report)
    assert code == 1, report
    assert games["b-withheld"]["verdict"] == "failed"
    assert any("JP player withheld his secret" in f["problem"] for f in games["b-withheld"]["findings"]), games["b-withheld"]
    false = games["b-false-secret"]
    assert false["verdict"] == "failed" and false["findings"], false
    assert all(f["problem"].startswith("JP player") for f in false["findings"]), false
    assert "caught at the audit" in false["findings"][0]["problem"]
    assert games["b-unfinished"]["verdict"] == "not audited" and "not over" in games["b-unfinished"]["reason"]
    assert {g: games[g]["verdict"] for g in ("b0", "b1", "b2", "r0")} == dict.fromkeys(("b0", "b1", "b2", "r0"), "holds")


def test_the_text_report_names_each_blind_game_and_its_verdict(event):
    code, out, err = run("audit", event["root"])
    assert code == 1 and "Traceback" not in err
    assert "HOLDS" in out and "b0" in out
    assert "FAILED" in out and "b-withheld" in out and "b-false-secret" in out
    assert "NOT AUDITED" in out.upper() and "b-unfinished" in out


def test_a_damaged_blind_file_makes_the_event_unreadable_naming_the_file(event, tmp_path):
    root = tmp_path / "event"
    shutil.copytree(event["good"][1], root / "damaged")
    victim = blindfile.numbered_files(root / "damaged")[3]
    text = victim.read_text()
    victim.unlink()
    victim.write_text(text[: len(text) // 2])  # cut off in transit
    code, report = _audit(root)
    game = _games(report)["damaged"]
    assert code == 2 and game["verdict"] == "unreadable", report
    assert victim.name in json.dumps(game)


def test_the_event_dice_pool_the_blind_games_rolls(event):
    code, out, err = run("dice", *event["good"], "--json")
    assert code == 0 and "Traceback" not in err, err
    report = json.loads(out)
    expected = sum(len(pub.rolls) for g in event["good"] for pub in blind_files.load(g).record.publications)
    assert expected > 0
    assert report["totals"]["rolls"] == expected, report["totals"]
