"""Numbers on the command line are read without pydantic (:mod:`pbem.cli.plain`, issue 26) and still held to the
``min``/``max`` their option declares: a value out of range or not a number is one line and exit status 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def _pbem(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PBEM_PASSPHRASE": ""}
    return subprocess.run([sys.executable, "-m", "pbem", *args], cwd=cwd, env=env, capture_output=True, text=True)


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("numbers")
    done = _pbem(base, "demo", "--scenario", "test-skirmish", "--dir", "g")
    assert done.returncode == 0, done.stderr
    return base / "g"


@pytest.mark.parametrize("args, message", [
    (["bot", "game/turn-0002.pbem", "--key", "us.key", "--think", "-1"], "--think: -1.0 is out of range — give a number at least 0.0"),
    (["bot", "game/turn-0002.pbem", "--key", "us.key", "--think", "soon"], "--think: 'soon' is not a number"),
    (["bot", "game/turn-0002.pbem", "--key", "us.key", "--think", "nan"], "--think: 'nan' is not a number"),
    (["bot", "game/turn-0002.pbem", "--key", "us.key", "--think", "inf"], "--think: 'inf' is not a number"),
    (["show", "game/turn-0002.pbem", "--key", "us.key", "--around", "0505", "--radius", "41"],
     "--radius: 41 is out of range — give a number from 0 to 40"),
    (["show", "game/turn-0002.pbem", "--key", "us.key", "--around", "0505", "--radius", "-1"], "--radius: -1 is out of range"),
    (["show", "game/turn-0002.pbem", "--key", "us.key", "--around", "0505", "--radius", "two"], "--radius: 'two' is not a whole number"),
])
def test_a_number_out_of_its_range_or_not_a_number_is_refused(game, args, message):
    done = _pbem(game, *args)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_numbers_in_range_are_taken(game, tmp_path):
    done = _pbem(game, "show", "game/turn-0002.pbem", "--key", "us.key", "--around", "0505", "--radius", "40", "--plain")
    assert done.returncode == 0, done.stderr
    done = _pbem(game, "bot", "game/turn-0002.pbem", "--key", "us.key", "--think", "0", "-o", str(tmp_path / "o.json"))
    assert done.returncode == 0 and (tmp_path / "o.json").exists(), done.stderr
