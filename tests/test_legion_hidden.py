"""Legion 19B limited intelligence and Dummies as the hidden-units option, with a referee (issue 39).

The game layer asks the rules system what each side may know (pbem/systems/base.py, "hidden units"); the Legion room
answers from its 19B views (pbem/systems/legion/views.py).  These tests play the test island bot against bot through
the real files, and play the observer: two games that differ only in which hidden Japanese unit stands in a hex must
give the American player the same bytes.
"""

from __future__ import annotations

import json

import pytest

from pbem.bot.selfplay import SeededDice
from pbem.game.step import genesis_step, play
from pbem.protocol.canonical import canonical_bytes
from pbem.protocol.sealing import bucket_for
from pbem.systems import load_scenario, system_of

ISLAND = "legion-test-island"
REF = {"id": ISLAND, "hash": "selfplay"}


@pytest.fixture(scope="module")
def island():
    return load_scenario(ISLAND)


def test_a_refereed_hidden_units_demo_plays_verifies_and_audits(tmp_path):
    """``pbem demo --scenario legion-test-island --option hidden-units``, as a Leyte game plays: every turn file
    verified, the audit replays every adjudication and confirms every sealed view; the American views show markers."""
    from pbem.bot.demo import run_demo
    from pbem.loading.turns import open_turn
    from pbem.protocol.keys import read_private
    from pbem.protocol.turnfile import open_view

    done = run_demo(ISLAND, tmp_path, seed=3, options=["hidden-units"])
    assert not done.verify_findings and done.audit.ok, (done.verify_findings, done.audit.findings)
    assert done.player_turns >= 16 and done.audit.replayed == done.player_turns
    turn = open_turn(done.game / "turn-0000.pbem").turn  # the opening: every Japanese counter Hidden (19B.2)
    us = read_private(done.keys["US"], None)
    seen = open_view(turn, "US", us)
    japanese = [u for u in seen["state"]["units"] if u["side"] == "JP"]
    assert japanese and all(u["type"] == "hidden" and u["attack"] == 0 for u in japanese
                            if seen["state"]["locations"][u["id"]] not in ("eliminated", "removed"))
    assert not any(u["id"].startswith("jp-") for u in japanese)  # no identity: the marker's id is its hex
    from tests.games import run

    for side in ("US", "JP"):  # neither view is the whole position: each side's orders re-judged on his own (19B.1, 19B.2)
        status, out, err = run("verify", done.game, "--replay-mine", "--key", done.keys[side])
        assert status == 0 and "re-judged your orders on your own view" in out, out + err


def _opening_then_us_holds(loaded):
    """The opening, and the U.S. player-turn played holding (movement, then exploitation): the Japanese player moves."""
    ruleset = system_of(loaded).pinned_ruleset(loaded, None)
    step = genesis_step(loaded, {}, game="0" * 32, scenario_ref=REF, ruleset=ruleset, options=["hidden-units"])
    seq = 0
    while step.state.to_act() == "US":
        seq += 1
        step = play(loaded, ruleset, step.state, {}, SeededDice(f"us-{seq}"), game="0" * 32, seq=seq, scenario_ref=REF, source=f"step {seq}")
        assert step.last["valid"], step.last["problems"]
    return ruleset, step, seq


def _japanese_step(loaded, swap: bool):
    """The Japanese Movement Phase: either every unit holds, or the infantry battalion jp-3-135 (4-5-3, 0604) and the
    Dummy jp-d1 (0504) change places, through no Clear hex (19B.3) — the same hexes hold a Japanese counter after it,
    in 0604 a Dummy where the other game has a battalion (19B.6)."""
    ruleset, step, seq = _opening_then_us_holds(loaded)
    orders = {"moves": [{"units": ["jp-3-135"], "path": ["0504"]}, {"units": ["jp-d1"], "path": ["0604"]}]} if swap else {}
    after = play(loaded, ruleset, step.state, orders, SeededDice("jp"), game="0" * 32, seq=seq + 1, scenario_ref=REF, source="jp")
    assert after.last["valid"], after.last["problems"]
    return step, after


