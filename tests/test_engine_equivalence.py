"""The engine's results do not change when it is made faster (issue 12).

Every player-turn of a large set of seeded random positions
(:mod:`tests.random_positions`) — small crowded boards where retreats must
displace chains of friends, and Leyte-sized ones with up to 300 units and
dozens of attacks competing for Final Protective Fire — is adjudicated, and
its whole outcome (every event, every combat line, where each unit ends,
GSP and FPF left) is compared with the outcome the engine gave before the
speed work (commit 7cbc7b9), recorded in ``tests/data/engine_outcomes.json``
as one SHA-256 per turn.

To see what changed for a failing turn, check out 7cbc7b9 and print
``outcome(turn(key))`` there and here.  To record again — only when a rule
fix is meant to change results — run ``python -m tests.test_engine_equivalence``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from pbem.engine.adjudicator import adjudicate
from pbem.engine.board import Board
from pbem.engine.dice import FixedDice
from pbem.model.ruleset import Ruleset
from tests.random_positions import Turn, random_turn

RECORDED = Path(__file__).parent / "data" / "engine_outcomes.json"


def _keys() -> list[str]:
    small = [f"{seed}:{8 + seed % 7}x{8 + seed % 5}:{12 + seed % 40}" for seed in range(400)]
    leyte_size = [f"{1000 + seed}:29x32:{(50, 150, 300)[seed % 3]}:leyte" for seed in range(24)]
    return small + leyte_size


def turn(key: str) -> Turn:
    """The turn a key names: ``seed:COLSxROWS:UNITS`` and ``:leyte`` for Leyte dg-2009 without standing choices."""
    seed, size, count, *leyte = key.split(":")
    cols, rows = (int(n) for n in size.split("x"))
    if leyte:
        return random_turn(int(seed), cols, rows, int(count), ruleset=Ruleset(exclusive="leyte"), choices=False)
    return random_turn(int(seed), cols, rows, int(count))


def outcome(t: Turn) -> dict:
    result = adjudicate(Board(t.spec), t.ruleset, t.state, t.orders, FixedDice(list(t.dice)), t.defense)
    return {
        "valid": result.valid,
        "problems": [p.as_dict() for p in result.problems],
        "events": list(result.events),
        "combats": [c.as_dict() for c in result.combats],
        "locations": result.state.locations,
        "gsp": result.state.position.gsp,
        "no_fpf": sorted(result.state.no_fpf),
        "dice_used": result.dice_used,
    }


def digest(found: dict) -> str:
    return hashlib.sha256(json.dumps(found, sort_keys=True, default=str).encode()).hexdigest()


def test_the_random_turns_are_legal_and_fight():
    """The comparison means something only if the orders are carried out and the combats varied."""
    outcomes = [outcome(turn(k)) for k in _keys()[::7]]
    assert all(o["valid"] for o in outcomes), [o["problems"] for o in outcomes if not o["valid"]][:1]
    kinds = {e["type"] for o in outcomes for e in o["events"]}
    assert {"fpf", "gsp_fpf", "displaced", "retreated", "advanced", "eliminated", "moved", "result_modified"} <= kinds


@pytest.mark.parametrize("chunk", range(8))
def test_every_random_turn_comes_out_as_before(chunk):
    recorded = json.loads(RECORDED.read_text())
    keys = _keys()[chunk::8]
    changed = [k for k in keys if digest(outcome(turn(k))) != recorded[k]]
    assert not changed, f"{len(changed)} of {len(keys)} turns differ from the recorded outcomes, e.g. {changed[:5]}"


if __name__ == "__main__":
    RECORDED.write_text(json.dumps({k: digest(outcome(turn(k))) for k in _keys()}, indent=0, sort_keys=True) + "\n")
    print(f"recorded {RECORDED}")
