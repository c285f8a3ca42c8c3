"""The hidden-units option, one rule case at a time (docs/hidden-units.md; Legion 19B.2-19B.7, Formosa 11.2, IPH 6.8).

Each test builds a small position by hand on a 10x10 map of towns (a town
hides: it is read on the Broken line of the CRT) with the clear, rough and
mountain hexes it needs, and asserts what the engine's entry points do with
it: ``check_orders`` and ``adjudicate`` with fixed dice, and the referee's
``play`` for what each side's view then shows.

The board, used by every test (hex ids are CCRR; the American units stand
in the east, the Japanese set-up in the west)::

    US  us-a 0905, us-b 0907, us-art 1006
    JP  jp-inf-1 0505, jp-inf-2 0507 (rough), jp-art 0405, jp-tank 0303 (rough: the scenario's own armor hex)
        jp-late arrives on Game-Turn 2 by the western edge
    0406 is closed to Japanese units (16.23); the scenario allows 3 dummies within 3 hexes of the set-up
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.loading.datafiles import LoadedScenario, board_for
from pbem.engine import hexes, limited
from pbem.engine.adjudicator import adjudicate, check_orders
from pbem.engine.dice import FixedDice
from pbem.engine.scoring import victory_report
from pbem.engine.sequence import opening
from pbem.game import fog
from pbem.game.step import play, record_step
from pbem.game.views import state_of_view
from pbem.model.common import ELIMINATED
from pbem.model.defense import Defense, FpfChoice
from pbem.model.orders import Orders
from pbem.model.routes import Route
from pbem.model.ruleset import Ruleset
from pbem.model.scenario import Scenario
from pbem.protocol.canonical import canonical_bytes

ROUGH = ("0303", "0507", "0202")
SETUP = {"jp-inf-1": "0505", "jp-inf-2": "0507", "jp-art": "0405", "jp-tank": "0303"}
AMERICANS = {"us-a": "0905", "us-b": "0907", "us-art": "1006"}
NAMES = {"jp-inf-1": "First Battalion", "jp-inf-2": "Second Battalion", "jp-art": "Mountain Gun Battery", "jp-tank": "Tank Company"}


def _unit(uid, side, hex_=None, kind="infantry", a=2, d=3, m=6, **extra):
    row = {"id": uid, "side": side, "kind": kind, "defense": d, "move": m, "source": "test", "name": NAMES.get(uid, uid)}
    if kind == "artillery":
        row |= {"barrage": extra.pop("barrage", 1), "fpf": extra.pop("fpf", 3), "range": extra.pop("range", 3)}
    else:
        row["attack"] = a
    if hex_ is not None:
        row["hex"] = hex_
    return row | extra


def world(*, clear=(), mountain=(), objectives=(), us_gsp=2, radius=3, beaches=("1004", "1005")) -> LoadedScenario:
    """The test board: every hex a town but ``clear`` (clear), ``mountain`` and :data:`ROUGH`."""
    terrain = {hexes.hex_id(c, r): "town" for c in range(1, 11) for r in range(1, 11)}
    terrain |= {h: "rough" for h in ROUGH} | {h: "mountain" for h in mountain}
    for h in clear:
        terrain.pop(h)
    units = [
        _unit("us-a", "US", "0905", a=5, d=5, m=5), _unit("us-b", "US", "0907", a=5, d=5, m=5),
        _unit("us-art", "US", "1006", kind="artillery", barrage=2, fpf=3, range=5, d=1, m=4),
        _unit("jp-inf-1", "JP", "0505"), _unit("jp-inf-2", "JP", "0507"),
        _unit("jp-art", "JP", "0405", kind="artillery", d=2, m=4), _unit("jp-tank", "JP", "0303", kind="armor", a=4, d=3, m=6),
        _unit("jp-late", "JP", arrives=2, entry="W", d=6, a=4, m=5),
    ]
    doc = {
        "id": "hidden-test", "title": "hidden units test board", "kind": "test", "ruleset": {"exclusive": "leyte"}, "map_source": "test",
        "map": {"cols": 10, "rows": 10, "terrain": terrain, "beaches": list(beaches),
                "areas": {"W": [hexes.hex_id(1, r) for r in range(1, 11)], "X": ["0406"]}},
        "units": units, "first_player": "US", "first_turn": 1, "last_turn": 3,
        "ground_support": [{"turn": t, "US": us_gsp, "JP": 1, "source": "test"} for t in (1, 2, 3)],
        "closed": [{"side": "JP", "area": "X", "source": "16.23"}],
        "objectives": list(objectives),
        "hidden_units": {"dummies": 3, "radius": radius, "source": "assumed: test"},
    }
    scenario = Scenario.model_validate(doc)
    return LoadedScenario(Path("hidden-test.json"), scenario, board_for(scenario.map, scenario.units, "test", scenario=scenario))


def rules(w: LoadedScenario) -> Ruleset:
    return w.scenario.ruleset


def setup_state(w: LoadedScenario):
    """The position awaiting the Japanese secret set-up."""
    return opening(w.scenario, hidden=True)


def position(w: LoadedScenario, places=None, *, dummies=(), exposed=(), phasing="US", priority=()):
    """A position after the secret set-up: units moved to ``places``, dummies placed in ``dummies`` (in order
    JP-dummy-1, -2, ...), the others out of the game, and ``exposed`` the units the American player may examine."""
    state = setup_state(w)
    dummy_ids = [u.id for u in state.units if u.kind == "dummy"]
    placed = dict(zip(dummy_ids, dummies))
    units = tuple(u for u in state.units if u.kind != "dummy" or u.id in placed)
    locations = {u.id: state.locations[u.id] for u in units} | (places or {}) | placed
    return state.model_copy(update={
        "units": units, "locations": locations,
        "position": state.position.model_copy(update={"phasing": phasing}),
        "hidden": state.hidden.model_copy(update={"deployed": True, "exposed": frozenset(exposed), "priority": tuple(priority)}),
    })


def checked(w, state, orders: dict):
    return check_orders(w.board, rules(w), state, Orders.model_validate(orders))


def rules_broken(w, state, orders: dict) -> set[tuple[str, str | None]]:
    return {(p.rule, p.unit) for p in checked(w, state, orders).problems}


def step(w, state, orders: dict, dice=()):
    """The referee's step: both views, the public record and the next position."""
    return play(w, w.scenario.ruleset.model_dump(mode="json"), state, orders, FixedDice(list(dice)), game="g", seq=1,
                scenario_ref={"id": "hidden-test", "hash": "h"}, source="orders")


