"""The quick commands a player runs most stay quick: ``view``, ``verify`` and ``orders template`` import neither pydantic nor jsonschema.

``orders template`` reads the scenario from the signed genesis file, checked
against its hash, as plain JSON: it needs the map's entry hexes, not the models.

None of the three reads a pydantic model or checks a schema, and importing
those libraries (and, with recent typer, building a pydantic adapter per
command-line parameter) is most of what separates a command from the bare
start of Python.  ``python -X importtime`` lists every module a run loads;
these tests fail when a heavy one creeps back in through an import at the
top of a module or through typer's parameter handling (:mod:`pbem.cli.plain`).

``validate`` must build the position and the orders as models for the rules
engine, but builds them without pydantic's validators (:mod:`pbem.model.construct`),
and checks the orders against the committed schema without generating it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("pydantic", "pydantic_core", "jsonschema", "pbem.model", "pbem.loading.schemas", "pbem.loading.datafiles", "typer._adapters")


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


def test_orders_template_loads_no_heavy_module(game):
    run = _pbem(game, "orders", "template", "game/turn-0000.pbem", "--key", "us.key", importtime=True)
    loaded = _loaded(run.stderr)
    assert "pbem.game.player" in loaded and "cryptography" in loaded  # the listing is real
    heavy = _heavy(loaded, tuple(h for h in HEAVY if h != "pbem.loading.datafiles"))  # it reads the shipped scenario's JSON there
    assert not heavy, f"pbem orders template loaded {', '.join(heavy[:8])}"


#: Loaded by pydantic when it builds a model's validator or serializer, and only then.
BUILDS_A_VALIDATOR = "pydantic.plugin._loader"


def test_validate_builds_no_pydantic_validator(game):
    (game / "empty.json").write_text("{}")
    checked = _pbem(game, "validate", "empty.json", "--turn", "game/turn-0000.pbem", "--key", "us.key", importtime=True)
    loaded = _loaded(checked.stderr)
    assert "pbem.model.orders" in loaded and "pbem.engine.adjudicator" in loaded  # the models and the engine are there
    assert BUILDS_A_VALIDATOR not in loaded, "pbem validate built a pydantic validator: a model was validated, dumped or made with Model(...)"


def test_the_marker_of_a_built_validator_is_real():
    marker = repr(BUILDS_A_VALIDATOR)
    code = f"import sys; from pbem.model.ruleset import Ruleset; print({marker} in sys.modules); Ruleset(); print({marker} in sys.modules)"
    built = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert built.stdout.split() == ["False", "True"]


def test_every_model_defers_building_its_validator():
    """A model whose validator is built when its module is imported costs every command that imports it."""
    import importlib
    import pkgutil

    import pbem.model
    from pydantic import BaseModel

    models = []
    for info in pkgutil.iter_modules(pbem.model.__path__):
        module = importlib.import_module(f"pbem.model.{info.name}")
        models += [v for v in vars(module).values() if isinstance(v, type) and issubclass(v, BaseModel) and v.__module__ == module.__name__]
    assert len(models) > 15
    eager = [m.__name__ for m in models if not m.model_config.get("defer_build")]
    assert not eager, f"add defer_build=True to the model_config of {', '.join(eager)}"


def _heavy(loaded: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in loaded if any(m == h or m.startswith(h + ".") for h in names))


def test_the_views_light_check_knows_every_unit_kind():
    from typing import get_args

    from pbem.game.views import UNIT_KINDS
    from pbem.model.common import Kind

    assert set(UNIT_KINDS) == set(get_args(Kind))
