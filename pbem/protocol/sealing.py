"""Sealing: data only one party can open, of a size that says little.

Sealing is HPKE (RFC 9180) in base mode, single-shot, with the suite
DHKEM(X25519, HKDF-SHA256) / HKDF-SHA256 / ChaCha20-Poly1305, done by
``cryptography.hazmat.primitives.hpke``.  The sealed bytes are the
library's output: the 32-byte encapsulated key followed by the AEAD
ciphertext and its 16-byte tag.

``info`` is HPKE's context string.  Callers build it with :func:`seal_info`
from what the sealed data belongs to (game, sequence number, role), so a
sealed view cut out of one turn file and pasted into another does not open.

Compression and padding
-----------------------
Before sealing, the plaintext is compressed (zlib, level 9: ``z =
zlib.compress(plaintext, 9)``), then framed and padded to a size bucket::

    padded = uint32_be(len(z)) || z || 0x00 * k

where ``len(padded)`` is the smallest bucket ``1024 * 2**i`` (i = 0, 1, 2, …:
1 KiB, 2 KiB, 4 KiB, …, at most 64 MiB) that holds ``z`` and its 4-byte
length.  Compression keeps turn files small enough for a mail or a forum
post (views are repetitive JSON).  What an observer learns is still only the
bucket of the compressed size; the two views of a turn file share one
bucket, so neither side's view size says anything beyond the larger of the
two, to within a factor of two.  A geometric series leaks only about log2 of the size (a view
of 3 units and a view of 30 units usually land in the same bucket) at a cost
of at most half the bucket.  Callers sealing several items that should look
alike (the two sides' views) pass the same ``min_bucket`` so that all of
them have the same length.  Sealed length = ``32 + bucket + 16``.

Opening checks the length prefix and that every padding byte is zero.

What anyone may seal to the referee (orders) is sealed **without**
compression (``compress=False``): a few KiB of zeros inflate to megabytes,
and the signature inside cannot be checked before inflating.  Every reader
also gives a ``limit``: sealed data longer than its bucket, or inflating
past it, is refused before it costs anything.
"""

from __future__ import annotations

import zlib
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hpke

from pbem.errors import BadInput
from pbem.protocol.canonical import canonical_bytes
from pbem.protocol.keys import PrivateIdentity, PublicIdentity

SUITE = hpke.Suite(hpke.KEM.X25519, hpke.KDF.HKDF_SHA256, hpke.AEAD.CHACHA20_POLY1305)
ENC_LENGTH = 32
TAG_LENGTH = 16
SMALLEST_BUCKET = 1024
LARGEST_BUCKET = 64 * 1024 * 1024
_LENGTH_PREFIX = 4


def bucket_size(plaintext_length: int) -> int:
    """The padded size for a plaintext of this length (prefix included)."""
    needed = plaintext_length + _LENGTH_PREFIX
    size = SMALLEST_BUCKET
    while size < needed:
        size *= 2
    if size > LARGEST_BUCKET:
        raise BadInput(
            f"{plaintext_length} bytes is too large to seal (limit {LARGEST_BUCKET - _LENGTH_PREFIX})"
        )
    return size


def sealed_length(bucket: int) -> int:
    """The length of sealed bytes for a given bucket."""
    return ENC_LENGTH + bucket + TAG_LENGTH


def seal_info(kind: str, context: dict[str, Any]) -> bytes:
    """HPKE ``info``: ``b"pbem-v1/" + kind + b"\\0" + canonical_bytes(context)``."""
    return b"pbem-v1/" + kind.encode("ascii") + b"\x00" + canonical_bytes(context)


def pad(plaintext: bytes, min_bucket: int = 0) -> bytes:
    """Frame and pad ``plaintext`` to its bucket (or ``min_bucket`` if larger)."""
    size = max(bucket_size(len(plaintext)), bucket_size(max(min_bucket - _LENGTH_PREFIX, 0)))
    framed = len(plaintext).to_bytes(_LENGTH_PREFIX, "big") + plaintext
    return framed + b"\x00" * (size - len(framed))


def unpad(padded: bytes) -> bytes | None:
    """The plaintext inside ``padded``, or None when the framing is wrong."""
    if len(padded) < SMALLEST_BUCKET or len(padded) & (len(padded) - 1):
        return None
    length = int.from_bytes(padded[:_LENGTH_PREFIX], "big")
    end = _LENGTH_PREFIX + length
    if end > len(padded) or any(padded[end:]):
        return None
    return padded[_LENGTH_PREFIX:end]


