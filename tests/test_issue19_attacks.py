"""Issue 19's attacks on the headline promises, each played as a hostile referee or a careful opponent would.

Items 2, 3, 4, 7 and 8 (item 9 is ``tests/protocol/test_jcs.py``; items 1, 5
and 6 are the hidden-units leak tests).  Each test plays the attack on a
real game (bots through the command line, three folders exchanging files)
and requires the check a party runs to name it.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import time
from pathlib import Path

import pytest

from tests.games import pbem, run
from tests.mail_game import play_by_mail


def _bots(side, turn: Path, key: Path, orders: Path, _view: dict) -> None:
    pbem("bot", turn, "--key", key, "-o", orders, "--seed", 0)


@pytest.fixture(scope="module")
def plain(tmp_path_factory) -> dict:
    base = tmp_path_factory.mktemp("plain")
    return play_by_mail(base, "test-skirmish", _bots)


@pytest.fixture(scope="module")
def hidden(tmp_path_factory) -> dict:
    base = tmp_path_factory.mktemp("hidden")
    return play_by_mail(base, "test-skirmish", _bots, new_args=("--option", "hidden-units"))


def _key(game: dict, name: str):
    from pbem.protocol.keys import read_private

    folder = {"ref": "ref", "us": "US", "jp": "JP"}[name]
    return read_private(game["folders"][folder] / f"{name}.key", None)


def _copy(game: dict, who: str, to: Path, *, upto: int | None = None) -> Path:
    """A copy of ``who``'s game folder (turn files after ``upto`` left out), with his key beside it."""
    source = game["folders"][who]
    shutil.copytree(source, to)
    if upto is not None:  # the game as it stood when turn file ``upto`` was the latest: later orders not yet written
        for path in (to / "game").iterdir():
            if path.name.startswith(("turn-", "orders-")) and int(path.name.split("-")[1].split(".")[0]) > upto:
                path.unlink()
    return to


def _public(path: Path) -> dict:
    from pbem.protocol.turnfile import parse_turn

    return parse_turn(path.read_text(), str(path)).public


def _resign(path: Path, referee, mutate) -> None:
    """As a dishonest referee: change a signed turn file's body and sign it again."""
    from pbem.protocol import parts, signing
    from pbem.protocol.armour import armour
    from pbem.protocol.turnfile import SIGN_CONTEXT, parse_turn

    original = parse_turn(path.read_text())
    body = copy.deepcopy(original.body)
    mutate(body)
    envelope = signing.sign(referee, body, SIGN_CONTEXT)
    payload = parts.join(envelope, [original.views["US"], original.views["JP"], original.referee_state])
    path.write_text(armour("TURN", payload, {"Game": body["game"], "Sequence": str(body["seq"])}))


def _forge(game: dict, folder: Path, seq: int, *, step=None, mutate=None, rolls: bool = True) -> None:
    """As a dishonest referee: adjudicate the orders answering turn ``seq - 1`` honestly, then write turn ``seq``
    into ``folder`` with ``step`` (another record) or ``mutate`` (applied to views, public record and state)."""
    from pbem.loading.turns import load_turn
    from pbem.game.adjudication import adjudicate_orders
    from pbem.protocol.dice import DiceStream, new_seed
    from pbem.protocol.turnfile import build_turn, open_referee_state

    ref = _key(game, "ref")
    refgame = game["folders"]["ref"] / "game"
    turn = load_turn(refgame / f"turn-{seq - 1:04d}.pbem")
    orders = next(refgame.glob(f"orders-{seq - 1:04d}-*.pbem"))
    done = adjudicate_orders(turn, orders.read_text(), str(orders), ref)
    record = step or done.step
    views, public, state = copy.deepcopy(record.views), copy.deepcopy(record.public), copy.deepcopy(record.referee_state)
    if mutate:
        mutate(views, public, state)
    dice = DiceStream(open_referee_state(turn, ref).next_seed, done.orders.salt)
    for roll in done.turn.dice.rolls if rolls else ():
        dice.roll(roll["purpose"])
    forged = build_turn(
        ref, game=turn.game, seq=seq, scenario={"id": turn.scenario_id, "hash": turn.scenario_hash},
        ruleset=turn.ruleset, identities=turn.identities, public=public, views=views, referee_state=state,
        next_seed=new_seed(), prev=turn, orders=done.orders.envelope, dice_used=dice,
    )
    target = folder / f"turn-{seq:04d}.pbem"
    target.unlink(missing_ok=True)
    target.write_text(forged.text)


