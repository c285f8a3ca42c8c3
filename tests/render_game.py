"""A short game of the test scenario played through the referee's own step, for the map tests.

US lands at Red Beach, Japan stands, US attacks jp-1-9 from 1004 with its
battery and Ground Support and advances; fixed dice, no keys or files.
"""

from __future__ import annotations

from pathlib import Path

from pbem.loading.datafiles import load_scenario
from pbem.engine.dice import FixedDice
from pbem.engine.sequence import opening
from pbem.game.step import play, record_step

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "test-skirmish.json"

ORDERS = [
    {"moves": [{"unit": "us-7cav", "enter": "1104", "path": []}, {"unit": "us-12cav", "enter": "1103", "path": []},
               {"unit": "us-1-34", "enter": "1105", "path": []}, {"unit": "us-art-61", "enter": "1106", "path": []}]},
    {"moves": []},
    {"moves": [{"unit": "us-7cav", "path": ["1004"]}],
     "attacks": [{"attackers": ["us-7cav"], "barrage": ["us-art-61"], "gsp": 3, "defenders": ["jp-1-9"],
                  "advance": [{"unit": "us-7cav", "to": 1}]}]},
]


def played_views(turns: int = 3, dice: tuple[int, ...] = (1,)) -> tuple:
    """The board and each side's view after ``turns`` player-turns (0: the opening)."""
    loaded = load_scenario(SCENARIO)
    ruleset = loaded.scenario.ruleset.model_dump()
    ref = {"id": "test-skirmish", "hash": "0" * 64}
    step = record_step(opening(loaded.scenario), game="f" * 64, seq=0, scenario_ref=ref, ruleset=ruleset, over=False, last=None, loaded=loaded)
    for seq, orders in enumerate(ORDERS[:turns], 1):
        step = play(loaded, ruleset, step.state, orders, FixedDice(list(dice)), game="f" * 64, seq=seq, scenario_ref=ref, source="test")
    return loaded.board, step.views
