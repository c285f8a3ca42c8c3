"""A document that passed its checks is not checked again in the same process — and nothing else passes for it.

What is remembered is keyed by what the checks can tell apart (``2`` from
``2.0``, ``1`` from ``true``, a lone surrogate from a character), by the
validator, and only ever records a pass: a file altered in place, or checked
against another schema, is checked afresh and refused as before.
"""

import pytest

from pbem.errors import BadInput
from pbem.loading import jsonfile
from pbem.loading.jsonfile import SchemaErrors, check_against, strict_validator

SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}, "flag": {"type": "boolean"}, "s": {"type": "string"}},
          "required": ["n"]}


def _walked(monkeypatch) -> list:
    """Every document the schema check really walks."""
    walked: list = []
    real = jsonfile.schema_errors
    monkeypatch.setattr(jsonfile, "schema_errors", lambda validator, document, *rest: walked.append(document) or real(validator, document, *rest))
    return walked


def test_a_valid_document_is_checked_once_and_the_same_document_again_is_not(monkeypatch):
    walked = _walked(monkeypatch)
    validator = strict_validator(SCHEMA)
    check_against(validator, {"n": 2, "flag": True}, "a.json", "the schema")
    check_against(validator, {"n": 2, "flag": True}, "b.json", "the schema")
    assert len(walked) == 1


@pytest.mark.parametrize("altered, refused", [
    ({"n": 2.0, "flag": True}, SchemaErrors), ({"n": True, "flag": True}, SchemaErrors), ({"n": 2, "flag": 1}, SchemaErrors),
    ({"flag": True}, SchemaErrors), ({"n": 2, "flag": True, "s": "\udc80"}, BadInput),
])
def test_a_document_altered_after_it_passed_is_refused(altered, refused):
    validator = strict_validator(SCHEMA)
    document = {"n": 2, "flag": True}
    check_against(validator, document, "a.json", "the schema")
    document.clear()
    document.update(altered)
    with pytest.raises(refused) as caught:
        check_against(validator, document, "a.json", "the schema")
    assert caught.value.file == "a.json"


def test_a_pass_under_one_schema_is_no_pass_under_another():
    loose, strict = strict_validator({"type": "object"}), strict_validator(SCHEMA)
    check_against(loose, {"flag": True}, "a.json", "one")
    with pytest.raises(SchemaErrors):
        check_against(strict, {"flag": True}, "a.json", "other")


def test_a_refusal_is_not_remembered_and_a_full_memory_starts_afresh(monkeypatch):
    monkeypatch.setattr(jsonfile, "MAX_REMEMBERED", 2)
    walked = _walked(monkeypatch)
    validator = strict_validator(SCHEMA)
    for _ in range(2):
        with pytest.raises(SchemaErrors):
            check_against(validator, {"n": "two"}, "a.json", "the schema")
    assert len(walked) == 2
    for n in range(5):
        check_against(validator, {"n": n}, "a.json", "the schema")
    check_against(validator, {"n": 4}, "a.json", "the schema")
    check_against(validator, {"n": 0}, "a.json", "the schema")
    assert len(walked) == 2 + 5 + 1  # n=4 remembered in the fresh set; n=0 forgotten with the full one
