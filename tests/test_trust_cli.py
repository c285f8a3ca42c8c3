"""Issue 11's attacks, run as a hostile referee or player would run them, each refused or detected.

A hostile referee has the honest pbem and his key, and can also write
whatever signed turn file he likes with the library (:func:`forge`); a
hostile player likewise.  Each test names the item of the issue it shows.
"""

from __future__ import annotations

import copy
import json
import shutil
import time
from pathlib import Path

from tests.test_threats_cli import ORDERS, ROOT, adjudicated, game, pbem, started  # noqa: F401  (fixtures)


def keys(base: Path):
    from pbem.protocol.keys import read_private

    return {name: read_private(base / f"{name}.key", None) for name in ("ref", "us", "jp")}


def forge(base: Path, path: Path, *, step=None, mutate=None, seq: int = 0, orders_file: str = "game/orders-0000-US.pbem",
          superseded: list | None = None) -> None:
    """As a dishonest referee: adjudicate ``orders_file`` on turn ``seq`` honestly, then write turn ``seq + 1``
    with ``step`` (a changed record) or ``mutate`` (applied to the views, public record and state) instead."""
    from pbem.loading.turns import load_turn
    from pbem.game.adjudication import adjudicate_orders
    from pbem.protocol.dice import DiceStream, new_seed
    from pbem.protocol.files import write_new
    from pbem.protocol.turnfile import build_turn, open_referee_state

    ref = keys(base)["ref"]
    turn = load_turn(base / "game" / f"turn-{seq:04d}.pbem")
    done = adjudicate_orders(turn, (base / orders_file).read_text(), orders_file, ref)
    record = step or done.step
    views, public, state = copy.deepcopy(record.views), copy.deepcopy(record.public), copy.deepcopy(record.referee_state)
    if mutate:
        mutate(views, public, state)
    dice = DiceStream(open_referee_state(turn, ref).next_seed, done.orders.salt)
    for roll in done.turn.dice.rolls:
        dice.roll(roll["purpose"])
    forged = build_turn(
        ref, game=turn.game, seq=turn.seq + 1, scenario={"id": turn.scenario_id, "hash": turn.scenario_hash},
        ruleset=turn.ruleset, identities=turn.identities, public=public, views=views, referee_state=state,
        next_seed=new_seed(), prev=turn, orders=done.orders.envelope, dice_used=dice, superseded=superseded,
    )
    write_new(path, forged.text)


def resign(base: Path, path: Path, mutate) -> None:
    """As a dishonest referee: change a signed turn file's body and sign it again."""
    from pbem.protocol import parts, signing
    from pbem.protocol.armour import armour
    from pbem.protocol.turnfile import SIGN_CONTEXT, parse_turn

    original = parse_turn(path.read_text())
    body = copy.deepcopy(original.body)
    mutate(body)
    envelope = signing.sign(keys(base)["ref"], body, SIGN_CONTEXT)
    payload = parts.join(envelope, [original.views["US"], original.views["JP"], original.referee_state])
    path.write_text(armour("TURN", payload, {"Game": body["game"], "Sequence": str(body["seq"])}))


def turn(path: Path):
    from pbem.protocol.turnfile import parse_turn

    return parse_turn(path.read_text(), str(path))


# 11.1 ---------------------------------------------------------------------------------------------


def test_a_resend_after_damaged_in_transit_rolls_the_same_dice(game):
    pbem(game, "adjudicate", "game/turn-0000.pbem", "game/orders-0000-US.pbem", "--key", "ref.key", "-o", "scratch.pbem")
    # "Your file arrived damaged, please send it again."  The player submits the same orders again.
    again = pbem(game, "submit", "orders.json", "--turn", "game/turn-0000.pbem", "--key", "us.key")
    assert "revision 1 already" in again.stdout and "send this file again" in again.stdout
    (game / "resent.pbem").write_text((game / "game" / "orders-0000-US.pbem").read_text())
    pbem(game, "adjudicate", "game/turn-0000.pbem", "resent.pbem", "--key", "ref.key")
    scratch, real = turn(game / "scratch.pbem"), turn(game / "game" / "turn-0001.pbem")
    assert (real.orders, real.dice.salt, real.dice.rolls) == (scratch.orders, scratch.dice.salt, scratch.dice.rolls)