def _turns_of(game: dict, side: str, *, combat: bool = False) -> list[int]:
    """The turn files adjudicating ``side``'s orders (with a resolved combat, if asked)."""
    found = []
    for path in sorted((game["folders"]["ref"] / "game").glob("turn-*.pbem")):
        last = _public(path).get("last") or {}
        if last.get("side") == side and last.get("valid") and (not combat or last.get("combats")):
            found.append(int(path.stem.split("-")[1]))
    return found


# Item 4: combat results checked against the table ---------------------------------------------------------


def _combat_turn(game: dict) -> tuple[int, dict]:
    for seq in _turns_of(game, "US", combat=True) + _turns_of(game, "JP", combat=True):
        path = game["folders"]["ref"] / "game" / f"turn-{seq:04d}.pbem"
        for combat in _public(path)["last"]["combats"]:
            if combat.get("status") == "resolved":
                return seq, combat
    raise AssertionError("no combat in the game")


@pytest.mark.parametrize("lie, words", [
    ("result", "the table (7.61) gives"),
    ("column", "column"),
    ("differential", "differential"),
])
def test_a_combat_result_the_table_does_not_give_fails_verify_during_the_game(plain, tmp_path, lie, words):
    seq, combat = _combat_turn(plain)
    folder = _copy(plain, "US", tmp_path / "us", upto=seq) / "game"

    def falsify(body):
        record = next(c for c in body["public"]["last"]["combats"] if c["index"] == combat["index"])
        if lie == "result":
            record["result"] = "Ae" if combat["result"] != "Ae" else "De"
        elif lie == "column":
            record["column"] = "-7" if combat["column"] != "-7" else "+10"
        else:
            record["differential"] = combat["differential"] + 20

    _resign(folder / f"turn-{seq:04d}.pbem", _key(plain, "ref"), falsify)
    status, out, err = run("verify", folder)
    assert status == 1, out + err
    line = next(line for line in out.splitlines() if f"combat {combat['index']}" in line and words in line)
    assert f"turn-{seq:04d}.pbem" in line


def test_an_honest_game_passes_the_combat_table_check(plain):
    status, out, err = run("verify", plain["folders"]["US"] / "game")
    assert status == 0, out + err


# Item 2: no re-roll by a false rejection of American orders ----------------------------------------------


def test_a_false_rejection_of_american_orders_under_hidden_units_is_flagged_by_his_replay_and_status(hidden, tmp_path):
    from pbem.game.codec import state_from_json
    from pbem.loading.turns import load_turn, scenario_of
    from pbem.game.step import record_step
    from pbem.game.views import last_turn_record
    from pbem.protocol.turnfile import open_referee_state

    seq = _turns_of(hidden, "US", combat=True)[0]
    folder = _copy(hidden, "US", tmp_path / "us", upto=seq - 1)
    before_turn = load_turn(hidden["folders"]["ref"] / "game" / f"turn-{seq - 1:04d}.pbem")
    before = state_from_json(open_referee_state(before_turn, _key(hidden, "ref")).state["state"])
    problem = {"rule": "7.12", "unit": None,
               "message": "the referee decides, because a target is hidden: on the true position these orders break 7.12"}
    last = last_turn_record("US", False, [problem], [], [])
    lie = record_step(before, game=before_turn.game, seq=seq, ruleset=before_turn.ruleset, over=False, last=last,
                      scenario_ref={"id": before_turn.scenario_id, "hash": before_turn.scenario_hash},
                      loaded=scenario_of(before_turn), before=before)
    _forge(hidden, folder / "game", seq, step=lie, rolls=False)
    assert run("verify", folder / "game")[0] == 0  # nothing public gives it away...
    status, out, err = run("verify", folder / "game", "--replay-mine", "--key", folder / "us.key")
    assert status == 1, out + err  # ...but re-judging the orders on his own view does
    assert f"turn-{seq:04d}.pbem" in out and "your view finds no problem in them" in out
    status, out, err = run("status", folder / "game", "--key", folder / "us.key")
    assert status == 1 and "DOES NOT VERIFY" in out and "your view finds no problem in them" in out


