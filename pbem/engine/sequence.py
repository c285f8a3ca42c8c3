"""The Sequence of Play (4.1): from a scenario's opening to each next player-turn.

A Game-Turn is the first player's turn, then the second's; each player-turn
is a Movement Phase then a Combat Phase.  After the second player-turn the
Game-Turn ends: the scenario's end-of-turn rules apply (a forfeited unit,
16.13 item 4; objectives scored at that moment, 16.34), then the next
Game-Turn begins, Ground Support Points are set afresh (9.14: unused points
are lost) and that turn's reinforcements become available (12.1), with
units that left by an exit hex coming back when their rule says (16.13
item 3; 16.43 item 3 limits it to exits made on Game-Turns 1-4), and units a
scenario withdrew coming back on their turn (``Scenario.withdrawals``).
Reinforcements withheld earlier stay available off the map.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine import forfeit
from pbem.engine.board import Board
from pbem.engine.events import Event
from pbem.model.common import ELIMINATED, EXITED, OFFMAP, Side, enemy_of
from pbem.engine.dummies import dummy_counters
from pbem.model.scenario import ExitRequirement, HiddenUnits, Scenario
from pbem.model.state import GameState, HiddenState, Position

if TYPE_CHECKING:
    from pbem.model.fog import FogSetting


def _arrivals(scenario: Scenario, turn: int) -> list:
    return [u for u in scenario.units if u.arrives == turn]


def opening(scenario: Scenario, *, hidden: bool = False, variant: str = "hidden-units", fog: FogSetting | None = None) -> GameState:
    """The position at the start of the scenario's first player-turn.

    With ``hidden`` (the hidden-units option) the Japanese secret set-up is
    still to come: the listed set-up units stand in the scenario's hexes until
    it moves them, and the scenario's dummies wait off the map (19B.2, 19B.6).
    """
    turn = scenario.first_turn
    units = [u for u in scenario.units if u.hex is not None or (u.arrives is not None and u.arrives <= turn)]
    counters = tuple(u.counter() for u in units)
    locations = {u.id: (u.hex if u.hex is not None else OFFMAP) for u in units}
    limited = None
    if hidden:
        limits = scenario.hidden_units or HiddenUnits(source="assumed: the scenario sets no limits")
        fastest = max((u.move for u in scenario.units if u.side == "JP"), default=0)
        count = limits.dummies
        extra = {}
        if variant != "hidden-units":
            # IPH 6.8: no dummies; Formosa 11.1: the scenario's deception units, which never move (fog_variants).
            count = fog.deception if fog is not None else 0
            extra = {"variant": variant, "static": frozenset(fog.static if fog else ()),
                     "concealed_move": fog.concealed_move if fog else None}
        dummies = dummy_counters(count, fastest)
        counters += tuple(dummies)
        locations |= {d.id: OFFMAP for d in dummies}
        limited = HiddenState.model_construct(radius=limits.radius, **extra)
    # Built of the checked scenario's values, so constructed: validating would build
    # pydantic's validators for the whole state, which no other step of an audit needs.
    return GameState.model_construct(
        position=Position.model_construct(turn=turn, phasing=scenario.first_player, phase="movement", gsp=scenario.gsp_for(turn)),
        units=counters,
        locations=locations,
        hidden=limited,
    )


def second_player(scenario: Scenario) -> Side:
    return enemy_of(scenario.first_player)


def game_over(scenario: Scenario, state: GameState) -> bool:
    """True once the last Game-Turn's second player-turn has been played."""
    return state.position.turn > scenario.last_turn


def next_player_turn(scenario: Scenario, state: GameState, board: Board | None = None) -> GameState:
    """The position at the start of the player-turn after the one just adjudicated."""
    return advance(scenario, state, board)[0]


