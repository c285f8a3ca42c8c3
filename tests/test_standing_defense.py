"""The defender's standing choices in a player's orders (issue 13 item 1, I1).

A side writes a ``defense`` block in its orders; the referee keeps it in the
position and applies it to the enemy's next player-turn only, then drops it.
The same dice on the same position show the written choices changing the
outcome the policy would have given (docs/policies.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.loading.datafiles import find_scenario, scenario_document, scenario_from
from pbem.engine.dice import FixedDice
from pbem.engine.sequence import opening
from pbem.game.codec import state_from_json, state_to_json
from pbem.game.narrate import describe
from pbem.game.step import play

SKIRMISH = Path(__file__).resolve().parent.parent / "scenarios" / "test-skirmish.json"
# JP infantry in clear 0807, its battery in range at 0609 (the other battalion out of the way); the US cavalry
# two hexes off, to close in and attack.
PLACES = {"jp-1-9": "0807", "jp-art-22": "0609", "jp-2-9": "0304", "us-7cav": "1007", "us-12cav": "1008"}
US_ATTACK = {
    "moves": [{"unit": "us-7cav", "path": ["0907"]}, {"unit": "us-12cav", "path": ["0908"]}],
    "attacks": [{"attackers": ["us-7cav", "us-12cav"], "defenders": ["jp-1-9"]}],
}


@pytest.fixture(scope="module")
def loaded():
    path = find_scenario(str(SKIRMISH))
    return scenario_from(scenario_document(path), Path(path))


def _rules(loaded, edition: str) -> dict:
    return loaded.scenario.ruleset.model_dump(mode="json") | {"edition": edition}


def _jp_to_move(loaded):
    state = opening(loaded.scenario)
    return state.model_copy(update={
        "locations": state.locations | PLACES,
        "position": state.position.model_copy(update={"phasing": "JP"}),
    })


def _step(loaded, state, orders, dice=(), edition="spi-1975", seq=1):
    return play(loaded, _rules(loaded, edition), state, orders, FixedDice(list(dice)), game="g", seq=seq,
                scenario_ref={"id": "test-skirmish", "hash": "h"}, source="orders")


def _after_jp(loaded, defense):
    """JP's player-turn with ``defense`` in its orders (None: no block); then the US attack with a 2 rolled."""
    orders = {} if defense is None else {"defense": defense}
    jp = _step(loaded, _jp_to_move(loaded), orders)
    assert jp.last["valid"], jp.last["problems"]
    us = _step(loaded, jp.state, US_ATTACK, dice=[2], seq=2)
    assert us.last["valid"], us.last["problems"]
    return jp, us


def _choices(step):
    return [e for e in step.last["events"] if e["type"] in ("fpf", "retreated")]


def test_written_fpf_and_retreat_change_the_outcome_the_policy_gives(loaded):
    written = {"fpf": [], "retreats": [{"unit": "jp-1-9", "path": ["0708", "0709"]}]}
    _, policy = _after_jp(loaded, None)
    _, player = _after_jp(loaded, written)
    # The policy fires the battery (8.4): defense 3 + 3, and the 2 rolled gives D1 to the safest hex.
    assert [(e["type"], e["chosen_by"]) for e in _choices(policy)] == [("fpf", "system"), ("retreated", "system")]
    assert policy.last["combats"][0]["defense"] == 6 and policy.last["combats"][0]["result"] == "D1"
    # The JP player kept his guns silent: defense 3, the same 2 is D2, along the route he wrote (7.7).
    assert player.last["combats"][0]["defense"] == 3 and player.last["combats"][0]["result"] == "D2"
    assert describe(_choices(player)[0]).endswith("retreated 0807 → 0708 → 0709 (as written)")
    assert _choices(player) == [{"type": "retreated", "unit": "jp-1-9", "from": "0807", "path": ["0708", "0709"],
                                 "eliminated": False, "chosen_by": "player"}]
    assert player.state.locations["jp-1-9"] == "0709" != policy.state.locations["jp-1-9"]


def test_a_written_fpf_entry_is_followed_and_said_so(loaded):
    _, us = _after_jp(loaded, {"fpf": [{"artillery": "jp-art-22", "defender": "jp-1-9"}]})
    assert [(e["type"], e["chosen_by"]) for e in _choices(us)] == [("fpf", "player"), ("retreated", "system")]


