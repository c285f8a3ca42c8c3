"""What ``pbem case run`` prints: one line per case and a total, or one JSON array."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from pbem.cases.load import case_files, load_case
from pbem.cases.run import run_case
from pbem.errors import BadInput


def _line(outcome: dict) -> str:
    case = outcome["case"]
    if outcome.get("error"):
        return f"ERROR {case}  {outcome['error']}"
    if outcome["passed"] is None:
        verdict = "orders valid" if outcome["valid"] else "orders rejected"
        return f"RAN   {case}  (no expectations; {verdict}, {len(outcome['combats'])} combat(s))"
    if outcome["passed"]:
        return f"PASS  {case}"
    diffs = outcome.get("differences", [])
    more = f" (+{len(diffs) - 1} more)" if len(diffs) > 1 else ""
    return f"FAIL  {case}  {diffs[0]}{more}"


def run_paths(paths: list[Path], *, as_json: bool, out: Callable[[str], None], err: Callable[[str], None]) -> int:
    """Run every case under ``paths``; return the exit status (0 all passed, 1 a failure, 2 a malformed file)."""
    files = case_files(paths)
    if not files:
        err("pbem: no case files found (give case files or folders holding *.json)")
        return 2
    outcomes: list[dict] = []
    malformed = 0
    for path in files:
        try:
            loaded = load_case(path)
        except BadInput as exc:
            malformed += 1
            err(f"pbem: {exc.render()}")
            continue
        outcomes.append(run_case(loaded))
    failed = sum(1 for o in outcomes if o["passed"] is False)
    passed = sum(1 for o in outcomes if o["passed"] is True)
    if as_json:
        out(json.dumps(outcomes, indent=2, ensure_ascii=False))
    else:
        for outcome in outcomes:
            out(_line(outcome))
        out(f"{passed} passed, {failed} failed")
    if malformed:
        return 2
    return 1 if failed else 0
