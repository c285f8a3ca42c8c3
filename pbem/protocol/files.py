"""Reading files with clear errors, and writing new files safely.

Game files are evidence: a turn file or key file must never be silently
replaced, and a crash half-way through writing must not leave half a file
under the real name.  :func:`write_new` therefore writes to a temporary name in
the same directory, flushes it to disk, and only then gives it its name —
refusing if a file of that name already exists.

Permissions: on Linux and macOS a private file (a key, a view's map) gets the
mode it asks for (0600).  Windows has no owner/group/other bits (``os.fchmod``
exists there only from Python 3.13, and only sets read-only): a file is
protected by the permissions of the folder it is written in, the user's
profile, and pbem says so (:func:`private_files_note`) rather than pretending.
"""

from __future__ import annotations

import codecs
import os
import tempfile
from pathlib import Path

from pbem.errors import BadInput


def file_modes_apply() -> bool:
    """True where a file's mode bits are what protects it (POSIX), False on Windows."""
    return os.name != "nt" and hasattr(os, "fchmod")


def private_files_note() -> str:
    """How a private file pbem writes here is protected, in a player's words."""
    if file_modes_apply():
        return "readable by you alone"
    return "protected by your user profile's permissions: keep it inside your own folders"


def _set_mode(fd: int, mode: int) -> None:
    """Give the open file ``fd`` the permission bits ``mode`` where the platform has them (see the module doc)."""
    if file_modes_apply():
        os.fchmod(fd, mode)


def write_new(path: str | os.PathLike[str], text: str, *, mode: int = 0o644) -> Path:
    """Create ``path`` holding ``text`` (UTF-8) with permission ``mode``.

    Refuses (:class:`BadInput`) when ``path`` exists.  The file appears under
    its name complete or not at all.  Where the file system allows hard links
    the final step is ``os.link``, which cannot overwrite a file that appeared
    in the meantime; elsewhere it falls back to a check and ``os.replace``.
    """
    target = Path(path)
    name = str(target)
    if target.exists() or target.is_symlink():
        raise BadInput(
            "already exists; pbem never overwrites a game or key file",
            file=name,
            hint="choose another name, or move the old file away first",
        )
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise BadInput(
            f"the folder {directory} does not exist",
            file=name,
            hint="create the folder first or choose another path",
        )
    data = text.encode("utf-8")
    try:
        fd, temp_name = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise BadInput(
            f"cannot write in {directory}: {exc.strerror}",
            file=name,
            hint="check the folder's permissions",
        ) from None
    try:
        try:
            _set_mode(fd, mode)
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            raise BadInput(
                f"cannot write: {exc.strerror}", file=name, hint="check free space and permissions"
            ) from None
        _move_into_place(temp_name, target, name)
    finally:
        if os.path.exists(temp_name):
            os.unlink(temp_name)
    return target


def make_folder(path: str | os.PathLike[str], *, what: str = "folder") -> Path:
    """Create the folder ``path`` (and its parents) unless it exists; BadInput when that cannot be done."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise BadInput(f"is a file, not a {what}", file=str(folder), hint=f"give a {what} path, or a new name for one")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInput(
            f"cannot create the {what}: {exc.strerror or exc}", file=str(folder), hint="choose a place you may write to"
        ) from None
    return folder


def write_replacing(path: str | os.PathLike[str], text: str, *, mode: int = 0o644) -> Path:
    """Write ``path`` whole, replacing what was there (for records that grow, like a
    receipt, never for game files): a temporary file renamed over the old one."""
    target = Path(path)
    name = str(target)
    try:
        fd, temp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        try:
            _set_mode(fd, mode)
            with os.fdopen(fd, "wb") as handle:
                handle.write(text.encode("utf-8"))
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temp_name, target)
        finally:
            if os.path.exists(temp_name):
                os.unlink(temp_name)
    except OSError as exc:
        raise BadInput(f"cannot write: {exc.strerror}", file=name, hint="check free space and permissions") from None
    return target


def _move_into_place(temp_name: str, target: Path, name: str) -> None:
    exists = BadInput(
        "already exists; pbem never overwrites a game or key file",
        file=name,
        hint="choose another name, or move the old file away first",
    )
    try:
        os.link(temp_name, target)
        return
    except FileExistsError:
        raise exists from None
    except OSError:
        pass  # no hard links here (some network or FAT file systems)
    if target.exists():
        raise exists
    try:
        os.replace(temp_name, target)
    except OSError as exc:
        raise BadInput(f"cannot write: {exc.strerror}", file=name) from None


def decode_text(data: bytes) -> str:
    """``data`` as text: UTF-8, or UTF-16 behind its byte-order mark; a byte-order mark is dropped.

    Windows writes byte-order marks: Notepad's "UTF-8 with BOM", PowerShell 5's
    ``>`` (UTF-16) and ``Out-File -Encoding utf8``.  A player's orders saved so
    are still his orders.  Raises UnicodeDecodeError for anything else.
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16")
    return data.decode("utf-8-sig")


