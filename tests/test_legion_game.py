"""A Game-Turn on the Legion test island, phase by phase, and what each side sees of it (issue 39: 4, 19B, 20)."""

from __future__ import annotations

import json

from pbem.engine.dice import FixedDice
from pbem.systems.legion.adjudicator import adjudicate
from pbem.systems.legion.files import load_scenario
from pbem.systems.legion.opening import opening
from pbem.systems.legion.orders import LegionOrders
from pbem.systems.legion.victory import victory
from pbem.systems.legion.views import events_for, view

US_TURN = {
    "moves": [{"units": ["us-1-2"], "path": ["0303"]}, {"units": ["us-tk-a"], "path": ["0404"]}, {"units": ["us-3-6"], "path": ["0405"]}],
    "attacks": [
        {"type": "assault", "target": "0403", "attackers": ["us-1-2", "us-tk-a"], "support": ["us-art-10"], "advance": ["us-1-2"]},
        {"type": "fire", "target": "0406", "attackers": ["us-3-6"]},
    ],
}
JP_TURN = {"moves": [{"units": ["jp-d1"], "path": ["0505"]}, {"units": ["jp-lt"], "path": ["0705"]}]}


def _hidden_ids(state) -> set[str]:
    return {u.id for u in state.units if u.side == "JP" and state.on_map(u.id) and (u.is_dummy or u.id not in state.exposed)}


def test_a_game_turn_on_the_test_island_phase_by_phase_with_each_sides_view():
    loaded = load_scenario("legion-test-island")
    board, scenario = loaded.board, loaded.scenario
    cp = scenario.victory.cp_per_unit
    state = opening(board, scenario)
    dice = FixedDice([4, 4, 2, 5, 3, 6, 1, 2, 3, 4])
    seen_by_us: list[dict] = []
    for side, orders, phase_after in (
        ("US", US_TURN, "exploitation"), ("US", {}, "movement"), ("JP", JP_TURN, "exploitation"), ("JP", {}, "movement"),
    ):
        assert state.position.phasing == side
        result = adjudicate(board, state, LegionOrders.model_validate(orders), dice, cp_per_unit=cp)
        assert result.valid, result.problems
        hidden = _hidden_ids(result.state)
        us_view = view(result.state, "US")
        shown = {u["id"] for u in us_view["units"] if u["side"] == "JP" and u["hex"] not in ("eliminated", "removed")}
        assert not shown & hidden, "19B.2: a hidden Japanese unit reaches the American view only as a marker"
        assert len(us_view["markers"]) == len(hidden)
        told = events_for(result.state, "US", list(result.events))
        assert not [e for e in told if e.get("unit") in hidden], "19B.3: nothing names a hidden unit"
        seen_by_us += told
        state = result.state
        assert state.position.phase == phase_after
        if side == "US" and phase_after == "exploitation":
            assert "jp-1-135" in state.exposed or not state.on_map("jp-1-135")  # 19B.4: assaulted
    assert state.position.turn == 2 and state.position.phasing == "US"
    assert "jp-1-135" not in state.exposed  # 19B.5: a town is not a Clear hex, so hidden again in the Japanese Initial Phase
    assert "jp-lt" in state.exposed  # 19B.3: it ended its move in a Clear hex
    assert state.locations["jp-d2"] == "eliminated"  # fired on, revealed (19B.6)
    assert any(e["type"] == "assault" for e in seen_by_us)
    report = victory(state, scenario.victory)
    assert report["casualty_points"] == state.casualties > 0
    assert report["level"] in {line.level for line in scenario.victory.levels} | {scenario.victory.otherwise}
    json.dumps(view(state, "JP"))  # each view is plain JSON
