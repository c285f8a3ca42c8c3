"""The Legion system played through the seam (issue 39, part 3): registered, listed, and a whole game of the test
island through the real files — genesis, the room's bot, validate, submit, adjudicate, verify, reveal, audit.

A Legion player-turn is two orders files (movement and combat, then exploitation on the turn file that shows the
combat results) and three on a Japanese PM Game-Turn (6C.2 Night Exploitation): each its own turn file and dice.
"""

from __future__ import annotations

import json

import pytest

from pbem.errors import BadInput
from pbem.systems import load_scenario, system_named, system_of
from pbem.systems.base import RulesSystem
from tests.games import run

ISLAND = "legion-test-island"
LEGION = "legion-2010"


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """One demo game of the test island (a few seconds), shared by the tests that read it."""
    from pbem.bot.demo import run_demo

    return run_demo(ISLAND, tmp_path_factory.mktemp("legion") / "demo", seed=1)


def test_the_legion_system_is_registered_and_answers_the_seam():
    system = system_named(LEGION)
    assert isinstance(system, RulesSystem) and system.name == LEGION
    loaded = load_scenario(ISLAND)
    assert system_of(loaded) is system and loaded.scenario.id == ISLAND
    assert system.pinned_ruleset(loaded, None) == {"system": LEGION}
    with pytest.raises(BadInput, match="one edition"):
        system.pinned_ruleset(loaded, "dg-2009")
    opening = system.opening(loaded, hidden=False)
    assert system.state_from_json(json.loads(json.dumps(system.state_to_json(opening)))) == opening  # the codec round-trips
    assert system.opening(loaded, hidden=True).exposed == frozenset()  # 19B: every Japanese counter starts Hidden
    plain = loaded.scenario.model_copy(update={"limited_intelligence": False})
    with pytest.raises(BadInput, match="without limited intelligence"):
        system.opening(type(loaded)(loaded.path, plain, loaded.board, loaded.system), hidden=True)


def test_scenario_list_and_show_name_each_scenarios_rules_system():
    status, out, _ = run("scenario", "list", "--json")
    rows = {row["id"]: row for row in json.loads(out)}
    assert status == 0 and rows[ISLAND]["system"] == LEGION
    assert {row["system"] for sid, row in rows.items() if sid != ISLAND} == {"spi"}
    status, out, _ = run("scenario", "list")
    assert status == 0 and any(line.split()[:2] == [ISLAND, LEGION] for line in out.splitlines())
    status, out, _ = run("scenario", "show", ISLAND, "--json")
    shown = json.loads(out)
    assert status == 0 and shown["system"] == LEGION and shown["pm_turns"] == [2, 4]
    assert {u["id"] for u in shown["units"]} == {u.id for u in load_scenario(ISLAND).scenario.units}
    status, out, _ = run("scenario", "show", ISLAND)
    assert status == 0 and "Victory Table (20)" in out and "us-art-10" in out


def test_a_demo_game_of_the_test_island_plays_verifies_and_audits(game):
    from pbem.loading.turns import open_turn

    assert not game.verify_findings and game.audit.ok
    turns = [open_turn(p).turn for p in sorted(game.game.glob("turn-*.pbem"))]
    assert turns[0].ruleset == {"system": LEGION} and turns[-1].public["over"]
    # the genesis carries the charts, not their file names: every party plays with the referee's
    assert all(isinstance(chart, dict) for chart in turns[0].public["scenario_document"]["charts"].values())
    # two orders files a player-turn (three on the Japanese PM turns 2 and 4), awaited from the side the position names
    awaited = [(t.public["turn"], t.public["awaiting"]) for t in turns[:-1]]
    per_turn = {(turn, side): awaited.count((turn, side)) for turn, side in awaited}
    assert per_turn == {(1, "US"): 2, (1, "JP"): 2, (2, "US"): 2, (2, "JP"): 3, (3, "US"): 2, (3, "JP"): 2, (4, "US"): 2, (4, "JP"): 3}
    assert game.player_turns == len(turns) - 1 == 18
    rolls = [r for t in turns for r in t.dice.rolls]
    assert rolls and all(1 <= r["value"] <= 6 for r in rolls)  # the bot's attacks rolled committed dice
    assert game.report.level == turns[-1].public["victory"]["level"] and "Victory (20)" in game.report.lines[0]


