"""The bot: valid orders in every position it meets, from its own view only, and sensible choices.

Positions come from whole games played bot against bot in process (the
referee's own step, seeded dice), every policy and edition; at each one the
orders the bot gives are checked again by the engine, here, independently
of the bot's own check.
"""

from __future__ import annotations


import pytest

from pbem.bot import bot_orders
from pbem.bot.contact import mandatory_attacks
from pbem.bot.odds import Attackers, Judge
from pbem.bot.orders import Plan, problems_with, settle
from pbem.bot.reach import entry_hexes, reach_of
from pbem.bot.selfplay import play_out
from pbem.bot.sight import see
from pbem.loading.datafiles import load_scenario
from pbem.engine import hexes
from pbem.engine.adjudicator import check_orders
from pbem.engine.sequence import opening
from pbem.game.views import build_view
from pbem.model.orders import Orders
from pbem.model.state import Position

LOADED = load_scenario("test-skirmish")
RULESET = {"edition": "dg-2009", "exclusive": "leyte"}


def view_of(side: str, locations: dict[str, str], *, phasing: str | None = None, gsp: dict | None = None, units=None) -> dict:
    """A sealed-view document of a made-up position of the test scenario."""
    state = opening(LOADED.scenario)
    all_units = units or tuple(u.counter() for u in LOADED.scenario.units)
    where = {u.id: "offmap" for u in all_units} | locations
    state = state.model_copy(update={
        "units": all_units,
        "locations": where,
        "position": Position(turn=2, phasing=phasing or side, phase="movement", gsp=gsp or {"US": 3, "JP": 1}),
    })
    return build_view(side, state, game="test", seq=3, scenario={"id": "test-skirmish", "hash": "x"}, ruleset=RULESET, over=False, last=None)


@pytest.mark.parametrize("policies", [("greedy", "greedy"), ("random", "random"), ("greedy", "random"), ("random", "greedy")])
@pytest.mark.parametrize("edition", ["dg-2009", "spi-1975"])
def test_every_order_the_bot_gives_validates(policies, edition):
    seen = []

    def check(step, orders):
        side = step.state.position.phasing
        found = check_orders(LOADED.board, LOADED.scenario.ruleset.model_copy(update={"edition": edition}), step.state, Orders.model_validate(orders)).problems
        assert not found, (side, orders, found)
        seen.append(orders)

    for seed in range(10):
        game = play_out(LOADED, {"US": policies[0], "JP": policies[1]}, seed=seed, edition=edition, on_orders=check)
        assert game.final.over and all(s.last["valid"] for s in game.steps[1:])
    assert len(seen) == 10 * 8
    assert any(o["attacks"] for o in seen)


def test_same_view_and_seed_give_the_same_orders_and_the_seed_matters():
    view = view_of("US", {"jp-1-9": "0904", "jp-2-9": "0907", "jp-1-33": "0605", "jp-art-22": "0506", "jp-16rcn": "0303"})
    assert bot_orders(view, LOADED, "greedy", 1) == bot_orders(view, LOADED, "greedy", 1)
    drawn = {str(bot_orders(view, LOADED, "random", seed)) for seed in range(8)}
    assert len(drawn) > 1


def test_the_bot_sees_only_its_view():
    """With an enemy unit missing from the view (as a hidden unit will be), the bot plays on without it."""
    full = {"jp-1-9": "0904", "jp-2-9": "0907", "jp-1-33": "0605", "jp-art-22": "0506", "jp-16rcn": "0303"}
    units = tuple(u.counter() for u in LOADED.scenario.units if u.id != "jp-1-9")
    hidden = view_of("US", {k: v for k, v in full.items() if k != "jp-1-9"}, units=units)
    orders = bot_orders(hidden, LOADED, "greedy", 0)
    assert not problems_with(see(hidden, LOADED), orders)
    assert "jp-1-9" not in str(orders)


def test_a_unit_touching_two_enemies_alone_attacks_both():
    # us-7cav between jp-1-9 and jp-2-9: no one else touches them, so one attack takes both (7.11, 7.12, 7.23).
    a, b = "0604", "0605"
    middle = next(h for h in hexes.neighbours(a) if hexes.adjacent(h, b) and h not in (a, b))
    view = view_of("US", {"us-7cav": middle, "jp-1-9": a, "jp-2-9": b}, gsp={"US": 0, "JP": 0})
    sight = see(view, LOADED)
    attacks = mandatory_attacks(sight, {"us-7cav": middle}, lambda _, options: options[0])
    assert [sorted(g.defenders) for g in attacks] == [["jp-1-9", "jp-2-9"]]
    assert attacks[0].attackers.adjacent == ["us-7cav"]


def test_a_second_unit_takes_over_one_defender_of_a_two_defender_attack():
    a, b = "0604", "0605"
    middle = next(h for h in hexes.neighbours(a) if hexes.adjacent(h, b))
    other = next(h for h in hexes.neighbours(b) if h not in (a, middle) and not hexes.adjacent(h, a))
    view = view_of("US", {"us-7cav": middle, "us-12cav": other, "jp-1-9": a, "jp-2-9": b})
    sight = see(view, LOADED)
    attacks = mandatory_attacks(sight, {"us-7cav": middle, "us-12cav": other}, lambda _, options: options[0])
    pairs = sorted((tuple(g.attackers.adjacent), tuple(g.defenders)) for g in attacks)
    assert pairs == [(("us-12cav",), ("jp-2-9",)), (("us-7cav",), ("jp-1-9",))]