def us_bytes(s) -> bytes:
    return canonical_bytes(s.views["US"])


def us_units(s) -> dict[str, dict]:
    return {u["id"]: u for u in s.views["US"]["state"]["units"]}


def us_events(s) -> list[dict]:
    return s.views["US"]["last"]["events"]


# -- the secret set-up (19B.2, 5.31, 5.25, 19B.6, 19B.3, 16.23) -------------------------------------------------

DEPLOYED = {"units": dict(SETUP), "dummies": ["0605"]}


def deploy(w, units=None, dummies=None, **extra):
    return rules_broken(w, setup_state(w), {"deployment": {"units": SETUP if units is None else units,
                                                           "dummies": ["0605"] if dummies is None else dummies}} | extra)


def test_19B2_a_deployment_within_the_limits_is_accepted_and_carried_out():
    w = world()
    assert deploy(w) == set()
    shuffled = {"jp-inf-1": "0405", "jp-art": "0505", "jp-inf-2": "0507", "jp-tank": "0303"}
    assert deploy(w, shuffled) == set()  # any set-up unit in any set-up hex
    dice = FixedDice([1, 1])
    result = adjudicate(w.board, rules(w), setup_state(w), Orders.model_validate({"deployment": {"units": shuffled, "dummies": ["0304", "0404"]}}), dice)
    assert result.valid and result.state.hidden.deployed
    assert {u: result.state.locations[u] for u in shuffled} == shuffled
    kept = [u.id for u in result.state.units if u.kind == "dummy"]
    assert kept == ["JP-dummy-1", "JP-dummy-2"]  # the third dummy, not placed, never enters the game
    assert result.state.locations["JP-dummy-1"] == "0304" and "JP-dummy-3" not in result.state.locations


def test_19B2_a_deployment_naming_an_unknown_unit_is_refused():
    w = world()
    units = {k: v for k, v in SETUP.items() if k != "jp-inf-1"} | {"jp-nobody": "0505"}
    found = deploy(w, units)
    assert ("19B.2", "jp-nobody") in found
    assert ("19B.2", "jp-inf-1") in found  # and the unit left out is missing


@pytest.mark.parametrize("unit", ["us-a", "jp-late"])
def test_19B2_a_deployment_naming_a_unit_that_is_not_a_set_up_unit_is_refused(unit):
    w = world()
    assert deploy(w, SETUP | {unit: "0505"}) >= {("19B.2", unit)}


def test_19B2_a_unit_may_set_up_anywhere_in_the_set_up_zone_and_a_dummy_on_a_printed_hex():
    """The secret set-up leaves real doubt (issue 19 item 1): a unit may leave its printed hex for any hex of the
    set-up zone, and a dummy may take a printed hex a unit left, so a printed hex no longer says 'real unit'."""
    w = world()
    assert deploy(w, SETUP | {"jp-inf-1": "0606"}, dummies=["0505"]) == set()
    assert deploy(w, SETUP | {"jp-inf-1": "0203", "jp-art": "0604"}, dummies=["0405", "0305"]) == set()


def test_19B2_a_unit_set_up_beyond_the_set_up_zone_is_refused():
    w = world()
    far = "0110"
    assert min(hexes.distance(far, h) for h in SETUP.values()) > 3
    assert deploy(w, SETUP | {"jp-inf-1": far}) == {("19B.2", "jp-inf-1")}


def test_16_23_a_unit_may_not_set_up_in_a_hex_closed_to_japanese_units():
    w = world()
    assert deploy(w, SETUP | {"jp-inf-1": "0406"}) == {("16.23", "jp-inf-1")}


def test_5_31_a_unit_may_not_set_up_in_a_hex_an_american_unit_holds():
    w = world(radius=5)
    assert deploy(w, SETUP | {"jp-inf-1": "0905"}) == {("5.31", "jp-inf-1")}


def test_12_21_no_japanese_unit_or_dummy_sets_up_on_a_beach_hex():
    w = world(beaches=("0605", "1004"))
    assert deploy(w, SETUP | {"jp-inf-1": "0605"}, dummies=["0604"]) == {("12.21", "jp-inf-1")}
    assert deploy(w, dummies=["0605"]) == {("12.21", None)}


def test_5_31_two_units_set_up_in_one_hex_are_refused():
    w = world()
    assert deploy(w, SETUP | {"jp-inf-2": "0505"}) == {("5.31", "jp-inf-2")}