def compress(plaintext: bytes) -> bytes:
    return zlib.compress(plaintext, 9)


def decompress(data: bytes, limit: int = LARGEST_BUCKET) -> bytes | None:
    """The data :func:`compress` made, or None (also for anything that would grow past ``limit`` bytes:
    a few KiB of zeros inflate to megabytes, so each reader says how much it can use)."""
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(data, limit)
    except zlib.error:
        return None
    if not inflater.eof or inflater.unconsumed_tail or inflater.unused_data:
        return None
    return out


def _inflates_past(data: bytes, limit: int) -> bool:
    inflater = zlib.decompressobj()
    try:
        inflater.decompress(data, limit)
    except zlib.error:
        return False
    return bool(inflater.unconsumed_tail)


def bucket_for(plaintext: bytes) -> int:
    """The bucket :func:`seal` pads ``plaintext`` to (after compression)."""
    return bucket_size(len(compress(plaintext)))


def seal(plaintext: bytes, recipient: PublicIdentity, info: bytes, *, min_bucket: int = 0, compress: bool = True) -> bytes:
    """Compress (unless ``compress`` is false) and pad ``plaintext`` and seal it so that only ``recipient`` can open it.

    Sealed data anyone may send (orders) is not compressed, so that nothing is
    inflated before its signature is checked; the reader opens it with
    ``compressed=False``.
    """
    data = zlib.compress(plaintext, 9) if compress else plaintext
    return seal_compressed(data, recipient, info, min_bucket=min_bucket)


def seal_compressed(data: bytes, recipient: PublicIdentity, info: bytes, *, min_bucket: int = 0) -> bytes:
    """:func:`seal` of a plaintext whose :func:`compress` the writer made already (to choose the bucket of a turn
    file's three parts from their compressed sizes): each part is compressed once, not twice (issue 26)."""
    return SUITE.encrypt(pad(data, min_bucket), recipient.seal_key, info=info)


def open_sealed(
    ciphertext: bytes,
    identity: PrivateIdentity,
    info: bytes,
    *,
    what: str = "sealed data",
    sealed_to: str | None = None,
    source: str | None = None,
    field: str | None = None,
    limit: int = LARGEST_BUCKET,
    compressed: bool = True,
) -> bytes:
    """Open what :func:`seal` made for ``identity`` with the same ``info``.

    ``limit`` bounds the opened plaintext (and the sealed length, a bucket of
    at most the same size): what is larger is refused before it is inflated.

    HPKE cannot tell a wrong key from altered bytes or a wrong context, so a
    failure says all three; ``sealed_to`` (e.g. ``"US (alice, fingerprint …)"``)
    lets the message say whose key would have opened it.
    """
    if sealed_to:
        message = f"cannot open {what}: it is sealed to {sealed_to}, your key is {identity.public.describe()}"
        hint = "use the key of the party it is sealed to; if that is yours, the file was altered or the data was copied from another file"
    else:
        message = f"cannot open {what} with the key of {identity.public.describe()}"
        hint = "check you used the right key file; otherwise the file was altered or the data was copied from another file"
    if len(ciphertext) < sealed_length(SMALLEST_BUCKET):
        raise BadInput(f"{what} is too short to be sealed data", file=source, field=field, hint=hint)
    if len(ciphertext) > sealed_length(max(bucket_size(limit - _LENGTH_PREFIX), SMALLEST_BUCKET)):
        raise BadInput(f"{what} is {len(ciphertext)} bytes, more than pbem reads ({limit} bytes opened)",
                       file=source, field=field, hint="the file was made to exhaust the reader; do not use it")
    try:
        padded = SUITE.decrypt(ciphertext, identity.encryption_key, info=info)
    except (InvalidTag, ValueError):
        raise BadInput(message, file=source, field=field, hint=hint) from None
    framed = unpad(padded)
    if not compressed:
        plaintext = framed if framed is not None and len(framed) <= limit else None
    else:
        plaintext = decompress(framed, limit) if framed is not None else None
    if compressed and framed is not None and plaintext is None and _inflates_past(framed, limit):
        raise BadInput(f"{what} inflates to more than {limit} bytes, more than pbem reads",
                       file=source, field=field, hint="the file was made to exhaust the reader; do not use it")
    if plaintext is None:
        raise BadInput(
            f"{what} opened but its padding is malformed",
            file=source,
            field=field,
            hint="the sender's program is faulty; ask for a fresh copy",
        )
    return plaintext
