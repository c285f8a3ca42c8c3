"""Command lines a user can paste back: pbem named as he started it, paths as his platform writes them.

``pbem demo`` ends with the commands that open what it wrote.  They must run
where the player is: ``.venv/bin/pbem`` on Linux and macOS,
``.venv\\Scripts\\pbem.exe`` on Windows, ``python -m pbem`` anywhere; a path
with a space (``C:\\Users\\John Smith``) is quoted the way the platform's
shell reads it.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

#: The names pbem's console script has: ``pbem`` (POSIX), ``pbem.exe`` and ``pbem-script.py`` (Windows launchers).
_SCRIPT_NAMES = ("pbem", "pbem.exe", "pbem-script.py")


def program(argv0: str | None = None, executable: str | None = None) -> str:
    """How to start pbem again, as the user did: the console script he typed, ``python -m pbem``, or plain ``pbem``."""
    argv0 = (sys.argv[0] if sys.argv else "") if argv0 is None else argv0
    name = re.split(r"[\\/]", argv0)[-1].lower()
    if name == "__main__.py":  # python -m pbem
        return f"{quote(_short(executable or sys.executable))} -m pbem"
    if name not in _SCRIPT_NAMES:
        return "pbem"
    if name == "pbem-script.py":
        argv0 = argv0[: -len("-script.py")]
    on_path = shutil.which("pbem")
    if os.path.isabs(argv0) and on_path and _same(on_path, argv0):
        return "pbem"  # found on PATH: the shell gave the full path, the user typed pbem
    return quote(argv0)


def quote(word: str | os.PathLike[str]) -> str:
    """``word`` as one argument of the platform's shell (cmd/PowerShell on Windows, sh elsewhere)."""
    text = str(word)
    if os.name == "nt":
        return subprocess.list2cmdline([text])
    return shlex.quote(text)


def _short(path: str) -> str:
    """``path`` relative to the current folder when it lies inside it (``.venv/bin/python``), else as it is."""
    try:  # abspath, not resolve: a virtual environment's python is a link that must not be followed
        relative = Path(os.path.abspath(path)).relative_to(os.path.abspath(os.getcwd()))
    except (ValueError, OSError):
        return path
    return str(relative)


def _same(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
