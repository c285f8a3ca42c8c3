"""A document found valid is not checked against its schema again in the same process — and nothing else passes for it.

The remembered verdict is keyed by what the schema can tell apart (``2`` from
``2.0``, ``1`` from ``true``, key order aside), by the validator, and only
ever records a pass: a file altered in place, or checked against another
schema, is checked afresh and refused as before.
"""

import pytest

from pbem.loading import jsonfile
from pbem.loading.jsonfile import schema_errors, strict_validator

SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}, "flag": {"type": "boolean"}}, "required": ["n"]}


def _checks(monkeypatch) -> list:
    """Every document the validators really walk."""
    walked: list = []
    real = jsonfile.strict_validator

    def counting(schema):
        validator = real(schema)
        iter_errors = validator.iter_errors

        class Counting:
            def iter_errors(self, document):
                walked.append(document)
                return iter_errors(document)

        return Counting()

    monkeypatch.setattr(jsonfile, "strict_validator", counting)
    return walked


def test_a_valid_document_is_checked_once_and_the_same_document_again_is_not(monkeypatch):
    walked = _checks(monkeypatch)
    validator = jsonfile.strict_validator(SCHEMA)
    assert schema_errors(validator, {"n": 2, "flag": True}, "a.json", "the schema") is None
    assert schema_errors(validator, {"n": 2, "flag": True}, "b.json", "the schema") is None
    assert len(walked) == 1


@pytest.mark.parametrize("altered", [{"n": 2.0, "flag": True}, {"n": True, "flag": True}, {"n": 2, "flag": 1}, {"flag": True}])
def test_a_document_altered_after_it_passed_is_refused(altered):
    validator = strict_validator(SCHEMA)
    document = {"n": 2, "flag": True}
    assert schema_errors(validator, document, "a.json", "the schema") is None
    document.clear()
    document.update(altered)
    problem = schema_errors(validator, document, "a.json", "the schema")
    assert problem is not None and problem.file == "a.json"


def test_a_pass_under_one_schema_is_no_pass_under_another():
    loose, strict = strict_validator({"type": "object"}), strict_validator(SCHEMA)
    assert schema_errors(loose, {"flag": True}, "a.json", "one") is None
    assert schema_errors(strict, {"flag": True}, "a.json", "other") is not None


def test_a_refusal_is_not_remembered_and_a_full_memory_starts_afresh(monkeypatch):
    monkeypatch.setattr(jsonfile, "MAX_REMEMBERED", 2)
    walked = _checks(monkeypatch)
    validator = jsonfile.strict_validator(SCHEMA)
    for _ in range(2):
        assert schema_errors(validator, {"n": "two"}, "a.json", "the schema") is not None
    assert len(walked) == 2
    for n in range(5):
        assert schema_errors(validator, {"n": n}, "a.json", "the schema") is None
    assert schema_errors(validator, {"n": 4}, "a.json", "the schema") is None
    assert schema_errors(validator, {"n": 0}, "a.json", "the schema") is None
    assert len(walked) == 2 + 5 + 1  # n=4 remembered in the fresh set; n=0 forgotten with the full one
