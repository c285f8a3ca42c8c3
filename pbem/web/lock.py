"""The small file beside a turn file that says a page is already open on it, and where.

``.turn-NNNN.pbem.play`` holds the address (with its token: the file is
readable by its owner only) and the process id.  A file whose process is
gone, or whose address no longer answers, is stale and replaced.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from urllib.parse import urlsplit

from pbem.errors import BadInput


def lock_path(turn_path: Path) -> Path:
    return turn_path.parent / f".{turn_path.name}.play"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except (OverflowError, ValueError):
        return False
    return True


def _answers(url: str) -> bool:
    parts = urlsplit(url)
    if parts.hostname != "127.0.0.1" or parts.port is None:
        return False
    try:
        with socket.create_connection(("127.0.0.1", parts.port), timeout=0.5):
            return True
    except OSError:
        return False


def running(turn_path: Path) -> str | None:
    """The address of a page already open on this turn file, or None (a stale lock file is removed)."""
    path = lock_path(turn_path)
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        pid, url = int(record["pid"]), str(record["url"])
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError):
        path.unlink(missing_ok=True)  # unreadable: not a lock any page of ours wrote
        return None
    if pid != os.getpid() and _alive(pid) and _answers(url):
        return url
    path.unlink(missing_ok=True)
    return None


def refuse_second(turn_path: Path) -> None:
    url = running(turn_path)
    if url is not None:
        raise BadInput(f"a 'pbem play' page is already open on this turn file: {url}", file=str(turn_path),
                       hint=f"open that address, or stop that 'pbem play' (Ctrl-C in its terminal); {lock_path(turn_path).name} says where it is")


def take(turn_path: Path, url: str) -> Path:
    """Write the lock file (owner-only: the address carries the token)."""
    path = lock_path(turn_path)
    temp = path.with_name(path.name + f".{os.getpid()}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump({"pid": os.getpid(), "url": url}, out)
    os.replace(temp, path)
    return path


def release(turn_path: Path) -> None:
    path = lock_path(turn_path)
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        if int(record.get("pid", -1)) == os.getpid():
            path.unlink()
    except (OSError, ValueError, TypeError, AttributeError):
        pass
