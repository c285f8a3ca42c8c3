"""A judge's home: its settings (TOML), its database (SQLite), its games, and who may read them.

The home holds the referee's key path, every game's sealed states and every
message received, so it must be readable by its owner only
(:func:`exposure_problem`); the judge refuses to work in it otherwise.
Passwords and the key's passphrase never enter the settings file: they come
from the environment (:data:`ENVIRONMENT`).
"""

from __future__ import annotations

import json
import os
import stat
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from pbem.errors import BadInput
from pbem.judge.clock import duration

SETTINGS = "judge.toml"
DATABASE = "judge.sqlite"
GAMES = "games"
LOCK = "judge.lock"

#: Where secrets come from (docs/judge.md).
ENVIRONMENT = {
    "imap": "PBEM_JUDGE_IMAP_PASSWORD",
    "smtp": "PBEM_JUDGE_SMTP_PASSWORD",
    "passphrase": "PBEM_JUDGE_PASSPHRASE",
}
TLS = ("starttls", "ssl", "none")


@dataclass
class Settings:
    """What ``judge.toml`` holds (docs/judge.md explains every key)."""

    address: str
    key: str
    inbound: dict
    smtp: dict
    limits: dict = field(default_factory=lambda: {"per_sender_per_hour": 30, "max_message_bytes": 2_000_000})
    deadlines: dict = field(default_factory=lambda: {"reminders": ["24h", "2h"], "extension": "24h", "max_extensions": 2})

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2] or "pbem.invalid"

    def reminder_offsets(self) -> list[float]:
        return sorted((duration(r, "deadlines.reminders") for r in self.deadlines.get("reminders", [])), reverse=True)


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(str(value))  # a JSON string is a TOML basic string


def settings_text(settings: Settings) -> str:
    lines = ["# pbem judge settings (docs/judge.md). Passwords and the key's passphrase come from the environment:",
             "# " + ", ".join(ENVIRONMENT.values()) + ".", "", "[judge]",
             f"address = {_toml_value(settings.address)}", f"key = {_toml_value(settings.key)}"]
    for section in ("inbound", "smtp", "limits", "deadlines"):
        lines += ["", f"[{section}]"] + [f"{k} = {_toml_value(v)}" for k, v in getattr(settings, section).items()]
    return "\n".join(lines) + "\n"


def read_settings(home: Path) -> Settings:
    path = home / SETTINGS
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BadInput("is not a judge's home (no judge.toml)", file=str(home), hint="make one with 'pbem judge init'") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as exc:
        raise BadInput(f"cannot be read: {exc}", file=str(path), hint="fix the TOML (docs/judge.md lists the keys)") from None
    try:
        judge = data["judge"]
        made = Settings(address=str(judge["address"]), key=str(judge["key"]), inbound=dict(data["inbound"]), smtp=dict(data["smtp"]))
    except (KeyError, TypeError) as exc:
        raise BadInput(f"lacks {exc}", file=str(path), hint="docs/judge.md lists the keys; 'pbem judge init' writes them all") from None
    made.limits.update(data.get("limits", {}))
    made.deadlines.update(data.get("deadlines", {}))
    if made.inbound.get("kind") not in ("imap", "maildir"):
        raise BadInput("inbound.kind must be imap or maildir", file=str(path), field="inbound.kind")
    made.reminder_offsets()
    return made


def exposure_problem(home: Path) -> str | None:
    """Why ``home`` may be read by someone other than its owner, or None when it may not.

    One small function, so the judge's only platform-dependent check lives
    in one place.  On Windows there are no mode bits to read: the home then
    relies on the user profile's access control, and the caller says so.
    """
    try:
        info = home.stat()
    except OSError as exc:
        return f"cannot be checked: {exc.strerror}"
    if sys.platform != "win32":  # mode bits and owners mean something only where POSIX gives them
        if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
            return f"belongs to user {info.st_uid}, not to the user running the judge ({os.geteuid()})"
        if stat.S_IMODE(info.st_mode) & 0o077:
            return f"can be read or entered by others (mode {stat.S_IMODE(info.st_mode):o})"
    return None


def check_home(home: Path) -> None:
    """BadInput unless ``home`` is a judge's home that only its owner can read."""
    if not (home / SETTINGS).is_file():
        raise BadInput("is not a judge's home (no judge.toml)", file=str(home), hint="make one with 'pbem judge init'")
    problem = exposure_problem(home)
    if problem:
        raise BadInput(f"the judge's home {problem}; it holds the referee's sealed states and every message",
                       file=str(home), hint=f"chmod 700 {home}")


def platform_note() -> str | None:
    """What the owner-only check cannot check here, for ``init`` to say."""
    return ("on Windows the home's privacy relies on your user profile's access control; keep it inside your profile"
            if sys.platform == "win32" else None)


class Lock:
    """One judge at a time per home (a second ``run`` would send every mail twice)."""

    def __init__(self, home: Path) -> None:
        self.path = home / LOCK
        self.handle = None

    def __enter__(self) -> "Lock":
        self.handle = open(self.path, "a+")
        try:
            import fcntl

            fcntl.flock(self.handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except ImportError:  # Windows: no flock; one judge per home is then the owner's to keep
            pass
        except OSError:
            self.handle.close()
            raise BadInput("another judge is working in this home", file=str(self.path.parent),
                           hint="stop it first (one 'pbem judge run' per home), or wait for its poll to end") from None
        return self

    def __exit__(self, *exc) -> None:
        if self.handle is not None:
            self.handle.close()


MAILDIR_PARTS = ("cur", "new", "tmp")


def maildir_problem(path: Path) -> str | None:
    """What keeps ``path`` from being a Maildir (a folder holding cur/, new/ and tmp/), or None when it is one."""
    if not path.exists():
        return "does not exist"
    if not path.is_dir():
        return "is a file, not a Maildir folder"
    missing = [p for p in MAILDIR_PARTS if not (path / p).is_dir()]
    if missing:
        return f"is not a Maildir: it has no {', '.join(p + '/' for p in missing)} folder{'s' if len(missing) > 1 else ''} (a Maildir holds cur/, new/ and tmp/)"
    return None