def test_every_american_verdict_is_rejudged_from_his_view_in_an_honest_game(hidden):
    us = hidden["folders"]["US"]
    status, out, err = run("verify", us / "game", "--replay-mine", "--key", us / "us.key")
    assert status == 0, out + err
    assert "re-judged" in out and "not replayed: under hidden units" not in out


def test_a_rejection_the_american_view_cannot_produce_is_never_signed(hidden, monkeypatch):
    """Should the true position ever find a problem in American orders that his view does not (no rule of Island War
    makes that possible, so the engine is made to here), pbem refuses to adjudicate rather than sign a rejection
    nobody can check."""
    from pbem.engine import adjudicator
    from pbem.engine.adjudicator import Adjudication
    from pbem.engine.problems import Problem
    from pbem.errors import PbemError
    from pbem.game import step as referee
    from pbem.game.codec import state_from_json
    from pbem.loading.turns import load_turn, scenario_of
    from pbem.protocol.dice import DiceStream
    from pbem.protocol.ordersfile import open_orders_for_turn
    from pbem.protocol.turnfile import open_referee_state

    seq = _turns_of(hidden, "US", combat=True)[0]
    refgame = hidden["folders"]["ref"] / "game"
    turn = load_turn(refgame / f"turn-{seq - 1:04d}.pbem")
    held = open_referee_state(turn, _key(hidden, "ref"))
    body = open_orders_for_turn(next(refgame.glob(f"orders-{seq - 1:04d}-US*.pbem")).read_text(), turn, _key(hidden, "ref"))
    state = state_from_json(held.state["state"])

    def play():
        return referee.play(scenario_of(turn), turn.ruleset, state, body.orders, DiceStream(held.next_seed, body.salt),
                            game=turn.game, seq=seq, scenario_ref={"id": turn.scenario_id, "hash": turn.scenario_hash},
                            source="orders")

    assert play().last["valid"] is True  # honestly, the orders are carried out
    hidden_only = Problem("7.12", "jp-1", "on the true position jp-1 must be attacked")
    # the modified engine: the SPI system (pbem/systems/spi) carries out a player-turn with it
    monkeypatch.setattr(adjudicator, "adjudicate", lambda *a, **k: Adjudication(False, (hidden_only,), (), (), state, 0))
    with pytest.raises(PbemError) as refused:
        play()
    assert "refuses to sign a rejection he cannot check" in refused.value.message and "jp-1" not in refused.value.render()


# Item 7: a lie in one player's view is caught at once ----------------------------------------------------


def test_a_lie_in_one_players_view_about_the_opponents_turn_is_caught_by_his_view_and_verify(plain, tmp_path):
    seq = _turns_of(plain, "JP")[0]
    folder = _copy(plain, "US", tmp_path / "us", upto=seq - 1)

    def lie(views, public, state):
        locations = views["US"]["state"]["locations"]
        unit = next(u["id"] for u in views["US"]["state"]["units"] if u["side"] == "JP" and len(locations[u["id"]]) == 4)
        hex_id = locations[unit]
        locations[unit] = f"{int(hex_id[:2]) % 9 + 1:02d}{hex_id[2:]}"

    _forge(plain, folder / "game", seq, mutate=lie)
    assert run("verify", folder / "game")[0] == 0  # the public record holds...
    status, out, err = run("view", folder / "game" / f"turn-{seq:04d}.pbem", "--key", folder / "us.key")
    assert status == 1 and "position" in err, out + err
    status, out, err = run("verify", folder / "game", "--replay-mine", "--key", folder / "us.key")
    assert status == 1 and f"turn-{seq:04d}.pbem" in out and "position" in out, out + err


