"""Leyte's scenario rules on small boards: victory terms (15.2, 15.22, 15.33, 16.14, 16.24, 16.34),
the forfeit of 16.13 item 4, re-entry after an exit (16.13 item 3) and the closed hexrow of 16.23."""

from __future__ import annotations

from pbem.loading.datafiles import board_for
from pbem.engine.adjudicator import adjudicate
from pbem.engine.dice import FixedDice
from pbem.engine.scoring import victory_report
from pbem.engine.sequence import advance, opening
from pbem.model.common import ELIMINATED, EXITED, OFFMAP
from pbem.model.orders import Move, Orders
from pbem.model.ruleset import Ruleset
from pbem.model.scenario import Scenario

LEYTE = Ruleset(exclusive="leyte")


def unit(uid, side, hex_=None, arrives=None, a=5, d=5, m=5, kind="infantry", entry=None):
    row = {"id": uid, "side": side, "kind": kind, "attack": a, "defense": d, "move": m, "source": "test"}
    if hex_ is not None:
        row["hex"] = hex_
    else:
        row |= {"arrives": arrives, "entry": entry or "N"}
    return row


def scenario(units, **extra) -> Scenario:
    doc = {
        "id": "t", "title": "t", "kind": "test", "ruleset": {"exclusive": "leyte"}, "map_source": "test",
        "map": {
            "cols": 10, "rows": 10, "beaches": ["0101", "0102"],
            "areas": {"N": ["0101", "0102"], "W": ["0501", "0601"], "0100": [f"01{r:02d}" for r in range(1, 11)], "2900": ["1005", "1006"]},
            "exits": ["1005"], "places": {"Airfield one": "0808"},
        },
        "units": units, "first_player": "US", "first_turn": 1, "last_turn": 4,
    } | extra
    return Scenario.model_validate(doc)


def report(sc: Scenario, state, final=True):
    board = board_for(sc.map, sc.units, "test", scenario=sc)
    return victory_report(board, sc, state, final=final).as_dict()


def points(rep, side, what):
    return sum(line["points"] for line in rep["lines"] if line["side"] == side and what in line["what"])


def test_eliminated_units_score_their_value_for_the_enemy():
    sc = scenario([unit("us-1", "US", "0505"), unit("jp-1", "JP", "0909", a=4, d=6)])
    state = opening(sc)
    state = state.model_copy(update={"locations": state.locations | {"jp-1": ELIMINATED}})
    rep = report(sc, state)
    assert rep["points"] == {"US": 10, "JP": 0}
    assert rep["level"] == "U.S. Decisive"


def test_objective_needs_a_line_of_communications_where_the_scenario_says():
    objectives = [{"side": "US", "hex": "0505", "points": 15, "loc": True, "source": "16.14"}]
    # us-1 in 0505 reaches beach 0101 only beyond three hexes without a road: no LOC, no points (15.31).
    sc = scenario([unit("us-1", "US", "0505"), unit("jp-1", "JP", "0909")], objectives=objectives)
    assert points(report(sc, opening(sc)), "US", "occupying") == 0
    # with a road from 0505 to the beach, the objective counts
    sc = scenario([unit("us-1", "US", "0505"), unit("jp-1", "JP", "0909")], objectives=objectives)
    sc = sc.model_copy(update={"map": sc.map.model_copy(update={"roads": [["0505", "0404", "0304", "0203", "0103", "0102"]]})})
    assert points(report(sc, opening(sc)), "US", "occupying") == 15


def test_cut_off_american_units_score_for_japan():
    sc = scenario([unit("us-1", "US", "0505", a=3, d=2), unit("us-2", "US", "0102"), unit("jp-1", "JP", "0909")],
                  victory=[{"kind": "cut-off", "side": "JP", "source": "15.33"}])
    rep = report(sc, opening(sc))
    assert points(rep, "JP", "without a Line") == 5  # us-1 (3+2); us-2 stands on a beach


def test_japanese_on_the_named_beach_areas_score_forty_once():
    sc = scenario([unit("us-1", "US", "0909"), unit("jp-1", "JP", "0101"), unit("jp-2", "JP", "0102")],
                  victory=[{"kind": "beaches", "side": "JP", "points": 40, "areas": ["N"], "source": "15.22"}])
    assert points(report(sc, opening(sc)), "JP", "beaches") == 40


