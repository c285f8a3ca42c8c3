"""Case format v2 (docs/cases.md): each new expectation can fail, alternatives, and malformed v2 fields exit 2.

The cases themselves (examples/cases/IW-HID-*, IW-LEY-VIC-*, IW-LEY-FFT-*, ...) pass in
test_shared_cases.py; here each v2 key is held to catch a wrong outcome, so that none of
them can pass by comparing nothing.
"""

import json
from pathlib import Path

import pytest

from pbem.cases.load import load_case
from pbem.cases.report import run_paths
from pbem.cases.run import run_case

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "cases"


def _doc(case_id: str) -> dict:
    return json.loads((EXAMPLES / f"{case_id}.json").read_text())


def _run(tmp_path, doc) -> dict:
    path = tmp_path / f"{doc['case']}.json"
    path.write_text(json.dumps(doc))
    return run_case(load_case(path), explain=True)


def _run_cli(tmp_path, doc) -> tuple[int, list[str], list[str]]:
    path = tmp_path / f"{doc['case']}.json"
    path.write_text(json.dumps(doc))
    out, err = [], []
    code = run_paths([path], as_json=False, out=out.append, err=err.append)
    return code, out, err


@pytest.mark.parametrize(
    "case_id, key, wrong, where",
    [
        ("IW-LEY-VIC-016", "victory", {"level": "Draw"}, "victory.level"),
        ("IW-LEY-VIC-016", "victory", {"loc": {"jp-2": True}}, "victory.loc.jp-2"),
        ("IW-LEY-VIC-010", "victory", {"by_source": {"US": {"16.14": 30}}}, "victory.by_source.US.16.14"),
        ("IW-LEY-VIC-005", "victory", {"ratio": "0.00"}, "victory.ratio"),
        ("IW-LEY-FFT-001", "end_of_turn", {"forfeited": ["us-a"]}, "end_of_turn.forfeited"),
        ("IW-LEY-EOT-001", "end_of_turn", {"available": ["us-new"]}, "end_of_turn.available"),
        ("IW-LEY-EOT-002", "end_of_turn", {"awards": []}, "end_of_turn.awards"),
        ("IW-HID-010", "view", {"US": {"units": ["jp-3", "jp-1"]}}, "view.US.units"),
        ("IW-HID-010", "exposed", [], "exposed"),
        ("IW-HID-011", "sightings", [{"unit": "jp-1", "hexes": ["0404"]}], "sightings"),
        ("IW-HID-015", "intelligence", [{"roll": 2}], "intelligence"),
        ("IW-HID-014", "dummies_removed", [{"unit": "jp-d1", "rule": "19B.3"}], "dummies_removed"),
    ],
)
def test_every_v2_expectation_fails_on_a_wrong_outcome(tmp_path, case_id, key, wrong, where):
    doc = _doc(case_id)
    assert _run(tmp_path, doc)["passed"] is True
    doc["expect"][key] = wrong
    outcome = _run(tmp_path, doc)
    assert outcome["passed"] is False
    assert any(d.startswith(where) for d in outcome["differences"]), outcome["differences"]


def test_a_true_expectation_is_not_met_by_a_count():
    from pbem.cases.compare import differences

    assert differences({"victory": {"loc": {"u": True}}}, {"victory": {"loc": {"u": 1}}})
    assert differences({"exposed": ["a"]}, {"exposed": ["a", "b"]})
    assert not differences({"exposed": ["b", "a"]}, {"exposed": ["a", "b"]})


def test_unit_alternatives_accept_any_one_legal_choice_and_nothing_else(tmp_path):
    doc = _doc("IW-DEF-004")
    assert _run(tmp_path, doc)["passed"] is True
    doc["expect"]["units"]["jp-1"] = [{"hex": "0607"}, {"hex": "0508"}]
    assert _run(tmp_path, doc)["passed"] is True
    doc["expect"]["units"]["jp-1"] = [{"hex": "0101"}, {"eliminated": True}]
    outcome = _run(tmp_path, doc)
    assert outcome["passed"] is False
    assert outcome["differences"] == ["units.jp-1: expected {'hex': '0101'} or {'eliminated': True}, got {'hex': '0508'}"]


def test_the_closed_area_alone_decides_the_retreat(tmp_path):
    """I24: the same position with and without 16.23's closure (IW-LEY-CLS-001 and -002)."""
    closed = _run(tmp_path, _doc("IW-LEY-CLS-001"))
    open_ = _run(tmp_path, _doc("IW-LEY-CLS-002"))
    assert closed["units"]["jp-1"] == {"eliminated": True}
    assert open_["units"]["jp-1"] in ({"hex": "0103"}, {"hex": "0104"})


@pytest.mark.parametrize(
    "case_id, mutate, field",
    [
        ("IW-HID-010", lambda d: d["units"][0].update(kind="dummy"), "units[0].side"),
        ("IW-LEY-VIC-001", lambda d: d["units"].append({"id": "jp-d", "side": "JP", "kind": "dummy", "defense": 0, "move": 6, "hex": "0808"}), "units[3].kind"),
        ("IW-HID-010", lambda d: d["hidden"].update(exposed=["jp-99"]), "hidden.exposed[0]"),
        ("IW-LEY-EOT-001", lambda d: d["scenario"]["arrivals"][0].update(id="us-x"), "scenario.arrivals[0].id"),
        ("IW-LEY-FFT-001", lambda d: d["position"].update(phasing="US"), "end_of_turn"),
        ("IW-LEY-CLS-001", lambda d: d["scenario"]["closed"][0].update(area="0200"), "scenario.closed[0].area"),
        ("IW-LEY-VIC-013", lambda d: d["scenario"]["victory"][0].update(kind="harbours"), "scenario.victory[0].kind"),
        ("IW-LEY-VIC-013", lambda d: d.update(end_of_turn="yes"), "end_of_turn"),
    ],
)
def test_a_malformed_v2_field_exits_2_naming_the_field(tmp_path, case_id, mutate, field):
    doc = _doc(case_id)
    mutate(doc)
    code, out, err = _run_cli(tmp_path, doc)
    assert code == 2
    assert len(err) == 1 and field in err[0] and "Traceback" not in err[0], err
    assert out[0].startswith(f"ERROR {case_id}  malformed case file")


def test_every_folder_of_cases_runs_green_together():
    folders = [ROOT / "examples" / "cases", ROOT / "tests" / "review_cases", ROOT / "tests" / "review_cases_2"]
    shared = ROOT.parent / "shared" / "cases" / "public"
    if shared.is_dir():
        folders.append(shared)
    out, err = [], []
    assert run_paths(folders, as_json=False, out=out.append, err=err.append) == 0, [line for line in out if not line.startswith("PASS")]
    assert out[-1].endswith("passed, 0 failed") and not err


def test_a_v1_case_gives_exactly_the_v1_outcome_keys(tmp_path):
    outcome = run_case(load_case(EXAMPLES / "IW-CBT-001.json"))
    assert set(outcome) == {"case", "valid", "errors", "combats", "units", "dice_used", "queries", "passed"}
