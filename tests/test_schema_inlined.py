"""The orders schema with its references inlined (:func:`pbem.loading.jsonfile.inline_refs`, issue 26) judges every document
as the committed schema does: the same verdict, the same errors at the same places, the same first error shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.loading.jsonfile import inline_refs, schema_errors, strict_validator, validator_for
from pbem.loading.schemas import SCHEMAS

ROOT = Path(__file__).resolve().parent.parent

DOCUMENTS = [
    {},
    {"moves": []},
    {"moves": [{"unit": "us-7cav", "enter": "1105", "path": []}]},
    {"moves": [{"unit": "us-7cav", "enter": "11O5", "path": []}]},
    {"moves": [{"unit": 7, "enter": "1105", "path": ["1104", 3]}]},
    {"moves": [{"unit": "us-7cav", "path": [], "extra": True}]},
    {"moves": {"unit": "us-7cav"}},
    {"attacks": [{"attackers": ["a"], "defenders": "b"}]},
    {"attacks": [{"attackers": [], "defenders": [], "advance": [2.0]}]},
    {"defense": {"fpf": [{"unit": 1}]}, "deployments": [{"unit": "x", "hex": "1"}]},
    {"intelligence": {"priority": ["0101", None]}, "gsp_fpf": [{}], "fpf": [{"battery": "x"}]},
    {"moves": [], "unknown": 1},
    [],
    "orders",
]


def _errors(validator, document):
    return sorted((list(e.absolute_path), e.message) for e in validator.iter_errors(document))


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_an_inlined_schema_judges_every_document_as_the_committed_one(name):
    schema = {k: v for k, v in json.loads((ROOT / "schemas" / name).read_text()).items() if k not in ("$schema", "$id")}
    plain, inlined = strict_validator(schema), strict_validator(inline_refs(schema))
    documents = DOCUMENTS + [json.loads(p.read_text()) for p in sorted((ROOT / "examples").rglob("*.json"))[:40]]
    for document in documents:
        assert _errors(plain, document) == _errors(inlined, document), document
        first = schema_errors(plain, document, "f", "x")
        second = schema_errors(inlined, document, "f", "x")
        assert (first.errors if first else None) == (second.errors if second else None), document


def test_the_orders_check_uses_the_inlined_schema():
    from pbem.model.orders import Orders

    assert "$ref" not in json.dumps({k: v for k, v in validator_for(Orders).schema.items() if k != "$defs"})


# -- what a schema error says when a value fits none of a field's forms --------------------------------------------


def test_a_value_that_fits_no_form_of_a_field_is_told_what_the_field_takes(tmp_path):
    """A wrong type where a field takes a constant, a list of values or nothing: the error names what it takes, not
    jsonschema's bare "is not valid under any of the given schemas" (a user cannot act on that)."""
    import json

    from tests.games import run

    document = json.loads((Path(__file__).resolve().parent.parent / "scenarios" / "test-skirmish.json").read_text())
    document["id"], document["ruleset"]["exclusive"] = "bad-one", 5
    (tmp_path / "bad.json").write_text(json.dumps(document))
    status, _, err = run("scenario", "show", tmp_path / "bad.json")
    assert status == 2
    assert "ruleset.exclusive" in err and "'leyte' or null" in err and "any of the given schemas" not in err


def test_an_object_field_given_a_string_is_told_it_takes_an_object():
    from pbem.model.orders import Orders
    from pbem.model.scenario import Scenario

    [(field, message)] = schema_errors(validator_for(Orders), {"defense": "x", "moves": []}, "f", "x").errors
    assert field == "defense" and message == "'x' is not valid here: it takes an object or null"
    document = {"crt": 5}
    found = dict(schema_errors(validator_for(Scenario).evolve(schema={"type": "object", "properties": {"crt": {
        "anyOf": [{"enum": ["clear", "rough"], "type": "string"}, {"type": "null"}]}}}), document, "f", "x").errors)
    assert found == {"crt": "5 is not valid here: it takes one of 'clear', 'rough' or null"}
