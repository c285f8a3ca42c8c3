"""The Sequence of Play (4.1): from a scenario's opening to each next player-turn.

A Game-Turn is the first player's turn, then the second's; each player-turn
is a Movement Phase then a Combat Phase.  After the second player-turn the
Game-Turn advances, Ground Support Points are set afresh (9.14: unused
points are lost) and that turn's reinforcements become available (12.1).
Reinforcements withheld earlier stay available off the map.
"""

from __future__ import annotations

from pbem.model.common import OFFMAP, Side, enemy_of
from pbem.model.scenario import Scenario
from pbem.model.state import GameState, Position


def _arrivals(scenario: Scenario, turn: int) -> list:
    return [u for u in scenario.units if u.arrives == turn]


def opening(scenario: Scenario) -> GameState:
    """The position at the start of the scenario's first player-turn."""
    turn = scenario.first_turn
    units = [u for u in scenario.units if u.hex is not None or (u.arrives is not None and u.arrives <= turn)]
    return GameState(
        position=Position(turn=turn, phasing=scenario.first_player, phase="movement", gsp=scenario.gsp_for(turn)),
        units=tuple(u.counter() for u in units),
        locations={u.id: (u.hex if u.hex is not None else OFFMAP) for u in units},
    )


def second_player(scenario: Scenario) -> Side:
    return enemy_of(scenario.first_player)


def game_over(scenario: Scenario, state: GameState) -> bool:
    """True once the last Game-Turn's second player-turn has been played."""
    return state.position.turn > scenario.last_turn


def next_player_turn(scenario: Scenario, state: GameState) -> GameState:
    """The position at the start of the player-turn after the one just adjudicated."""
    position = state.position
    if position.phasing == scenario.first_player:
        return state.model_copy(update={"position": position.model_copy(update={"phasing": second_player(scenario), "phase": "movement"})})
    turn = position.turn + 1
    arriving = _arrivals(scenario, turn)
    units = state.units + tuple(u.counter() for u in arriving)
    locations = dict(state.locations) | {u.id: OFFMAP for u in arriving}
    return state.model_copy(
        update={
            "position": Position(turn=turn, phasing=scenario.first_player, phase="movement", gsp=scenario.gsp_for(turn)),
            "units": units,
            "locations": locations,
        }
    )
