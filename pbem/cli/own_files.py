"""The general commands on a game whose mode keeps files of its own instead of turn files.

``verify``, ``audit``, ``status``, ``view``, ``show`` and ``dice`` take a game
folder or a file.  Before they read turn files they ask the modes' file side
(:func:`pbem.protocol.modes.mode_of_path`) whether the path is a game of a mode
with files of its own (today: hidden units with no referee, ``blind-NNNN-SIDE.pbem``);
if so, that mode's :class:`FolderCommands`, registered here by the mode's own
command module when it is imported (every command module is, the first time
such a game is met: :func:`pbem.cli.load_commands`), answer instead.  The commands never test
which mode it is, and this module imports none: a mode's commands import it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional, Protocol


class FolderCommands(Protocol):
    """What a mode with files of its own answers for the general commands (each prints, and exits 1 on a finding)."""

    def verify(self, folder: Path, as_json: bool) -> None: ...

    def audit(self, folder: Path) -> None: ...

    def status(self, folder: Path, key: Optional[Path], passphrase_env: Optional[str], as_json: bool) -> None: ...

    def view(self, path: Path, key: Path, passphrase_env: Optional[str], as_json: bool) -> None: ...

    def drawn(self, path: Path, key: Path, passphrase_env: Optional[str]) -> tuple[dict, Any]:
        """The view ``show`` draws and the scenario as loaded."""

    def dice(self, path: Path, as_json: bool) -> None: ...


_COMMANDS: dict[str, FolderCommands] = {}


def register(mode: str, commands: FolderCommands) -> None:
    """``commands`` answer for games of the file mode called ``mode`` (:data:`pbem.protocol.modes.FILE_MODES`)."""
    _COMMANDS[mode] = commands


def commands_for(path: Path) -> FolderCommands | None:
    """The commands of the mode whose own files ``path`` is, or None for a game of turn files."""
    from pbem.protocol.modes import mode_of_path

    mode = mode_of_path(path)
    if mode is None:
        return None
    if mode.name not in _COMMANDS:  # only the command being run was loaded: load the modes' command modules too
        from pbem.cli import load_commands

        load_commands()
    try:
        return _COMMANDS[mode.name]
    except KeyError:  # a mode added to the files without its commands: a programming error, said plainly
        raise RuntimeError(f"no commands registered for the {mode.name} mode's folders (pbem.cli.own_files.register)") from None
