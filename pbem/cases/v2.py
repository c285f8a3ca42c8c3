"""The v2 parts of a case's outcome: hidden units, the end of the Game-Turn, victory (docs/cases.md).

Each is worked out by the engine that plays real games — the
hidden-units steps of :mod:`pbem.engine.limited`, the American view of
:mod:`pbem.game.fog`, :func:`pbem.engine.sequence.advance` and
:mod:`pbem.engine.scoring` — so a case holds the system to what a game does.
"""

from __future__ import annotations

from typing import Any

from pbem.cases.load import LoadedCase
from pbem.engine import fog_variants, sequence
from pbem.engine.board import Board
from pbem.engine.scoring import lines_of_communications, shown_ratio, victory_report
from pbem.model.common import SIDES
from pbem.model.state import GameState


def hidden_outcome(board: Board, state: GameState, events: list[dict]) -> dict[str, Any]:
    """After the player-turn: the exposed units, the American view, sightings, intelligence rolls and dummies removed (19B.2-19B.7)."""
    from pbem.game.fog import HIDDEN, american_state

    assert state.hidden is not None
    view = american_state(state)
    japanese = {u.id for u in state.units if u.side == "JP"}
    seen = fog_variants.of(state).sightings(board, events, japanese)
    return {
        "exposed": sorted(state.hidden.exposed),
        "view": {
            "US": {
                "units": sorted(u.id for u in view.units if u.side == "JP" and u.kind != HIDDEN),
                "markers": sorted(u.id for u in view.units if u.kind == HIDDEN),
            },
        },
        "sightings": [{"unit": events[i]["unit"], "hexes": hexes} for i, hexes in sorted(seen.items())],
        "intelligence": [
            {"when": e["when"], "roll": e["roll"], "exposed": sorted(x["unit"] for x in e["exposed"])}
            for e in events if e.get("type") == "intelligence"
        ],
        "dummies_removed": [{"unit": e["unit"], "hex": e["hex"], "rule": e["rule"]} for e in events if e.get("type") == "dummy_removed"],
    }


def end_game_turn(loaded: LoadedCase, state: GameState) -> tuple[GameState, dict[str, Any]]:
    """The Game-Turn ends after the orders (4.1): forfeits, timed objectives, then the next turn's arrivals and re-entries."""
    assert loaded.scenario is not None
    after, log = sequence.advance(loaded.scenario, state, loaded.board)
    before = set(state.locations.items())
    available = sorted(u for u, where in after.locations.items() if where == "offmap" and (u, where) not in before)
    return after, {
        "turn": after.position.turn,
        "gsp": {side: after.position.gsp_of(side) for side in SIDES},
        "forfeited": [e["unit"] for e in log if e["type"] == "forfeited"],
        "withdrawn": [e["unit"] for e in log if e["type"] == "withdrawn"],
        "awards": [{"side": e["side"], "points": e["points"], "what": e["what"], "rule": e["rule"]} for e in log if e["type"] == "awarded"],
        "available": available,
        "events": log,
    }


def victory_outcome(loaded: LoadedCase, state: GameState) -> dict[str, Any]:
    """The victory report as if the scenario ended now (15.1-15.4): points by source, ratio, level, Lines of Communications."""
    assert loaded.scenario is not None
    report = victory_report(loaded.board, loaded.scenario, state, final=True)
    by_source: dict[str, dict[str, int]] = {side: {} for side in SIDES}
    for line in report.lines:
        by_source[line.side][line.source] = by_source[line.side].get(line.source, 0) + line.points
    ratio = report.ratio
    return {
        "points": {side: report.total(side) for side in SIDES},
        "ratio": None if ratio is None else str(shown_ratio(ratio)),
        "level": report.level,
        "by_source": by_source,
        "loc": lines_of_communications(loaded.board, loaded.scenario, state),
        "lines": [line.as_dict() for line in report.lines if line.points or line.items],
    }
