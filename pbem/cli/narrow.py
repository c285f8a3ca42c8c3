"""Build the click command of the one pbem command being run, not of all twenty.

typer turns every registered command into a click command — reading each
function's signature and each parameter's declaration — before it parses
the command line, so ``pbem view`` would pay for the parameters of ``new``,
``adjudicate``, ``demo`` and the rest.  :func:`narrowed` gives typer a copy of
the app holding only the command (or command group, e.g. ``orders``) that
the command line names.  When it names none — ``pbem``, ``pbem --help``, a
mistyped command — the whole app is built, so help lists every command and
a mistyped name still gets its suggestion.
"""

from __future__ import annotations

import copy
from typing import Any


def _name(info: Any) -> str | None:
    """The name a command (``CommandInfo``) or group (``TyperInfo``) is called by on the command line."""
    name = getattr(info, "name", None)
    if isinstance(name, str):
        return name
    callback = getattr(info, "callback", None)
    return callback.__name__.lower().replace("_", "-") if callback is not None else None


def narrowed(app: Any, argv: list[str]) -> Any:
    """``app`` holding only the command or group ``argv`` names first; ``app`` itself when it names none it knows."""
    first = next((arg for arg in argv if not arg.startswith("-")), None)
    if first is None or first != (argv[0] if argv else None):
        return app  # an option before the command (--help): the whole app
    commands = [c for c in app.registered_commands if _name(c) == first]
    groups = [g for g in app.registered_groups if _name(g) == first]
    if len(commands) + len(groups) != 1:
        return app
    narrow = copy.copy(app)
    narrow.registered_commands = commands
    narrow.registered_groups = groups
    return narrow