def test_19B2_every_set_up_unit_must_be_set_up():
    w = world()
    assert deploy(w, {k: v for k, v in SETUP.items() if k != "jp-art"}) == {("19B.2", "jp-art")}


def test_5_25_armor_keeps_to_its_terrain_but_may_take_the_hex_the_scenario_gave_armor():
    w = world()
    # 0507 is rough with no road: armor may not set up there ...
    assert deploy(w, SETUP | {"jp-tank": "0507", "jp-inf-2": "0303"}) == {("5.25", "jp-tank")}
    # ... while 0303, rough too, is where the scenario itself set the tank up: allowed (checked in the first test)
    assert w.board.terrain("0303").name == "rough" and deploy(w) == set()


def test_19B6_no_more_dummies_than_the_scenario_allows():
    w = world()
    assert ("19B.6", None) in deploy(w, dummies=["0605", "0604", "0606", "0404"])
    assert deploy(w, dummies=["0605", "0604", "0404"]) == set()


def test_19B3_a_dummy_may_not_be_placed_in_a_clear_hex():
    w = world(clear=["0604"])
    assert deploy(w, dummies=["0604"]) == {("19B.3", None)}


def test_19B6_a_dummy_may_be_placed_where_a_unit_may_next_to_an_american_unit_too():
    """Dummies take the hexes units may take (issue 19 item 1): a marker in contact may be either."""
    w = world()
    assert hexes.adjacent("0804", AMERICANS["us-a"])
    assert deploy(w, dummies=["0804"]) == set()
    assert deploy(w, SETUP | {"jp-inf-1": "0804"}) == set()


def test_19B6_a_dummy_may_not_be_placed_beyond_the_set_up_zone():
    w = world()
    far = "0110"
    assert min(hexes.distance(far, h) for h in SETUP.values()) > 3
    assert deploy(w, dummies=[far]) == {("19B.2", None)}


def test_16_23_a_dummy_may_not_be_placed_in_a_hex_closed_to_japanese_units():
    w = world()
    assert deploy(w, dummies=["0406"]) == {("16.23", None)}


def test_5_31_a_dummy_may_not_share_a_hex():
    w = world()
    assert deploy(w, dummies=["0505"]) == {("5.31", None)}  # a set-up unit stands there
    assert deploy(w, dummies=["0605", "0605"]) == {("5.31", None)}


def test_19B2_the_set_up_holds_nothing_but_the_deployment():
    w = world()
    found = deploy(w, moves=[{"unit": "jp-inf-1", "path": ["0605"]}])
    assert found == {("19B.2", None)}
    assert rules_broken(w, setup_state(w), {}) == {("19B.2", None)}  # and it must hold one


def test_19B2_no_deployment_after_the_set_up():
    w = world()
    state = position(w, phasing="JP")
    assert rules_broken(w, state, {"deployment": DEPLOYED}) == {("19B.2", None)}


# -- exposure: position, movement (19B.3), combat (19B.4), removal (19B.5) -------------------------------------------


def test_19B3_a_japanese_unit_ending_in_a_clear_hex_is_exposed():
    w = world(clear=["0605"])
    s = step(w, position(w, phasing="JP"), {"moves": [{"unit": "jp-inf-1", "path": ["0605"]}]})
    assert s.last["valid"], s.last["problems"]
    assert "jp-inf-1" in s.state.hidden.exposed
    seen = us_units(s)["jp-inf-1"]
    assert (seen["kind"], seen["attack"], seen["defense"], seen["name"]) == ("infantry", 2, 3, "First Battalion")
    assert s.views["US"]["state"]["locations"]["jp-inf-1"] == "0605"


def test_19B3_a_unit_seen_moving_through_a_clear_hex_is_hidden_again_in_a_hex_that_is_not():
    w = world(clear=["0605"])
    s = step(w, position(w, phasing="JP"), {"moves": [{"unit": "jp-inf-1", "path": ["0605", "0705"]}]})
    assert s.last["valid"], s.last["problems"]
    assert us_events(s) == [{"type": "sighted", "unit": "jp-inf-1", "hexes": ["0605"], "rule": "19B.3"}]
    assert "jp-inf-1" not in s.state.hidden.exposed
    assert us_units(s)["0705"]["kind"] == "hidden" and "jp-inf-1" not in us_units(s)


def test_19B3_a_move_through_hexes_that_are_not_clear_is_not_seen():
    w = world(clear=["0605"])
    s = step(w, position(w, phasing="JP"), {"moves": [{"unit": "jp-inf-1", "path": ["0506", "0606"]}]})
    assert s.last["valid"], s.last["problems"]
    assert us_events(s) == []
    assert b"jp-inf-1" not in us_bytes(s) and b"First Battalion" not in us_bytes(s)
    assert us_units(s)["0606"]["kind"] == "hidden"
    assert s.views["JP"]["last"]["events"][0]["type"] == "moved"  # the Japanese player sees his own move


def test_19B3_an_exposed_unit_that_steps_out_of_a_clear_hex_is_hidden_again():
    w = world(clear=["0805"])
    # jp-inf-1 in clear 0805 next to us-a: still exposed as the Japanese player-turn begins (19B.5) ...
    state = position(w, {"jp-inf-1": "0805"}, exposed=["jp-inf-1"], phasing="JP")
    assert limited.at_japanese_start(w.board, state) == {"jp-inf-1"}
    # ... and it steps back into the town at 0705, out of contact: hidden again (19B.3).
    s = step(w, state, {"moves": [{"unit": "jp-inf-1", "path": ["0705"]}]})
    assert s.last["valid"], s.last["problems"]
    assert "jp-inf-1" not in s.state.hidden.exposed
    assert us_units(s)["0705"]["kind"] == "hidden"


