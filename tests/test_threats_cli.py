"""The threats of the design notes, as a user meets them at the command line.

The byte-level proofs (every single-byte change to any turn or orders file,
every bad signature, seed and roll) are in ``tests/protocol``; here each
threat is shown refused by the command a player or referee would run, with
the right exit status, a one-line reason, and nothing written.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ORDERS = {"moves": [{"unit": "us-7cav", "enter": "1104", "path": []}]}


def pbem(cwd: Path, *args, expect: int | None = 0) -> subprocess.CompletedProcess:
    env = dict(os.environ, PBEM_PASSPHRASE="a good passphrase")
    result = subprocess.run([sys.executable, "-m", "pbem", *map(str, args)], capture_output=True, text=True, cwd=cwd, env=env)
    assert "Traceback" not in result.stderr, result.stderr
    if expect is not None:
        assert result.returncode == expect, f"{args}: {result.returncode}\n{result.stdout}{result.stderr}"
    return result


@pytest.fixture(scope="module")
def started(tmp_path_factory):
    """Keys for three parties and a stranger, a new game, and the US player's first orders."""
    base = tmp_path_factory.mktemp("started")
    for name in ("ref", "us", "jp", "stranger"):
        pbem(base, "keygen", name, "--no-passphrase")
    pbem(base, "new", ROOT / "scenarios" / "test-skirmish.json", "--us", "us.pub", "--jp", "jp.pub",
         "--referee", "ref.pub", "--key", "ref.key", "--out", "game")
    (base / "orders.json").write_text(json.dumps(ORDERS))
    pbem(base, "submit", "orders.json", "--turn", "game/turn-0000.pbem", "--key", "us.key")
    return base


@pytest.fixture()
def game(started, tmp_path):
    """A fresh copy of the started game for each test to attack."""
    copy = tmp_path / "copy"
    shutil.copytree(started, copy)
    return copy


def adjudicated(game: Path) -> Path:
    pbem(game, "adjudicate", "game/turn-0000.pbem", "game/orders-0000-US.pbem", "--key", "ref.key")
    return game / "game" / "turn-0001.pbem"


def flip(path: Path, position: int) -> None:
    data = bytearray(path.read_bytes())
    data[position] ^= 0x01
    path.write_bytes(bytes(data))


