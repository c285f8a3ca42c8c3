"""Checking the shape of parsed JSON, with errors that name the field.

Files arrive from other people's machines; every field is checked before use
so that a malformed file gives "turn-3.txt: dice.salt: is not valid base64 —
…" instead of a ``KeyError`` traceback.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.errors import BadInput
from pbem.protocol.canonical import b64d, is_digest

_HINT = "the file was altered or made by an incompatible program; ask for a fresh copy"


@dataclass(frozen=True)
class Where:
    """The file being read and the path of the JSON object being looked at."""

    source: str | None
    path: str = ""

    def at(self, key: str | int) -> "Where":
        """The location of a member of this object or array."""
        if isinstance(key, int):
            return Where(self.source, f"{self.path}[{key}]")
        return Where(self.source, f"{self.path}.{key}" if self.path else key)

    def fail(self, message: str, hint: str = _HINT) -> BadInput:
        """A :class:`BadInput` naming this location."""
        return BadInput(message, file=self.source, field=self.path or None, hint=hint)


def obj(value: Any, where: Where, keys: set[str] | frozenset[str] | None = None) -> dict:
    """``value`` must be a JSON object, with exactly ``keys`` when given."""
    if not isinstance(value, dict):
        raise where.fail(f"expected an object, found {_kind(value)}")
    if keys is not None:
        missing = sorted(set(keys) - value.keys())
        extra = sorted(value.keys() - set(keys))
        if missing:
            raise where.fail(f"missing field(s): {', '.join(missing)}")
        if extra:
            raise where.fail(
                f"unknown field(s): {', '.join(extra)}",
                hint="the file was made by a different pbem version or altered",
            )
    return value


def string(value: Any, where: Where) -> str:
    """``value`` must be a non-empty string."""
    if not isinstance(value, str) or not value:
        raise where.fail(f"expected a non-empty string, found {_kind(value)}")
    return value


def integer(value: Any, where: Where, minimum: int | None = None) -> int:
    """``value`` must be an integer (not a boolean), at least ``minimum``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise where.fail(f"expected an integer, found {_kind(value)}")
    if minimum is not None and value < minimum:
        raise where.fail(f"must be at least {minimum}, found {value}")
    return value


def array(value: Any, where: Where) -> list:
    """``value`` must be a JSON array."""
    if not isinstance(value, list):
        raise where.fail(f"expected an array, found {_kind(value)}")
    return value


def digest_or_none(value: Any, where: Where) -> str | None:
    """``value`` must be ``null`` or a ``"sha256:<hex>"`` digest."""
    if value is None:
        return None
    return digest_value(value, where)


def digest_value(value: Any, where: Where) -> str:
    """``value`` must be a ``"sha256:<hex>"`` digest."""
    if not is_digest(value):
        raise where.fail('expected a digest "sha256:<64 hex digits>"')
    return value


def b64(value: Any, where: Where, length: int | None = None) -> bytes:
    """``value`` must be strict base64, decoding to ``length`` bytes if given."""
    data = b64d(value, source=where.source, field=where.path or None)
    if length is not None and len(data) != length:
        raise where.fail(f"must decode to {length} bytes, found {len(data)}")
    return data


def b64_or_none(value: Any, where: Where, length: int | None = None) -> bytes | None:
    """``value`` must be ``null`` or strict base64."""
    if value is None:
        return None
    return b64(value, where, length)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "an empty string" if not value else "a string"
    if isinstance(value, (int, float)):
        return "a number"
    return type(value).__name__