def test_airfield_points_per_unit_in_or_next_to_an_airfield():
    # 0808 is the airfield; 0807 is next to it; 0505 is not
    sc = scenario([unit("us-1", "US", "0202"), unit("jp-1", "JP", "0808"), unit("jp-2", "JP", "0807"), unit("jp-3", "JP", "0505")],
                  victory=[{"kind": "airfields", "side": "JP", "points": 10, "source": "16.14"}])
    assert points(report(sc, opening(sc)), "JP", "airfield") == 20


def test_region_scores_own_units_with_a_line_of_communications():
    # 16.24 shape: units in columns <= 2 and rows <= 3 with a LOC
    sc = scenario([unit("us-1", "US", "0102"), unit("us-2", "US", "0203", a=3, d=2), unit("us-3", "US", "0909"), unit("jp-1", "JP", "0707")],
                  victory=[{"kind": "region", "side": "US", "max_col": 2, "max_row": 3, "source": "16.24"}])
    assert points(report(sc, opening(sc)), "US", "own units") == 15


def test_japanese_line_of_communications_off_the_western_edge_scores_both_ways():
    sc = scenario([unit("us-1", "US", "0909"), unit("jp-1", "JP", "0502", a=4, d=6), unit("jp-2", "JP", "0909" if False else "0707", a=2, d=3)],
                  victory=[{"kind": "edge-loc", "side": "JP", "other_side": "US", "of_side": "JP", "area": "W", "source": "16.34"}])
    rep = report(sc, opening(sc))
    assert points(rep, "JP", "with a Line") == 10  # jp-1 is next to the western area W
    assert points(rep, "US", "no Line") == 5  # jp-2 is four hexes from it, with no road


def test_running_tally_leaves_the_end_of_game_terms_out():
    sc = scenario([unit("us-1", "US", "0909"), unit("jp-1", "JP", "0101")],
                  victory=[{"kind": "beaches", "side": "JP", "points": 40, "areas": ["N"], "source": "15.22"}])
    assert report(sc, opening(sc), final=False)["points"] == {"US": 0, "JP": 0}


def test_forfeit_when_no_unit_of_the_type_exits_in_time():
    requirement = {"hex": "1005", "side": "US", "kind": "infantry", "attack": 3, "defense": 2, "move": 5, "by_turn": 1, "source": "16.13 item 4"}
    sc = scenario([unit("us-1", "US", "0505"), unit("us-bn", "US", "0303", a=3, d=2), unit("jp-1", "JP", "0909")], exit_requirements=[requirement])
    state = opening(sc)
    state = state.model_copy(update={"position": state.position.model_copy(update={"phasing": "JP"})})
    after, log = advance(sc, state)
    assert after.locations["us-bn"] == ELIMINATED
    assert log == [{"type": "forfeited", "unit": "us-bn", "rule": "16.13 item 4"}]
    assert report(sc, after)["points"]["JP"] == 5


def test_an_exit_in_time_meets_the_requirement_and_the_unit_comes_back_later():
    requirement = {"hex": "1005", "side": "US", "kind": "infantry", "attack": 3, "defense": 2, "move": 5, "by_turn": 1, "source": "16.13 item 4"}
    rule = {"hex": "1005", "side": "US", "reenter_after": 2, "reenter_entry": "2900", "source": "16.13 item 3"}
    sc = scenario([unit("us-bn", "US", "0905", a=3, d=2), unit("jp-1", "JP", "0101")], exit_requirements=[requirement], exits=[rule])
    board = board_for(sc.map, sc.units, "test", scenario=sc)
    state = opening(sc)
    result = adjudicate(board, LEYTE, state, Orders(moves=[Move(unit="us-bn", path=["1005"], exit=True)]), FixedDice([]))
    assert result.valid, result.problems
    assert result.state.locations["us-bn"] == EXITED
    state = result.state.model_copy(update={"position": result.state.position.model_copy(update={"phasing": "JP"})})
    turn2, log = advance(sc, state, board)
    assert log == []  # requirement met: nothing forfeited
    assert turn2.locations["us-bn"] == EXITED
    turn2 = turn2.model_copy(update={"position": turn2.position.model_copy(update={"phasing": "JP"})})
    turn3, log = advance(sc, turn2, board)  # exited on Game-Turn 1, back on Game-Turn 1 + 2
    assert turn3.position.turn == 3
    assert turn3.locations["us-bn"] == OFFMAP
    assert turn3.unit("us-bn").entry == "2900"
    assert log[0]["type"] == "available"


