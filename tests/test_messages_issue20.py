"""Messages a new user met in a whole game (issue 20), each played from the command line."""

from __future__ import annotations

import json
import shutil

from pbem.engine.engagement import cancellation
from tests.games import LANDING, run, small_game


def test_orders_saved_with_a_byte_order_mark_are_read(tmp_path):
    small_game(tmp_path)
    orders = tmp_path / "orders.json"
    orders.write_bytes(b"\xef\xbb\xbf" + json.dumps(LANDING).encode())  # Windows Notepad's "UTF-8"
    status, out, err = run("validate", orders, "--turn", tmp_path / "game" / "turn-0000.pbem", "--key", tmp_path / "us.key")
    assert status == 0 and "valid" in out, err
    status, out, err = run("orders", "check", orders, "--position", "test-skirmish")
    assert status == 0, err


def test_bot_over_an_existing_file_says_what_it_is_and_how_to_name_another(tmp_path):
    small_game(tmp_path)
    orders = tmp_path / "orders.json"
    orders.write_text("{}")
    status, _out, err = run("bot", tmp_path / "game" / "turn-0000.pbem", "--key", tmp_path / "us.key", "-o", orders)
    assert status == 2
    assert "game or key file" not in err
    assert "orders.json" in err and "already exists" in err and "-o" in err and "orders-0000-US.json" in err
    assert orders.read_text() == "{}"


def test_submit_and_bot_on_an_older_turn_file_warn_naming_the_latest(tmp_path):
    small_game(tmp_path, LANDING)
    game = tmp_path / "game"
    shutil.copy(game / "turn-0001.pbem", game / "turn-0001.pbem.bak")
    status, _out, err = run("bot", game / "turn-0000.pbem", "--key", tmp_path / "us.key")
    assert "warning" in err and "turn-0001.pbem" in err and "latest" in err
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps(LANDING))
    _status, _out, err = run("submit", orders, "--turn", game / "turn-0000.pbem", "--key", tmp_path / "us.key")
    assert "warning" in err and "turn-0001.pbem" in err
    _status, _out, err = run("bot", game / "turn-0001.pbem", "--key", tmp_path / "jp.key")
    assert "warning" not in err


def test_two_dummies_in_two_hexes_are_told_as_two():
    class State:
        dummies_removed = {"jp-d1": "2727", "jp-d2": "2828"}

    class Attack:
        defenders = ["jp-d1", "jp-d2"]

    said = cancellation(State(), Attack())
    assert said == "the units in 2727 and 2828 were dummies, exposed and removed (19B.6)"
    State.dummies_removed = {"jp-d1": "2727"}
    Attack.defenders = ["jp-d1"]
    assert cancellation(State(), Attack()) == "the unit in 2727 was a dummy, exposed and removed (19B.6)"


def test_naming_a_hidden_unit_by_its_id_says_it_is_hidden_and_to_name_its_hex(tmp_path):
    from tests.bot_games import play_bot_game

    game = play_bot_game(tmp_path, "test-skirmish", options=["hidden-units"], player_turns=1)
    turn = game / "turn-0001.pbem"
    status, out, _ = run("view", turn, "--key", tmp_path / "us.key", "--json")
    view = json.loads(out)
    assert view["awaiting"] == "US"
    hidden = [u for u in ("jp-1-9", "jp-2-9", "jp-1-33", "jp-art-22", "jp-16rcn", "jp-41") if u not in {x["id"] for x in view["state"]["units"]}]
    assert hidden, "some Japanese unit should be hidden from the American player"
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps({"moves": [], "attacks": [{"attackers": ["us-7cav"], "defenders": [hidden[0]]}]}))
    status, out, err = run("validate", orders, "--turn", turn, "--key", tmp_path / "us.key")
    said = out + err
    assert status == 2
    assert f"{hidden[0]} is hidden from you" in said and "name its hex" in said
    assert f"there is no unit '{hidden[0]}'" not in said and "Did you mean" not in said


def test_the_set_up_template_says_the_intelligence_dice_come_from_the_committed_seeds(tmp_path):
    from tests.bot_games import play_bot_game

    game = play_bot_game(tmp_path, "test-skirmish", options=["hidden-units"], player_turns=0)
    status, _out, err = run("orders", "template", game / "turn-0000.pbem", "--key", tmp_path / "jp.key")
    assert status == 0 and "2d6" in err
    assert "American player rolls" not in err and "committed seeds" in err