def test_a_legion_view_is_the_position_and_validate_asks_the_legion_rules(game, tmp_path):
    from pbem.game.player import check_own_orders, view_for
    from pbem.loading.turns import open_turn
    from pbem.protocol.keys import read_private

    genesis = open_turn(game.game / "turn-0000.pbem").turn
    us = read_private(game.keys["US"], None)
    _, view = view_for(genesis, us)
    assert view["state"]["system"] == LEGION and view["awaiting"] == "US" and view["state"]["position"]["phase"] == "movement"
    # exploitation orders belong to the Exploitation Phase (4): the referee's check refuses them on a movement turn file
    _, problems = check_own_orders(genesis, us, {"exploitation": [{"units": ["us-1-2"], "path": ["0303"]}]}, "early.json")
    assert [p.rule for p in problems] == ["4"]
    _, problems = check_own_orders(genesis, us, {"moves": [{"units": ["jp-1-135"], "path": ["0404"]}]}, "theirs.json")
    assert problems and all(p.rule.startswith("6") or p.rule == "4" for p in problems), problems
    _, problems = check_own_orders(genesis, us, {"defense": {"rbc": []}}, "defense.json")
    assert [p.rule for p in problems] == ["I1"]


def test_legion_orders_that_break_the_schema_are_bad_input_naming_the_file(game):
    from pbem.game.player import check_own_orders
    from pbem.loading.turns import open_turn
    from pbem.protocol.keys import read_private

    genesis = open_turn(game.game / "turn-0000.pbem").turn
    with pytest.raises(BadInput) as refused:
        check_own_orders(genesis, read_private(game.keys["US"], None), {"moves": "north"}, "bad.json")
    rendered = refused.value.render()
    assert "bad.json" in rendered and "moves" in rendered and "not of type 'array'" in rendered


def test_a_two_player_game_of_the_test_island_is_played_and_verified_by_both(tmp_path):
    """The second mode, as tests/test_two_player.py plays it through the command line, two folders and the mail
    between them (``pbem demo --no-referee`` plays it in one, tests/test_bot_cli.py): each turn file written by the
    player who does not move, both replaying all from the files."""
    from tests.test_two_player import check_both_verify, play_out, start

    players = start(tmp_path, ISLAND)
    played = play_out(players, lean=True)
    assert played == 18
    said = check_both_verify(players, played)
    assert "roll(s) hold" in said["US"] and said["US"].splitlines()[0] == said["JP"].splitlines()[0]


@pytest.mark.parametrize("mode", [[], ["--no-referee"]], ids=["referee", "no-referee"])
def test_another_way_of_hiding_units_is_refused_for_the_test_island_before_anything_is_written(mode, tmp_path):
    """The Legion system plays 19B's hidden units (tests/test_legion_hidden*.py), not the SPI fog variants (IPH 6.8):
    that option is refused by the system's own answer (``options``), naming it, with exit 2 and nothing written."""
    status, out, err = run("demo", "--scenario", ISLAND, "--dir", tmp_path / "demo", "--option", "fog-iph", *mode)
    assert status == 2 and "Traceback" not in err
    assert "the game option 'fog-iph' is not yet played with the rules system 'legion-2010'" in err
    assert "legion-test-island.json" in err and not (tmp_path / "demo").exists()


def test_every_legion_case_labels_only_a_combats_own_die_as_that_combat_s(tmp_path):
    """A public record shows each combat's die, and a player's view and ``verify`` check it against the roll labelled
    ``combat N:`` (pbem/game/record_checks.py).  A Legion combat may roll more — Retreat Before Combat (9J), return
    fire (9A.1), the Banzai Attack Table (19A) — and an Assault at 10:1 rolls none (9A.2) but may follow a 9J roll: those
    rolls are labelled otherwise, so no honest record fails the check (a demo at 10:1 after a 9J attempt did)."""
    from pathlib import Path

    from pbem.engine.dice import DiceExhausted, FixedDice
    from pbem.game.record_checks import combat_roll_problems
    from pbem.systems.legion.adjudicator import adjudicate
    from pbem.systems.legion.cases import load_case

    kinds = set()
    for path in sorted(Path("examples/cases/legion").glob("*.json")):
        loaded = load_case(path)
        case = loaded.case
        if not case.dice:
            continue
        dice = FixedDice(list(case.dice))
        try:
            result = adjudicate(loaded.board, loaded.state, case.orders, dice, case.defense, cp_per_unit=case.cp_per_unit)
        except DiceExhausted:
            continue
        rolls = [{"n": i, "purpose": purpose, "value": value} for i, (purpose, value) in enumerate(dice.rolls, 1)]
        kinds |= {purpose.split(" ")[0] for purpose, _ in dice.rolls}
        public = {"last": {"combats": list(result.combats)}}
        assert combat_roll_problems(public, rolls) == [], path.name
    assert {"combat", "Retreat", "return"} <= kinds  # the cases roll for 9J and return fire too


