"""The ``pbem play`` benchmark runs, on a tiny budget (its figures are read by people, not asserted here)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_play_page_benchmark_runs_on_a_tiny_budget():
    done = subprocess.run([sys.executable, "benchmarks/play_page.py", "--rounds", "1", "--units", "2"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "American Game-Turn 4" in done.stdout and "worst page action" in done.stdout
    for action in ("check", "reach", "path", "page"):
        assert f"  {action} " in done.stdout