def test_an_altered_turn_file_fails_verification_naming_it(game):
    from pbem.protocol.armour import armour, dearmour

    turn = adjudicated(game)
    # A forger recomputes the armour's checksum (anyone can); the signature still catches the change.
    kind, headers, payload = dearmour(turn.read_text(), "TURN", "t")
    altered = bytearray(payload)
    altered[len(altered) // 2] ^= 0x01
    turn.write_text(armour(kind, bytes(altered), headers))
    result = pbem(game, "verify", "game", expect=1)
    assert "NOT VERIFIED: first bad file" in result.stdout and "turn-0001.pbem" in result.stdout


def test_a_turn_file_damaged_in_transit_is_bad_input_not_a_failed_verification(game):
    turn = adjudicated(game)
    flip(turn, len(turn.read_bytes()) // 2)
    result = pbem(game, "verify", "game", expect=2)
    assert "turn-0001.pbem" in result.stderr and "damaged in transit" in result.stderr


def test_an_altered_orders_file_is_refused_and_nothing_is_written(game):
    orders = game / "game" / "orders-0000-US.pbem"
    flip(orders, len(orders.read_bytes()) // 2)
    result = pbem(game, "adjudicate", "game/turn-0000.pbem", orders, "--key", "ref.key", expect=None)
    assert result.returncode in (1, 2) and result.stderr.startswith("pbem: ")
    assert not (game / "game" / "turn-0001.pbem").exists()


def test_replayed_orders_are_refused(game):
    adjudicated(game)
    shutil.copy(game / "game" / "orders-0000-US.pbem", game / "replay.pbem")
    result = pbem(game, "adjudicate", "game/turn-0001.pbem", "replay.pbem", "--key", "ref.key", expect=2)
    assert "turn" in result.stderr and not (game / "game" / "turn-0002.pbem").exists()


def test_orders_from_the_wrong_side_are_refused(game):
    turn = adjudicated(game)  # now it is JP's turn
    us_again = game / "us-again.json"
    us_again.write_text(json.dumps({"moves": []}))
    result = pbem(game, "submit", us_again, "--turn", turn, "--key", "us.key", expect=2)
    assert "it is JP's turn to move" in result.stderr


def test_a_turn_file_is_never_overwritten(game):
    adjudicated(game)
    result = pbem(game, "adjudicate", "game/turn-0000.pbem", "game/orders-0000-US.pbem", "--key", "ref.key", expect=2)
    assert "never overwritten" in result.stderr


def test_two_turn_files_with_one_number_are_both_reported(game):
    adjudicated(game)
    # A dishonest referee adjudicates the same turn twice, hoping to show each side a different story.
    (game / "other").mkdir()
    shutil.copy(game / "game" / "turn-0000.pbem", game / "other")
    pbem(game, "adjudicate", "other/turn-0000.pbem", "game/orders-0000-US.pbem", "--key", "ref.key", "-o", "game/turn-0001-b.pbem")
    result = pbem(game, "verify", "game", expect=1)
    assert "turn-0001.pbem" in result.stdout and "turn-0001-b.pbem" in result.stdout


def test_a_stranger_cannot_open_a_view(game):
    result = pbem(game, "view", "game/turn-0000.pbem", "--key", "stranger.key", expect=2)
    assert "not one of this game's three parties" in result.stderr


def test_each_side_opens_its_own_view_and_not_the_others(game):
    from pbem.errors import BadInput
    from pbem.loading.turns import load_turn
    from pbem.protocol.keys import read_private
    from pbem.protocol.turnfile import open_view

    turn = load_turn(game / "game" / "turn-0000.pbem")
    jp = read_private(game / "jp.key", None)
    assert open_view(turn, "JP", jp)["side"] == "JP"
    with pytest.raises(BadInput):
        open_view(turn, "US", jp)
    assert "you are JP" in pbem(game, "view", "game/turn-0000.pbem", "--key", "jp.key").stdout


def test_the_players_receipt_catches_orders_swapped_by_the_referee(game):
    # Orders the player signed but never sent from this folder (drafts on his laptop, say) reach the
    # referee, who adjudicates those instead of the ones sent.
    shutil.copytree(game / "game", game / "laptop")
    (game / "laptop" / "orders-0000-US.receipt").unlink()
    (game / "other.json").write_text(json.dumps({"moves": [{"unit": "us-12cav", "enter": "1105", "path": []}]}))
    pbem(game, "submit", "other.json", "--turn", "laptop/turn-0000.pbem", "--key", "us.key", "-o", "draft.pbem")
    (game / "other.json").write_text(json.dumps({"moves": [{"unit": "us-12cav", "enter": "1106", "path": []}]}))
    pbem(game, "submit", "other.json", "--turn", "laptop/turn-0000.pbem", "--key", "us.key", "--replace", "-o", "draft2.pbem")
    pbem(game, "adjudicate", "game/turn-0000.pbem", "draft2.pbem", "--key", "ref.key")
    result = pbem(game, "verify", "game", expect=1)
    assert "none of yours (revisions 1 in orders-0000-US.receipt)" in result.stdout and "turn-0001.pbem" in result.stdout


def test_second_signed_orders_with_one_revision_are_named(game):
    # Two different signed orders both numbered revision 1 (drafts sent from two folders): whichever
    # the referee takes, the player's verify names the pair.
    shutil.copytree(game / "game", game / "laptop")
    (game / "laptop" / "orders-0000-US.receipt").unlink()
    (game / "other.json").write_text(json.dumps({"moves": [{"unit": "us-12cav", "enter": "1105", "path": []}]}))
    pbem(game, "submit", "other.json", "--turn", "laptop/turn-0000.pbem", "--key", "us.key", "-o", "draft.pbem")
    pbem(game, "adjudicate", "game/turn-0000.pbem", "draft.pbem", "--key", "ref.key")
    result = pbem(game, "verify", "game", expect=1)
    assert "second signed orders with revision 1" in result.stdout and "(orders-0000-US.pbem; receipt" in result.stdout


def test_invalid_orders_are_rejected_in_a_signed_turn_file_and_the_seed_is_spent(game):
    from pbem.loading.turns import load_turn
    from pbem.protocol.files import write_new
    from pbem.protocol.keys import read_private
    from pbem.protocol.ordersfile import build_orders_for_turn

    (game / "game" / "orders-0000-US.receipt").unlink()  # the player sends these orders instead
    turn = load_turn(game / "game" / "turn-0000.pbem")
    us = read_private(game / "us.key", None)
    bad = {"moves": [{"unit": "us-7cav", "enter": "0101", "path": []}]}  # not a beach (12.21)
    write_new(game / "bad.pbem", build_orders_for_turn(us, turn, "US", bad).text)
    result = pbem(game, "adjudicate", "game/turn-0000.pbem", "bad.pbem", "--key", "ref.key")
    assert "REJECTED" in result.stdout and "12.21" in result.stdout
    view = json.loads(pbem(game, "view", "game/turn-0001.pbem", "--key", "us.key", "--json").stdout)
    assert view["awaiting"] == "US" and view["last"]["valid"] is False
    assert view["state"]["locations"]["us-7cav"] == "offmap"
    pbem(game, "verify", "game")
    following = load_turn(game / "game" / "turn-0001.pbem")
    assert following.dice.revealed_seed is not None and following.dice.rolls == ()


def test_a_wrong_passphrase_is_one_line_and_exit_2(game):
    pbem(game, "keygen", "locked", "--passphrase-env", "PBEM_PASSPHRASE")
    env = dict(os.environ, PBEM_PASSPHRASE="wrong")
    result = subprocess.run([sys.executable, "-m", "pbem", "view", "game/turn-0000.pbem", "--key", "locked.key"],
                            capture_output=True, text=True, cwd=game, env=env)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