def test_19B4_a_hidden_defender_is_exposed_by_the_combat():
    w = world()
    state = position(w, {"jp-inf-1": "0804", "jp-art": "0101"})
    orders = {"attacks": [{"attackers": ["us-a"], "defenders": ["0804"]}]}
    s = step(w, state, orders, dice=[1])
    assert s.last["valid"], s.last["problems"]
    combat = next(e for e in s.views["JP"]["last"]["events"] if e["type"] == "combat")
    assert combat["defenders"] == ["jp-inf-1"]  # the marker 0804 was read as the unit in 0804
    assert "jp-inf-1" in us_units(s) and next(e for e in us_events(s) if e["type"] == "combat") == combat


def test_19B4_a_japanese_attacker_is_exposed():
    w = world()
    state = position(w, {"jp-inf-1": "0804", "jp-art": "0101"}, phasing="JP")
    s = step(w, state, {"attacks": [{"attackers": ["jp-inf-1"], "defenders": ["us-a"]}]}, dice=[6])
    assert s.last["valid"], s.last["problems"]
    assert "jp-inf-1" in us_units(s)
    assert any(e["type"] == "combat" and e["attackers"] == ["jp-inf-1"] for e in us_events(s))


def test_19B4_artillery_giving_fpf_is_exposed():
    w = world()
    state = position(w, {"jp-inf-1": "0804", "jp-art": "0704"})
    state = state.model_copy(update={"standing": {"JP": Defense(fpf=[FpfChoice(artillery="jp-art", defender="jp-inf-1")])}})
    s = step(w, state, {"attacks": [{"attackers": ["us-a"], "defenders": ["0804"]}]}, dice=[1])
    assert s.last["valid"], s.last["problems"]
    assert any(e["type"] == "fpf" and e["artillery"] == "jp-art" for e in us_events(s))
    assert "jp-art" in s.state.hidden.exposed and us_units(s)["jp-art"]["fpf"] == 3


@pytest.mark.parametrize("where,clear_hex,stays", [
    ("0805", True, True),     # clear and next to us-a: stays exposed
    ("0805", False, False),   # next to us-a, not clear
    ("0605", True, False),    # clear, no American next to it
    ("0605", False, False),
])
def test_19B5_as_the_japanese_player_turn_begins_exposed_units_stay_so_only_clear_and_in_contact(where, clear_hex, stays):
    w = world(clear=[where] if clear_hex else [])
    state = position(w, {"jp-inf-1": where}, exposed=["jp-inf-1"], phasing="JP")
    assert (limited.at_japanese_start(w.board, state) == {"jp-inf-1"}) is stays


def test_19B5_an_exposed_unit_out_of_contact_in_a_hex_that_is_not_clear_is_hidden_by_the_japanese_player_turn():
    w = world()
    state = position(w, {"jp-inf-1": "0605"}, exposed=["jp-inf-1"], phasing="JP")
    s = step(w, state, {})
    assert s.last["valid"], s.last["problems"]
    assert s.state.hidden.exposed == frozenset()
    assert "jp-inf-1" not in us_units(s) and us_units(s)["0605"]["kind"] == "hidden"
    # the American player-turn does not hide it: an exposure lasts until the Japanese player-turn begins
    us = step(w, position(w, {"jp-inf-1": "0605"}, exposed=["jp-inf-1"]), {})
    assert us.state.hidden.exposed == {"jp-inf-1"}


# -- dummies (19B.6, Formosa 11.2) -------------------------------------------------------------------------------


def test_19B6_a_dummy_moving_through_a_clear_hex_is_removed_there():
    w = world(clear=["0605"])
    state = position(w, {"jp-inf-1": "0101"}, dummies=["0505"], phasing="JP")
    s = step(w, state, {"moves": [{"unit": "JP-dummy-1", "path": ["0605", "0705"]}]})
    assert s.last["valid"], s.last["problems"]
    assert s.state.locations["JP-dummy-1"] == ELIMINATED
    assert us_events(s) == [{"type": "dummy_removed", "hex": "0605", "rule": "19B.3", "why": "seen in a clear hex during its move"}]
    assert b"dummy-1" not in us_bytes(s) and "0705" not in us_units(s)


def test_19B6_a_dummy_in_contact_as_the_japanese_combat_phase_begins_is_removed_and_need_not_attack():
    w = world()
    state = position(w, dummies=["0705"], phasing="JP")
    s = step(w, state, {"moves": [{"unit": "JP-dummy-1", "path": ["0804"]}]})  # next to us-a
    assert s.last["valid"], s.last["problems"]
    assert s.state.locations["JP-dummy-1"] == ELIMINATED
    assert [e["rule"] for e in us_events(s) if e["type"] == "dummy_removed"] == ["19B.6"]


def test_19B6_a_dummy_never_attacks():
    w = world()
    state = position(w, dummies=["0705"], phasing="JP")
    orders = {"moves": [{"unit": "JP-dummy-1", "path": ["0804"]}], "attacks": [{"attackers": ["JP-dummy-1"], "defenders": ["us-a"]}]}
    assert ("19B.6", "JP-dummy-1") in rules_broken(w, state, orders)


