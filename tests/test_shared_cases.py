"""Every conformance case we hold passes: the public ones shipped in examples/, the
independent review's hand-derived ones (tests/review_cases), and ../shared/cases when present."""

from pathlib import Path

import pytest

from pbem.cases.load import case_files, load_case
from pbem.cases.run import run_case

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = [ROOT / "examples" / "cases", ROOT / "tests" / "review_cases", ROOT / "tests" / "review_cases_2", ROOT.parent / "shared" / "cases"]
CASES = [p for folder in FOLDERS if folder.is_dir() for p in case_files([folder])]


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_case_passes(path):
    outcome = run_case(load_case(path), explain=True)
    assert outcome["passed"] is not False, outcome.get("differences") or outcome.get("error")