def test_an_illegal_written_route_is_dropped_and_the_policy_retreats(loaded):
    # 0806 is next to us-7cav in 0907 once it has moved: a retreat may not enter an enemy-controlled hex (7.7).
    _, policy = _after_jp(loaded, {"fpf": []})
    _, dropped = _after_jp(loaded, {"fpf": [], "retreats": [{"unit": "jp-1-9", "path": ["0806", "0706"]}]})
    assert _choices(dropped) == _choices(policy)
    assert _choices(dropped)[0]["chosen_by"] == "system"


def test_the_block_is_kept_for_one_enemy_player_turn_and_shown_only_to_its_writer(loaded):
    defense = {"fpf": [], "retreats": [{"unit": "jp-1-9", "path": ["0708", "0709"]}]}
    jp, us = _after_jp(loaded, defense)
    assert jp.views["JP"]["state"]["standing"] == {"JP": defense}
    assert "standing" not in jp.views["US"]["state"]  # the enemy's plan is secret
    assert state_from_json(jp.referee_state["state"]) == jp.state  # the audit's replay sees it
    assert jp.state.standing["JP"].fpf == []
    assert us.state.standing == {}  # used up by the US player-turn
    assert "standing" not in state_to_json(us.state)


def test_rejected_orders_keep_nothing_new(loaded):
    start = _jp_to_move(loaded)
    bad = _step(loaded, start, {"defense": {"fpf": [{"artillery": "jp-1-9", "defender": "us-7cav"}]}})
    assert not bad.last["valid"]
    assert bad.state == start and bad.state.standing == {}
    found = {(p["rule"], p["unit"]) for p in bad.last["problems"]}
    assert found == {("8.4", "jp-1-9"), ("8.4", "us-7cav")}


@pytest.mark.parametrize(("defense", "expected"), [
    ({"retreats": [{"unit": "us-7cav", "path": ["0708"]}]}, ("7.7", "us-7cav")),
    ({"retreats": [{"unit": "jp-1-9", "path": ["9999"]}]}, ("7.7", "jp-1-9")),
    ({"advances": [{"unit": "jp-1-9", "to": 1, "follow": "jp-1-33"}]}, ("7.9", "jp-1-9")),
    ({"gsp_fpf": [{"defender": "jp-1-9", "points": 1}]}, ("13.13", "jp-1-9")),
    ({"fpf": [{"artillery": "jp-nobody", "defender": "jp-1-9"}]}, ("8.4", "jp-nobody")),
])
def test_entries_that_cannot_be_the_writers_choice_are_refused_with_their_rule(loaded, defense, expected):
    step = _step(loaded, _jp_to_move(loaded), {"defense": defense})
    assert not step.last["valid"]
    assert [(p["rule"], p["unit"]) for p in step.last["problems"]] == [expected]


def test_dg_2009_refuses_each_choice_it_gives_to_the_system(loaded):
    defense = {"fpf": [], "gsp_fpf": [], "retreats": [], "advances": []}
    step = _step(loaded, _jp_to_move(loaded), {"defense": defense}, edition="dg-2009")
    assert not step.last["valid"]
    assert sorted(p["rule"] for p in step.last["problems"]) == ["4.1", "4.1", "7.62", "7.62"]
    assert all("dg-2009" in p["message"] for p in step.last["problems"])
    assert _step(loaded, _jp_to_move(loaded), {"defense": {}}, edition="dg-2009").last["valid"]  # an empty block leaves all to the system


