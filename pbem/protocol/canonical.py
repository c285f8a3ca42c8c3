"""Canonical JSON, digests and strict base64: the bytes everything is hashed as.

A signature or a hash is only meaningful if every implementation turns the
same JSON value into the same bytes.  pbem's canonical JSON is **RFC 8785
(JSON Canonicalization Scheme) restricted to what pbem writes**: numbers are
integers of at most 2**53 - 1 in magnitude, or halves (``9.5``: a movement
cost, 5.2, of half a Movement Point) below 2**52, written ``d.5`` by both;
no other fraction, no exponent; and no object key holding a character
beyond U+FFFF (so sorting by code point, as here, and by UTF-16
code unit, as RFC 8785 says, agree).  On that subset the two are the same
bytes (``tests/protocol/test_jcs.py`` checks it against an independent
implementation), so a third party can write a verifier from the RFC alone.
Anything outside it is refused, written or read.  In detail:

* UTF-8, no byte-order mark;
* object keys sorted by code point (Python's ``sort_keys``), keys must be
  strings;
* separators ``,`` and ``:`` with no whitespace anywhere outside strings;
* strings written with Python's ``json`` escaping and ``ensure_ascii=False``:
  only ``"``, ``\\``, and control characters below U+0020 are escaped
  (``\\n`` ``\\r`` ``\\t`` ``\\b`` ``\\f`` short forms, otherwise ``\\u00XX``
  lower-case hex); every other character is written as itself;
* integers in plain decimal, at most :data:`MAX_SAFE_INTEGER` in magnitude
  (RFC 8785 writes larger ones as floats); halves as ``d.5``; no other
  number, no NaN or ±Infinity;
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
MAX_SAFE_INTEGER = 2**53 - 1
"""The largest integer magnitude RFC 8785 writes as an integer (I-JSON's safe range)."""
SUBSET = "pbem's canonical JSON (RFC 8785 with integers within ±(2**53 - 1) and halves as its only numbers, keys within U+FFFF)"
_BEYOND_BMP = re.compile("[\U00010000-\U0010FFFF]")
_BEYOND_BMP_BYTES = re.compile(rb"[\xf0-\xf4]")
#: Every ASCII digit as ``0``, every other byte as ``.``: a run of 16 digits (an integer that may lie beyond
#: 2**53 - 1) is then a plain substring, found in C far faster than a regular expression scans for it.
_DIGITS = bytes(0x30 if 0x30 <= b <= 0x39 else 0x2E for b in range(256))
_SIXTEEN_DIGITS = b"0" * 16


#: A number of 16 digits or more where canonical text can start a number: first, or after ``:``, ``,`` or ``[``.
_LONG_NUMBER_START = re.compile(rb"(?:^|[:,\[])-?[0-9]{16}")


def _long_number(data: bytes) -> bool:
    """Whether the canonical UTF-8 ``data`` may hold an integer of 16 digits or more: only then can one be too large.

    Sixteen digits in a row are found in C first; a hex digest holds such a
    run in one file of a few dozen, so only then is the run asked to stand
    where a number starts, not inside a string.
    """
    return _SIXTEEN_DIGITS in data.translate(_DIGITS) and _LONG_NUMBER_START.search(data) is not None


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


def _is_half(value: float) -> bool:
    """A half (``9.5``) below 2**52: the one kind of fraction pbem writes, the same in RFC 8785 and here."""
    return value == value and abs(value) < 2**52 and value != int(value) and (value * 2).is_integer()


def _refuse_float(text: str) -> Any:
    value = float(text)
    if not _is_half(value):
        raise NotCanonical(f"the number {text} is not an integer or a half; {SUBSET} has none")
    return value


def _outside_subset(obj: Any) -> str | None:
    """What in ``obj`` lies outside :data:`SUBSET` (an integer too large, a key beyond U+FFFF, a float), and where, or None."""
    stack: list[tuple[Any, str]] = [(obj, "$")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, bool) or value is None or isinstance(value, str):
            continue
        if isinstance(value, int):
            if abs(value) > MAX_SAFE_INTEGER:
                return f"the integer {value} at {path} is larger than {MAX_SAFE_INTEGER}, which RFC 8785 would write as a float"
        elif isinstance(value, float) and not _is_half(value):
            return f"the number {value!r} at {path} is not an integer or a half"
        elif isinstance(value, dict):
            for key, item in value.items():
                wide = _BEYOND_BMP.search(key) if isinstance(key, str) else None
                if wide:
                    return (f"the key {key!r} at {path} holds U+{ord(wide.group()):04X}, beyond U+FFFF, where RFC 8785's "
                            "key order (UTF-16) and code-point order differ")
                stack.append((item, f"{path}.{key}"))
        elif isinstance(value, (list, tuple)):
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(value))
    return None


