"""The quick commands a player runs most stay quick: ``view`` and ``verify`` import neither pydantic nor jsonschema.

``orders template`` reads the scenario from the signed genesis file, checked
against its hash, so it needs the models but not the schema check.

Neither command reads a pydantic model or checks a schema, and importing
those libraries (and, with recent typer, building a pydantic adapter per
command-line parameter) is most of what separates a command from the bare
start of Python.  ``python -X importtime`` lists every module a run loads;
these tests fail when a heavy one creeps back in through an import at the
top of a module or through typer's parameter handling (:mod:`pbem.cli.plain`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("pydantic", "pydantic_core", "jsonschema", "pbem.model", "pbem.schemas", "pbem.datafiles", "typer._adapters")


def _pbem(folder: Path, *args: str, importtime: bool = False) -> subprocess.CompletedProcess:
    env = {**os.environ, "PBEM_PASSPHRASE": ""}
    flags = ["-X", "importtime"] if importtime else []
    return subprocess.run([sys.executable, *flags, "-m", "pbem", *args], cwd=folder, env=env, capture_output=True, text=True, check=True)


def _loaded(stderr: str) -> set[str]:
    """Module names from ``-X importtime`` lines: ``import time: self | cumulative | name``."""
    return {line.rsplit("|", 1)[1].strip() for line in stderr.splitlines() if line.startswith("import time:") and "|" in line}


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("quick")
    for name in ("ref", "us", "jp"):
        _pbem(folder, "keygen", name, "--no-passphrase")
    _pbem(folder, "new", "test-skirmish", "--us", "us.pub", "--jp", "jp.pub", "--referee", "ref.pub", "--key", "ref.key", "--out", "game")
    return folder


@pytest.mark.parametrize("command", [["view", "game/turn-0000.pbem", "--key", "us.key"], ["verify", "game"]], ids=["view", "verify"])
def test_quick_commands_load_no_heavy_module(game, command):
    run = _pbem(game, *command, importtime=True)
    loaded = _loaded(run.stderr)
    assert "pbem.cli" in loaded and "cryptography" in loaded  # the listing is real
    assert not _heavy(loaded, HEAVY), f"pbem {command[0]} loaded {', '.join(_heavy(loaded, HEAVY)[:8])}"


def test_orders_template_checks_no_schema(game):
    run = _pbem(game, "orders", "template", "game/turn-0000.pbem", "--key", "us.key", importtime=True)
    loaded = _loaded(run.stderr)
    assert "pbem.model.scenario" in loaded
    assert not _heavy(loaded, ("jsonschema",)), _heavy(loaded, ("jsonschema",))


def _heavy(loaded: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in loaded if any(m == h or m.startswith(h + ".") for h in names))


def test_the_views_light_check_knows_every_unit_kind():
    from typing import get_args

    from pbem.game.views import UNIT_KINDS
    from pbem.model.common import Kind

    assert set(UNIT_KINDS) == set(get_args(Kind))