def _skirmish_us_to_move():
    from pbem.game.views import state_of_view
    from pbem.model.ruleset import Ruleset
    from tests.render_game import played_views

    board, views = played_views(2)
    view = views["US"]
    state = state_of_view(view)
    state = state.model_copy(update={"locations": state.locations | {"jp-2-9": "0905"}})  # two defenders, two hexes, both next to 1004
    return board, Ruleset(**view["ruleset"]), state


def test_a_move_typo_does_not_also_report_a_barrage_nobody_fires():
    from pbem.engine import hexes
    from pbem.engine.adjudicator import check_orders
    from pbem.model.orders import Orders

    board, rules, state = _skirmish_us_to_move()
    assert hexes.adjacent("1004", "0904") and hexes.adjacent("1004", "0905")
    good = Orders.model_validate({"moves": [{"unit": "us-7cav", "path": ["1004"]}],
                                  "attacks": [{"attackers": ["us-7cav"], "defenders": ["jp-1-9", "jp-2-9"]}]})
    assert not [p for p in check_orders(board, rules, state, good).problems if p.rule in ("7.15", "8.13")]
    typo = Orders.model_validate({"moves": [{"unit": "us-7cav", "path": ["1040"]}],
                                  "attacks": [{"attackers": ["us-7cav"], "defenders": ["jp-1-9", "jp-2-9"]}]})
    found = check_orders(board, rules, state, typo).problems
    assert not [p for p in found if p.rule == "8.13"], [str(p) for p in found]
    caused = [p for p in found if p.rule == "7.15"]
    assert caused and all("its move" in p.message for p in caused)


def test_fpf_is_told_under_the_combat_it_was_fired_in():
    from pbem.game.narrate import _last

    def combat(index, defender):
        return {"type": "combat", "index": index, "attackers": ["us-a"], "barrage": [], "gsp": 0, "defenders": [defender],
                "attack": 6, "defense": 3, "differential": 3, "terrain": "clear", "column": "+2,3", "die": 4, "result": "D1"}

    events = [combat(3, "jp-2-33-bn"), {"type": "fpf", "index": 4, "artillery": "jp-2-22-art", "defender": "jp-2-9-bn", "points": 3},
              combat(4, "jp-2-9-bn")]
    lines = [line.strip() for line in _last({"side": "US", "valid": True, "problems": [], "events": events})]
    told = [line for line in lines if line.startswith(("Combat", "jp-2-22-art"))]
    assert [t.split(":")[0] if t.startswith("Combat") else "fpf" for t in told] == ["Combat 3", "Combat 4", "fpf"]


def test_odds_against_a_hidden_marker_give_the_range_of_what_it_could_be(tmp_path):
    from pbem.loading.datafiles import load_scenario
    from tests.bot_games import play_bot_game

    game = play_bot_game(tmp_path, "leyte-assault", options=["hidden-units"], player_turns=1)
    turn = game / "turn-0001.pbem"
    view = json.loads(run("view", turn, "--key", tmp_path / "us.key", "--json")[1])
    markers = [u["id"] for u in view["state"]["units"] if u.get("kind") == "hidden" and view["state"]["locations"].get(u["id"], "x")[:1].isdigit()]
    assert markers
    seen = set(view["state"]["locations"])
    defenses = [u.defense for u in load_scenario("leyte-assault").scenario.units if u.side == "JP" and u.id not in seen]
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps({"moves": [], "attacks": [{"attackers": [], "barrage": [], "gsp": 1, "defenders": [markers[0]]}]}))
    _status, out, _ = run("validate", orders, "--turn", turn, "--key", tmp_path / "us.key", "--explain", "--json")
    weighed = json.loads(out)["odds"][0]
    assert weighed["defense_range"] == [min(defenses), max(defenses)]
    assert weighed["defense"] == max(defenses) and weighed["best_case"]["differential"] == 1 - min(defenses)


def test_a_move_over_its_allowance_shows_the_cost_of_each_step():
    from pbem.engine.adjudicator import check_orders
    from pbem.model.orders import Orders

    board, rules, state = _skirmish_us_to_move()
    path = ["1102", "1103", "1102", "1103", "1102", "1103", "1102"]
    found = check_orders(board, rules, state, Orders.model_validate({"moves": [{"unit": "us-12cav", "path": path}]})).problems
    over = [p for p in found if p.rule == "5.13"]
    assert over, [str(p) for p in found]
    message = over[0].message
    assert "more than its allowance" in message
    steps = message.split("(5.24): ", 1)[1].rstrip(".").split(", ")
    assert [s.split()[0] for s in steps] == path[: len(steps)]
    assert all(s.split()[-1].replace("/", "").isdigit() for s in steps)