def test_pbem_view_tells_a_legion_view_and_show_draws_it(game):
    last = sorted(game.game.glob("turn-*.pbem"))[-1]
    status, out, err = run("view", last, "--key", game.keys["US"])
    assert status == 0, err
    assert "rules system legion-2010" in out and "The game is over" in out and "Victory (20)" in out
    assert "us-art-10" in out and "jp-art" in out  # both sides' units: no limited intelligence in a game yet
    status, out, err = run("show", last, "--key", game.keys["US"], "--plain")
    assert status == 0, err
    assert "(Legion rules)" in out and "us-art-10" in out and "jp-art" in out  # the map itself: tests/test_legion_maps.py
    first = game.game / "turn-0000.pbem"
    status, out, err = run("orders", "template", first, "--key", game.keys["US"])
    assert status == 0 and json.loads(out) == {"reserves": [], "moves": [], "attacks": []} and "(6C)" in err
    status, out, err = run("orders", "template", game.game / "turn-0001.pbem", "--key", game.keys["US"])
    assert status == 0 and json.loads(out) == {"exploitation": []}


def test_a_missing_legion_player_is_played_by_the_room_s_bot_and_his_verify_replays_it(tmp_path):
    """NMR (docs/PROTOCOL.md): the referee plays the Legion bot's orders for the side awaited; its player's
    ``verify --replay-mine`` recomputes them from his own view and replays them."""
    from tests.games import pbem

    for name in ("us", "jp", "ref"):
        pbem("keygen", name, "--dir", tmp_path, "--no-passphrase")
    game = tmp_path / "game"
    pbem("new", ISLAND, "--us", tmp_path / "us.pub", "--jp", tmp_path / "jp.pub", "--referee", tmp_path / "ref.pub",
         "--key", tmp_path / "ref.key", "--out", game)
    said = pbem("adjudicate", game / "turn-0000.pbem", "--nmr", "US", "--key", tmp_path / "ref.key")
    assert "no moves received from US" in said and (game / "turn-0001.pbem").exists()
    mine = pbem("verify", game, "--replay-mine", "--key", tmp_path / "us.key")
    assert "NMR" in mine and "replayed 1 of your own player-turn(s)" in mine


def test_an_edited_test_island_under_the_shipped_id_is_refused_as_an_spi_one_is(tmp_path):
    """A scenario's id names its content, charts included (the genesis carries them): an edited copy of the test
    island needs an id of its own (pbem/loading/turns.shipped_mismatch), found in the Legion room's own folder."""
    import shutil

    from pbem.systems import SCENARIO_FOLDERS

    copy = tmp_path / "data"
    shutil.copytree(SCENARIO_FOLDERS[LEGION], copy)
    chart = copy / "charts" / "assault.json"
    chart.write_text(chart.read_text().replace('"AE/-"', '"AH/-"', 1))  # an owner's own value from his card
    for name in ("us", "jp", "ref"):
        run("keygen", name, "--dir", tmp_path, "--no-passphrase")
    keys = ("--us", tmp_path / "us.pub", "--jp", tmp_path / "jp.pub", "--referee", tmp_path / "ref.pub", "--key", tmp_path / "ref.key")
    status, _, err = run("new", copy / f"{ISLAND}.json", *keys, "--out", tmp_path / "game")
    assert status == 2 and f"names scenario '{ISLAND}', but its content" in err and "an id of its own" in err
    status, _, err = run("new", ISLAND, *keys, "--out", tmp_path / "shipped")
    assert status == 0, err