def test_different_orders_need_a_new_revision_which_every_check_names(game):
    (game / "changed.json").write_text(json.dumps({"moves": [{"unit": "us-7cav", "enter": "1105", "path": []}]}))
    refused = pbem(game, "submit", "changed.json", "--turn", "game/turn-0000.pbem", "--key", "us.key", expect=2)
    assert "orders-0000-US.receipt" in refused.stderr and "--replace" in refused.stderr
    pbem(game, "submit", "changed.json", "--turn", "game/turn-0000.pbem", "--key", "us.key", "--replace")
    # The referee takes revision 1 anyway (its dice suited him better), saying revision 2 never came: the player is told.
    adjudicated(game)
    result = pbem(game, "verify", "game")
    assert "adjudicated your revision 1 (orders-0000-US.pbem); your later revision 2 did not reach the referee by his account" in result.stdout
    assert json.loads(pbem(game, "verify", "--json", "game").stdout)["notes"]


def test_a_referee_who_lists_a_later_revision_but_takes_an_earlier_one_fails_verify(game):
    from pbem.loading.turns import load_turn
    from pbem.protocol.ordersfile import build_orders_for_turn

    later = build_orders_for_turn(keys(game)["us"], load_turn(game / "game" / "turn-0000.pbem"), "US",
                                  {"moves": [{"unit": "us-7cav", "enter": "1105", "path": []}]}, revision=2)
    forge(game, game / "game" / "turn-0001.pbem", superseded=[later.envelope])
    result = pbem(game, "verify", "game", expect=1)
    assert "turn-0001.pbem" in result.stdout and "received US revision 2 but adjudicated the earlier revision 1" in result.stdout


def test_the_referee_given_every_revision_adjudicates_the_latest_and_lists_the_rest(game):
    (game / "changed.json").write_text(json.dumps({"moves": [{"unit": "us-7cav", "enter": "1105", "path": []}]}))
    pbem(game, "submit", "changed.json", "--turn", "game/turn-0000.pbem", "--key", "us.key", "--replace")
    done = pbem(game, "adjudicate", "game/turn-0000.pbem", "game/orders-0000-US-r2.pbem", "game/orders-0000-US.pbem", "--key", "ref.key")
    assert "revision 2, superseding 1" in done.stdout
    following = turn(game / "game" / "turn-0001.pbem")
    assert following.orders_header["body"]["revision"] == 2 and [h["body"]["revision"] for h in following.superseded] == [1]
    assert "lists revision(s) 1 as received" in pbem(game, "verify", "game").stdout


# 11.2 ---------------------------------------------------------------------------------------------


def test_the_audit_never_takes_a_players_key(game):
    adjudicated(game)
    result = pbem(game, "audit", "game", "--key", "us.key", expect=2)
    assert "never takes a player's key" in result.stderr and "us.key" in result.stderr


def test_a_player_proves_a_lying_view_by_revealing_it_alone(game):
    def lie(views, public, state):
        views["US"]["awaiting"] = "US"  # "you move again", while the public record says JP

    forge(game, game / "game" / "turn-0001.pbem", mutate=lie)
    seen = pbem(game, "view", "game/turn-0001.pbem", "--key", "us.key", expect=1)
    assert "turn-0001.pbem" in seen.stderr and "does not match the signed public record" in seen.stderr
    pbem(game, "reveal", "game", "--key", "us.key", "-o", "us-reveal.pbem")
    # A third party, with the folder and that reveal only:
    judge = game / "judge"
    judge.mkdir()
    for path in (game / "game").glob("turn-*.pbem"):
        shutil.copy(path, judge)
    result = pbem(game, "audit", judge, "--reveal", "us-reveal.pbem", expect=1)
    assert "turn-0001.pbem" in result.stdout and "the US view signed by the referee (its commitment in this file) disagrees with the public record signed by the referee" in result.stdout