def test_under_hidden_units_a_lie_in_the_american_view_is_caught_by_the_japanese_verify(hidden, tmp_path):
    from pbem.protocol.canonical import digest

    seq = _turns_of(hidden, "US")[0]  # the opponent's player-turn: the JP player does not replay it
    folder = _copy(hidden, "JP", tmp_path / "jp", upto=seq - 1)

    def lie(views, public, state):
        from pbem.game.position import shown_position

        units, locations = views["US"]["state"]["units"], views["US"]["state"]["locations"]
        markers = [u["id"] for u in units if u["kind"] == "hidden"]
        if markers:  # a hidden unit left out of his view
            del locations[markers[0]]
            views["US"]["state"]["units"] = [u for u in units if u["id"] != markers[0]]
        else:  # no marker on the map yet: a Japanese unit he sees, shown elsewhere
            unit = next(u["id"] for u in units if u["side"] == "JP" and len(locations[u["id"]]) == 4)
            locations[unit] = f"{int(locations[unit][:2]) % 9 + 1:02d}{locations[unit][2:]}"
        public["position"] = digest(shown_position(views["US"]["state"]))  # the public record agrees with the lie

    _forge(hidden, folder / "game", seq, mutate=lie)
    status, out, err = run("verify", folder / "game", "--replay-mine", "--key", folder / "jp.key")
    assert status == 1 and f"turn-{seq:04d}.pbem" in out and "position" in out, out + err


# Item 3: the audit cannot be cut short -------------------------------------------------------------------


@pytest.fixture()
def revealed(plain, tmp_path):
    from pbem.game.modes.referee.reveal import referee_reveal

    folder = _copy(plain, "ref", tmp_path / "ref") / "game"
    return folder, referee_reveal(folder, _key(plain, "ref"))


def _audit(folder: Path, reveal, signer, tmp_path: Path, name: str = "r.pbem"):
    from pbem.game.modes.referee.reveal import reveal_text

    (tmp_path / name).write_text(reveal_text(reveal, signer))
    return run("audit", folder, "--reveal", tmp_path / name)


def test_an_honest_referee_reveal_audits(plain, revealed, tmp_path):
    folder, reveal = revealed
    status, out, err = _audit(folder, reveal, _key(plain, "ref"), tmp_path)
    assert status == 0 and out.startswith(f"audited {plain['last']} adjudication(s)"), out + err


@pytest.mark.parametrize("cut, words", [
    ("state", "lacks its full state"),
    ("views", "lacks its view openings"),
    ("orders", "lacks the orders it adjudicated"),
    ("turn", "lacks turn file"),
    ("everything", "lacks turn file"),
])
def test_a_referee_reveal_that_leaves_something_out_fails_the_audit(plain, revealed, tmp_path, cut, words):
    folder, reveal = revealed
    if cut == "state":
        reveal.turns[2].state = None
    elif cut == "views":
        reveal.turns[2].view_nonces = None
    elif cut == "orders":
        reveal.turns[2].orders = None
    elif cut == "turn":
        del reveal.turns[2]
    else:
        reveal.turns.clear()
    status, out, err = _audit(folder, reveal, _key(plain, "ref"), tmp_path)
    assert status == 1, out + err
    assert words in out and "turn-0002.pbem" in out or (cut == "everything" and "turn-0000.pbem" in out)


def test_a_reveal_whose_by_is_not_its_signer_fails_the_audit(plain, revealed, tmp_path):
    folder, reveal = revealed
    reveal.by = "US"  # the referee passes his cut-down reveal off as a player's, who need not reveal everything
    for opening in reveal.turns.values():
        opening.state = opening.view_nonces = None
    status, out, err = _audit(folder, reveal, _key(plain, "ref"), tmp_path)
    assert status == 1 and "not by the US" in out, out + err


def test_an_audit_that_could_replay_nothing_does_not_pass(plain, tmp_path):
    us = _copy(plain, "US", tmp_path / "us")
    pbem("reveal", us / "game", "--key", us / "us.key", "-o", us / "mine.pbem")
    status, out, err = run("audit", us / "game", "--reveal", us / "mine.pbem")
    assert status == 1 and "not replayed" in out and "turn-0001.pbem" in out, out + err