def test_19B6_a_dummy_in_contact_as_the_american_combat_phase_begins_is_removed_and_the_attack_on_it_cancelled():
    w = world()
    state = position(w, {"us-b": "1009", "us-art": "1010"}, dummies=["0706"])
    orders = {"moves": [{"unit": "us-a", "path": ["0805"]}], "attacks": [{"attackers": ["us-a"], "defenders": ["0706"]}]}
    s = step(w, state, orders, dice=[])  # FixedDice([]) raises should any die be rolled
    assert s.last["valid"], s.last["problems"]
    kinds = [e["type"] for e in us_events(s)]
    assert kinds == ["moved", "dummy_removed", "combat_cancelled"]
    cancelled = us_events(s)[-1]
    assert "0706" in cancelled["reason"] and "19B.6" in cancelled["reason"]
    assert s.last["combats"] == [{"index": 1, "status": "cancelled"}]
    assert b"JP-dummy" not in us_bytes(s)
    # he had to attack the marker as if it were real (7.12), judged on his own view
    assert ("7.12", "us-a") in rules_broken(w, fog.american_state(state), {"moves": orders["moves"]})


def test_19B4_a_dummy_barraged_from_a_distance_is_removed_before_any_die_is_rolled():
    w = world()
    state = position(w, dummies=["0705"])
    assert hexes.distance("1006", "0705") <= 5 and not any(hexes.adjacent("0705", h) for h in AMERICANS.values())
    s = step(w, state, {"attacks": [{"attackers": ["us-art"], "defenders": ["0705"]}]}, dice=[])
    assert s.last["valid"], s.last["problems"]
    assert [e["type"] for e in us_events(s)] == ["dummy_removed", "combat_cancelled"]
    assert us_events(s)[0] == {"type": "dummy_removed", "hex": "0705", "rule": "19B.6", "why": "attacked; a dummy cannot fight"}
    assert s.state.locations["JP-dummy-1"] == ELIMINATED and b"JP-dummy" not in us_bytes(s)


def test_19B6_an_attack_on_a_dummy_and_a_real_unit_is_fought_against_the_real_one():
    w = world()
    state = position(w, {"us-b": "1009", "us-art": "1010", "jp-inf-1": "0806"}, dummies=["0706"])
    orders = {"moves": [{"unit": "us-a", "path": ["0805"]}], "attacks": [{"attackers": ["us-a"], "defenders": ["0706", "0806"]}]}
    dice = FixedDice([4])
    result = adjudicate(w.board, rules(w), state, fog.named_by_hex(Orders.model_validate(orders), state), dice)  # as the referee does
    assert result.valid, result.problems
    combat = next(e for e in result.events if e["type"] == "combat")
    assert combat["defenders"] == ["jp-inf-1"] and combat["defense"] == 3
    assert len(dice.rolls) == 1 and "JP-dummy" not in dice.rolls[0][0]


def test_6_0_a_dummys_zone_of_control_stops_an_american_move():
    w = world()
    state = position(w, {"us-b": "1009", "us-art": "1010"}, dummies=["0706"])
    orders = {"moves": [{"unit": "us-a", "path": ["0805", "0705"]}]}
    assert ("6.0", "us-a") in rules_broken(w, fog.american_state(state), orders)
    s = step(w, state, orders)
    assert not s.last["valid"] and "6.0" in {p["rule"] for p in s.last["problems"]}


def test_i28_a_dummy_holds_an_objective_for_japan_and_scores_nothing_itself():
    """I28 (Legion 19B.6, 5B): a dummy holds its hex, so one standing in a Japanese objective when it is scored
    occupies it (15.21), exactly as a unit would; it is still worth nothing when removed (15.11, 15.12)."""
    objective = {"side": "JP", "hex": "0605", "points": 10, "source": "test"}
    w = world(objectives=[objective])
    holding = position(w, dummies=["0605", "0604"])
    report = victory_report(w.board, w.scenario, holding, final=True).as_dict()
    assert report["points"] == {"US": 0, "JP": 10}
    line = next(line for line in report["lines"] if line["what"].startswith("occupying"))
    # named by its hex, the marker the American view shows there, never by the dummy's id
    assert line["items"] == ["0605"] and b"JP-dummy" not in canonical_bytes(report)
    removed = holding.model_copy(update={"locations": holding.locations | {"JP-dummy-2": ELIMINATED}})
    assert victory_report(w.board, w.scenario, removed, final=True).as_dict()["points"] == {"US": 0, "JP": 10}
    gone = holding.model_copy(update={"locations": holding.locations | {"JP-dummy-1": ELIMINATED}})
    assert victory_report(w.board, w.scenario, gone, final=True).as_dict()["points"] == {"US": 0, "JP": 0}
    real = gone.model_copy(update={"locations": gone.locations | {"jp-inf-1": "0605"}})
    real_report = victory_report(w.board, w.scenario, real, final=True).as_dict()
    assert real_report["points"]["JP"] == 10
    assert next(line for line in real_report["lines"] if line["what"].startswith("occupying"))["items"] == ["jp-inf-1"]


