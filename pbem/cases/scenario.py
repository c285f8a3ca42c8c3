"""The scenario a v2 case plays under, built from its ``scenario`` block (docs/cases.md, Scenario rules).

The engine's end of the Game-Turn (:mod:`pbem.engine.sequence`) and its
victory report (:mod:`pbem.engine.scoring`) read a
:class:`~pbem.model.scenario.Scenario`; a case gives only the parts it
needs, and the rest is what a case without them means: the map's exit
hexes open to both sides, no closed area, nothing to score but
eliminations.
"""

from __future__ import annotations

from pbem.cases.model import CASE_SOURCE, Case, CaseScenario
from pbem.model.scenario import ExitRule, Scenario


def scenario_of(case: Case) -> Scenario | None:
    """The case's scenario; None for a case that neither gives one nor ends the Game-Turn nor asks for victory (v1)."""
    block = case.scenario
    if block is None and not (case.end_of_turn or (case.queries is not None and case.queries.victory)):
        return None
    block = block or CaseScenario()
    exits = list(block.exits)
    if not exits and not block.exit_requirements:
        exits = [ExitRule.model_construct(hex=h, side=side, reenter_after=None, reenter_entry=None, reenter_until=None, source=CASE_SOURCE)
                 for h in case.map.exits for side in ("US", "JP")]
    return Scenario.model_construct(
        id="case",
        title=case.title,
        description="",
        ruleset=case.ruleset,
        map=case.map,
        map_source=CASE_SOURCE,
        units=list(block.arrivals),
        ground_support=list(block.ground_support),
        first_player=block.first_player,
        first_turn=case.position.turn,
        last_turn=case.position.turn,
        objectives=list(block.objectives),
        victory=list(block.victory),
        loc_beaches=block.loc_beaches,
        loc_beaches_source=CASE_SOURCE,
        exits=exits,
        exit_requirements=list(block.exit_requirements),
        closed=list(block.closed),
        withdrawals=list(block.withdrawals),
        special_rules=[],
        kind="test",
        hidden_units=None,
    )
