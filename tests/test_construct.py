"""Documents built without pydantic's validators (pbem.model.construct) are the very models validation builds.

Same classes, same values, same types (a JSON list in a tuple field becomes
a tuple, an integer in a float field a float), same fields set — compared
value by value with the types, since ``1 == 1.0`` would hide a difference
that a canonical dump would show.  Anything construct cannot build exactly
goes to pydantic, which refuses it with its usual error.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

from pbem.model.construct import construct
from pbem.loading.datafiles import scenario_document, scenario_paths
from pbem.systems import shipped_scenarios
from pbem.model.dump import dump
from pbem.engine.sequence import opening
from pbem.game.codec import state_from_json, state_to_json
from pbem.model.map import MapSpec
from pbem.model.orders import Orders
from pbem.model.ruleset import Ruleset
from pbem.model.scenario import Scenario
from pbem.model.state import GameState
from tests.random_positions import random_turn

ROOT = Path(__file__).resolve().parent.parent
CASE_FILES = sorted((ROOT / "examples" / "cases").glob("*.json"))

#: The SPI system's scenarios (whose model these tests build); another system's own scenarios are built by its room.
SPI_SCENARIOS = sorted(set(scenario_paths()) - set(shipped_scenarios()))


def same(a, b, where: str = "$") -> None:
    """``a`` and ``b`` hold the same values of the same types all the way down (AssertionError naming where not)."""
    assert type(a) is type(b), f"{where}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, BaseModel):
        assert a.model_fields_set == b.model_fields_set, f"{where}: fields set {a.model_fields_set} != {b.model_fields_set}"
        same(a.__dict__, b.__dict__, where)
        assert a == b
    elif isinstance(a, dict):
        assert list(a) == list(b), f"{where}: keys differ"
        for key in a:
            same(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), f"{where}: lengths differ"
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{i}]")
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def both_ways(model, document, *, trusted: bool = False):
    built = construct(model, json.loads(json.dumps(document)), trusted=trusted)
    same(built, model.model_validate(json.loads(json.dumps(document))))
    return built


@pytest.mark.parametrize("scenario_id", SPI_SCENARIOS)
def test_every_shipped_scenario_is_built_as_validation_builds_it(scenario_id):
    document = scenario_document(scenario_paths()[scenario_id])
    scenario = both_ways(Scenario, document, trusted=True)
    assert scenario.units and scenario.map.cols > 0


def test_a_float_field_given_an_integer_holds_a_float():
    spec = both_ways(MapSpec, {"cols": 3, "rows": 3, "key": {"swamp": {"cost": 2, "crt": "rough"}}})
    assert type(spec.key["swamp"].cost) is float


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: p.stem)
def test_every_example_case_orders_and_map_are_built_as_validation_builds_them(path):
    case = json.loads(path.read_text())
    both_ways(MapSpec, case["map"])
    for key in ("orders", "ruleset"):
        if isinstance(case.get(key), dict):
            both_ways({"orders": Orders, "ruleset": Ruleset}[key], case[key])


@pytest.mark.parametrize("seed", range(6))
def test_random_positions_and_orders_round_trip_as_validation_builds_them(seed):
    turn = random_turn(seed, 12, 12, 30, ruleset=Ruleset(exclusive="leyte") if seed % 2 else None)
    document = state_to_json(turn.state)
    validated = GameState.model_validate({  # what state_from_json built before it used construct
        "position": document["position"], "units": document["units"], "locations": document["locations"],
        "no_fpf": frozenset(document.get("no_fpf", [])), "exits": tuple(document.get("exits", [])),
        "awards": tuple(document.get("awards", [])), "standing": document.get("standing", {}),
    })
    same(state_from_json(document), validated)
    assert state_from_json(document) == turn.state
    both_ways(Orders, turn.orders.model_dump(mode="json", exclude_defaults=True))
    both_ways(Orders, turn.orders.model_dump(mode="json"))


def test_an_opening_position_round_trips():
    scenario = construct(Scenario, scenario_document(scenario_paths()["leyte-assault"]), trusted=True)
    state = opening(scenario)
    assert state_from_json(state_to_json(state)) == state


def _validated(value):
    """``value`` built again by pydantic's validation from the same fields (the models within too)."""
    if isinstance(value, BaseModel):
        return type(value)(**{name: _validated(getattr(value, name)) for name in value.model_fields_set})
    if isinstance(value, tuple):
        return tuple(_validated(v) for v in value)
    return value