def test_i28_a_dummy_on_a_beach_hex_scores_15_22_but_is_no_unit_for_the_terms_that_count_units():
    """15.22 asks for a beach hex occupied, which a dummy does (I28); 15.33's cut-off units and 16.34's lines count
    units by their value, and a dummy is worth nothing (15.11)."""
    from pbem.model.scenario import VictoryTerm

    w = world()
    terms = [VictoryTerm(kind="beaches", side="JP", points=40, areas=["W"], source="15.22"),
             VictoryTerm(kind="edge-loc", side="JP", other_side="US", of_side="JP", area="W", source="16.34")]
    w = LoadedScenario(w.path, w.scenario.model_copy(update={"victory": terms}), w.board)
    on_beach = position(w, dummies=["0103"])
    report = victory_report(w.board, w.scenario, on_beach, final=True).as_dict()
    beach = next(line for line in report["lines"] if line["source"] == "15.22")
    assert beach["points"] == 40 and beach["items"] == ["0103"]
    edge = [line for line in report["lines"] if line["source"] == "16.34"]
    assert all("JP-dummy-1" not in line["items"] and "0103" not in line["items"] for line in edge)
    away = position(w, dummies=["0605"])  # off the W hexes: nothing (a line with no points and no items is left out)
    assert not any(line["source"] == "15.22" for line in victory_report(w.board, w.scenario, away, final=True).as_dict()["lines"])


def test_16_34_the_american_view_does_not_tell_whether_a_timed_objective_was_held_by_a_dummy():
    """Issue 19 item 6, then I28: the Ormoc award (16.34) is scored at the end of its Game-Turn if a Japanese counter
    holds the hex, a dummy included.  Scoring it reveals nothing: the dummy stays on the map, unexposed, and the
    American view is the same byte for byte whether the marker in Ormoc is a unit or a dummy (pbem still keeps the
    award itself out of his view until the final report)."""
    ormoc = {"side": "JP", "hex": "0505", "points": 10, "name": "Ormoc", "at_end_of_turn": 1, "source": "16.34"}
    w = world(objectives=[ormoc])
    held = step(w, position(w, {"jp-inf-1": "0505"}, dummies=["0605"], phasing="JP"), {})
    bluff = step(w, position(w, {"jp-inf-1": "0605"}, dummies=["0505"], phasing="JP"), {})
    assert [a.points for a in held.state.awards] == [10] and [a.points for a in bluff.state.awards] == [10]  # I28
    assert held.views["JP"]["victory"]["points"]["JP"] == 10 and bluff.views["JP"]["victory"]["points"]["JP"] == 10
    assert bluff.state.locations["JP-dummy-1"] == "0505" and "JP-dummy-1" not in bluff.state.hidden.exposed
    assert not any(e["type"] == "dummy_removed" for e in bluff.last["events"])
    assert not held.over and us_bytes(held) == us_bytes(bluff)  # the American view cannot tell
    assert b"awarded" not in us_bytes(held) and held.views["US"]["victory"]["points"]["JP"] == 0
    # the final victory report (15.4) lists it, as it lists every point scored
    for s in (held, bluff):
        final = victory_report(w.board, w.scenario, s.state, final=True).as_dict()
        assert final["points"]["JP"] == 10 and b"JP-dummy" not in canonical_bytes(final)
        assert any(line["what"].startswith("occupying Ormoc") for line in final["lines"])


def test_i28_the_final_report_shows_a_dummy_in_an_objective_as_the_marker_in_its_hex():
    """The game ends with a dummy in the Japanese objective: both views' final report score it (I28), name only the
    hex (the marker the American view shows), and the dummy is not exposed or removed by being scored."""
    objective = {"side": "JP", "hex": "0605", "points": 15, "name": "Carigara", "source": "16.14"}
    w = world(objectives=[objective])
    last = position(w, {"jp-inf-1": "0303"}, dummies=["0605"], phasing="JP")
    last = last.model_copy(update={"position": last.position.model_copy(update={"turn": w.scenario.last_turn})})
    s = step(w, last, {})
    assert s.over
    for side in ("US", "JP"):
        report = s.views[side]["victory"]
        assert report["final"] and report["points"]["JP"] == 15
        line = next(line for line in report["lines"] if line["what"].startswith("occupying Carigara"))
        assert line["points"] == 15 and line["items"] == ["0605"]
    assert s.public["victory"] == s.views["US"]["victory"]
    assert b"JP-dummy" not in us_bytes(s) and b"JP-dummy" not in canonical_bytes(s.public)
    assert s.state.locations["JP-dummy-1"] == "0605"
    assert "0605" in {u["id"] for u in s.views["US"]["state"]["units"] if u["kind"] == fog.HIDDEN}


# -- intelligence (19B.7) ----------------------------------------------------------------------------------------


def intelligence(result) -> dict:
    return next(e for e in result.events if e["type"] == "intelligence")


def test_19B7_after_the_set_up_2d6_units_are_exposed_from_the_committed_dice():
    w = world()
    dice = FixedDice([2, 1])
    result = adjudicate(w.board, rules(w), setup_state(w), Orders.model_validate({"deployment": DEPLOYED}), dice)
    assert result.valid and result.dice_used == 2
    assert [p for p, _ in dice.rolls] == ["intelligence after the set-up (19B.7): 2d6, first die",
                                          "intelligence after the set-up (19B.7): 2d6, second die"]
    event = intelligence(result)
    assert (event["when"], event["roll"]) == ("set-up", 3)
    # the policy: nearest an American unit first (us-a 0905): jp-inf-1 0505 (4), then the dummy 0605 (3) ...
    removed = [e for e in result.events if e["type"] == "dummy_removed"]
    assert [e["hex"] for e in removed] == ["0605"] and result.state.locations["JP-dummy-1"] == ELIMINATED
    assert [e["unit"] for e in event["exposed"]] == ["jp-inf-1", "jp-inf-2"]
    assert result.state.hidden.exposed == {"jp-inf-1", "jp-inf-2"}