def test_closed_hexrow():
    sc = scenario([unit("us-1", "US", "0909"), unit("jp-1", "JP", "0305")], closed=[{"side": "JP", "area": "0100", "source": "16.23 item 2"}])
    board = board_for(sc.map, sc.units, "test", scenario=sc)
    state = opening(sc)
    state = state.model_copy(update={"position": state.position.model_copy(update={"phasing": "JP"})})
    result = adjudicate(board, LEYTE, state, Orders(moves=[Move(unit="jp-1", path=["0205", "0105"])]), FixedDice([]))
    assert [p.rule for p in result.problems] == ["16.23"]


def test_timed_objective_scored_at_the_end_of_its_game_turn_only():
    objectives = [{"side": "JP", "hex": "0505", "points": 10, "at_end_of_turn": 1, "name": "Ormoc", "source": "16.34"}]
    sc = scenario([unit("us-1", "US", "0909"), unit("jp-1", "JP", "0505")], objectives=objectives)
    board = board_for(sc.map, sc.units, "test", scenario=sc)
    state = opening(sc)
    state = state.model_copy(update={"position": state.position.model_copy(update={"phasing": "JP"})})
    after, log = advance(sc, state, board)
    assert [a.points for a in after.awards] == [10]
    assert log[0]["type"] == "awarded"
    # leaving the hex later does not take the award back, and the end of the game does not score it again
    moved = after.model_copy(update={"locations": after.locations | {"jp-1": "0606"}})
    assert report(sc, moved)["points"]["JP"] == 10


def test_i26_spi_the_japanese_orders_name_the_forfeited_unit_and_the_choice_survives_the_turn_file():
    """16.13 item 4 with I26: the choice written in the Japanese orders is carried in the position
    (and through the turn file's state) to the end of the Game-Turn; dg-2009 refuses the field."""
    from pbem.game.codec import state_from_json, state_to_json
    from pbem.model.ruleset import Ruleset

    requirement = {"hex": "1005", "side": "US", "kind": "infantry", "attack": 3, "defense": 2, "move": 5, "by_turn": 1, "source": "16.13 item 4"}
    sc = scenario([unit("us-bn", "US", "0303", a=3, d=2), unit("us-bn2", "US", "0305", a=3, d=2), unit("jp-1", "JP", "0909")], exit_requirements=[requirement])
    spi = Ruleset(edition="spi-1975", exclusive="leyte")
    sc = sc.model_copy(update={"ruleset": spi})
    board = board_for(sc.map, sc.units, "test", scenario=sc)
    state = opening(sc)
    state = state.model_copy(update={"position": state.position.model_copy(update={"phasing": "JP"})})
    refused = adjudicate(board, LEYTE, state, Orders(forfeit="us-bn2"), FixedDice([]))
    assert not refused.valid and [p.rule for p in refused.problems] == ["16.13"]
    result = adjudicate(board, spi, state, Orders(forfeit="us-bn2"), FixedDice([]))
    assert result.valid, result.problems
    carried = state_from_json(state_to_json(result.state))
    assert carried.forfeit == {"JP": "us-bn2"}
    after, log = advance(sc, carried)
    assert log == [{"type": "forfeited", "unit": "us-bn2", "rule": "16.13 item 4"}]
    assert after.locations["us-bn"] != ELIMINATED


def test_i26_a_position_without_a_forfeit_choice_keeps_its_bytes():
    from pbem.game.codec import state_to_json

    sc = scenario([unit("us-1", "US", "0505"), unit("jp-1", "JP", "0909")])
    assert "forfeit" not in state_to_json(opening(sc))
