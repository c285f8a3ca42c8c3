"""``pbem view``, ``show`` and ``dice`` on a game with hidden units and no referee (issue 24).

The game is one ``pbem demo --no-referee --option hidden-units --seed 1`` on
the test scenario, made once for the module; each player runs the commands
in his own folder, as he would after ``pbem blind next``.  The observer's
test: under 19B the American player may learn where the markers stand, never
which unit (or dummy) a marker is until a rule exposes it — so no identity
the Japanese player's own view holds and the American view does not may
appear anywhere in what the American player's commands print or write.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.games import run

SCENARIO = "test-skirmish"


def pbem(*args, code: int = 0) -> str:
    status, out, err = run(*args)
    assert "Traceback" not in err, err
    assert "no turn files" not in out + err
    assert status == code, f"pbem {' '.join(map(str, args))} -> {status}\n{out}\n{err}"
    return out + err


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("blind-commands") / "demo"
    pbem("demo", "--scenario", SCENARIO, "--no-referee", "--option", "hidden-units", "--seed", "1", "--dir", base)
    return base


def steps(game: Path) -> list[int]:
    """The published steps: file 2k (the Japanese player's) publishes step k."""
    return [int(p.name[6:10]) // 2 for p in sorted((game / "US").glob("blind-[0-9]*-JP.pbem")) if p.name[6:10] != "0000"]


def view_json(game: Path, side: str, step: int) -> dict:
    return json.loads(pbem("view", game / side / f"blind-{2 * step:04d}-JP.pbem", "--key", game / f"{side.lower()}.key", "--json"))


def ids_of(view: dict, side: str) -> set[str]:
    return {u["id"] for u in view["state"]["units"] if u["side"] == side}


def hidden_from_us(game: Path, step: int) -> tuple[set[str], dict, dict]:
    """The Japanese identities the Japanese view holds and the view published to the American player names nowhere
    (not as a unit, nor in an event: 19B.3 names a unit seen moving through clear terrain, though it ends hidden)."""
    from pbem.game.modes.blind.files import load
    from pbem.game.modes.blind.run import _names

    published = load(game / "US").record.publications[step - 1].view
    us, jp = view_json(game, "US", step), view_json(game, "JP", step)
    return ids_of(jp, "JP") - _names(published), us, jp


def test_the_american_view_is_the_published_one_and_the_japanese_view_his_own_units(game):
    from pbem.game.modes.blind.files import load
    from pbem.game.modes.blind.run import markers_of

    held = load(game / "US")
    assert len(steps(game)) == len(held.record.publications) >= 5
    for step in steps(game):
        hidden, us, jp = hidden_from_us(game, step)
        published = held.record.publications[step - 1].view
        assert {k: v for k, v in us.items() if k != "outlook"} == published  # the markers he was sent, checked on arrival
        assert us["side"] == "US" and jp["side"] == "JP"
        # the Japanese player sees a unit of his own (a real one or a dummy) under every marker the American sees
        where = jp["state"]["locations"]
        assert set(markers_of(us)) <= {where[i] for i in ids_of(jp, "JP")}
    # after the set-up (19B.2) the dummies and the unexposed units are his to know alone
    hidden, _, jp = hidden_from_us(game, 1)
    assert {u["id"] for u in jp["state"]["units"] if u.get("kind") == "dummy"} <= hidden
    assert hidden
    # the latest view is the one 'pbem blind view' prints
    latest = json.loads(pbem("view", game / "US", "--key", game / "us.key", "--json"))
    assert {k: v for k, v in latest.items() if k != "outlook"} == json.loads(pbem("blind", "view", game / "US"))


def test_no_hidden_identity_reaches_what_the_american_player_reads_or_draws(game, tmp_path):
    checked = 0
    for step in (1, 3, steps(game)[-1]):
        hidden, _, _ = hidden_from_us(game, step)
        if not hidden:
            continue
        checked += 1
        turn = game / "US" / f"blind-{2 * step:04d}-JP.pbem"
        key = game / "us.key"
        said = {
            "view": pbem("view", turn, "--key", key),
            "show": pbem("show", turn, "--key", key, "--plain"),
        }
        pbem("show", turn, "--key", key, "--svg", tmp_path / "us.svg", "--html", tmp_path / "us.html")
        said["svg"], said["html"] = (tmp_path / "us.svg").read_text(), (tmp_path / "us.html").read_text()
        for what, text in said.items():
            leaked = sorted(i for i in hidden if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text))
            assert not leaked, f"step {step}: the American {what} names {leaked}"
        assert "hidden" in said["show"] and "?" in said["show"]  # the markers are drawn, as markers
        # and the same command in the Japanese player's folder names them
        jp_show = pbem("show", game / "JP" / turn.name, "--key", game / "jp.key", "--plain")
        assert hidden <= set(re.findall(r"(?:jp|JP)-[\w-]+", jp_show)), step
    assert checked >= 2  # the set-up's dummies and unexposed units at least


def test_dice_lists_every_published_roll_with_the_seed_and_salt_that_make_it(game):
    from pbem.game.modes.blind.files import load
    from pbem.protocol import dice
    from pbem.protocol.canonical import b64d

    held = load(game / "US")
    report = json.loads(pbem("dice", game / "US", "--json"))
    assert [(r["seq"], r["n"], r["value"]) for r in report["rolls"]] == [
        (p.seq, r["n"], r["value"]) for p in held.record.publications for r in p.rolls]
    assert report["rolls"] and sum(report["counts"].values()) == len(report["rolls"])
    for step in report["steps"]:  # anyone recomputes each step's rolls from the seed and salt the report prints
        purposes = [r["purpose"] for r in report["rolls"] if r["seq"] == step["seq"]]
        values = [r["value"] for r in report["rolls"] if r["seq"] == step["seq"]]
        assert step["rolls"] == len(values)
        if values:
            assert dice.recompute(b64d(step["seed"]), b64d(step["salt"]), purposes) == values
        assert step["seed_from"] != step["salt_from"]  # neither player chose both halves
    text = pbem("dice", game / "US")
    assert len(re.findall(r"^step +\d+ +roll +\d+ +[1-6] ", text, re.M)) == len(report["rolls"])
    assert f"{len(report['rolls'])} roll(s)" in text and "chi-square" in text
    assert pbem("dice", game / "JP", "--json") == pbem("dice", game / "US", "--json")  # both folders hold the same rolls


def test_dice_refuses_a_folder_whose_files_do_not_verify(game, tmp_path):
    """A roll the Japanese player changed in his own file, signed by him: caught, naming him (exit 1, as verify)."""
    from pbem.protocol import blindfile
    from pbem.protocol.keys import read_private

    folder = tmp_path / "US"
    shutil.copytree(game / "US", folder)
    report = json.loads(pbem("dice", folder, "--json"))
    seq = report["rolls"][-1]["seq"]  # the last step with a roll: its file is the last one kept
    for later in folder.glob("blind-*.pbem"):
        if later.name == blindfile.SECRET_NAME or int(later.name[6:10]) > 2 * seq:
            later.unlink()
    path = folder / blindfile.file_name(2 * seq)
    message = blindfile.read(path.read_text(), str(path))
    body = {k: v for k, v in message.body.items() if k not in ("format", "mode")}
    body["publication"]["rolls"][0]["value"] = body["publication"]["rolls"][0]["value"] % 6 + 1
    path.write_text(blindfile.write(read_private(game / "jp.key", None), body))
    said = pbem("dice", folder, code=1)
    assert "JP" in said and f"step {seq}" in said and "rolls" in said
    pbem("dice", game / "US")  # the honest folder still lists them


def test_a_damaged_file_is_refused_naming_it(game, tmp_path):
    folder = tmp_path / "US"
    shutil.copytree(game / "US", folder)
    path = folder / "blind-0006-JP.pbem"
    lines = path.read_text().splitlines()
    body = max(range(len(lines)), key=lambda i: len(lines[i]))  # a line of the armoured payload
    lines[body] = lines[body][:10] + ("A" if lines[body][10] != "A" else "B") + lines[body][11:]
    path.write_text("\n".join(lines) + "\n")
    for args in (("dice", folder), ("view", folder, "--key", game / "us.key"), ("show", path, "--key", game / "us.key")):
        assert "blind-0006-JP.pbem" in pbem(*args, code=2)


def test_refusals_name_the_file_and_what_to_do(game, tmp_path):
    pbem("keygen", "zed", "--no-passphrase", "--dir", tmp_path)
    said = pbem("view", game / "US", "--key", tmp_path / "zed.key", code=2)
    assert "neither player of this game" in said
    said = pbem("show", game / "US" / "blind-0001-US.pbem", "--key", game / "us.key", code=2)
    assert "nothing is played yet" in said and "blind-0002-JP.pbem" in said
    said = pbem("view", game / "US" / "blind-0099-JP.pbem", "--key", game / "us.key", code=2)
    assert "no such file" in said
    # the Japanese view is replayed from his secret: a folder without it (and without the published one) cannot give it
    folder = tmp_path / "copy"
    shutil.copytree(game / "US", folder)
    (folder / "blind-secret-JP.pbem").unlink()
    said = pbem("view", folder, "--key", game / "jp.key", code=2)
    assert "blind-private-JP.json" in said
    # with the secret published at the end, the Japanese view can be replayed from any copy of the folder
    jp = json.loads(pbem("view", game / "US", "--key", game / "jp.key", "--json"))
    assert jp == json.loads(pbem("view", game / "JP", "--key", game / "jp.key", "--json"))