def test_19B7_an_intelligence_roll_costs_a_ground_support_point_that_attacks_may_no_longer_use():
    w = world(us_gsp=1)
    state = position(w, {"jp-inf-1": "0804", "jp-art": "0101"})
    roll = {"intelligence": {"roll": True}}
    attack = {"attacks": [{"attackers": ["us-a"], "defenders": ["jp-inf-1"], "gsp": 1}]}
    assert checked(w, state, roll | attack).problems[0].rule == "9.1"
    assert rules_broken(w, state, attack) == set() and rules_broken(w, state, roll | {"attacks": [{"attackers": ["us-a"], "defenders": ["jp-inf-1"]}]}) == set()
    dice = FixedDice([1, 3])
    result = adjudicate(w.board, rules(w), state, Orders.model_validate(roll | {"attacks": [{"attackers": ["us-a"], "defenders": ["jp-inf-1"]}]}), dice)
    assert result.valid and result.state.position.gsp["US"] == 0
    assert dice.rolls[0] == ("intelligence roll (19B.7): 1d6", 1)
    assert (intelligence(result)["when"], intelligence(result)["roll"]) == ("movement", 1)
    none_left = position(world(us_gsp=0))
    assert rules_broken(w, none_left, roll) == {("19B.7", None)}


def test_19B7_the_priority_list_comes_first_then_the_policy():
    w = world()
    state = position(w, {"jp-inf-1": "0705"})  # two hexes from us-a: the policy's first
    orders = Orders.model_validate({"intelligence": {"roll": True, "priority": ["0303", "0909"]}})
    result = adjudicate(w.board, rules(w), state, orders, FixedDice([2]))
    assert [e["unit"] for e in intelligence(result)["exposed"]] == ["jp-tank", "jp-inf-1"]  # 0909 is empty
    assert result.state.hidden.priority == ("0303", "0909")  # it stands for later rolls
    later = adjudicate(w.board, rules(w), result.state.model_copy(update={"hidden": result.state.hidden.model_copy(update={"exposed": frozenset()})}),
                       Orders.model_validate({"intelligence": {"roll": True}}), FixedDice([1]))
    assert [e["unit"] for e in intelligence(later)["exposed"]] == ["jp-tank"]


def test_19B7_a_unit_in_a_mountain_hex_counts_two():
    w = world(mountain=["0705"])
    state = position(w, {"jp-inf-1": "0705"})
    one = adjudicate(w.board, rules(w), state, Orders.model_validate({"intelligence": {"roll": True}}), FixedDice([1]))
    assert [e["unit"] for e in intelligence(one)["exposed"]] == ["jp-inf-2"]  # passed over for the next that costs one
    two = adjudicate(w.board, rules(w), state, Orders.model_validate({"intelligence": {"roll": True}}), FixedDice([2]))
    assert [e["unit"] for e in intelligence(two)["exposed"]] == ["jp-inf-1"]


def test_19B7_a_dummy_picked_by_intelligence_is_removed():
    w = world()
    state = position(w, dummies=["0705"])
    s = step(w, state, {"intelligence": {"roll": True}}, dice=[1])
    assert s.last["valid"], s.last["problems"]
    assert s.state.locations["JP-dummy-1"] == ELIMINATED
    assert {"type": "dummy_removed", "hex": "0705", "rule": "19B.7", "why": "picked by an intelligence roll"} in us_events(s)
    assert b"JP-dummy" not in us_bytes(s)


def test_19B7_the_japanese_player_makes_no_intelligence_roll():
    w = world()
    assert rules_broken(w, position(w, phasing="JP"), {"intelligence": {"roll": True}}) == {("19B.7", None)}


def test_19B7_no_intelligence_without_the_option():
    w = world()
    plain = opening(w.scenario)
    assert rules_broken(w, plain, {"intelligence": {"roll": True}}) == {("19B.7", None)}


# -- the American orders under fog (IPH 6.8) and the views -------------------------------------------------------


def offline_verdict(w, s, orders: dict) -> set[str]:
    """What the American player's own 'pbem validate' finds (pbem.game.player.check_own_orders): his orders, targets
    named by hex read on his view, checked on the position of his view."""
    from pbem.game.fog import named_by_hex

    view_state = state_of_view(s.views["US"])
    read = named_by_hex(Orders.model_validate(orders), view_state)
    return {p.rule for p in check_orders(w.board, rules(w), view_state, read).problems}


US_ORDERS = [
    {"attacks": [{"attackers": ["us-a"], "defenders": ["0804"]}]},                                         # valid: marker by hex
    {},                                                                                                      # 7.11: 0804 unattacked
    {"attacks": [{"attackers": ["us-b"], "defenders": ["0804"]}]},                                         # 7.15 and 7.11
    {"moves": [{"unit": "us-a", "path": ["0805"]}], "attacks": [{"attackers": ["us-a"], "defenders": ["0804"]}]},  # 5.14
    {"attacks": [{"attackers": ["us-a"], "defenders": ["0804"]}, {"attackers": ["us-b"], "defenders": ["0804"]}]},  # 7.14
    {"intelligence": {"roll": True}, "attacks": [{"attackers": ["us-a"], "defenders": ["0804"], "gsp": 2}]},       # 9.1
]


@pytest.mark.parametrize("orders", US_ORDERS)
def test_IPH_6_8_offline_validation_on_the_american_view_and_the_referee_agree(orders):
    w = world()
    state = position(w, {"jp-inf-1": "0804", "jp-art": "0101"})
    offline = offline_verdict(w, _view_step(w, state), orders)
    s = step(w, state, orders, dice=[6, 6, 6])
    assert {p["rule"] for p in s.last["problems"]} == offline
    assert s.last["valid"] is (not offline)


