"""Only the command being run is built; the whole app when the command line names none."""

from __future__ import annotations

import pytest
from typer.main import get_group

from pbem.cli import app
from pbem.cli.narrow import narrowed


def _names(typer_app) -> set[str]:
    return set(get_group(typer_app).commands)


def test_a_command_is_built_alone():
    assert _names(narrowed(app, ["view", "turn.pbem", "--key", "k.key"])) == {"view"}


def test_a_group_is_built_with_its_own_commands():
    group = get_group(narrowed(app, ["orders", "template", "turn.pbem"]))
    assert set(group.commands) == {"orders"} and {"template", "check"} <= set(group.commands["orders"].commands)


@pytest.mark.parametrize("argv", [[], ["--help"], ["vew", "x"], ["--help", "view"]])
def test_without_a_known_command_first_the_whole_app_is_built(argv):
    assert narrowed(app, argv) is app
    assert {"view", "verify", "validate", "adjudicate", "audit", "orders"} <= _names(app)


def test_the_app_itself_is_left_whole():
    before = list(app.registered_commands)
    narrowed(app, ["view"])
    assert app.registered_commands == before
