"""The Legion rules' worked examples and rule cases, straight on the room's pure functions (issue 39).

Each test names the rule case; the conformance cases of examples/cases/legion
hold the same procedures as data.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from pbem.engine.dice import FixedDice
from pbem.systems.legion import odds
from pbem.systems.legion.adjudicator import adjudicate, check_orders
from pbem.systems.legion.board import LegionBoard
from pbem.systems.legion.board_model import LegionMap
from pbem.systems.legion.counters import Counter, Reverse
from pbem.systems.legion.losses import hit, take_losses
from pbem.systems.legion.orders import LegionOrders
from pbem.systems.legion.results import parse
from pbem.systems.legion.state import LegionPosition, LegionState
from pbem.systems.legion.table import Table
from pbem.systems.legion.terrain_combat import best_hex_terrain, capped, halving, side_drm
from tests.legion_positions import CHARTS


def board(**spec) -> LegionBoard:
    return LegionBoard(LegionMap(cols=8, rows=6, **spec), CHARTS)


def unit(uid, side, **kw) -> Counter:
    base = {"type": "infantry", "size": "battalion", "attack": 4, "defense": 4, "move": 4}
    return Counter(id=uid, side=side, **(base | kw))


def state(units_at: dict[Counter, str], phasing="US", phase="movement", **kw) -> LegionState:
    return LegionState(position=LegionPosition(turn=1, phasing=phasing, phase=phase), units=tuple(units_at),
                       locations={u.id: h for u, h in units_at.items()}, **kw)


def test_9a2_examples_odds_round_down_and_beyond_7_to_1_a_drm():
    assert odds.label(odds.step(Fraction(20), Fraction(8))) == "2:1"
    assert odds.step(Fraction(9), Fraction(1)) - odds.TOP == 2
    assert odds.step(Fraction(8), Fraction(1)) - odds.TOP == 1
    assert odds.label(odds.step(Fraction(5), Fraction(8))) == "1:2"
    assert odds.step(Fraction(1), Fraction(5)) < odds.WORST <= odds.step(Fraction(1), Fraction(4))


def test_3c3_and_9c_examples_mountain_across_steep_halves_and_gives_minus_3_town_and_mountain_minus_2():
    b = board(terrain={"0403": ["mountain"], "0503": ["town", "mountain"]}, hexsides=[{"feature": "steep", "hexes": ["0303", "0403"]}])
    mountain = best_hex_terrain(b, "0403")
    assert halving([mountain], "infantry") == Fraction(1, 2)
    assert mountain.assault_drm + side_drm(b, "0403", {"0303"}) == -3
    both = best_hex_terrain(b, "0503")
    assert both.assault_drm == -2 and halving([both], "infantry") == Fraction(1, 2)
    assert halving([mountain, mountain], "infantry") == Fraction(1, 4)  # halved twice: a quarter (3C.3)
    assert capped(-7, b) == -4  # 9C note


def test_6a1_example_steep_costs_infantry_two_more():
    b = board(hexsides=[{"feature": "steep", "hexes": ["0303", "0304"]}], terrain={"0304": ["rough"]})
    rough = CHARTS.terrain.terrain["rough"].move["infantry"]
    assert b.enter_cost("infantry", "0303", "0304") == rough + 2
    assert b.enter_cost("cm", "0303", "0304") is None


def test_9e_example_a_marine_battalion_turns_combat_ineffective_with_a_1_hit_marker():
    marine = unit("us-m", "US", attack=8, defense=9, ci=4, reverse=Reverse(attack=4, defense=5, move=4))
    table = Table(board(), state({marine: "0303"}, hits={"us-m": 3}))
    events = hit(table, "us-m", "test") + hit(table, "us-m", "test")
    assert "us-m" in table.ci and table.hits["us-m"] == 1
    assert table.attack_strength("us-m") == 3
    assert [e["type"] for e in events].count("combat_ineffective") == 1


def test_9d1_shares_round_up_and_an_exchange_takes_from_the_lower_total():
    assert parse("AQ/DHr").losses(7, 5) == (2, 3)
    assert parse("AQ/DHr").defender_retreat == 1 and parse("-/DHR").defender_retreat == 2
    assert parse("HX").losses(13, 5) == (3, 3)
    assert parse("QX").losses(5, 9) == (2, 2)
    assert parse("HX").losses(6, 6) == (3, 3)  # equal totals: the defender is the lower side


def test_9h_a_mandatory_group_takes_the_first_loss_then_the_written_order():
    tank = unit("us-tk", "US", type="tank", size="company", defense=3)
    inf = unit("us-i", "US", defense=6)
    table = Table(board(), state({tank: "0303", inf: "0304"}))
    take_losses(table, ["us-tk", "us-i"], 3, ["us-i"], "test", mandatory=[["us-tk"]])
    assert table.hits == {"us-tk": 1, "us-i": 2}


def test_11a3_example_a_battalion_allows_6_sps_of_offensive_and_3_of_defensive_support():
    marine = unit("us-m", "US")
    arty = [Counter(id=f"us-art{i}", side="US", type="artillery", size="battalion", defense=2, move=3, bs=4, range=6) for i in range(3)]
    jp = unit("jp-a", "JP")
    where = {marine: "0303", jp: "0403", arty[0]: "0203", arty[1]: "0202", arty[2]: "0302"}
    b = board()
    two = LegionOrders.model_validate({"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-m"], "support": ["us-art0", "us-art1"]}]})
    three = LegionOrders.model_validate({"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-m"], "support": ["us-art0", "us-art1", "us-art2"]}]})
    assert check_orders(b, state(where, phase="combat"), two) == ()
    assert [p.rule for p in check_orders(b, state(where, phase="combat"), three)] == ["11A.3"]


def test_5b_example_entering_an_enemy_owned_airfield_gains_it_at_once():
    us, jp = unit("us-a", "US"), unit("jp-a", "JP")
    b = board(terrain={"0503": ["airfield"]})
    start = state({us: "0402", jp: "0504"}, owner={"0503": "JP"})
    moved = adjudicate(b, start, LegionOrders.model_validate({"moves": [{"units": ["us-a"], "path": ["0503"]}]}), FixedDice([]))
    assert moved.valid and moved.state.owner["0503"] == "US"


def test_14_example_disruption_lasts_through_the_japanese_player_turn_and_goes_in_the_next_us_initial_phase():
    us, jp = unit("us-a", "US"), unit("jp-a", "JP")
    b = board()
    pos = state({us: "0202", jp: "0606"}, phasing="US", phase="exploitation", disrupted={"jp-a": 1})
    nothing = LegionOrders()
    pos = adjudicate(b, pos, nothing, FixedDice([])).state  # the U.S. Exploitation Phase ends his player-turn
    assert pos.position.phasing == "JP" and pos.disrupted == {"jp-a": 1}
    pos = adjudicate(b, pos, nothing, FixedDice([])).state  # the Japanese Initial, Movement and Combat Phases
    assert pos.disrupted == {"jp-a": 1}
    pos = adjudicate(b, pos, nothing, FixedDice([])).state  # the Japanese Exploitation Phase: the Game-Turn ends
    assert pos.position.turn == 2 and pos.position.phasing == "US" and pos.disrupted == {"jp-a": 1}
    pos = adjudicate(b, pos, nothing, FixedDice([])).state  # the next U.S. Initial Phase removes it
    assert pos.disrupted == {}


def test_checking_reports_every_problem_at_once_each_with_its_rule():
    us, jp = unit("us-a", "US", move=1), unit("jp-a", "JP")
    bad = LegionOrders.model_validate({
        "moves": [{"units": ["us-a"], "path": ["0302", "0301"]}, {"units": ["jp-a"], "path": ["0404"]}],
        "exploitation": [{"units": ["us-a"], "path": ["0303"]}],
    })
    rules = [p.rule for p in check_orders(board(), state({us: "0303", jp: "0403"}), bad)]
    assert rules == ["4"]
    bad = bad.model_copy(update={"exploitation": []})
    rules = sorted(p.rule for p in check_orders(board(), state({us: "0303", jp: "0403"}), bad))
    assert rules == ["6A", "6A.2"]


@pytest.mark.parametrize("side", ["US", "JP"])
def test_an_invalid_order_changes_nothing(side):
    us, jp = unit("us-a", "US"), unit("jp-a", "JP")
    start = state({us: "0303", jp: "0403"}, phasing=side)
    result = adjudicate(board(), start, LegionOrders.model_validate({"moves": [{"units": ["nobody"], "path": ["0302"]}]}), FixedDice([6]))
    assert not result.valid and result.state == start and result.dice_used == 0 and not result.events


def test_move_and_attack_problems_are_reported_together():
    us, ci, jp = unit("us-a", "US", move=1), unit("us-c", "US", attack=8, defense=9, ci=4, reverse=Reverse(attack=4, defense=5, move=4)), unit("jp-a", "JP")
    orders = LegionOrders.model_validate({
        "moves": [{"units": ["us-a"], "path": ["0302", "0301"]}],
        "attacks": [{"type": "assault", "target": "0403", "attackers": ["us-c"]}],
    })
    found = check_orders(board(), state({us: "0202", ci: "0303", jp: "0403"}, ci=frozenset({"us-c"})), orders)
    assert sorted(p.rule for p in found) == ["6A.2", "9E"]


def test_19b1_the_japanese_view_examines_adjacent_us_units_and_only_the_top_of_other_stacks():
    near, strong, weak, jp = unit("us-n", "US"), unit("us-s", "US", defense=7), unit("us-w", "US", defense=2), unit("jp-a", "JP")
    from pbem.systems.legion.views import view

    seen = view(state({near: "0303", strong: "0106", weak: "0106", jp: "0403"}, exposed=frozenset()), "JP")
    shown = {u["id"] for u in seen["units"] if u["side"] == "US"}
    assert shown == {"us-n", "us-s"}
    assert seen["markers"] == [{"id": "0106", "side": "US", "kind": "hidden", "hex": "0106"}]
    assert {u["id"] for u in view(state({near: "0303", strong: "0106", weak: "0106", jp: "0403"}), "JP")["units"]} == {"us-n", "us-s", "us-w", "jp-a"}
