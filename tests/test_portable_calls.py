"""Every POSIX-only call in ``pbem/`` sits behind a portable path, or Windows players lose the game (issue 28).

The scan reads each module's syntax tree for a use of a name Windows' Python
lacks (the list of ``tests/posixless.py``: ``os.fchmod``, ``os.getuid``,
``fcntl``, ``termios``, POSIX signals…) or a file's mode bits read as a
security check (``st_mode``), and accepts it only inside a guard that takes
another road where the name is missing: ``if hasattr(os, "fchmod")`` (or a
function of the same module that asks that), ``if os.name …`` /
``if sys.platform …``, or ``try: … except (AttributeError | ImportError)``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.posixless import POSIX_ONLY

PACKAGE = Path(__file__).resolve().parent.parent / "pbem"
GUARD_ERRORS = {"AttributeError", "ImportError", "ModuleNotFoundError", "NotImplementedError"}
PLATFORM_TESTS = ("os.name", "sys.platform", "platform.system")


def _uses(tree: ast.AST) -> list[tuple[ast.AST, str]]:
    """Each node of ``tree`` that names a POSIX-only module, function or constant, with that name."""
    found = []
    modules, os_names, signal_names = set(POSIX_ONLY["modules"]), set(POSIX_ONLY["os"]), set(POSIX_ONLY["signal"])
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node, a.name) for a in node.names if a.name.split(".")[0] in modules]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in modules:
                found.append((node, node.module))
            elif node.module in ("os", "signal"):
                wanted = os_names if node.module == "os" else signal_names
                found += [(node, f"{node.module}.{a.name}") for a in node.names if a.name in wanted]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if (node.value.id == "os" and node.attr in os_names) or (node.value.id == "signal" and node.attr in signal_names):
                found.append((node, f"{node.value.id}.{node.attr}"))
        if isinstance(node, ast.Attribute) and node.attr == "st_mode":
            found.append((node, "st_mode (file mode bits as a check)"))
    return found


def _asks_for(test: ast.AST, name: str, helpers: dict[str, str]) -> bool:
    """True when the condition ``test`` tells whether ``name`` exists: hasattr on it, the platform, or a helper that does."""
    text = ast.unparse(test)
    short = name.split(".")[-1].split(" ")[0]
    if f"hasattr(os, '{short}')" in text or f"hasattr(signal, '{short}')" in text or any(p in text for p in PLATFORM_TESTS):
        return True
    called = {n.func.id for n in ast.walk(test) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    return any(f"hasattr(os, '{short}')" in helpers.get(c, "") or any(p in helpers.get(c, "") for p in PLATFORM_TESTS) for c in called)


def _guarded(node: ast.AST, name: str, parents: dict, helpers: dict[str, str]) -> bool:
    child, here = node, parents.get(node)
    while here is not None:
        if isinstance(here, (ast.If, ast.IfExp, ast.While)) and child is not here.test and _asks_for(here.test, name, helpers):
            return True
        if isinstance(here, ast.Try) and child in here.body:
            caught = {ast.unparse(h.type) for h in here.handlers if h.type is not None}
            caught = {c.strip("() ") for t in caught for c in t.split(",")}
            if caught & GUARD_ERRORS:
                return True
        child, here = here, parents.get(here)
    return False


def unguarded(source: str) -> list[tuple[int, str]]:
    """``(line, name)`` for every POSIX-only use in ``source`` outside a portable guard."""
    tree = ast.parse(source)
    uses = _uses(tree)
    if not uses:
        return []
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    functions = {f.name: ast.unparse(f) for f in tree.body if isinstance(f, ast.FunctionDef)}
    helpers = {name: text for name, text in functions.items() if "hasattr(" in text or any(p in text for p in PLATFORM_TESTS)}
    return [(node.lineno, name) for node, name in uses if not _guarded(node, name, parents, helpers)]


def all_uses(source: str) -> list[str]:
    return [name for _, name in _uses(ast.parse(source))]


def test_no_posix_only_call_in_pbem_without_a_portable_path():
    offenders, seen = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        seen += all_uses(source)
        offenders += [f"{path.relative_to(PACKAGE.parent)}:{line}: {name}" for line, name in unguarded(source)]
    assert "os.fchmod" in seen  # the scan is real: files.py sets a key file's mode where it can
    assert not offenders, "POSIX-only, with no road for Windows:\n" + "\n".join(offenders)


@pytest.mark.parametrize("source", [
    "import os\nos.fchmod(fd, 0o600)\n",
    "import os\ndef f():\n    return os.getuid()\n",
    "import fcntl\n",
    "from termios import tcgetattr\n",
    "from os import geteuid\n",
    "import signal\nsignal.signal(signal.SIGHUP, handler)\n",
    "import os\nif os.stat(p).st_mode & 0o077:\n    refuse()\n",
    "import os\nif hasattr(os, 'fchown'):\n    os.fchmod(fd, 0o600)\n",  # a guard for another name guards nothing
    "import os\ntry:\n    os.fchmod(fd, 0o600)\nexcept OSError:\n    pass\n",  # fails with AttributeError, not OSError
    "import os\ndef f(fd):\n    if hasattr(os, 'fchmod'):\n        pass\n    os.fchmod(fd, 0o600)\n",  # asked, then ignored
    "import os\nif hasattr(os, 'fchmod') or True:\n    pass\nos.fchmod(fd, 0o600)\n",
])
def test_the_scan_catches_a_posix_only_call(source):
    assert unguarded(source), source


@pytest.mark.parametrize("source", [
    "import os\nif hasattr(os, 'fchmod'):\n    os.fchmod(fd, 0o600)\n",
    "import os\ndef modes():\n    return os.name != 'nt' and hasattr(os, 'fchmod')\nif modes():\n    os.fchmod(fd, 0o600)\n",
    "import sys\nif sys.platform != 'win32':\n    import fcntl\n",
    "try:\n    import termios\nexcept ImportError:\n    termios = None\n",
    "import os\nuid = os.getuid() if hasattr(os, 'getuid') else None\n",
])
def test_the_scan_accepts_a_portable_path(source):
    assert not unguarded(source), source
