"""Units idle for a whole game when they could have reached the fight: the measure issue 21 sets.

A unit counts only when all of these hold (docs/bot.md, "Idle units"):

- it stood on the map at some point and neither moved nor fought all game
  (:func:`pbem.bot.selfplay.idle_units`: no move, no attack, not attacked,
  no barrage; a reinforcement placed on its entry hex that never moved on
  counts as not moving);
- it did not stand all game on an objective hex the scenario scores (15.1):
  a unit holding one is holding points, which is its part in the fight;
- it could have reached the fight: at the start of one of its side's
  player-turns it could have ended its move next to an enemy unit, by the
  engine's own movement costs and zones of control as the bot reckons its
  reach (:func:`pbem.bot.reach.reach_of`) on the view its side had then.

A garrison of a named place that scores nothing, or a unit behind a front
that has stopped, counts when it could have come up.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.bot.reach import reach_of
from pbem.bot.selfplay import SelfPlay, idle_units
from pbem.bot.sight import see
from pbem.loading.datafiles import LoadedScenario
from pbem.engine import hexes


@dataclass(frozen=True)
class Idle:
    """A game's idle units, sorted into the three kinds the measure tells apart."""

    all: tuple[str, ...]
    """Neither moved nor fought all game."""
    holding: tuple[str, ...]
    """Of those, standing all game on an objective the scenario scores."""
    could_fight: tuple[str, ...]
    """Of the rest, those that could at some point have come next to an enemy unit: the ones the target counts."""


def idle_report(game: SelfPlay, loaded: LoadedScenario) -> Idle:
    """Sort the units idle all game in ``game`` (played on ``loaded``) by the measure above."""
    idle = idle_units(game)
    objectives = {o.hex for o in loaded.scenario.objectives}
    final = game.final.state
    holding = tuple(u for u in idle if final.locations.get(u) in objectives)
    left = [u for u in idle if u not in holding]
    sides = final.unit_index()
    could: set[str] = set()
    for step in game.steps[:-1]:
        side = step.state.to_act()
        mine = [u for u in left if u not in could and sides[u].side == side
                and hexes.is_hex_id(step.state.locations.get(u, ""))]
        if not mine:
            continue
        view = step.views[side]
        if (view["state"].get("hidden") or {}).get("deployed") is False:
            continue  # the secret set-up: nobody moves yet
        sight = see(view, loaded)
        for u in mine:
            if u in sight.where and any(h in sight.enemy_zoc for h in reach_of(sight, u).cost):
                could.add(u)
    return Idle(tuple(idle), holding, tuple(u for u in left if u in could))