def test_a_forged_opening_in_a_reveal_file_is_caught(game):
    from pbem.game.modes.referee.reveal import read_reveal, reveal_text

    adjudicated(game)
    pbem(game, "reveal", "game", "--key", "ref.key", "-o", "reveal.pbem")
    pbem(game, "audit", "game", "--reveal", "reveal.pbem")
    reveal = read_reveal(game / "reveal.pbem")
    nonce, state = reveal.turns[1].state
    state["state"]["position"]["gsp"] = {"US": 99, "JP": 0}
    (game / "forged.pbem").write_text(reveal_text(reveal, keys(game)["ref"]))
    result = pbem(game, "audit", "game", "--reveal", "forged.pbem", expect=1)
    assert "turn-0001.pbem" in result.stdout and "the full state of turn file 1 as this reveal (signed by the referee) opens it does not match the commitment signed by the referee" in result.stdout


# 11.3 ---------------------------------------------------------------------------------------------


def test_a_fork_shows_in_the_players_verify(game):
    from pbem.loading.turns import load_turn
    from pbem.protocol.files import write_new
    from pbem.protocol.ordersfile import build_orders_for_turn

    # The referee adjudicates the US orders twice: history A for the US player, history B for the JP player.
    adjudicated(game)
    (game / "fork-b").mkdir()
    shutil.copy(game / "game" / "turn-0000.pbem", game / "fork-b")
    pbem(game, "adjudicate", "fork-b/turn-0000.pbem", "game/orders-0000-US.pbem", "--key", "ref.key")
    jp = keys(game)["jp"]
    write_new(game / "fork-b" / "orders-0001-JP.pbem",
              build_orders_for_turn(jp, load_turn(game / "fork-b" / "turn-0001.pbem"), "JP", {"moves": []}).text)
    # To history A he appends the JP orders, which answer B's turn file 1.
    shutil.copy(game / "fork-b" / "orders-0001-JP.pbem", game / "game")
    _forge_across(game)
    result = pbem(game, "verify", "game", expect=1)
    assert "turn-0002.pbem" in result.stdout and "fork: the JP orders it adjudicates answer turn file 1" in result.stdout


def _forge_across(game: Path) -> None:
    """History A's turn file 2, from JP orders that answered history B's turn file 1."""
    from pbem.loading.turns import load_turn
    from pbem.game.adjudication import adjudicate_orders
    from pbem.protocol.dice import DiceStream, new_seed
    from pbem.protocol.files import write_new
    from pbem.protocol.turnfile import build_turn, open_referee_state

    ref = keys(game)["ref"]
    turn_b, turn_a = load_turn(game / "fork-b" / "turn-0001.pbem"), load_turn(game / "game" / "turn-0001.pbem")
    done = adjudicate_orders(turn_b, (game / "game" / "orders-0001-JP.pbem").read_text(), "jp", ref)
    dice = DiceStream(open_referee_state(turn_a, ref).next_seed, done.orders.salt)
    forged = build_turn(
        ref, game=turn_a.game, seq=2, scenario={"id": turn_a.scenario_id, "hash": turn_a.scenario_hash},
        ruleset=turn_a.ruleset, identities=turn_a.identities, public=done.step.public, views=done.step.views,
        referee_state=done.step.referee_state, next_seed=new_seed(), prev=turn_a, orders=done.orders.envelope, dice_used=dice,
    )
    write_new(game / "game" / "turn-0002.pbem", forged.text)


