"""The general commands find a game of a mode with files of its own through the modes' seam (issue 24).

``verify``, ``audit``, ``status``, ``view``, ``show`` and ``dice`` ask
:func:`pbem.protocol.modes.mode_of_path` and dispatch to the commands the
mode registered (:mod:`pbem.cli.own_files`); no other command module tests
for the blind files' names or reaches the blind mode's commands directly.
"""

from __future__ import annotations

import ast
from pathlib import Path

from pbem.protocol import blindfile
from pbem.protocol.modes import FILE_MODES, mode_of_path
from tests.games import new_game

CLI = Path(__file__).resolve().parent.parent / "pbem" / "cli"
MODE_OWN = {"blind.py", "blind_reading.py"}  # the blind mode's own command modules


def test_a_folder_of_blind_files_and_each_of_its_files_are_the_blind_mode_s_and_turn_files_none(tmp_path):
    blind = tmp_path / "blind"
    blind.mkdir()
    assert mode_of_path(blind) is None  # an empty folder: no mode of its own
    (blind / blindfile.file_name(0)).write_text("")
    assert mode_of_path(blind) is FILE_MODES[blindfile.MODE]
    assert mode_of_path(blind / blindfile.file_name(0)) is FILE_MODES[blindfile.MODE]
    assert mode_of_path(blind / blindfile.SECRET_NAME) is FILE_MODES[blindfile.MODE]
    later = tmp_path / "later"  # the genesis missing: still its mode (loading it names the missing file)
    later.mkdir()
    (later / blindfile.file_name(3)).write_text("")
    assert mode_of_path(later) is FILE_MODES[blindfile.MODE]
    game = new_game(tmp_path / "refereed")
    assert mode_of_path(game) is None and mode_of_path(game / "turn-0000.pbem") is None


def test_every_mode_with_files_of_its_own_has_its_commands_registered():
    from pbem.cli import load_commands
    from pbem.cli.own_files import _COMMANDS

    load_commands()  # what the CLI does the first time it meets a game of files of its own (own_files.commands_for)

    assert set(_COMMANDS) == {blindfile.MODE}
    for commands in _COMMANDS.values():
        for name in ("verify", "audit", "status", "view", "drawn", "dice"):
            assert callable(getattr(commands, name)), name


def test_no_general_command_module_tells_a_blind_folder_by_itself():
    """The dispatch goes through the seam: no command module but the mode's own (and the package's, which registers
    every command) reads the blind files' names or reaches the mode's commands directly."""
    direct = {"pbem.protocol.blindfile", "pbem.cli.blind", "pbem.cli.blind_reading", "pbem.game.modes.blind.views"}
    named = {}
    for path in sorted(CLI.glob("*.py")):
        if path.name in MODE_OWN | {"__init__.py"}:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = {node.module} | {f"{node.module}.{a.name}" for a in node.names}
                if names & direct:
                    named.setdefault(path.name, []).extend(sorted(names & direct))
    assert not named, named
