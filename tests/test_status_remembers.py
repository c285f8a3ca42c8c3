"""``pbem status --key`` remembers the player-turns it replayed and found right (issue 26), and nothing else.

Issue 19 item 8: status with the player's key checks what ``verify
--replay-mine`` checks.  It now keeps a record of the replays that found
nothing (:mod:`pbem.game.modes.referee.replayed`), so the next ``status`` need not replay
them; these tests play the referee who changes a remembered file, and the
one who plants a record of his own, and show both still caught.
"""

from __future__ import annotations

import json

from tests.test_threats_cli import adjudicated, game, pbem, started  # noqa: F401  (fixtures)
from tests.test_trust_cli import forge, keys

RECORD = ".pbem-replayed-US.json"


def _lie(game):
    """The referee's turn file 1 saying the US orders were rejected when they were valid (issue 19)."""
    from pbem.game.codec import state_from_json
    from pbem.loading.turns import load_turn, scenario_of
    from pbem.game.step import record_step
    from pbem.game.views import last_turn_record
    from pbem.protocol.turnfile import open_referee_state

    genesis = load_turn(game / "game" / "turn-0000.pbem")
    before = state_from_json(open_referee_state(genesis, keys(game)["ref"]).state["state"])
    last = last_turn_record("US", False, [{"rule": "12.21", "unit": "us-7cav", "message": "1104 is not a beach"}], [], [])
    return record_step(before, game=genesis.game, seq=1, scenario_ref={"id": genesis.scenario_id, "hash": genesis.scenario_hash},
                       ruleset=genesis.ruleset, over=False, last=last, loaded=scenario_of(genesis))


def test_a_second_status_does_not_replay_what_the_first_found_right(game):
    adjudicated(game)
    first = pbem(game, "status", "game", "--key", "us.key")
    assert "replayed 1 of your own player-turn(s)" in first.stdout and "earlier run" not in first.stdout
    record = json.loads((game / "game" / RECORD).read_text())
    assert record["format"] == "pbem-replayed-1" and len(record["marks"]) == 3  # one replay, two views
    second = pbem(game, "status", "game", "--key", "us.key")
    assert "replayed by an earlier run with your key and unchanged since: 1 of them" in second.stdout
    assert second.stdout.splitlines()[:4] == first.stdout.splitlines()[:4]


def test_a_remembered_turn_file_replaced_by_a_lie_is_replayed_and_caught(game):
    path = adjudicated(game)
    pbem(game, "status", "game", "--key", "us.key")  # the honest file, replayed and remembered
    lie = _lie(game)
    path.unlink()
    forge(game, path, step=lie)  # "a corrected copy": the player saves it over the first
    result = pbem(game, "status", "game", "--key", "us.key", expect=1)
    assert "DOES NOT VERIFY" in result.stdout and "the public record is not what your orders give" in result.stdout
    assert "earlier run" not in result.stdout


def test_a_record_planted_by_the_referee_skips_nothing(game):
    from pbem.loading.turns import load_turn
    from pbem.game.receipts import read_receipt
    from pbem.game.modes.referee.replayed import Replayed

    path = game / "game" / "turn-0001.pbem"
    forge(game, path, step=_lie(game))
    # The referee sends, beside his lie, a record he made with his own key (he has not the player's) ...
    lied = load_turn(path)
    document = read_receipt(game / "game" / "orders-0000-US.receipt")["revisions"][0]["document"]
    for name in ("ref", "jp"):
        planted = Replayed(game / "game", "US", keys(game)[name])
        planted.add(planted.mark(lied, document))
        for turn in (load_turn(game / "game" / "turn-0000.pbem"), lied):
            planted.add(planted.view_mark(turn))
        planted.save()
        # ... and the player's status replays the turn file all the same and catches it.
        result = pbem(game, "status", "game", "--key", "us.key", expect=1)
        assert "the public record is not what your orders give" in result.stdout and "earlier run" not in result.stdout
        mine = Replayed(game / "game", "US", keys(game)["us"])
        assert mine.mark(lied, document) not in mine.marks  # the lie's replay is not remembered


def test_a_mark_names_the_turn_file_the_orders_the_side_and_pbems_version(game, monkeypatch):
    from pbem.game.modes.referee import replayed
    from pbem.loading.turns import load_turn

    adjudicated(game)
    us = keys(game)["us"]
    turn0, turn1 = load_turn(game / "game" / "turn-0000.pbem"), load_turn(game / "game" / "turn-0001.pbem")
    record = replayed.Replayed(game / "game", "US", us)
    mark = record.mark(turn1, {"moves": []})
    assert mark != record.mark(turn0, {"moves": []})  # another turn file
    assert mark != record.mark(turn1, {"moves": [], "attacks": []})  # other orders
    assert mark != record.mark(turn1, None)  # the bot's orders for no moves received
    assert mark != replayed.Replayed(game / "game", "JP", us).mark(turn1, {"moves": []})  # the other side
    assert mark != replayed.Replayed(game / "game", "US", keys(game)["jp"]).mark(turn1, {"moves": []})  # another key
    assert record.view_mark(turn1) not in (mark, record.view_mark(turn0))
    monkeypatch.setattr(replayed, "__version__", "99.0")
    assert mark != record.mark(turn1, {"moves": []})  # a new pbem replays again


def test_an_unreadable_record_is_ignored_and_written_anew(game):
    adjudicated(game)
    (game / "game" / RECORD).write_text("{not json")
    result = pbem(game, "status", "game", "--key", "us.key")
    assert "replayed 1 of your own player-turn(s)" in result.stdout and "earlier run" not in result.stdout
    assert json.loads((game / "game" / RECORD).read_text())["format"] == "pbem-replayed-1"