def _view_step(w, state):
    """A step whose US view shows ``state`` (the referee's record of a position, built as for any turn file)."""
    return record_step(state, game="g", seq=1, scenario_ref={"id": "hidden-test", "hash": "h"}, ruleset=w.scenario.ruleset.model_dump(mode="json"),
                       over=False, last=None, loaded=w)


def test_IPH_6_8_an_exposed_unit_named_by_its_hex_passes_offline_as_at_the_referee():
    w = world()
    state = position(w, {"jp-inf-1": "0804", "jp-art": "0101"}, exposed=["jp-inf-1"])
    orders = {"attacks": [{"attackers": ["us-a"], "defenders": ["0804"]}]}
    s = step(w, state, orders, dice=[6])
    assert s.last["valid"], s.last["problems"]
    assert offline_verdict(w, _view_step(w, state), orders) == set()


def test_the_american_view_shows_each_hidden_unit_as_a_marker_and_the_japanese_view_lacks_his_priorities():
    w = world()
    state = position(w, dummies=["0705"], exposed=["jp-art"], priority=["0505", "0303"])
    s = _view_step(w, state)
    us, jp = s.views["US"]["state"], s.views["JP"]["state"]
    markers = [u for u in us["units"] if u["kind"] == "hidden"]
    assert [m["id"] for m in markers] == ["0303", "0505", "0507", "0705"]  # sorted by hex, the dummy's among them
    assert all(json.dumps({k: v for k, v in m.items() if k != "id"}) == json.dumps({k: v for k, v in markers[0].items() if k != "id"}) for m in markers)
    assert us["hidden"]["priority"] == ["0505", "0303"] and jp["hidden"]["priority"] == []
    assert {u["id"] for u in jp["units"]} >= {"JP-dummy-1", "jp-inf-1", "jp-art"}
    assert "jp-art" in {u["id"] for u in us["units"]}


def test_the_american_view_tells_only_that_japanese_orders_were_rejected_not_how_many_problems():
    w = world()
    state = position(w, phasing="JP")
    one = step(w, state, {"moves": [{"unit": "no-such-unit", "path": ["0506"]}]})
    three = step(w, state, {"moves": [{"unit": "no-such-unit", "path": ["0506"]}, {"unit": "nor-this", "path": ["0506"]},
                                      {"unit": "us-a", "path": ["0904"]}]})
    assert not one.last["valid"] and not three.last["valid"]
    assert len(three.views["JP"]["last"]["problems"]) > len(one.views["JP"]["last"]["problems"])
    assert one.views["US"]["last"]["problems"] == three.views["US"]["last"]["problems"] == []
    assert one.views["US"]["last"]["problems_withheld"] == three.views["US"]["last"]["problems_withheld"] == 1


def test_a_dummy_pushed_through_a_clear_hex_and_out_again_is_removed_and_tells_nothing_a_real_unit_would_not():
    """19B.3 with 7.8: a dummy displaced into a clear hex and displaced out of it again in the same Combat Phase was
    seen there, so it is removed (found by the leak scan: a real unit on that path is 'sighted', the dummy left
    nothing, so the American view told a dummy from a unit).  Now both are seen at the clear hex, as the rules say."""
    from tests.leak_scan import _traded_attributes

    w = world(clear=["0604"])
    places = {"jp-inf-1": "0804", "jp-inf-2": "0505", "jp-tank": "0603", "jp-art": "0504",
              "us-a": "0904", "us-art": "0706", "us-b": "0403"}
    state = position(w, places, dummies=["0704", "0703"])
    # the Japanese standing retreat route (I1, 7.7) sends jp-art into 0604, where the dummy was pushed
    state = state.model_copy(update={"standing": {"JP": Defense(retreats=[Route(unit="jp-art", path=["0604"])])}})
    orders = {"attacks": [{"attackers": ["us-a"], "defenders": ["0804"]}, {"attackers": ["us-b"], "defenders": ["0504"]}]}
    s = step(w, state, orders, dice=[1, 1])
    assert s.last["valid"], s.last["problems"]
    pushed = [e for e in s.last["events"] if e["type"] == "displaced" and e["unit"] == "JP-dummy-1"]
    assert [e["to"] for e in pushed][:1] == ["0604"] and len(pushed) >= 2, pushed  # in and out again
    assert s.state.locations["JP-dummy-1"] == ELIMINATED
    removal = [e for e in s.last["events"] if e.get("unit") == "JP-dummy-1" and e["type"] == "dummy_removed"]
    assert removal and removal[0]["hex"] == "0604" and removal[0]["rule"] == "19B.3", removal
    us_saw = [e for e in s.views["US"]["last"]["events"] if e["type"] == "dummy_removed"]
    assert [(e["hex"], e["rule"]) for e in us_saw] == [("0604", "19B.3")], us_saw
    # the same step with a real unit under that marker: seen at the same hex, so the rules expose both alike
    real = step(w, _traded_attributes(state, "JP-dummy-1", "jp-inf-2"), orders, dice=[1, 1])
    assert real.last["valid"], real.last["problems"]
    sighted = [e for e in real.views["US"]["last"]["events"] if e["type"] == "sighted" and e.get("unit") == "JP-dummy-1"]
    assert sighted and all(e["hexes"] == ["0604"] for e in sighted), sighted