def test_verify_names_the_game_and_the_referee_so_a_strangers_game_never_verifies_the_same(game):
    ours = pbem(game, "verify", "game").stdout
    pbem(game, "new", ROOT / "scenarios" / "test-skirmish.json", "--us", "us.pub", "--jp", "jp.pub",
         "--referee", "stranger.pub", "--key", "stranger.key", "--out", "other")
    theirs = pbem(game, "verify", "other").stdout
    assert turn(game / "game" / "turn-0000.pbem").game in ours and "referee ref (fingerprint" in ours
    assert turn(game / "other" / "turn-0000.pbem").game in theirs and "referee stranger (fingerprint" in theirs


# 11.4 ---------------------------------------------------------------------------------------------


def test_a_public_combat_record_that_does_not_show_the_die_rolled_fails_verify(game):
    path = adjudicated(game)

    def fake_combat(body):
        body["public"]["last"]["combats"] = [{"index": 1, "status": "resolved", "die": 6, "result": "DE"}]

    resign(game, path, fake_combat)
    result = pbem(game, "verify", "game", expect=1)
    assert "turn-0001.pbem" in result.stdout and "combat 1 shows die 6, but no roll was made for it" in result.stdout


def test_valid_orders_falsely_rejected_show_in_the_players_replay(game):
    from pbem.game.codec import state_from_json
    from pbem.loading.turns import load_turn, scenario_of
    from pbem.game.step import record_step
    from pbem.game.views import last_turn_record
    from pbem.protocol.turnfile import open_referee_state

    genesis = load_turn(game / "game" / "turn-0000.pbem")
    before = state_from_json(open_referee_state(genesis, keys(game)["ref"]).state["state"])
    last = last_turn_record("US", False, [{"rule": "12.21", "unit": "us-7cav", "message": "1104 is not a beach"}], [], [])
    lie = record_step(before, game=genesis.game, seq=1, scenario_ref={"id": genesis.scenario_id, "hash": genesis.scenario_hash},
                      ruleset=genesis.ruleset, over=False, last=last, loaded=scenario_of(genesis))
    forge(game, game / "game" / "turn-0001.pbem", step=lie)
    pbem(game, "verify", "game")  # nothing public gives it away...
    result = pbem(game, "verify", "game", "--replay-mine", "--key", "us.key", expect=1)  # ...but the replay does
    assert "turn-0001.pbem" in result.stdout and "the public record is not what your orders give" in result.stdout


# 11.5 ---------------------------------------------------------------------------------------------


def test_a_turn_file_switching_the_ruleset_fails_verify(game):
    path = adjudicated(game)
    resign(game, path, lambda body: body["ruleset"].update(edition="spi-1975"))
    result = pbem(game, "verify", "game", expect=1)
    assert "turn-0001.pbem" in result.stdout and "switches the ruleset" in result.stdout
    played_on = pbem(game, "view", path, "--key", "jp.key", expect=1)
    assert "turn-0001.pbem" in played_on.stderr and "another ruleset" in played_on.stderr


def test_a_modified_scenario_under_a_real_id_is_refused(game):
    scenario = json.loads((ROOT / "scenarios" / "test-skirmish.json").read_text())
    scenario["title"] += " (with a stronger US landing force)"
    (game / "mine.json").write_text(json.dumps(scenario))
    result = pbem(game, "new", "mine.json", "--us", "us.pub", "--jp", "jp.pub", "--referee", "ref.pub",
                  "--key", "ref.key", "--out", "other", expect=2)
    assert "mine.json" in result.stderr and "is not the test-skirmish pbem ships" in result.stderr


# 11.6 ---------------------------------------------------------------------------------------------


