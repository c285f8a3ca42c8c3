"""What the bot's side sees: its sealed view of the position, and the board.

Everything the bot decides starts from a :class:`Sight` built from the
holder's view (what :mod:`pbem.game.views` seals to that side) and the
scenario every party has from the genesis turn file — never from the
referee's full state.  Under the hidden-units option a Japanese marker is
reckoned, for the odds alone, at the average defense of the scenario's
Japanese units (the scenario is public); its orders still name it by its hex.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.model.construct import construct
from pbem.loading.datafiles import LoadedScenario
from pbem.engine import hexes
from pbem.engine.board import Board
from pbem.engine.hexes import Hex
from pbem.game.views import state_of_view
from pbem.model.common import OFFMAP, Side, enemy_of
from pbem.model.ruleset import Ruleset
from pbem.model.scenario import Scenario
from pbem.model.state import GameState
from pbem.model.units import Unit


@dataclass
class Sight:
    """One side's picture of the position at the start of its player-turn."""

    side: Side
    enemy: Side
    board: Board
    scenario: Scenario
    ruleset: Ruleset
    state: GameState
    units: dict[str, Unit]
    where: dict[str, Hex]
    """Unit id -> hex for every unit on the map that the view shows."""
    mine: list[str]
    theirs: list[str]
    still: list[str]
    """This side's dummies on the map (hidden units only): they hold their hexes and never move (19B.6)."""
    waiting: list[str]
    """This side's reinforcements available off the map (12.1)."""
    gsp: int
    enemy_gsp: int
    seq: int
    enemy_at: dict[Hex, list[str]] = field(default_factory=dict)
    enemy_zoc: frozenset[Hex] = frozenset()
    """Hexes next to an enemy unit: entering one ends a move (6.0), ending in one obliges an attack (7.12)."""
    enemy_batteries: list[tuple[Hex, int, int]] = field(default_factory=list)
    """Enemy artillery that may give Final Protective Fire (8.41): its hex, FPF strength and range."""


def see(view: dict[str, Any], loaded: LoadedScenario) -> Sight:
    """The :class:`Sight` of the side whose sealed ``view`` this is."""
    side: Side = view["side"]
    state = state_of_view(view)
    units = state.unit_index()
    # Only a hex id is a place on the map: eliminated, off-map and (later) exited units are elsewhere.
    where = {u: h for u, h in state.locations.items() if u in units and hexes.is_hex_id(h)}
    if state.hidden is not None:
        units = _as_reckoned(units, loaded.scenario)
    # A dummy never fights, and contact would expose it (19B.6): the bot leaves its dummies where they stand.
    mine = [u.id for u in state.units if u.side == side and u.id in where and not u.is_dummy]
    still = [u.id for u in state.units if u.side == side and u.id in where and u.is_dummy]
    theirs = [u.id for u in state.units if u.side != side and u.id in where]
    waiting = [u.id for u in state.units if u.side == side and state.locations.get(u.id) == OFFMAP]
    enemy_at: dict[Hex, list[str]] = {}
    for u in theirs:
        enemy_at.setdefault(where[u], []).append(u)
    zoc = frozenset(n for h in enemy_at for n in hexes.neighbours(h))
    position = state.position
    batteries = [
        (where[e], units[e].fpf, units[e].range)
        for e in theirs
        if units[e].is_artillery and units[e].fpf and e not in state.no_fpf
    ]
    return Sight(
        side=side,
        enemy=enemy_of(side),
        board=loaded.board,
        scenario=loaded.scenario,
        ruleset=construct(Ruleset, view["ruleset"]),  # as Ruleset(**…) builds it, without building its validator
        state=state,
        units=units,
        where=where,
        mine=mine,
        theirs=theirs,
        still=still,
        waiting=waiting,
        gsp=position.gsp_of(side),
        enemy_gsp=position.gsp_of(enemy_of(side)),
        seq=view["seq"],
        enemy_at=enemy_at,
        enemy_zoc=zoc,
        enemy_batteries=batteries,
    )


def _as_reckoned(units: dict[str, Unit], scenario: Scenario) -> dict[str, Unit]:
    """Hidden markers with the average Japanese defense strength, for weighing attacks on them."""
    japanese = [u.defense for u in scenario.units if u.side == "JP"]
    guess = round(sum(japanese) / len(japanese)) if japanese else 1
    return {u: (unit.model_copy(update={"defense": guess}) if unit.kind == "hidden" else unit) for u, unit in units.items()}
