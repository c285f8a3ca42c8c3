"""What ``pbem case run`` prints: one line per case and a total, or one JSON array.

Each line starts with PASS, FAIL or ERROR and the case id (cases.md).  A case
without ``expect`` that ran is a PASS with nothing to check; a malformed case
file is an ERROR line naming the file, and its one-line reason also goes to
stderr.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from pbem.cases.load import case_files, load_case
from pbem.cases.run import run_case
from pbem.errors import BadInput
from pbem.loading.jsonfile import read_json


def _line(outcome: dict, diffs: list[str]) -> str:
    case = outcome["case"]
    if outcome.get("error"):
        return f"ERROR {case}  {outcome['error']}"
    if outcome["passed"] is None:
        verdict = "orders valid" if outcome["valid"] else "orders rejected"
        return f"PASS  {case}  (no expectations to check; {verdict}, {len(outcome['combats'])} combat(s))"
    if outcome["passed"]:
        return f"PASS  {case}"
    more = f" (+{len(diffs) - 1} more)" if len(diffs) > 1 else ""
    return f"FAIL  {case}  {diffs[0]}{more}"


def _case_id(path: Path) -> str:
    """The id of a malformed case file when it can be read, else its path."""
    try:
        document = read_json(path)
    except BadInput:
        return str(path)
    if isinstance(document, dict) and isinstance(document.get("case"), str):
        return document["case"]
    return str(path)


def run_paths(
    paths: list[Path],
    *,
    as_json: bool,
    out: Callable[[str], None],
    err: Callable[[str], None],
    explain: bool = False,
) -> int:
    """Run every case under ``paths``; return the exit status (0 all passed, 1 a failure, 2 a malformed file)."""
    files = case_files(paths)
    if not files:
        err("pbem: no case files found (give case files or folders holding *.json)")
        return 2
    outcomes: list[dict] = []
    lines: list[str] = []
    malformed = failed = passed = 0
    for path in files:
        try:
            loaded = load_case(path)
        except BadInput as exc:
            malformed += 1
            err(f"pbem: {exc.render()}")
            outcomes.append({"case": _case_id(path), "file": str(path), "valid": None, "error": exc.render(), "passed": False})
            lines.append(f"ERROR {_case_id(path)}  malformed case file: {exc.render()}")
            continue
        try:
            outcome = run_case(loaded, explain=True)
        except Exception as exc:  # noqa: BLE001 - one faulty case must not stop the run
            outcome = {"case": loaded.case.case, "valid": None, "error": f"internal error ({type(exc).__name__}: {exc})", "passed": False}
        lines.append(_line(outcome, outcome.get("differences", [])))
        if not explain:
            outcome.pop("events", None)
            outcome.pop("differences", None)
        outcomes.append(outcome)
        if outcome["passed"] is False:
            failed += 1
        elif not outcome.get("error"):
            passed += 1
    if as_json:
        out(json.dumps(outcomes, indent=2, ensure_ascii=False))
    else:
        for line in lines:
            out(line)
        out(f"{passed} passed, {failed + malformed} failed")
    if malformed:
        return 2
    return 1 if failed else 0