#: The most any file pbem reads may hold, by what it is (bytes): checked before a byte is read, so that a file
#: made to exhaust the reader costs nothing.  Each is well above the limit its reader applies to the content
#: (turn files 16 Mi characters, orders files 512 Ki: docs/PROTOCOL.md, Limits).
SIZE_LIMITS = {
    "turn file": 64 * 2**20,
    "orders file": 2 * 2**20,
    "key file": 2**20,
    "public identity file": 2**20,
    "reveal file": 256 * 2**20,
}
DEFAULT_SIZE_LIMIT = 64 * 2**20


def too_large(path: str | os.PathLike[str], what: str, limit: int | None = None) -> BadInput | None:
    """The refusal of a file larger than any ``what`` pbem reads, or None (also when it cannot be looked at:
    the reading that follows says why)."""
    limit = limit or SIZE_LIMITS.get(what, DEFAULT_SIZE_LIMIT)
    try:
        size = os.stat(path).st_size
    except (OSError, ValueError):
        return None
    if size <= limit:
        return None
    return BadInput(
        f"is {size / 2**20:.0f} MiB, more than any {what} pbem reads ({limit // 2**20} MiB); it was not read",
        file=str(path),
        hint=f"give the {what} itself; if it came by mail, ask the sender for a fresh copy",
    )


def read_text(path: str | os.PathLike[str], *, what: str = "file", limit: int | None = None) -> str:
    """The text of ``path`` (UTF-8), or :class:`BadInput` saying what is wrong (a file larger than
    :data:`SIZE_LIMITS` allows for ``what`` is refused before it is read)."""
    name = str(path)
    refusal = too_large(path, what, limit)
    if refusal is not None:
        raise refusal
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise BadInput(f"no such {what}", file=name, hint="check the path") from None
    except IsADirectoryError:
        raise BadInput(f"is a folder, not a {what}", file=name, hint="give the file's path") from None
    except OSError as exc:
        raise BadInput(f"cannot read {what}: {exc.strerror}", file=name) from None
    except ValueError:  # e.g. a NUL byte: damaged text mistaken for a path
        raise BadInput(f"is neither a {what} nor a path to one", file=name[:80], hint="check the argument") from None
    try:
        return decode_text(data)
    except UnicodeDecodeError:
        raise BadInput(
            f"is not a text {what} (not UTF-8)",
            file=name,
            hint="save the file as plain text (UTF-8) and try again",
        ) from None


def looks_like_text(value: str | os.PathLike[str], marker: str) -> bool:
    """True when ``value`` is file content rather than a path: it contains
    ``marker`` or a line break (no sensible path has one)."""
    return isinstance(value, str) and (marker in value or "\n" in value or "\r" in value)


def text_and_source(
    path_or_text: str | os.PathLike[str], *, marker: str, what: str, source: str | None = None
) -> tuple[str, str]:
    """``(text, source name)`` from either file content or a path to a file.

    A ``str`` containing ``marker`` (e.g. ``-----BEGIN PBEM TURN``) is taken
    as the content itself; anything else as a path.
    """
    if looks_like_text(path_or_text, marker):
        return str(path_or_text), source or what
    return read_text(path_or_text, what=what), source or str(path_or_text)
