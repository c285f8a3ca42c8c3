"""Every benchmark in ``benchmarks/`` still runs, on a tiny budget, so none rots unnoticed again (issue 26).

``bot_speed.py`` once imported a helper another benchmark had lost, and no
one knew until its figures were wanted.  Here each script runs whole as a
user runs it, with the smallest arguments it takes; the figures are not
looked at (speed targets live in the benchmarks, never in timed tests), only
that it ends with status 0 and prints some.  A new benchmark must be given
its tiny budget in :data:`TINY`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"

#: Each benchmark script and the arguments that make it run in a few seconds.
TINY = {
    "bot_speed.py": ["1"],
    "blind_leaks.py": ["--games", "1"],
    "bot_strength.py": ["--scenario", "test-skirmish", "--games", "1", "--first-seed", "1"],
    "commands.py": ["--rounds", "1", "--games", "test,leyte,synthetic", "--player-turns", "1", "--quick"],
    "engine.py": ["--quick"],
    "escrow_cost.py": ["--repeat", "2"],
    "hidden_leaks.py": ["--games", "1"],
    "retreat_search.py": [],
    "soak.py": ["--games", "1", "--scenario", "test-skirmish"],
    "warm_turn.py": ["--rounds", "1", "--player-turns", "1"],
}

#: Benchmarks run on a tiny budget by a test of their own, which also reads their figures' shape.
ELSEWHERE = {
    "event_audit.py": "tests/test_event_benchmark.py",
    "judge_poll.py": "tests/test_judge.py",
    "play_page.py": "tests/test_benchmark_play.py",
}


def scripts() -> list[str]:
    """The runnable benchmarks: the scripts with a ``__main__`` block (a helper module has none)."""
    return sorted(p.name for p in BENCHMARKS.glob("*.py") if "if __name__ == \"__main__\":" in p.read_text(encoding="utf-8"))


def test_every_benchmark_has_a_tiny_budget():
    assert len(scripts()) >= 7
    assert set(scripts()) == set(TINY) | set(ELSEWHERE), "give each benchmark in benchmarks/ its tiny arguments in TINY (and drop the gone)"
    for script, test in ELSEWHERE.items():
        assert f"benchmarks/{script}" in (BENCHMARKS.parent / test).read_text(encoding="utf-8"), f"{test} no longer runs benchmarks/{script}"


@pytest.mark.parametrize("script", sorted(TINY))
def test_the_benchmark_runs(script, tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PBEM_PASSPHRASE"}
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *TINY[script]], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"benchmarks/{script} {' '.join(TINY[script])} -> {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    assert done.stdout.strip(), f"benchmarks/{script} printed nothing"