def test_the_american_cannot_tell_which_hidden_unit_stands_in_a_hex(island):
    """The leak test: two games that differ only in which Japanese counter (a 4-5-3 battalion or a Dummy) stands in
    0604 and 0504.  The American view, the public record (its position digest included) and the padded length of every
    sealed part are the same bytes; only the Japanese view and the referee's state differ."""
    _, held = _japanese_step(island, swap=False)
    _, swapped = _japanese_step(island, swap=True)
    assert held.state.locations["jp-3-135"] == "0604" and swapped.state.locations["jp-3-135"] == "0504"
    assert canonical_bytes(held.views["US"]) == canonical_bytes(swapped.views["US"])
    assert canonical_bytes(held.public) == canonical_bytes(swapped.public)
    assert canonical_bytes(held.views["JP"]) != canonical_bytes(swapped.views["JP"])  # the test can fail: they differ
    from pbem.game.sizes import sealed_bucket

    bucket = sealed_bucket(island.scenario, hidden=True, previous=None)
    for step in (held, swapped):  # every sealed part fits the public size, so every file is as long in both games
        for part in (step.views["US"], step.views["JP"], step.referee_state):
            assert bucket_for(canonical_bytes(part)) <= bucket
    text = json.dumps(held.views["US"])
    assert "jp-3-135" not in text and "jp-d1" not in text and "dummy" not in text


def test_a_hidden_unit_exposed_by_assault_is_named_and_the_rest_stay_markers(island):
    """19B.4: the defenders of an Assault are Exposed — the American view names them after it, and no other."""
    ruleset = system_of(island).pinned_ruleset(island, None)
    step = genesis_step(island, {}, game="0" * 32, scenario_ref=REF, ruleset=ruleset, options=["hidden-units"])
    from pbem.systems.legion.bot import orders_for

    orders = orders_for(step.views["US"], island)  # the bot plays from the American view: targets named by hex
    assert orders["attacks"], orders
    after = play(island, ruleset, step.state, orders, SeededDice("a"), game="0" * 32, seq=1, scenario_ref=REF, source="us")
    assert after.last["valid"], after.last["problems"]
    shown = {u["id"] for u in after.views["US"]["state"]["units"] if u["side"] == "JP" and u["type"] != "hidden"}
    assert shown <= set(after.state.exposed) | {u.id for u in after.state.units if not after.state.on_map(u.id)}
    hidden = [u for u in after.views["US"]["state"]["units"] if u["type"] == "hidden"]
    assert hidden and all(u["id"].split(".")[0] == after.views["US"]["state"]["locations"][u["id"]] for u in hidden)


def test_the_japanese_view_shows_a_us_stack_far_from_him_by_its_top_unit_only(island):
    """19B.1: a U.S. stack next to no Japanese unit shows the Japanese player its top unit (the highest current
    Defense Strength) and a marker for each unit beneath; the U.S. view shows all of them."""
    ruleset = system_of(island).pinned_ruleset(island, None)
    step = genesis_step(island, {}, game="0" * 32, scenario_ref=REF, ruleset=ruleset, options=["hidden-units"])
    orders = {"moves": [{"units": ["us-tk-a"], "path": ["0204", "0205"]}]}  # onto the artillery, far from any Japanese unit
    after = play(island, ruleset, step.state, orders, SeededDice("b"), game="0" * 32, seq=1, scenario_ref=REF, source="us")
    assert after.last["valid"], after.last["problems"]
    jp = after.views["JP"]["state"]
    at = [u for u in jp["units"] if jp["locations"][u["id"]] == "0205"]
    assert sorted(u["type"] for u in at) == ["hidden", "tank"]  # the tank (Defense 4) on top of the artillery (2)
    us = after.views["US"]["state"]
    assert sorted(u["id"] for u in us["units"] if us["locations"][u["id"]] == "0205") == ["us-art-10", "us-tk-a"]
    # both sides digest the same position from their own view (the public record's, checked at once)
    from pbem.game.record_checks import position_problems

    for side in ("US", "JP"):
        assert position_problems(after.views[side], after.public) == []