def test_a_game_uses_the_japanese_players_written_fpf_and_retreat(tmp_path):
    """Signed orders files and turn files, as in a game by e-mail: JP checks its block with ``pbem validate``,
    the referee keeps it, and the US attack of the next player-turn follows it (the dice are the protocol's)."""
    import json

    from pbem.loading.turns import load_turn
    from pbem.game.adjudication import adjudicate_orders
    from pbem.game.modes.referee.start import start_game
    from pbem.protocol.files import write_new
    from pbem.protocol.keys import generate, write_private
    from pbem.protocol.ordersfile import build_orders_for_turn
    from tests.games import run

    ids = {name: generate(name) for name in ("ref", "us", "jp")}
    write_private(tmp_path / "jp.key", ids["jp"], None)
    folder = tmp_path / "game"
    folder.mkdir()

    def keep(seq, turn):
        write_new(folder / f"turn-{seq:04d}.pbem", turn.text)
        return load_turn(folder / f"turn-{seq:04d}.pbem")

    def answer(seq, turn, side, orders):
        sent = build_orders_for_turn(ids[side.lower()], turn, side, orders)
        done = adjudicate_orders(turn, sent.text, "orders", ids["ref"])
        assert done.step.last["valid"], done.step.last["problems"]
        return keep(seq, done.turn), done.step

    turn = keep(0, start_game(str(SKIRMISH), ids["ref"], ids["us"].public, ids["jp"].public, edition="spi-1975"))
    turn, _ = answer(1, turn, "US", {"moves": [{"unit": "us-7cav", "enter": "1104", "path": []}]})
    # JP brings its battery within range of jp-1-9 (8.42) and writes where its FPF and retreat go.
    written = {"fpf": [{"artillery": "jp-art-22", "defender": "jp-1-9"}], "retreats": [{"unit": "jp-1-9", "path": ["0804"]}]}
    jp_orders = {"moves": [{"unit": "jp-art-22", "path": ["0505", "0604"]}], "defense": written}
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(jp_orders | {"defense": {"fpf": [{"artillery": "us-7cav", "defender": "jp-1-9"}]}}))
    status, out, err = run("validate", wrong, "--turn", folder / "turn-0001.pbem", "--key", tmp_path / "jp.key")
    assert status == 2 and "defense.fpf[0]" in out + err and "8.4" in out + err
    right = tmp_path / "right.json"
    right.write_text(json.dumps(jp_orders))
    status, out, err = run("validate", right, "--turn", folder / "turn-0001.pbem", "--key", tmp_path / "jp.key")
    assert status == 0, out + err
    turn, kept = answer(2, turn, "JP", jp_orders)
    assert kept.views["JP"]["state"]["standing"]["JP"] == written and "standing" not in kept.views["US"]["state"]
    turn, attacked = answer(3, turn, "US", {"moves": [{"unit": "us-7cav", "path": ["1004"]}],
                                  "attacks": [{"attackers": ["us-7cav"], "defenders": ["jp-1-9"]}]})
    chosen = {e["type"]: e for e in attacked.last["events"] if "chosen_by" in e and "jp-1-9" in (e.get("unit"), e.get("defender"))}
    assert chosen["fpf"] == {"type": "fpf", "index": 1, "artillery": "jp-art-22", "defender": "jp-1-9", "points": 3, "chosen_by": "player"}
    assert attacked.last["combats"][0]["defense"] == 3 + 3
    if "retreated" in chosen:  # the die decides whether jp-1-9 retreats at all; when it does, one hex along its route
        assert chosen["retreated"]["path"] == ["0804"] and chosen["retreated"]["chosen_by"] == "player"
    assert attacked.state.standing == {}


def test_the_orders_template_offers_the_block_only_where_the_edition_leaves_it_to_the_player(loaded):
    from pbem.game.player import orders_template

    jp = _step(loaded, _jp_to_move(loaded), {})
    for edition, offered in (("spi-1975", True), ("dg-2009", False)):
        view = jp.views["US"] | {"ruleset": _rules(loaded, edition)}
        _, hints = orders_template(view, {})
        assert any('"defense"' in h for h in hints) is offered


def test_i26_a_forfeit_choice_is_kept_in_the_position_and_shown_only_to_its_writer(loaded):
    us_unit = next(u.id for u in loaded.scenario.units if u.side == "US")
    jp = _step(loaded, _jp_to_move(loaded), {"forfeit": us_unit})
    assert jp.last["valid"], jp.last["problems"]
    assert jp.state.forfeit == {"JP": us_unit}
    assert jp.views["JP"]["state"]["forfeit"] == {"JP": us_unit}
    assert "forfeit" not in jp.views["US"]["state"]  # his choice of which enemy unit to remove is his own
    assert state_from_json(jp.referee_state["state"]) == jp.state
    refused = _step(loaded, _jp_to_move(loaded), {"forfeit": us_unit}, edition="dg-2009")
    assert not refused.last["valid"] and [p["rule"] for p in refused.last["problems"]] == ["16.13"]
