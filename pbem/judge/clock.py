"""The judge's clock: deadlines are the only thing in pbem that reads the time.

``PBEM_JUDGE_NOW`` replaces the system clock (tests, and a referee replaying
a stalled day): seconds since the epoch, an ISO 8601 time, or ``@FILE``
naming a file that holds either, read anew at every look (so a test can move
time forward under a running judge).  The rules engine never sees the clock.
"""

from __future__ import annotations

import os
import time
from datetime import datetime, timezone

from pbem.errors import BadInput

ENV = "PBEM_JUDGE_NOW"


def now() -> float:
    """Seconds since the epoch, from ``PBEM_JUDGE_NOW`` when set, else the system clock."""
    given = os.environ.get(ENV)
    if not given:
        return time.time()
    if given.startswith("@"):
        try:
            given = open(given[1:], encoding="utf-8").read().strip()
        except OSError as exc:
            raise BadInput(f"{ENV} names a file that cannot be read: {exc.strerror}", file=given[1:],
                           hint="write the time (seconds since the epoch, or ISO 8601) into it, or unset the variable") from None
    return parse_time(given, ENV)


def parse_time(text: str, where: str) -> float:
    try:
        return float(text)
    except ValueError:
        pass
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise BadInput(f"{where} holds '{text}', which is not a time", hint="give seconds since the epoch or an ISO 8601 time") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp()


def stamp(seconds: float) -> str:
    """An absolute time as a player reads it: ``2026-11-28 14:00 UTC``."""
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def duration(text: str, where: str) -> float:
    """``72h``, ``90m``, ``3d``, ``60s`` (or plain seconds) as seconds; BadInput naming ``where`` otherwise."""
    text = str(text).strip().lower()
    try:
        value = float(text[:-1]) * _UNITS[text[-1]] if text and text[-1] in _UNITS else float(text)
    except ValueError:
        value = -1
    if value < 0:
        raise BadInput(f"{where} is '{text}', not a duration", hint="write it like 72h, 90m, 3d or 60s")
    return value


def spoken(seconds: float) -> str:
    """A duration as people say it (``72h``, ``90m``)."""
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size and seconds % size == 0:
            return f"{int(seconds // size)}{unit}"
    return f"{int(seconds)}s"
