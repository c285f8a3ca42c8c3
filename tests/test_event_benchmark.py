"""The event-audit benchmark runs, on a tiny budget (its figures are for benchmarks/, never a timed test)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_event_audit_benchmark_runs_on_a_tiny_budget():
    done = subprocess.run([sys.executable, "benchmarks/event_audit.py", "--games", "3", "--distinct", "1",
                           "--scenario", "test-skirmish", "--rounds", "1"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "pbem audit: 3 game(s), 3 hold, 24 adjudication(s) replayed" in done.stdout
    assert "wall clock: median" in done.stdout and "target: under 30 s" in done.stdout
