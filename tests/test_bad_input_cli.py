"""Every "internal error" a player met in a week of play, reproduced from the command line.

Each was exit status 3 (a fault of pbem's own); each is bad input, so each
must be one line naming the file or argument, exit status 2, and nothing
left behind.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import games

SCENARIO = games.SKIRMISH
LANDING = games.LANDING


def pbem(*args, expect: int = 0) -> tuple[str, str]:
    """Run ``pbem ARGS`` in this process; its stdout and stderr, after checking the exit status."""
    status, out, err = games.run(*args)
    assert "Traceback" not in err and "internal error" not in err, err
    assert status == expect, f"pbem {' '.join(map(str, args))} -> {status}\n{out}\n{err}"
    if expect == 2 and err:  # bad input is one line on stderr (rule problems are listed on stdout)
        assert err.startswith("pbem: ") and len(err.strip().splitlines()) == 1, err
    return out, err


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    """Three unprotected identities and a started game, built once."""
    base = tmp_path_factory.mktemp("keys")
    games.small_game(base)
    return base


@pytest.fixture()
def here(keys, tmp_path, monkeypatch):
    """A fresh copy of the keys and the game, as the current folder."""
    copy = tmp_path / "here"
    shutil.copytree(keys, copy)
    monkeypatch.chdir(copy)
    return copy


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# -- orders files: what JSON allows but no orders file may hold ------------------

SURROGATE_UNIT = '{"moves": [{"unit": "us-7cav\\ud800", "enter": "1104", "path": []}]}'
SURROGATE_FOLLOW = ('{"moves": [{"unit": "us-7cav", "enter": "1104", "path": []}], "attacks": [{"attackers": ["us-7cav"], '
                    '"defenders": ["jp-1-9"], "advance": [{"unit": "us-7cav", "to": 1, "follow": "\\ud800"}]}]}')


@pytest.mark.parametrize("text", [SURROGATE_UNIT, SURROGATE_FOLLOW], ids=["unit-id", "advance-follow"])
def test_a_lone_surrogate_is_bad_input_for_every_command_that_reads_orders(here, text):
    orders = write(here / "orders.json", text)
    turn = "game/turn-0000.pbem"
    for args in (("validate", orders, "--turn", turn, "--key", "us.key"),
                 ("orders", "check", orders, "--position", "test-skirmish"),
                 ("submit", orders, "--turn", turn, "--key", "us.key")):
        _, err = pbem(*args, expect=2)
        assert "orders.json" in err and "lone surrogate" in err
    assert not list((here / "game").glob("orders-*"))


def test_duplicate_keys_are_refused_naming_the_key(here):
    orders = write(here / "orders.json", '{"moves": [{"unit": "us-7cav", "unit": "us-12cav", "enter": "1104", "path": []}]}')
    _, err = pbem("orders", "check", orders, "--position", "test-skirmish", expect=2)
    assert "'unit' appears twice" in err


def test_a_fraction_where_an_integer_belongs_is_refused_not_rounded(here):
    orders = write(here / "orders.json", json.dumps({"attacks": [{"attackers": ["us-7cav"], "gsp": 2.0, "defenders": ["jp-1-9"]}]}))
    out, _ = pbem("orders", "check", orders, "--position", "test-skirmish", expect=2)
    assert "attacks[0].gsp: 2.0 is not of type 'integer'" in out


def test_every_schema_error_is_reported_at_once_and_as_json(here):
    orders = write(here / "orders.json", json.dumps({"moves": [{"unit": "us-7cav", "path": [5], "speed": 1}],
                                                     "attacks": [{"gsp": -1, "defenders": []}]}))
    out, _ = pbem("orders", "check", orders, "--position", "test-skirmish", "--json", expect=2)
    report = json.loads(out)
    fields = sorted(e["message"].split(":")[0] for e in report["errors"])
    assert report["valid"] is False and {e["rule"] for e in report["errors"]} == {"schema"}
    assert fields == ["attacks[0].defenders", "attacks[0].gsp", "moves[0]", "moves[0].path[0]"]
    out, _ = pbem("validate", orders, "--turn", "game/turn-0000.pbem", "--key", "us.key", expect=2)
    assert "4 problem(s)" in out


def test_an_unknown_unit_gets_did_you_mean_and_invisible_characters_are_shown(here):
    orders = write(here / "orders.json", json.dumps({"moves": [{"unit": "us-7cv", "enter": "1104", "path": []},
                                                               {"unit": "us-12cav\u200b", "enter": "1103", "path": []}]}))
    out, _ = pbem("validate", orders, "--turn", "game/turn-0000.pbem", "--key", "us.key", expect=2)
    assert "there is no unit 'us-7cv' in this game. Did you mean 'us-7cav'" in out
    assert "us-12cav\\u200b" in out and "Did you mean 'us-12cav'?" in out and "\u200b" not in out


def test_an_unknown_unit_in_advance_follow_is_an_error(here):
    orders = write(here / "orders.json", json.dumps({"attacks": [{"attackers": ["us-7cav"], "defenders": ["jp-1-9"],
                                                                  "advance": [{"unit": "us-7cav", "to": 1, "follow": "jp-9"}]}]}))
    out, _ = pbem("orders", "check", orders, "--position", "test-skirmish", expect=2)
    assert "rule 7.9" in out and "there is no unit 'jp-9'" in out


def test_orders_check_takes_a_scenario_id_as_new_does(here):
    orders = write(here / "orders.json", json.dumps(LANDING))
    out, _ = pbem("orders", "check", orders, "--position", "test-skirmish")
    assert "orders are valid" in out
    _, err = pbem("orders", "check", orders, "--position", "no-such-scenario", expect=2)
    assert "test-skirmish" in err


def test_thousand_deep_json_to_case_run_is_a_malformed_case(here):
    deep = write(here / "deep.json", "[" * 1000 + "]" * 1000)
    shallow_but_deep = write(here / "case.json", '{"case": ' + "[" * 200 + "]" * 200 + "}")
    for case in (deep, shallow_but_deep):
        out, err = pbem("case", "run", case, expect=2)
        assert out.startswith("ERROR") and case.name in err and "nested deeper than 64 levels" in err


# -- writing files in places that cannot take them ------------------------------

def test_new_out_an_existing_file_or_an_unwritable_place(here):
    write(here / "afile", "")
    common = ("new", "test-skirmish", "--us", "us.pub", "--jp", "jp.pub", "--referee", "ref.pub", "--key", "ref.key")
    _, err = pbem(*common, "--out", "afile", expect=2)
    assert "afile: is a file" in err
    _, err = pbem(*common, "--out", "afile/game", expect=2)
    assert "cannot create the game folder" in err


def test_keygen_dir_an_existing_file(here):
    write(here / "afile", "")
    _, err = pbem("keygen", "zed", "--dir", "afile", "--no-passphrase", expect=2)
    assert "afile: is a file" in err
    assert not list(here.glob("zed.*"))


def test_schema_write_to_an_existing_file_or_a_folder_it_cannot_write(here):
    write(here / "afile", "")
    pbem("schema", "write", "afile", expect=2)
    (here / "schemas" / "orders.schema.json").mkdir(parents=True)  # a name the schema cannot take
    _, err = pbem("schema", "write", "schemas", expect=2)
    assert "orders.schema.json: cannot write" in err
    assert [p.name for p in (here / "schemas").iterdir()] == ["orders.schema.json"]


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes in read-only folders")
def test_schema_write_to_a_read_only_folder(here):
    folder = here / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        pbem("schema", "write", folder, expect=2)
    finally:
        folder.chmod(0o755)


def _submitted(here) -> Path:
    write(here / "orders.json", json.dumps(LANDING))
    pbem("submit", "orders.json", "--turn", "game/turn-0000.pbem", "--key", "us.key", "-o", "sent.pbem")
    return here / "sent.pbem"


def test_adjudicate_that_cannot_write_the_turn_file_keeps_no_orders_either(here):
    sent = _submitted(here)
    _, err = pbem("adjudicate", "game/turn-0000.pbem", sent, "--key", "ref.key", "-o", "nowhere/turn-0001.pbem", expect=2)
    assert "nowhere" in err
    # the player's receipt sits beside his turn file; no kept orders and no turn file were written
    assert sorted(p.name for p in (here / "game").iterdir() if p.suffix == ".pbem") == ["turn-0000.pbem"]


def test_adjudicate_elsewhere_when_the_game_folder_refuses_writes_writes_nothing(here, monkeypatch):
    """As with a read-only game folder, even for root: the kept copy of the orders cannot be written."""
    from pbem.errors import BadInput
    from pbem.protocol import files

    sent = _submitted(here)
    real = files.write_new

    def refusing(path, text, **kw):
        if Path(path).resolve().parent == (here / "game").resolve():
            raise BadInput("cannot write: Permission denied", file=str(path))
        return real(path, text, **kw)

    monkeypatch.setattr(files, "write_new", refusing)
    pbem("adjudicate", "game/turn-0000.pbem", sent, "--key", "ref.key", "-o", "turn-0001.pbem", expect=2)
    assert not (here / "turn-0001.pbem").exists()
    assert sorted(p.name for p in (here / "game").iterdir() if p.suffix == ".pbem") == ["turn-0000.pbem"]


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes in read-only folders")
def test_adjudicate_elsewhere_with_a_read_only_game_folder_writes_nothing(here):
    sent = _submitted(here)
    (here / "game").chmod(0o555)  # the player's receipt is already there, beside his turn file
    try:
        pbem("adjudicate", "game/turn-0000.pbem", sent, "--key", "ref.key", "-o", "turn-0001.pbem", expect=2)
    finally:
        (here / "game").chmod(0o755)
    assert not (here / "turn-0001.pbem").exists()


# -- reading what the referee signed --------------------------------------------

def _signed_with_view(here: Path, change, public=None) -> Path:
    """The genesis turn file re-signed by the referee with the US view changed by ``change`` (and ``public``)."""
    from pbem.protocol.dice import new_seed
    from pbem.protocol.files import write_new
    from pbem.protocol.keys import read_private
    from pbem.protocol.turnfile import build_turn, read_turn

    genesis = read_turn((here / "game" / "turn-0000.pbem").read_text())
    keys = {name: read_private(here / f"{name}.key", None) for name in ("ref", "us", "jp")}
    from pbem.protocol.turnfile import open_view

    views = {side: open_view(genesis, side, keys[side.lower()]) for side in ("US", "JP")}
    views["US"] = change(views["US"])
    turn = build_turn(keys["ref"], game=genesis.game, seq=0, scenario={"id": genesis.scenario_id, "hash": genesis.scenario_hash},
                      ruleset=genesis.ruleset, identities=genesis.identities, public=genesis.public if public is None else public, views=views,
                      referee_state={"state": None}, next_seed=new_seed())
    target = here / "forged" / "turn-0000.pbem"
    target.parent.mkdir()
    write_new(target, turn.text)
    return target


def _without_state(view):
    del view["state"]
    return view


def _bad_kind(view):
    view["state"]["units"][0]["kind"] = 7
    return view


def _bad_last(view):
    view["last"] = {"side": "US"}
    return view


@pytest.mark.parametrize("change", [_without_state, _bad_kind, _bad_last, lambda view: []], ids=["no-state", "bad-kind", "bad-last", "a-list"])
def test_a_signed_turn_with_a_malformed_view_is_bad_input(here, change):
    turn = _signed_with_view(here, change)
    write(here / "orders.json", json.dumps(LANDING))
    for args in (("view", turn, "--key", "us.key"), ("orders", "template", turn, "--key", "us.key"),
                 ("validate", "orders.json", "--turn", turn, "--key", "us.key")):
        _, err = pbem(*args, expect=2)
        assert "turn-0000.pbem: the view sealed in this turn file is malformed" in err


@pytest.mark.parametrize("public", [[], {"scenario_document": 5}, {"awaiting": "US"}], ids=["a-list", "not-a-scenario", "no-scenario"])
def test_orders_template_on_a_signed_turn_whose_public_record_is_malformed(here, public):
    turn = _signed_with_view(here, lambda view: view, public)
    _, err = pbem("orders", "template", turn, "--key", "us.key", expect=2)
    assert "turn-0000.pbem" in err and "scenario" in err
    pbem("view", turn, "--key", "ref.key", expect=2)


def test_view_redirected_under_a_legacy_locale_writes_utf8(here):
    write(here / "us.json", json.dumps(LANDING))
    write(here / "jp.json", json.dumps({"moves": [{"unit": "jp-1-33", "path": ["0604"]}]}))
    for seq, side, key in ((0, "US", "us.key"), (1, "JP", "jp.key")):
        pbem("submit", f"{side.lower()}.json", "--turn", f"game/turn-{seq:04d}.pbem", "--key", key)
        pbem("adjudicate", f"game/turn-{seq:04d}.pbem", f"game/orders-{seq:04d}-{side}.pbem", "--key", "ref.key")
    env = dict(os.environ, PYTHONIOENCODING="cp1252", LC_ALL="C")
    with open(here / "v.txt", "wb") as sink:
        result = subprocess.run([sys.executable, "-m", "pbem", "view", "game/turn-0002.pbem", "--key", "us.key"],
                                stdout=sink, stderr=subprocess.PIPE, cwd=here, env=env)
    assert result.returncode == 0, result.stderr
    assert "jp-1-33 moved 0605 → 0604" in (here / "v.txt").read_bytes().decode("utf-8")


# -- verify says what it skipped --------------------------------------------------

def test_verify_names_every_file_named_like_a_turn_file_that_is_not_one(here):
    game = here / "game"
    sent = _submitted(here)
    (game / "turn-0001.pbem").write_bytes(b"")
    (game / "turn-0002.pbem").write_bytes(bytes(range(200, 256)))
    shutil.copy(sent, game / "turn-0003.pbem")
    _, err = pbem("verify", game, expect=2)
    assert "turn-0001.pbem (empty)" in err and "turn-0002.pbem (binary, not text)" in err
    assert "turn-0003.pbem (holds a PBEM ORDERS block, not a PBEM TURN block)" in err


def test_verify_of_an_empty_folder_is_bad_input_as_for_audit(here):
    (here / "empty").mkdir()
    _, err = pbem("verify", here / "empty", expect=2)
    assert "no turn files here" in err
    pbem("audit", here / "empty", "--key", "ref.key", expect=2)


# -- passphrases --------------------------------------------------------------------

def _env_run(cwd: Path, env_extra: dict, *args) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_PASSPHRASE")} | env_extra
    result = subprocess.run([sys.executable, "-m", "pbem", *map(str, args)], capture_output=True, text=True,
                            cwd=cwd, env=env, stdin=subprocess.DEVNULL)
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr
    return result


def test_keygen_honours_pbem_passphrase_and_refuses_a_short_one(tmp_path):
    from pbem.protocol.keys import passphrase_needed, read_private

    assert _env_run(tmp_path, {"PBEM_PASSPHRASE": "long enough words"}, "keygen", "alice").returncode == 0
    assert passphrase_needed(tmp_path / "alice.key")
    assert read_private(tmp_path / "alice.key", b"long enough words").name == "alice"
    short = _env_run(tmp_path, {"PBEM_PASSPHRASE": "pw"}, "keygen", "bob")
    assert short.returncode == 2 and "at least 8" in short.stderr and not list(tmp_path.glob("bob.*"))
    assert _env_run(tmp_path, {"PBEM_PASSPHRASE": "pw"}, "keygen", "carol", "--no-passphrase").returncode == 0


def test_each_key_opens_with_its_own_passphrase_variable(tmp_path):
    """Keys on one machine, each with its own passphrase and no terminal: PBEM_PASSPHRASE_<KEY> wins over PBEM_PASSPHRASE.

    (The audit no longer takes a player's key at all — issue 11 — so no command needs two keys today.)"""
    from pbem.game.modes.referee.start import start_game
    from pbem.protocol.files import write_new
    from pbem.protocol.keys import generate, write_private, write_public

    passphrases = {"ref": "referee's own words", "us": "the us player's words", "jp": "the jp player's words"}
    identities = {}
    for name, words in passphrases.items():
        identities[name] = generate(name)
        write_private(tmp_path / f"{name}.key", identities[name], words.encode(), scrypt_n=2**10)
        write_public(tmp_path / f"{name}.pub", identities[name])
    (tmp_path / "game").mkdir()
    genesis = start_game(str(SCENARIO), identities["ref"], identities["us"].public, identities["jp"].public)
    write_new(tmp_path / "game" / "turn-0000.pbem", genesis.text)
    env = {"PBEM_PASSPHRASE_REF": passphrases["ref"], "PBEM_PASSPHRASE_US": passphrases["us"], "PBEM_PASSPHRASE": passphrases["jp"]}
    result = _env_run(tmp_path, env, "audit", "game", "--key", "ref.key")
    assert result.returncode == 0, result.stderr
    seen = _env_run(tmp_path, env, "view", "game/turn-0000.pbem", "--key", "us.key")
    assert seen.returncode == 0, seen.stderr
    wrong = _env_run(tmp_path, {"PBEM_PASSPHRASE": passphrases["ref"]}, "view", "game/turn-0000.pbem", "--key", "us.key")
    assert wrong.returncode == 2 and "us.key" in wrong.stderr and "wrong passphrase" in wrong.stderr


def test_dice_of_an_empty_folder_and_adjudicate_of_an_empty_orders_file_are_bad_input(here):
    (here / "empty").mkdir()
    _, err = pbem("dice", here / "empty", expect=2)
    assert "no turn files here" in err
    write(here / "empty.pbem", "")
    _, err = pbem("adjudicate", "game/turn-0000.pbem", "empty.pbem", "--key", "ref.key", expect=2)
    assert "empty.pbem: the orders file is empty" in err