def test_settle_repairs_a_plan_the_engine_refuses():
    view = view_of("US", {"us-7cav": "1004", "us-12cav": "1005", "jp-1-33": "0605"})
    sight = see(view, LOADED)
    plan = Plan.standing(sight)
    plan.move("us-12cav", None, ["0905", "0904"])
    plan.move("us-7cav", None, ["0904"])  # both end in 0904: 5.31
    assert any(p.rule == "5.31" for p in problems_with(sight, plan.document()))
    orders = settle(plan)
    assert not problems_with(sight, orders)


def test_reach_stops_at_enemy_zones_of_control_and_never_enters_the_enemy():
    view = view_of("US", {"us-7cav": "1004", "jp-1-33": "0804"})
    sight = see(view, LOADED)
    reach = reach_of(sight, "us-7cav")
    assert "0804" not in reach.cost
    for h in reach.cost:
        _, path = reach.path(h)
        assert all(step not in sight.enemy_zoc for step in path[:-1])
        found = check_orders(LOADED.board, sight.ruleset, sight.state, Orders.model_validate({"moves": [{"unit": "us-7cav", "path": path}]})).problems
        assert not [p for p in found if p.rule.startswith(("5.", "6."))], (h, path, found)


def test_reinforcements_enter_by_their_entry_or_a_named_area():
    view = view_of("US", {"jp-1-33": "0605"})
    sight = see(view, LOADED)
    assert set(entry_hexes(sight, "us-7cav")) == set(LOADED.board.beaches)
    from dataclasses import replace

    from pbem.engine.board import Board

    spec = LOADED.board.spec.model_copy(update={"areas": {"N": ["1103", "1104"]}})
    sight = replace(sight, board=Board(spec))
    sight.units["us-7cav"] = sight.units["us-7cav"].model_copy(update={"entry": "N"})
    assert set(entry_hexes(sight, "us-7cav")) == {"1103", "1104"}


def test_a_trapped_defender_is_worth_attacking_more_than_a_free_one():
    view = view_of("US", {"jp-1-33": "0605"})
    sight = see(view, LOADED)
    ring = list(LOADED.board.neighbours("0605"))
    alone = Judge(sight, {"us-7cav": ring[0]}).judge(Attackers(["us-7cav"], []), ["jp-1-33"])
    ringed = {f"u{i}": h for i, h in enumerate(ring)} | {"us-7cav": ring[0]}
    trapped = Judge(sight, ringed).judge(Attackers(["us-7cav"], []), ["jp-1-33"])
    assert trapped.worth > alone.worth


def eliminated_value(state) -> dict[str, int]:
    """For each side, the value of the enemy units it eliminated (15.11, 15.12)."""
    score = {"US": 0, "JP": 0}
    for unit in state.units:
        if state.locations.get(unit.id) == "eliminated":
            score["JP" if unit.side == "US" else "US"] += unit.combat_value
    return score


def test_greedy_beats_random_on_the_test_scenario():
    wins = 0
    for seed in range(6):
        for side in ("US", "JP"):
            policies = {"US": "random", "JP": "random", side: "greedy"}
            final = play_out(LOADED, policies, seed=seed).final.state
            score = eliminated_value(final)
            other = "JP" if side == "US" else "US"
            wins += score[side] > score[other]
    assert wins >= 9


def test_leyte_shaped_data_still_gives_valid_orders():
    """Named entry areas, exit hexes and airfield places, as the Leyte scenarios will have them."""
    import json
    from pathlib import Path

    from pbem.loading.datafiles import scenario_from

    document = json.loads((Path(__file__).resolve().parent.parent / "scenarios" / "test-skirmish.json").read_text())
    document["map"]["areas"] = {"N": ["1103", "1104"], "0100": ["0110", "0210", "0310"]}
    document["map"]["exits"] = ["0101", "0102"]
    document["map"]["places"]["Tabon Airfield"] = "0706"
    for unit in document["units"]:
        if unit["id"] == "us-19":
            unit["entry"] = "N"
        if unit["id"] == "jp-41":
            unit["entry"] = "0100"
    loaded = scenario_from(document, Path("leyte-shaped.json"))
    for policies in (("greedy", "greedy"), ("random", "random")):
        for seed in range(3):
            game = play_out(loaded, {"US": policies[0], "JP": policies[1]}, seed=seed)
            assert game.final.over and all(s.last["valid"] for s in game.steps[1:])


def test_settle_lands_a_reinforcement_whose_path_is_refused():
    view = view_of("US", {"jp-1-33": "0605"})
    sight = see(view, LOADED)
    plan = Plan.standing(sight)
    plan.move("us-7cav", "1104", ["1004", "0904", "0804", "0704", "0604"])  # far beyond 5 MP after landing (5.13)
    assert any(p.rule == "5.13" for p in problems_with(sight, plan.document()))
    orders = settle(plan)
    assert orders["moves"] == [{"unit": "us-7cav", "path": [], "enter": "1104"}]


def test_orders_do_not_depend_on_python_hash_seeds():
    """Deterministic across processes too: no set or dict order leaks into the orders."""
    import os
    import subprocess
    import sys

    script = (
        "import json; from pbem.loading.datafiles import load_scenario; from pbem.bot.selfplay import play_out; "
        "loaded = load_scenario('test-skirmish'); "
        "print(json.dumps([play_out(loaded, {'US': p, 'JP': q}, seed=2).orders for p, q in (('greedy', 'random'), ('random', 'greedy'))], sort_keys=True))"
    )
    runs = {
        subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                       env=dict(os.environ, PYTHONHASHSEED=seed)).stdout
        for seed in ("1", "2")
    }
    assert len(runs) == 1 and "moves" in runs.pop()
