"""The seam for rules systems (issue 39): a game played with a system the game layer has never heard of.

The toy system (tests/toy_system.py) is registered through the registry and
a scenario names it; ``pbem demo``'s whole referee game — genesis, the bot's
orders, validate, submit, adjudicate, verify, reveal and audit — runs through
the game layer, which asks the system and never which system it is.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from pbem.errors import BadInput
from pbem.loading.datafiles import scenario_document
from pbem.loading.turns import open_turn, scenario_of
from pbem.systems import register, system_named, unregister
from pbem.systems.base import RulesSystem
from pbem.shipped import scenarios_dir
from tests import toy_system


@pytest.fixture
def toy():
    register(toy_system.SYSTEM)
    yield toy_system.SYSTEM
    unregister(toy_system.NAME)


def _scenario(tmp_path) -> str:
    """The test skirmish's map and units, named for the toy system and cut to two Game-Turns."""
    document = scenario_document(next(scenarios_dir().rglob("test-skirmish.json")))
    document |= {"id": "toy-still-skirmish", "system": toy_system.NAME, "last_turn": document["first_turn"] + 1}
    path = tmp_path / "toy-still-skirmish.json"
    path.write_text(json.dumps(document))
    return str(path)


def test_a_game_of_another_system_runs_through_the_game_layer(toy, tmp_path):
    from pbem.bot.demo import run_demo
    from pbem.game.player import check_own_orders

    assert isinstance(toy, RulesSystem) and system_named(toy_system.NAME) is toy
    result = run_demo(_scenario(tmp_path), tmp_path / "demo", seed=1)
    assert result.player_turns == 4 and not result.verify_findings and result.audit.ok
    from pbem.game.player import view_for
    from pbem.protocol.keys import read_private

    us = read_private(result.keys["US"], None)
    turns = [open_turn(p).turn for p in sorted(result.game.glob("turn-*.pbem"))]
    assert turns[0].ruleset == {"system": toy_system.NAME}  # the genesis pins the system
    logged = []
    for turn in turns[1:]:
        events = view_for(turn, us)[1]["last"]["events"]
        assert [e["die"] for e in events] == [r["value"] for r in turn.dice.rolls]  # the committed die, as logged
        logged += [(e["side"], e["turn"]) for e in events]
    assert logged == [("US", 1), ("JP", 1), ("US", 2), ("JP", 2)]
    assert turns[-1].public["victory"]["level"] == "Draw" and turns[-1].public["over"]

    # Validate asks the system: a move breaks its rule toy.1.
    first = turns[0]
    assert json.loads(next((tmp_path / "demo" / "orders").glob("*.json")).read_text()) == {"moves": [], "attacks": []}
    moved = {"moves": [{"unit": first.public["scenario_document"]["units"][0]["id"], "path": ["0101"]}], "attacks": []}
    _, problems = check_own_orders(first, us, moved, "moved.json")
    assert [p.rule for p in problems] == ["toy.1"]


def test_a_genesis_pins_its_system_and_pbem_plays_none_it_does_not_know(toy, tmp_path):
    from pbem.bot.demo import run_demo

    game = run_demo(_scenario(tmp_path), tmp_path / "demo", seed=1).game
    genesis = open_turn(game / "turn-0000.pbem").turn
    assert scenario_of(genesis).system == toy_system.NAME
    with pytest.raises(BadInput, match=r"pins the rules system 'spi', but the scenario .* is played with 'toy-still'"):
        scenario_of(dataclasses.replace(genesis, ruleset={}))
    unregister(toy_system.NAME)
    with pytest.raises(BadInput, match="names the rules system 'toy-still', which this pbem does not play"):
        scenario_of(open_turn(game / "turn-0001.pbem").turn)


def test_a_game_of_a_system_this_pbem_does_not_play_is_bad_input_naming_it(toy, tmp_path):
    from pbem.bot.demo import run_demo
    from tests import games

    game = run_demo(_scenario(tmp_path), tmp_path / "demo", seed=1).game
    assert games.run("verify", str(game))[0] == 0
    unregister(toy_system.NAME)
    status, _, err = games.run("verify", str(game))
    assert status == 2 and "Traceback" not in err
    assert "names the rules system 'toy-still', which this pbem does not play" in err and "turn-0000.pbem" in err
