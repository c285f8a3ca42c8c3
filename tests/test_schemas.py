"""The committed JSON Schemas are generated from the pydantic models and must be current."""

from pathlib import Path

import pytest

from pbem.loading.schemas import SCHEMAS, schema_text

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_committed_schema_is_current(name):
    committed = (SCHEMA_DIR / name).read_text(encoding="utf-8")
    assert committed == schema_text(SCHEMAS[name], name), f"schemas/{name} is stale: run `pbem schema write`"


def test_orders_schema_accepts_the_orders_block_of_every_example_case():
    import json

    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(json.loads((SCHEMA_DIR / "orders.schema.json").read_text()))
    for path in (SCHEMA_DIR.parent / "examples" / "cases").glob("*.json"):
        orders = json.loads(path.read_text())["orders"]
        assert not list(validator.iter_errors(orders)), path.name


def test_scenarios_validate_against_the_scenario_schema():
    import json

    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(json.loads((SCHEMA_DIR / "scenario.schema.json").read_text()))
    scenarios = list((SCHEMA_DIR.parent / "scenarios").glob("*.json"))
    assert scenarios
    for path in scenarios:
        assert not list(validator.iter_errors(json.loads(path.read_text()))), path.name
