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


def _modules_of(info) -> set[str]:
    """The modules whose functions a command, or every command of a group, runs."""
    if getattr(info, "typer_instance", None) is not None:
        group = info.typer_instance
        return {m for c in group.registered_commands for m in _modules_of(c)} | {m for g in group.registered_groups for m in _modules_of(g)}
    return {info.callback.__module__.removeprefix("pbem.cli.")}


def test_each_command_imports_the_modules_that_register_it():
    """``pbem X`` imports only ``COMMAND_MODULES[X]`` (:func:`pbem.cli.load_commands`): the table must name, for every
    command and group of the whole app, exactly the modules its commands live in, and MODULES every such module."""
    from pbem.cli import COMMAND_MODULES, MODULES

    found = {narrow_name: _modules_of(info)
             for info in [*app.registered_commands, *app.registered_groups]
             for narrow_name in [info.name or info.callback.__name__.lower().replace("_", "-")]}
    assert {name: set(modules) for name, modules in COMMAND_MODULES.items()} == found
    assert set(MODULES) == set().union(*found.values())


def test_a_process_running_many_commands_builds_each_once_and_each_still_answers_as_its_own(monkeypatch, capsys):
    import typer.main

    from pbem.cli import main

    built: list = []
    real = typer.main.get_group
    monkeypatch.setattr(typer.main, "get_group", lambda app: built.append(app) or real(app))
    monkeypatch.setattr("pbem.cli._BUILT", {})
    outputs = []
    for argv in (["view", "--help"], ["verify", "--help"], ["view", "--help"], ["--help"], ["verify", "--help"]):
        with pytest.raises(SystemExit) as ended:
            main(argv)
        assert ended.value.code == 0
        outputs.append(capsys.readouterr().out)
    assert len(built) == 3  # view, verify, the whole app
    assert outputs[0] == outputs[2] and outputs[1] == outputs[4] and outputs[0] != outputs[1]
    assert "view" in outputs[3] and "verify" in outputs[3] and "--key" in outputs[0]