@pytest.mark.parametrize("hidden", [False, True])
@pytest.mark.parametrize("scenario_id", SPI_SCENARIOS)
def test_the_opening_position_is_built_as_validation_builds_it(scenario_id, hidden):
    """``opening`` constructs the state of the checked scenario's values (no validator built for an audit)."""
    scenario = construct(Scenario, scenario_document(scenario_paths()[scenario_id]), trusted=True)
    state = opening(scenario, hidden=hidden)
    same(state, _validated(state))
    assert (state.hidden is not None) == hidden


@pytest.mark.parametrize("document", [
    {"moves": [{"unit": "a", "path": ["0101"]}], "attacks": "none"},
    {"moves": [{"unit": "a", "path": ["0101"], "speed": 3}]},
    {"moves": [{"path": ["0101"]}]},
    {"defense": {"fpf": [{"artillery": ["a"], "defender": {"b": 1}}]}},
    [],
])
def test_what_construct_cannot_build_is_refused_by_pydantic_as_before(document):
    with pytest.raises(ValidationError) as direct:
        Orders.model_validate(document)
    with pytest.raises(ValidationError) as constructed:
        construct(Orders, document)
    assert constructed.value.errors() == direct.value.errors()


@pytest.mark.parametrize("gsp", [True, 1.0])
def test_what_pydantic_would_coerce_is_left_to_pydantic(gsp):
    """(An orders file never gets here with these: its schema refuses them first.)"""
    assert both_ways(Orders, {"attacks": [{"defenders": ["b"], "gsp": gsp}]}).attacks[0].gsp == 1


def test_a_model_with_validators_of_its_own_is_left_to_pydantic_unless_trusted():
    document = scenario_document(scenario_paths()["test-skirmish"])
    document["units"][0] = {**document["units"][0], "arrives": 2, "hex": "0101"}  # a set-up hex and an arrival turn: the unit's own validator refuses it
    with pytest.raises(ValidationError):
        construct(Scenario, document)
    assert construct(Scenario, document, trusted=True).units[0].hex == "0101"  # checked when it entered the game, not again


# --- and back: pbem.model.dump writes a model out as model_dump(mode="json") does


@pytest.mark.parametrize("scenario_id", SPI_SCENARIOS)
@pytest.mark.parametrize("exclude_none", [False, True])
def test_every_shipped_scenario_is_dumped_as_pydantic_dumps_it(scenario_id, exclude_none):
    scenario = Scenario.model_validate(scenario_document(scenario_paths()[scenario_id]))
    same(dump(scenario, exclude_none=exclude_none), scenario.model_dump(mode="json", exclude_none=exclude_none))


@pytest.mark.parametrize("seed", range(4))
def test_random_positions_and_orders_are_dumped_as_pydantic_dumps_them(seed):
    turn = random_turn(seed, 12, 12, 30)
    for model in (turn.state.position, *turn.state.units, turn.orders, turn.spec, *(turn.state.standing.values())):
        for exclude_none in (False, True):
            same(dump(model, exclude_none=exclude_none), model.model_dump(mode="json", exclude_none=exclude_none))


def test_what_dump_cannot_write_exactly_is_left_to_pydantic():
    state = random_turn(1, 8, 8, 10).state
    assert dump(state) == state.model_dump(mode="json")  # no_fpf is a frozenset: pydantic writes it
