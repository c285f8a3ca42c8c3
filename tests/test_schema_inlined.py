"""The orders schema with its references inlined (:func:`pbem.jsonfile.inline_refs`, issue 26) judges every document
as the committed schema does: the same verdict, the same errors at the same places, the same first error shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.jsonfile import inline_refs, schema_errors, strict_validator, validator_for
from pbem.schemas import SCHEMAS

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