def test_a_players_reveal_carries_only_his_own_openings_even_beside_the_opponents_receipts(plain, tmp_path):
    us = _copy(plain, "US", tmp_path / "us")
    for receipt in (plain["folders"]["JP"] / "game").glob("*.receipt"):
        shutil.copy(receipt, us / "game")
    pbem("reveal", us / "game", "--key", us / "us.key", "-o", us / "mine.pbem")
    pbem("reveal", plain["folders"]["ref"] / "game", "--key", plain["folders"]["ref"] / "ref.key", "-o", us / "ref.pbem")
    status, out, err = run("audit", us / "game", "--reveal", us / "ref.pbem", "--reveal", us / "mine.pbem")
    assert status == 0, out + err  # no false accusation of the JP player


def test_a_players_reveal_holding_the_opponents_view_fails_the_audit(plain, tmp_path):
    from pbem.game.modes.referee.reveal import player_reveal

    us = _copy(plain, "US", tmp_path / "us")
    reveal = player_reveal(us / "game", _key(plain, "us"))
    jp_reveal = player_reveal(plain["folders"]["JP"] / "game", _key(plain, "jp"))
    reveal.turns[1].views["JP"] = jp_reveal.turns[1].views["JP"]
    pbem("reveal", plain["folders"]["ref"] / "game", "--key", plain["folders"]["ref"] / "ref.key", "-o", us / "ref.pbem")
    from pbem.game.modes.referee.reveal import reveal_text

    (us / "mine.pbem").write_text(reveal_text(reveal, _key(plain, "us")))
    status, out, err = run("audit", us / "game", "--reveal", us / "ref.pbem", "--reveal", us / "mine.pbem")
    assert status == 1 and "only his own side's openings" in out, out + err


# Item 8: status checks no less; costly files and keys are refused before they cost ------------------------


def test_status_with_a_key_checks_what_view_checks(plain, tmp_path):
    seq = _turns_of(plain, "JP")[0]
    folder = _copy(plain, "US", tmp_path / "us", upto=seq - 1)

    def lie(views, public, state):
        views["US"]["awaiting"] = "JP" if public["awaiting"] == "US" else "US"  # "wait", while the public record says move

    _forge(plain, folder / "game", seq, mutate=lie)
    assert run("status", folder / "game")[0] == 0  # without a key nothing sealed is read
    status, out, err = run("status", folder / "game", "--key", folder / "us.key")
    assert status == 1 and "DOES NOT VERIFY" in out and "awaiting" in out, out + err


def test_a_key_file_demanding_sixteen_gib_of_scrypt_is_refused_at_once(plain, tmp_path):
    from pbem.protocol.keys import generate, private_file_text

    document = json.loads(private_file_text(generate("greedy"), b"a good passphrase", scrypt_n=2**10))
    document["kdf"].update(n=2**22, r=32)
    (tmp_path / "greedy.key").write_text(json.dumps(document))
    os.environ["PBEM_PASSPHRASE_GREEDY"] = "a good passphrase"
    try:
        started = time.monotonic()
        status, out, err = run("view", plain["folders"]["US"] / "game" / "turn-0000.pbem", "--key", tmp_path / "greedy.key")
    finally:
        del os.environ["PBEM_PASSPHRASE_GREEDY"]
    assert status == 2 and "greedy.key" in err and "scrypt" in err and "MiB" in err, out + err
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("what", ["orders", "turn", "folder"])
def test_a_300_mb_file_is_refused_before_it_is_read(plain, tmp_path, what):
    us = _copy(plain, "US", tmp_path / "us", upto=0)
    big = us / ("orders.json" if what == "orders" else "game/turn-0001.pbem" if what == "folder" else "big.pbem")
    with big.open("wb") as handle:
        handle.write(b"-----BEGIN PBEM TURN-----\n" if what != "orders" else b'{"moves": [')
        handle.truncate(300 * 1024 * 1024)
    started = time.monotonic()
    if what == "orders":
        status, out, err = run("validate", big, "--turn", us / "game" / "turn-0000.pbem", "--key", us / "us.key")
    elif what == "turn":
        status, out, err = run("verify", big)
    else:
        status, out, err = run("verify", us / "game")
    assert status == 2 and big.name in err and "MiB" in err, out + err
    assert time.monotonic() - started < 5

