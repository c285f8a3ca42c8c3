"""The Legion system's data: its schemas current, its charts and test island sourced, bad charts refused by name (issue 39)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.cases.report import run_paths
from pbem.loading.schemas import schema_text
from pbem.systems.legion.__main__ import main
from pbem.systems.legion.files import DATA, load_scenario
from pbem.systems.legion.opening import opening
from pbem.systems.legion.schemas import SCHEMAS
from pbem.systems.legion.victory import victory
from pbem.systems.legion.views import view

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "examples" / "cases" / "legion"


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_committed_legion_schema_is_current(name):
    committed = (ROOT / "schemas" / name).read_text(encoding="utf-8")
    assert committed == schema_text(SCHEMAS[name], name), f"schemas/{name} is stale: run `python -m pbem.systems.legion schemas`"


def _sources(node, where=""):
    if isinstance(node, dict):
        if "source" in node:
            yield where, node["source"]
        for key, value in node.items():
            yield from _sources(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _sources(value, f"{where}[{i}]")


def test_every_shipped_value_says_where_it_comes_from():
    """A value pbem ships is from a rule case (digits first, '11A.3 example') or marked 'assumed:'."""
    files = sorted((DATA / "charts").glob("*.json")) + sorted(DATA.glob("*.json"))
    assert len(files) == 12
    for path in files:
        found = list(_sources(json.loads(path.read_text())))
        assert found, path.name
        for where, source in found:
            assert "assumed:" in source or source[:1].isdigit(), f"{path.name}{where}: {source!r}"
        charts = json.loads(path.read_text())
        if "chart" in charts:
            assert "assumed:" in charts["source"], f"{path.name}: the chart as a whole is pbem's own, not the card's"


def test_the_test_island_opens_with_hidden_japanese_units_and_a_victory_level():
    loaded = load_scenario("legion-test-island")
    start = opening(loaded.board, loaded.scenario)
    assert start.position.phasing == loaded.scenario.first_player and start.exposed == frozenset()
    us = view(start, "US")
    japanese = [u for u in loaded.scenario.units if u.side == "JP"]
    assert len(us["markers"]) == len(japanese) and not any(u["side"] == "JP" for u in us["units"])
    assert {m["hex"] for m in us["markers"]} == {u.hex for u in japanese}
    jp = view(start, "JP")
    assert {u["id"] for u in jp["units"]} >= {u.id for u in japanese}
    assert start.owner["0403"] == "JP" and start.owner["0203"] == "US"
    report = victory(start, loaded.scenario.victory)
    assert report["level"] == loaded.scenario.victory.otherwise and report["us_objectives"] == 0


def _bad_chart(tmp_path, name, change) -> Path:
    document = json.loads((DATA / "charts" / f"{name}.json").read_text())
    change(document)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(document))
    return path


@pytest.mark.parametrize("name, change, field", [
    ("assault", lambda d: d["rows"][0]["results"].__setitem__(0, "XX"), "rows[0].results[0]"),
    ("fire", lambda d: d["rows"].pop(), "(top level)"),
    ("terrain", lambda d: d["terrain"]["rough"]["move"].pop("cm"), "terrain.rough"),
    ("stacking", lambda d: d["sizes"]["battalion"].__setitem__("sp", -1), "sizes.battalion.sp"),
])
def test_a_bad_chart_is_refused_with_its_file_field_and_what_to_do(tmp_path, capsys, name, change, field):
    path = _bad_chart(tmp_path, name, change)
    assert main(["check", str(path)]) == 2
    said = capsys.readouterr().err
    assert str(path) in said and field in said and "player-aid card" in said


def test_a_scenario_naming_a_bad_chart_is_refused_naming_the_chart_file(tmp_path, capsys):
    for item in DATA.glob("*.json"):
        (tmp_path / item.name).write_text(item.read_text())
    (tmp_path / "charts").mkdir()
    for item in (DATA / "charts").glob("*.json"):
        (tmp_path / "charts" / item.name).write_text(item.read_text())
    bad = _bad_chart(tmp_path / "charts", "banzai", lambda d: d["columns"].reverse())
    assert main(["check", str(tmp_path / "legion-test-island.json")]) == 2
    said = capsys.readouterr().err
    assert str(bad) in said and "columns" in said
    assert main(["check", str(DATA / "legion-test-island.json")]) == 0


def test_pbem_case_run_runs_the_legion_cases_beside_spi_ones(capsys):
    spi = ROOT / "examples" / "cases" / "IW-CBT-001.json"
    lines: list[str] = []
    status = run_paths([CASES, spi], as_json=False, out=lines.append, err=lines.append)
    assert status == 0, [line for line in lines if not line.startswith("PASS")]
    assert lines[-1] == f"{len(list(CASES.glob('*.json'))) + 1} passed, 0 failed"


def test_a_legion_case_that_fails_or_is_malformed_is_reported(tmp_path):
    document = json.loads((CASES / "LW-ASL-001.json").read_text())
    document["expect"]["combats"][0]["odds"] = "3:1"
    (tmp_path / "wrong.json").write_text(json.dumps(document))
    lines: list[str] = []
    assert run_paths([tmp_path / "wrong.json"], as_json=False, out=lines.append, err=lines.append) == 1
    assert lines[0].startswith("FAIL  LW-ASL-001") and "odds" in lines[0]
    document["charts"]["assault"]["columns"] = ["1:1"]
    (tmp_path / "wrong.json").write_text(json.dumps(document))
    lines = []
    assert run_paths([tmp_path / "wrong.json"], as_json=False, out=lines.append, err=lines.append) == 2
    assert any("charts.assault" in line and "columns" in line for line in lines)
