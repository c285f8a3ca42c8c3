"""``pbem case run`` and ``pbem orders check`` as a user runs them: output, exit status, errors."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "cases"


def pbem(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pbem", *args], capture_output=True, text=True, cwd=cwd)


def test_case_run_prints_a_line_per_case_and_a_total():
    result = pbem("case", "run", str(EXAMPLES))
    lines = result.stdout.strip().splitlines()
    count = len(list(EXAMPLES.rglob("*.json")))  # the command searches folders recursively (examples/cases/legion/ too)
    assert result.returncode == 0
    assert lines[-1] == f"{count} passed, 0 failed"
    assert all(line.startswith("PASS") for line in lines[:-1])


OUTCOME_KEYS = {"case", "valid", "errors", "combats", "units", "dice_used", "queries", "passed"}


def test_case_run_json_gives_one_outcome_per_case_with_exactly_the_outcome_keys():
    result = pbem("case", "run", "--json", str(EXAMPLES / "IW-CBT-001.json"))
    outcomes = json.loads(result.stdout)
    assert result.returncode == 0
    assert [o["case"] for o in outcomes] == ["IW-CBT-001"]
    outcome = outcomes[0]
    assert set(outcome) == OUTCOME_KEYS
    assert outcome["combats"][0]["column"] == "+4,5" and outcome["passed"] is True


def test_explain_adds_the_event_log_and_the_differences(tmp_path):
    doc = json.loads((EXAMPLES / "IW-CBT-001.json").read_text())
    doc["expect"]["units"]["jp-1"] = {"hex": "0508"}
    (tmp_path / "c.json").write_text(json.dumps(doc))
    outcome = json.loads(pbem("case", "run", "--json", "--explain", str(tmp_path)).stdout)[0]
    assert set(outcome) == OUTCOME_KEYS | {"events", "differences"}
    assert [e["type"] for e in outcome["events"]][:2] == ["combat", "retreated"]
    assert outcome["differences"] == ["units.jp-1: expected {'hex': '0508'}, got {'hex': '0607'}"]


def test_a_case_without_expectations_runs_and_passes_nothing_to_check(tmp_path):
    doc = json.loads((EXAMPLES / "IW-CBT-001.json").read_text())
    del doc["expect"]
    (tmp_path / "c.json").write_text(json.dumps(doc))
    result = pbem("case", "run", str(tmp_path))
    assert result.returncode == 0 and result.stdout.startswith("PASS  IW-CBT-001  (no expectations to check")
    assert json.loads(pbem("case", "run", "--json", str(tmp_path)).stdout)[0]["passed"] is None


def test_usage_errors_exit_2_without_a_traceback():
    for args in (("case", "run"), ("case", "run", "--bogus", "x"), ("verify",), ("nonsense",)):
        result = pbem(*args)
        assert result.returncode == 2 and "Traceback" not in result.stderr, args


def test_a_failing_case_exits_1_and_names_the_difference(tmp_path):
    doc = json.loads((EXAMPLES / "IW-CBT-002.json").read_text())
    doc["expect"]["combats"][0]["result"] = "D1"
    (tmp_path / "wrong.json").write_text(json.dumps(doc))
    result = pbem("case", "run", str(tmp_path))
    assert result.returncode == 1
    assert "FAIL  IW-CBT-002  combats[0].result: expected 'D1', got '-'" in result.stdout
    assert result.stdout.strip().endswith("0 passed, 1 failed")


@pytest.mark.parametrize(
    "mutate, field",
    [
        (lambda d: d["units"][0].update(kind="battleship"), "units[0].kind"),
        (lambda d: d["position"].pop("phasing"), "position"),
        (lambda d: d["units"][0].update(hex="1212"), "units[0].hex"),
        (lambda d: d["map"].update(rivers=[["0101", "0505"]]), "map.rivers[0]"),
        (lambda d: d.update(dice=[7]), "dice[0]"),
        (lambda d: d["map"].update(roads=[["1010", "1110"]]), "map.roads[0][1]"),
        (lambda d: d["map"].update(terrain={"0507": "swamp"}), "map.terrain.0507"),
    ],
)
def test_a_malformed_case_exits_2_naming_file_and_field(tmp_path, mutate, field):
    doc = json.loads((EXAMPLES / "IW-CBT-001.json").read_text())
    mutate(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    result = pbem("case", "run", str(path))
    assert result.returncode == 2
    message = result.stderr.strip()
    assert len(message.splitlines()) == 1 and "Traceback" not in message
    assert str(path) in message and field in message
    assert result.stdout.startswith("ERROR IW-CBT-001  malformed case file")


def test_non_finite_numbers_are_malformed(tmp_path):
    text = (EXAMPLES / "IW-CBT-001.json").read_text().replace('"cols": 10', '"cols": 10, "key": {"clear": {"cost": 1e400}}')
    (tmp_path / "inf.json").write_text(text)
    result = pbem("case", "run", str(tmp_path))
    assert result.returncode == 2 and "too large" in result.stderr and "Traceback" not in result.stderr


def test_odd_query_expectations_fail_instead_of_crashing(tmp_path):
    doc = json.loads((EXAMPLES / "IW-LOC-001.json").read_text())
    doc["expect"]["queries"] = {"loc": ["us-1"]}
    (tmp_path / "q.json").write_text(json.dumps(doc))
    result = pbem("case", "run", str(tmp_path))
    assert result.returncode == 1 and result.stdout.startswith("FAIL  IW-LOC-001  queries.loc")


def test_a_file_that_is_not_json_exits_2(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{ not json")
    result = pbem("case", "run", str(path))
    assert result.returncode == 2 and "not valid JSON" in result.stderr and "Traceback" not in result.stderr


def test_a_case_without_enough_dice_is_an_error_not_a_crash(tmp_path):
    doc = json.loads((EXAMPLES / "IW-CBT-001.json").read_text())
    doc["dice"] = []
    (tmp_path / "nodice.json").write_text(json.dumps(doc))
    result = pbem("case", "run", str(tmp_path))
    assert result.returncode == 1 and result.stdout.startswith("ERROR IW-CBT-001")


def test_orders_check_reports_rule_problems_and_exits_2(tmp_path):
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps({"moves": [{"unit": "us-7cav", "enter": "1104", "path": ["1004", "0904"]}]}))
    result = pbem("orders", "check", str(orders), "--position", "scenarios/test-skirmish.json")
    assert result.returncode == 2
    assert "rule 5.12" in result.stdout and "rule 6.0" in result.stdout


def test_orders_check_accepts_valid_orders(tmp_path):
    # Red Beach 1104 touches no Japanese unit, so nothing must attack.
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps({"moves": [{"unit": "us-7cav", "enter": "1104", "path": []}]}))
    result = pbem("orders", "check", str(orders), "--position", "scenarios/test-skirmish.json")
    assert result.returncode == 0, result.stdout


def test_a_malformed_orders_file_is_listed_like_rule_problems_naming_file_and_field(tmp_path):
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps({"moves": [{"unit": "us-7cav", "path": "1004"}]}))
    result = pbem("orders", "check", str(orders), "--position", "scenarios/test-skirmish.json")
    assert result.returncode == 2 and not result.stderr
    assert result.stdout.startswith(f"{orders}: 1 problem(s)") and "rule schema" in result.stdout and "moves[0].path" in result.stdout


def test_the_readme_orders_example_is_valid():
    example = ROOT / "examples" / "orders" / "test-skirmish-us-turn1.json"
    assert json.loads(example.read_text()) == json.loads(
        (ROOT / "README.md").read_text().split("```json\n", 1)[1].split("```", 1)[0]
    )
    result = pbem("orders", "check", str(example), "--position", "scenarios/test-skirmish.json")
    assert result.returncode == 0, result.stdout


def test_the_readme_states_how_many_example_cases_pass():
    """The README tells a new user what `pbem case run examples/cases` prints; it went stale once (44 for 94)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    stated = re.search(r"`(\d+) passed, 0 failed`", (root / "README.md").read_text(encoding="utf-8"))
    assert stated is not None
    assert int(stated.group(1)) == len(list((root / "examples" / "cases").rglob("*.json")))