def _subset_problem(text: str, obj: Any) -> str | None:
    """Cheap scans of the written text first: only text with a long digit run, or a character beyond
    U+FFFF in a key, is walked."""
    if _long_number(text.encode("utf-8", "surrogatepass")) or (
            not text.isascii() and _BEYOND_BMP.search(text) and not _keys_within_bmp(obj)):
        return _outside_subset(obj)
    return None


def _keys_within_bmp(value: Any) -> bool:
    """Whether no object key holds a character beyond U+FFFF: a note may hold them in its text (issue 37's
    attacker fills one with them), and then only the keys, not every value, need a look."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str) or (not key.isascii() and _BEYOND_BMP.search(key)):
                return False
            if isinstance(item, (dict, list, tuple)) and not _keys_within_bmp(item):
                return False
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, (dict, list, tuple)) and not _keys_within_bmp(item):
                return False
    return True


def canonical_bytes(obj: Any, *, parsed: bool = False) -> bytes:
    """The one byte string that stands for ``obj`` when hashed or signed.

    Raises :class:`NotCanonical` for NaN, ±Infinity, non-string keys, values
    JSON has no form for (sets, bytes, …) and values outside :data:`SUBSET`
    (floats, integers beyond ±(2**53 - 1), keys beyond U+FFFF).  ``parsed``:
    ``obj`` is what :func:`parse_canonical` gave (every key a string
    already), so the keys are not checked again.
    """
    try:
        text = _dumps(obj)
    except (ValueError, TypeError, UnicodeEncodeError, RecursionError) as exc:
        _check_keys_or_none(obj)
        raise NotCanonical(f"cannot be written as canonical JSON: {exc}") from None
    try:
        # ``json.dumps`` writes a key 1 as "1": the text read back differs from ``obj`` exactly
        # when some key is not a string (or a tuple became a list), and only then is every key
        # looked at, which costs far more than reading back in C.  Reading back also finds any
        # float (the hook runs on floats only).
        if not parsed and json.loads(text, parse_float=_refuse_float) != obj:
            _check_keys(obj, "$")
        problem = _subset_problem(text, obj)
    except NotCanonical as exc:
        if "is not an integer or a half" not in str(exc):
            raise
        problem = _outside_subset(obj) or str(exc).split(";")[0]
    except RecursionError as exc:
        raise NotCanonical(f"cannot be written as canonical JSON: {exc}") from None
    if problem:
        raise NotCanonical(f"{problem}; {SUBSET} has no such value")
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
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
    meaning and no byte can be changed without changing the meaning.  What
    lies outside :data:`SUBSET` (a float, an integer too large, a key beyond
    U+FFFF) is refused by name, even when pbem's own writer would have
    written those bytes.
    """
    hint = "the file was altered or damaged; ask for a fresh copy"

    def outside(problem: str) -> BadInput:
        return BadInput(f"{what} holds what {SUBSET} excludes: {problem}", file=source,
                        hint="the file was altered or made by another program; ask for a fresh copy made by pbem")

    try:
        # Read in C, no hook but the float one (run on floats only): bytes that are the canonical
        # writing of what they parse to hold no repeated key and no constant, so only other bytes
        # take the checking road.
        obj = json.loads(data.decode("utf-8"), parse_float=_refuse_float)
        if _dumps(obj).encode("utf-8") == data:
            problem = _outside_subset(obj) if _long_number(data) or (not data.isascii() and _BEYOND_BMP_BYTES.search(data)) else None
            if problem:
                raise outside(problem)
            return obj
    except NotCanonical as exc:
        raise outside(str(exc).split(";")[0]) from None
    except (UnicodeError, ValueError, RecursionError):
        pass
    try:
        text = data.decode("utf-8")
        obj = json.loads(
            text,
            object_pairs_hook=_no_duplicate_keys,
            parse_constant=_no_constants,
            parse_float=_refuse_float,
        )
        try:  # parsed JSON: every key is a string already, so canonical_bytes's key check is not needed
            canonical = _dumps(obj).encode("utf-8")
        except (ValueError, RecursionError) as exc:
            raise NotCanonical(f"cannot be written as canonical JSON: {exc}") from None
    except NotCanonical as exc:
        if "is not an integer or a half" in str(exc):
            raise outside(str(exc).split(";")[0]) from None
        raise BadInput(f"{what} is not valid JSON ({exc})", file=source, hint=hint) from None
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise BadInput(f"{what} is not valid JSON ({exc})", file=source, hint=hint) from None
    problem = _outside_subset(obj)
    if problem:
        raise outside(problem)
    if canonical != data:
        raise BadInput(f"{what} is not in canonical JSON form", file=source, hint=hint)
    return obj
