"""A scenario pbem already checked, carried by a signed genesis file and checked against its hash, is not schema-checked again.

The schema check (jsonschema) is for files that come from outside; the
scenario inside a genesis file was checked when the referee began the game,
and every later command checks the signature and the hash.  When such a
document is nevertheless refused by the model, the schema still explains why.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pbem.loading.jsonfile
from pbem.loading.datafiles import scenario_document, scenario_from, scenario_paths
from pbem.errors import BadInput

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "test-skirmish.json"


def test_a_verified_scenario_is_built_without_the_schema(monkeypatch):
    def no_schema(model):
        raise AssertionError("the schema was asked")

    monkeypatch.setattr(pbem.loading.jsonfile, "validator_for", no_schema)
    loaded = scenario_from(json.loads(SCENARIO.read_text()), SCENARIO, verified=True)
    assert loaded.scenario.id == "test-skirmish" and loaded.board.cols > 0


def test_a_scenario_from_outside_is_schema_checked(monkeypatch):
    asked = []
    real = pbem.loading.jsonfile.validator_for
    monkeypatch.setattr(pbem.loading.jsonfile, "validator_for", lambda model: asked.append(model) or real(model))
    scenario_from(json.loads(SCENARIO.read_text()), SCENARIO)
    assert asked


def test_a_refused_verified_scenario_is_explained_by_the_schema():
    document = json.loads(SCENARIO.read_text())
    document["units"][1]["kind"] = "battleship"
    with pytest.raises(BadInput) as refused:
        scenario_from(document, SCENARIO, verified=True)
    assert refused.value.field == "units[1].kind"
    assert "battleship" in refused.value.message


@pytest.mark.parametrize("scenario_id", sorted(scenario_paths()))
def test_a_shipped_scenario_read_plainly_is_the_one_read_strictly(scenario_id):
    """Commands compare a game's scenario with the one pbem ships, read without the checks for files from outside."""
    path = scenario_paths()[scenario_id]
    plain, strict = scenario_document(path, shipped=True), scenario_document(path)
    assert json.dumps(plain) == json.dumps(strict)
