"""Signed envelopes: a JSON body, who signed it, and an Ed25519 signature.

Envelope (a JSON object with exactly these members)::

    {"body": <any JSON value>, "signer": "<16-hex fingerprint>", "sig": "<b64, 64 bytes>"}

The signature is Ed25519 (RFC 8032, pure) over::

    b"pbem-v1/" + CONTEXT + b"\\0" + canonical_bytes(body)

``CONTEXT`` is a short ASCII word naming what is signed (``turn``,
``orders``); it keeps a signature made for one purpose from being accepted
for another (domain separation).  ``signer`` is a hint for people and for
error messages; it is checked against the identity the verifier expected, and
the signature is checked against that identity's full key, never against
anything the envelope itself supplies.
"""

from __future__ import annotations

import re
from typing import Any

from cryptography.exceptions import InvalidSignature

from pbem.errors import VerificationFailed
from pbem.protocol import fields
from pbem.protocol.canonical import b64e, canonical_bytes
from pbem.protocol.keys import PrivateIdentity, PublicIdentity

_CONTEXT_RE = re.compile(r"[a-z][a-z0-9-]{0,31}")
ENVELOPE_KEYS = frozenset({"body", "signer", "sig"})


def signed_message(body: Any, context: str, body_bytes: bytes | None = None) -> bytes:
    """The exact bytes an envelope's signature covers (``body_bytes``: see :func:`verify`)."""
    if not _CONTEXT_RE.fullmatch(context):
        raise ValueError(f"signing context {context!r} must match {_CONTEXT_RE.pattern}")
    return b"pbem-v1/" + context.encode("ascii") + b"\x00" + (canonical_bytes(body) if body_bytes is None else body_bytes)


def body_bytes(envelope_bytes: bytes, envelope: Any) -> bytes | None:
    """``canonical_bytes(envelope["body"])``, cut from ``envelope_bytes``: the canonical JSON ``envelope`` was
    parsed from (by :func:`~pbem.protocol.canonical.parse_canonical`, which refuses any other bytes).

    Canonical JSON sorts the keys, so an envelope's bytes are ``{"body":`` BODY ``,"sig":`` SIG ``,"signer":``
    SIGNER ``}`` and BODY is the body written canonically: a long chain's signatures are checked without writing
    every body out again (issue 26).  None for anything else (the caller writes the body out).
    """
    if not isinstance(envelope, dict) or envelope.keys() != ENVELOPE_KEYS:
        return None
    head = b'{"body":'
    try:
        tail = b',"sig":' + canonical_bytes(envelope["sig"], parsed=True) + b',"signer":' + canonical_bytes(envelope["signer"], parsed=True) + b"}"
    except ValueError:
        return None
    if len(envelope_bytes) <= len(head) + len(tail) or not envelope_bytes.startswith(head) or not envelope_bytes.endswith(tail):
        return None
    return envelope_bytes[len(head) : -len(tail)]


def sign(identity: PrivateIdentity, body: Any, context: str) -> dict:
    """``{"body", "signer", "sig"}``: ``body`` signed by ``identity`` for ``context``."""
    signature = identity.signing_key.sign(signed_message(body, context))
    return {"body": body, "signer": identity.fingerprint, "sig": b64e(signature)}


def verify(
    envelope: Any,
    public_identity: PublicIdentity,
    context: str,
    *,
    source: str | None = None,
    role: str | None = None,
    body_bytes: bytes | None = None,
) -> Any:
    """The body of ``envelope`` if ``public_identity`` signed it for ``context``.

    A malformed envelope is :class:`~pbem.errors.BadInput`; a signature that
    does not hold is :class:`~pbem.errors.VerificationFailed`.  ``role``
    (``"referee"``, ``"US"``) only improves the messages.  ``body_bytes``: the
    body's canonical bytes as read (:func:`body_bytes`), which the signature
    is checked over instead of the body written out again.
    """
    where = fields.Where(source)
    fields.obj(envelope, where, ENVELOPE_KEYS)
    signer = fields.string(envelope["signer"], where.at("signer"))
    signature = fields.b64(envelope["sig"], where.at("sig"), length=64)
    who = f"the {role} " if role else ""
    if signer != public_identity.fingerprint:
        raise VerificationFailed(
            f"signed by key {signer}, not by {who}{public_identity.describe()}",
            file=source,
            field="signer",
            hint="the file was made with another key or altered; do not trust it",
        )
    try:
        public_identity.verify_key.verify(signature, signed_message(envelope["body"], context, body_bytes))
    except InvalidSignature:
        raise VerificationFailed(
            f"the signature of {who}{public_identity.describe()} does not match the content",
            file=source,
            field="sig",
            hint="the file was altered after signing or is a forgery; do not trust it",
        ) from None
    return envelope["body"]