def _outer(game: Path, sealed: bytes) -> str:
    from pbem.protocol import parts
    from pbem.protocol.armour import armour
    from pbem.protocol.ordersfile import FORMAT

    genesis = turn(game / "game" / "turn-0000.pbem")
    outer = {"format": FORMAT, "game": genesis.game, "answers": {"seq": 0, "turn": genesis.digest}, "side": "US",
             "revision": 1, "sealed": parts.descriptor(sealed)}
    return armour("ORDERS", parts.join(outer, [sealed]), {})


def test_an_unsigned_orders_bomb_is_refused_before_anything_inflates(game):
    from pbem.protocol.ordersfile import orders_info
    from pbem.protocol.sealing import seal

    genesis = turn(game / "game" / "turn-0000.pbem")
    info = orders_info(genesis.game, {"seq": 0, "turn": genesis.digest}, "US", 1)
    for name, plaintext, compress in (("zip.pbem", b"\0" * (64 << 20), True), ("big.pbem", b"\0" * (400 << 10), False)):
        (game / name).write_text(_outer(game, seal(plaintext, genesis.identities["referee"], info, compress=compress)))
        started_at = time.monotonic()
        result = pbem(game, "adjudicate", "game/turn-0000.pbem", name, "--key", "ref.key", expect=2)
        assert time.monotonic() - started_at < 20 and name in result.stderr
    assert not (game / "game" / "turn-0001.pbem").exists()


def test_signed_orders_too_large_to_adjudicate_are_rejected_at_once(game):
    from pbem.loading.turns import load_turn
    from pbem.protocol.files import write_new
    from pbem.protocol.ordersfile import build_orders_for_turn

    bomb = {"moves": [{"unit": "us-7cav", "enter": "1104", "path": ["1104"] * 2000}] * 3}
    write_new(game / "bomb.pbem", build_orders_for_turn(keys(game)["us"], load_turn(game / "game" / "turn-0000.pbem"), "US", bomb).text)
    result = pbem(game, "adjudicate", "game/turn-0000.pbem", "bomb.pbem", "--key", "ref.key")
    assert "REJECTED" in result.stdout and "limits" in result.stdout
    assert (game / "game" / "turn-0001.pbem").stat().st_size < 50_000


def test_a_sequence_number_of_ten_billion_does_not_hang_verify(game):
    path = adjudicated(game)
    resign(game, path, lambda body: body.update(seq=10**10))
    started_at = time.monotonic()
    result = pbem(game, "verify", "game", expect=1)
    assert time.monotonic() - started_at < 20 and "turn-0001.pbem" in result.stdout


# 11.7 ---------------------------------------------------------------------------------------------


def test_orders_headers_are_checked_against_the_content(game):
    from pbem.protocol.armour import armour, dearmour

    path = game / "game" / "orders-0000-US.pbem"
    _, headers, payload = dearmour(path.read_text(), "ORDERS", "o")
    path.write_text(armour("ORDERS", payload, {**headers, "Answers": "7"}))
    result = pbem(game, "adjudicate", "game/turn-0000.pbem", path, "--key", "ref.key", expect=2)
    assert "orders-0000-US.pbem" in result.stderr and "header says Answers: 7" in result.stderr


def test_the_problems_of_rejected_orders_go_only_to_their_writer(game):
    (game / "bad.json").write_text(json.dumps({"moves": [{"unit": "us-7cav", "enter": "1104", "path": ["1204", "1304", "1404", "1504"]}]}))
    from pbem.loading.turns import load_turn
    from pbem.protocol.files import write_new
    from pbem.protocol.ordersfile import build_orders_for_turn

    (game / "game" / "orders-0000-US.receipt").unlink()
    bad = json.loads((game / "bad.json").read_text())
    write_new(game / "bad.pbem", build_orders_for_turn(keys(game)["us"], load_turn(game / "game" / "turn-0000.pbem"), "US", bad, revision=2).text)
    assert "REJECTED" in pbem(game, "adjudicate", "game/turn-0000.pbem", "bad.pbem", "--key", "ref.key").stdout
    us = json.loads(pbem(game, "view", "game/turn-0001.pbem", "--key", "us.key", "--json").stdout)
    jp = json.loads(pbem(game, "view", "game/turn-0001.pbem", "--key", "jp.key", "--json").stdout)
    assert us["last"]["problems"] and not jp["last"]["problems"]
    assert jp["last"]["problems_withheld"] == len(us["last"]["problems"])
    assert "1204" not in json.dumps(jp)


