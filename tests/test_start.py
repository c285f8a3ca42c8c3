"""The process's start (:mod:`pbem.start`, with the policy of :mod:`pbem.collector`): a command that ends runs without the cyclic collector;
the judge and the map page, which run until stopped, keep it (issue 26, docs/performance.md)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PROBE = "import gc, sys; from pbem import collector; collector.pause_collector(sys.argv[1:]); print(gc.isenabled())"


@pytest.mark.parametrize(("words", "collects"), [
    (["validate", "o.json", "--turn", "t.pbem"], False),
    (["audit", "game"], False),
    (["--help"], False),
    ([], False),
    (["judge", "run", "home"], True),
    (["judge"], True),
    (["play", "t.pbem"], True),
])
def test_only_the_commands_that_run_until_stopped_keep_the_collector(words: list[str], collects: bool) -> None:
    done = subprocess.run([sys.executable, "-c", PROBE, *words], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == str(collects)


def test_the_console_script_and_python_m_start_there() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts["pbem"] == "pbem.start:main"
    assert "from pbem.start import main" in (ROOT / "pbem" / "__main__.py").read_text(encoding="utf-8")


def test_a_command_run_as_a_process_still_works_without_the_collector(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pbem", "scenario", "list"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "leyte-assault" in done.stdout


def test_an_event_audit_turns_the_collector_on_again(tmp_path: Path) -> None:
    """An event's games are examined one after another in one process: each leaves cycles to free."""
    probe = ("import gc, sys; from pathlib import Path; gc.disable(); from pbem.event.event import run_event; "
             "run_event([Path(sys.argv[1])], None, 'dice'); print(gc.isenabled())")
    done = subprocess.run([sys.executable, "-c", probe, str(tmp_path)], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True"
