"""The sequence of play (4.1) and Ground Support per Game-Turn (9.14) on the test scenario."""

from pbem.loading.datafiles import load_scenario
from pbem.engine.sequence import game_over, next_player_turn, opening

SCENARIO = load_scenario("scenarios/test-skirmish.json").scenario


def test_the_opening_has_the_first_player_moving_with_turn_one_support():
    state = opening(SCENARIO)
    assert (state.position.turn, state.position.phasing, state.position.phase) == (1, "US", "movement")
    assert state.position.gsp == {"US": 3, "JP": 0}
    assert state.locations["us-7cav"] == "offmap"  # a turn-1 reinforcement is available
    assert "us-19" not in state.locations  # a turn-2 one is not yet


def test_the_second_player_turn_keeps_the_game_turn_and_what_is_left_of_its_support():
    state = opening(SCENARIO)
    spent = state.model_copy(update={"position": state.position.model_copy(update={"gsp": {"US": 1, "JP": 0}})})
    second = next_player_turn(SCENARIO, spent)
    assert (second.position.turn, second.position.phasing) == (1, "JP")
    assert second.position.gsp == {"US": 1, "JP": 0}


def test_9_14_a_new_game_turn_brings_fresh_support_and_its_reinforcements():
    state = opening(SCENARIO)
    spent = state.model_copy(update={"position": state.position.model_copy(update={"gsp": {"US": 1, "JP": 0}})})
    third = next_player_turn(SCENARIO, next_player_turn(SCENARIO, spent))
    assert (third.position.turn, third.position.phasing) == (2, "US")
    assert third.position.gsp == {"US": 3, "JP": 1}  # unused points are lost, not added
    assert third.locations["us-19"] == "offmap"
    assert third.locations["us-7cav"] == "offmap"  # 12.1: withheld reinforcements stay available


def test_the_game_ends_after_the_last_game_turn():
    state = opening(SCENARIO)
    for _ in range(2 * (SCENARIO.last_turn - SCENARIO.first_turn + 1)):
        assert not game_over(SCENARIO, state)
        state = next_player_turn(SCENARIO, state)
    assert game_over(SCENARIO, state)
