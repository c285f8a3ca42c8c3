"""Canonical JSON, digests and strict base64: the bytes everything is hashed as.

A signature or a hash is only meaningful if every implementation turns the
same JSON value into the same bytes.  The canonical form used throughout pbem:

* UTF-8, no byte-order mark;
* object keys sorted by code point (Python's ``sort_keys``), keys must be
  strings;
* separators ``,`` and ``:`` with no whitespace anywhere outside strings;
* strings written with Python's ``json`` escaping and ``ensure_ascii=False``:
  only ``"``, ``\\``, and control characters below U+0020 are escaped
  (``\\n`` ``\\r`` ``\\t`` ``\\b`` ``\\f`` short forms, otherwise ``\\u00XX``
  lower-case hex); every other character is written as itself;
* integers in plain decimal; finite floats as Python's ``repr`` (shortest
  round-trip form, e.g. ``1.5``, ``1e+16``) — the protocol itself never puts
  floats into a file, and engines are advised not to; NaN and ±Infinity are
  rejected;
* ``true``, ``false``, ``null`` as usual.

Bytes are carried inside JSON as standard base64 (RFC 4648 §4, with ``=``
padding, no line breaks).  Decoding is strict: anything that is not exactly
what :func:`b64e` would have produced is refused, so one value has one text.

A digest is written ``"sha256:" + 64 lower-case hex digits``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from typing import Any

from pbem.errors import BadInput

DIGEST_PREFIX = "sha256:"
_DIGEST_RE = re.compile(r"sha256:[0-9a-f]{64}")


class NotCanonical(ValueError):
    """A value that has no canonical JSON form (a programming error when raised
    on data the program built; parsers turn it into :class:`BadInput`)."""


def _check_keys(value: Any, path: str) -> None:
    """Refuse non-string object keys, which ``json.dumps`` would silently
    turn into strings (so ``{1: x}`` and ``{"1": x}`` would collide)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise NotCanonical(f"{path}: object key {key!r} is not a string")
            if isinstance(item, (dict, list, tuple)):
                _check_keys(item, f"{path}.{key}")
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            if isinstance(item, (dict, list, tuple)):
                _check_keys(item, f"{path}[{index}]")


def canonical_bytes(obj: Any, *, parsed: bool = False) -> bytes:
    """The one byte string that stands for ``obj`` when hashed or signed.

    Raises :class:`NotCanonical` for NaN, ±Infinity, non-string keys and
    values JSON has no form for (sets, bytes, …).  ``parsed``: ``obj`` is
    what :func:`parse_canonical` gave (every key a string already), so the
    keys are not checked again.
    """
    try:
        text = _dumps(obj)
        # ``json.dumps`` writes a key 1 as "1": the text read back differs from ``obj`` exactly
        # when some key is not a string (or a tuple became a list), and only then is every key
        # looked at, which costs far more than reading back in C.
        if not parsed and json.loads(text) != obj:
            _check_keys(obj, "$")
        return text.encode("utf-8")
    except NotCanonical:
        raise
    except (ValueError, TypeError, UnicodeEncodeError, RecursionError) as exc:
        _check_keys_or_none(obj)
        raise NotCanonical(f"cannot be written as canonical JSON: {exc}") from None


def _dumps(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _check_keys_or_none(obj: Any) -> None:
    """Name a non-string key, when there is one, rather than the error ``json.dumps`` met first."""
    try:
        _check_keys(obj, "$")
    except RecursionError:
        pass


def sha256_hex(data: bytes) -> str:
    """Lower-case hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def digest_bytes(data: bytes) -> str:
    """``"sha256:<hex>"`` of raw bytes (how files' payloads are named)."""
    return DIGEST_PREFIX + sha256_hex(data)


def digest(obj: Any) -> str:
    """``"sha256:<hex>"`` of the canonical bytes of ``obj``."""
    return digest_bytes(canonical_bytes(obj))


def is_digest(value: Any) -> bool:
    """True for a well-formed ``"sha256:<64 hex>"`` string."""
    return isinstance(value, str) and _DIGEST_RE.fullmatch(value) is not None


def b64e(data: bytes) -> str:
    """Standard base64 with padding, as carried inside JSON."""
    return base64.b64encode(data).decode("ascii")


def b64d(text: Any, *, source: str | None = None, field: str | None = None) -> bytes:
    """Decode :func:`b64e` output strictly; anything else is :class:`BadInput`."""
    if not isinstance(text, str):
        raise BadInput(
            "expected base64 text",
            file=source,
            field=field,
            hint="the file was altered or made by another program; ask for a fresh copy",
        )
    try:
        data = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        data = None
    if data is None or b64e(data) != text:
        raise BadInput(
            "is not valid base64",
            file=source,
            field=field,
            hint="the file was altered or damaged; ask for a fresh copy",
        )
    return data


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise NotCanonical(f"key {key!r} appears twice in one object")
        result[key] = value
    return result


def _no_constants(name: str) -> Any:
    raise NotCanonical(f"{name} is not allowed")


def parse_canonical(data: bytes, *, source: str | None = None, what: str = "content") -> Any:
    """Parse bytes that must be canonical JSON, refusing anything else.

    Requiring the canonical form (not merely valid JSON) means a file's bytes
    and its meaning correspond one to one, so a digest names exactly one
    meaning and no byte can be changed without changing the meaning.
    """
    hint = "the file was altered or damaged; ask for a fresh copy"
    try:
        # Read in C, no hook: bytes that are the canonical writing of what they parse to
        # hold no repeated key and no constant, so only other bytes take the checking road.
        obj = json.loads(data.decode("utf-8"))
        if _dumps(obj).encode("utf-8") == data:
            return obj
    except (UnicodeError, ValueError, RecursionError):
        pass
    try:
        text = data.decode("utf-8")
        obj = json.loads(
            text,
            object_pairs_hook=_no_duplicate_keys,
            parse_constant=_no_constants,
        )
        try:  # parsed JSON: every key is a string already, so canonical_bytes's key check is not needed
            canonical = _dumps(obj).encode("utf-8")
        except (ValueError, RecursionError) as exc:
            raise NotCanonical(f"cannot be written as canonical JSON: {exc}") from None
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise BadInput(f"{what} is not valid JSON ({exc})", file=source, hint=hint) from None
    if canonical != data:
        raise BadInput(f"{what} is not in canonical JSON form", file=source, hint=hint)
    return obj
