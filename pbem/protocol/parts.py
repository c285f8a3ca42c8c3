"""Sealed bytes carried once: after the JSON, not base64 inside it.

A sealed view written as base64 inside JSON that the armour then base64s
again costs 1.78 times its size.  So a file's payload (the bytes inside the
armour) is the canonical JSON, one newline, then the sealed parts one after
another, raw::

    payload = canonical_bytes(record) || 0x0A || part_1 || part_2 || …

The JSON names each part where it belongs with a **descriptor**
``{"length": <bytes>, "digest": "sha256:<hex of the part>"}``; the parts
follow in the order the format lists them, and nothing else follows.  The
descriptors sit inside what is signed, so the signature covers every sealed
byte; canonical JSON holds no raw newline, so the split is unambiguous.
"""

from __future__ import annotations

from typing import Any

from pbem.protocol import fields
from pbem.protocol.canonical import canonical_bytes, digest_bytes, parse_canonical

DESCRIPTOR_KEYS = frozenset({"length", "digest"})


def descriptor(part: bytes) -> dict:
    return {"length": len(part), "digest": digest_bytes(part)}


def join(record: Any, parts: list[bytes]) -> bytes:
    """The payload of ``record`` followed by ``parts``."""
    return canonical_bytes(record) + b"\n" + b"".join(parts)


def split(payload: bytes, *, source: str, what: str) -> tuple[Any, bytes]:
    """``(record, the bytes after it)``: the JSON part parsed, the parts not yet checked."""
    head, newline, rest = payload.partition(b"\n")
    if not newline:
        raise fields.Where(source).fail(f"{what} has no sealed parts after its JSON")
    return parse_canonical(head, source=source, what=what), rest


def take(rest: bytes, named: list[tuple[str, Any]], where: fields.Where) -> dict[str, bytes]:
    """The parts ``rest`` holds for the descriptors ``named`` (in order): each of the length and digest given."""
    parts, offset = {}, 0
    for name, value in named:
        at = where.at(name)
        spec = fields.obj(value, at, DESCRIPTOR_KEYS)
        length = fields.integer(spec["length"], at.at("length"), minimum=0)
        expected = fields.digest_value(spec["digest"], at.at("digest"))
        part = rest[offset : offset + length]
        if len(part) != length or digest_bytes(part) != expected:
            raise at.fail(f"the sealed bytes of {name} are not the {length} bytes its digest names",
                          hint="the file was altered or assembled from others; ask for a fresh copy")
        parts[name] = part
        offset += length
    if offset != len(rest):
        raise where.fail(f"{len(rest) - offset} byte(s) follow the last sealed part",
                         hint="the file was altered; ask for a fresh copy")
    return parts