def advance(scenario: Scenario, state: GameState, board: Board | None = None) -> tuple[GameState, list[Event]]:
    """The next player-turn's position, and the events of the end of the Game-Turn, if one ended."""
    position = state.position
    if position.phasing == scenario.first_player:
        return state.model_copy(update={"position": position.model_copy(update={"phasing": second_player(scenario), "phase": "movement"})}), []
    state, log = _end_of_game_turn(scenario, state, board)
    turn = position.turn + 1
    units = list(state.units)
    locations = dict(state.locations)
    for u in _arrivals(scenario, turn):
        units.append(u.counter())
        locations[u.id] = OFFMAP
    for record in state.exits:
        rule = next((r for r in scenario.exits if r.hex == record.hex and r.reenter_after), None)
        if rule is not None and rule.brings_back(record.turn) and record.turn + rule.reenter_after == turn:
            units = [u.model_copy(update={"entry": rule.reenter_entry}) if u.id == record.unit else u for u in units]
            locations[record.unit] = OFFMAP
            log.append({"type": "available", "unit": record.unit, "entry": rule.reenter_entry, "rule": rule.source})
    units, returned = _returns(scenario, turn, units, locations)
    log += returned
    after = state.model_copy(
        update={
            "position": Position.model_construct(turn=turn, phasing=scenario.first_player, phase="movement", gsp=scenario.gsp_for(turn)),
            "units": tuple(units),
            "locations": locations,
        }
    )
    return after, log


def _end_of_game_turn(scenario: Scenario, state: GameState, board: Board | None) -> tuple[GameState, list[Event]]:
    turn = state.position.turn
    log: list[Event] = []
    for requirement in scenario.exit_requirements:
        if requirement.by_turn == turn and not exit_requirement_met(requirement, state):
            forfeited = forfeit.choose(requirement, state, scenario.ruleset)
            if forfeited is not None:
                state = state.model_copy(update={"locations": state.locations | {forfeited: ELIMINATED}})
                log.append({"type": "forfeited", "unit": forfeited, "rule": requirement.source})
    state, withdrawn = _withdraw(scenario, state, turn)
    log += withdrawn
    if board is not None and any(o.at_end_of_turn == turn for o in scenario.objectives):
        from pbem.engine.scoring import timed_awards

        awards = timed_awards(board, scenario, state, turn)
        if awards:
            state = state.model_copy(update={"awards": state.awards + awards})
            log += [{"type": "awarded", "side": a.side, "points": a.points, "what": a.what, "rule": a.source} for a in awards]
    return state, log


def _withdraw(scenario: Scenario, state: GameState, turn: int) -> tuple[GameState, list[Event]]:
    """The scenario's withdrawals at the end of Game-Turn ``turn``: each unit on the map or still waiting off it leaves.

    The Leyte campaign's chained order of appearance (assumed, docs/leyte.md):
    units that 18.1 brings in again on Game-Turns 11-13 leave at the end of
    Game-Turn 8, as the 16.21 set-up of Game-Turn 9 has none of them.  A
    withdrawn unit is out of play, not eliminated: neither side scores it.
    """
    gone = [w for w in scenario.withdrawals if w.turn == turn and (state.on_map(w.unit) or state.locations.get(w.unit) == OFFMAP)]
    if not gone:
        return state, []
    locations = state.locations | {w.unit: EXITED for w in gone}
    return state.model_copy(update={"locations": locations}), [{"type": "withdrawn", "unit": w.unit, "rule": _cited(w.source)} for w in gone]


def _returns(scenario: Scenario, turn: int, units: list, locations: dict[str, str]) -> tuple[list, list[Event]]:
    """Withdrawn units (and units of the schedule that left by an exit) due back on ``turn``, made available by their new entry (12.1)."""
    log: list[Event] = []
    for w in scenario.withdrawals:
        if w.returns == turn and locations.get(w.unit) == EXITED:
            units = [u.model_copy(update={"entry": w.entry}) if u.id == w.unit else u for u in units]
            locations[w.unit] = OFFMAP
            log.append({"type": "available", "unit": w.unit, "entry": w.entry, "rule": _cited(w.source)})
    return units, log


def _cited(source: str) -> str:
    """A withdrawal's source as an event cites it: the rule case, and "assumed" without the reason (the scenario file keeps it)."""
    rule, _, reason = source.partition("assumed:")
    rule = rule.strip().rstrip(";").strip()
    return f"{rule}; assumed" if reason and rule else ("assumed" if reason else rule)


def exit_requirement_met(requirement: ExitRequirement, state: GameState) -> bool:
    """Has a unit of the required type left by the required hex in time (16.13 item 4)?"""
    units = state.unit_index()
    return any(
        r.hex == requirement.hex and r.turn <= requirement.by_turn and r.unit in units and requirement.fits(units[r.unit])
        for r in state.exits
    )