def test_no_local_path_of_the_referee_enters_a_signed_record(game):
    """Issue 15: orders refused by the schema are named by what they are, so two referees' records agree."""
    from pbem.loading.turns import load_turn
    from pbem.protocol.files import write_new
    from pbem.protocol.ordersfile import build_orders_for_turn

    (game / "game" / "orders-0000-US.receipt").unlink()
    inbox = game / "referee's inbox"
    inbox.mkdir()
    nonsense = {"moves": "all of them"}
    write_new(inbox / "mail.pbem", build_orders_for_turn(keys(game)["us"], load_turn(game / "game" / "turn-0000.pbem"), "US", nonsense).text)
    pbem(game, "adjudicate", "game/turn-0000.pbem", inbox / "mail.pbem", "--key", "ref.key")
    us = pbem(game, "view", "game/turn-0001.pbem", "--key", "us.key", "--json").stdout
    problems = json.loads(us)["last"]["problems"]
    assert problems and "orders-0000-US.pbem" in problems[0]["message"]
    assert "inbox" not in us and str(game) not in us
    pbem(game, "reveal", "game", "--key", "ref.key", "-o", "reveal.pbem")
    pbem(game, "audit", "game", "--reveal", "reveal.pbem")


def test_a_player_answering_two_turn_files_with_one_number_is_told_at_submit(game):
    (game / "fork-b").mkdir()
    shutil.copy(game / "game" / "turn-0000.pbem", game / "fork-b")
    pbem(game, "adjudicate", "fork-b/turn-0000.pbem", "game/orders-0000-US.pbem", "--key", "ref.key")
    pbem(game, "adjudicate", "game/turn-0000.pbem", "game/orders-0000-US.pbem", "--key", "ref.key")
    (game / "jp.json").write_text(json.dumps({"moves": []}))
    pbem(game, "submit", "jp.json", "--turn", "game/turn-0001.pbem", "--key", "jp.key")
    shutil.copy(game / "fork-b" / "turn-0001.pbem", game / "game" / "turn-0001-again.pbem")
    result = pbem(game, "submit", "jp.json", "--turn", "game/turn-0001-again.pbem", "--key", "jp.key", expect=2)
    assert "orders-0001-JP.receipt" in result.stderr and "two different turn files with one number" in result.stderr


def test_limits_bound_what_the_engine_sees_and_what_a_rejection_records():
    from pbem.game.limits import MAX_LIST, MAX_PROBLEMS, capped, size_problem

    assert size_problem({"moves": [{"unit": "a", "path": []}] * 3}, units=3) is None
    assert "4 moves" in size_problem({"moves": [{"unit": "a", "path": []}] * 4}, units=3)
    assert f"more than {MAX_LIST}" in size_problem({"attacks": [{"defenders": ["x"] * (MAX_LIST + 1)}]}, units=3)
    many = [{"rule": "5.1", "unit": None, "message": str(i)} for i in range(MAX_PROBLEMS + 10)]
    kept = capped(many)
    assert len(kept) == MAX_PROBLEMS and kept[-1]["message"] == "and 11 more problem(s)"
    assert capped(many[:3]) == many[:3]


def test_a_signed_public_record_of_the_wrong_shape_is_a_finding_not_a_crash(game):
    path = adjudicated(game)
    resign(game, path, lambda body: body.update(public=["not", "a", "record"]))
    result = pbem(game, "verify", "game", expect=1)
    assert "turn-0001.pbem" in result.stdout and "not an object" in result.stdout
