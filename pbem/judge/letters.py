"""What the judge reads in a mail and how it writes one.

Reading: who sent it, whether it is mail a machine wrote (a bounce, an
auto-reply, the judge's own: archived, never answered, RFC 3834), and the
texts in it that may hold a pbem block (every attachment and text part).
Writing: every mail carries ``Auto-Submitted`` and a Message-ID the caller
chose, so that the same mail queued twice is one mail.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
from email.message import EmailMessage
from email.utils import format_datetime, parseaddr
from datetime import datetime, timezone

#: Local parts that only machines write from.
_MACHINES = ("mailer-daemon", "postmaster", "noreply", "no-reply", "bounce", "bounces")


def parse(raw: bytes) -> EmailMessage:
    return email.message_from_bytes(raw, policy=email.policy.default)


def sender_of(message: EmailMessage) -> str:
    try:
        return parseaddr(str(message.get("From", "")))[1].strip().lower()
    except Exception:  # noqa: BLE001 - a header broken beyond parsing is junk, not a crash
        return ""


def dedupe_key(message: EmailMessage, raw: bytes) -> str:
    """Message-ID and a digest of the content (everything after the headers): the same mail delivered twice, by
    two routes that add their own Received lines, has the same key."""
    head, _, body = raw.replace(b"\r\n", b"\n").partition(b"\n\n")
    message_id = str(message.get("Message-ID", "")).strip()
    return hashlib.sha256(message_id.encode("utf-8", "replace") + b"\0" + body).hexdigest()


def machine_written(message: EmailMessage, sender: str, own: str) -> str | None:
    """Why this mail must never be answered (own mail, bounce, auto-reply), or None."""
    if not sender:
        return "no sender address"
    if sender == own.lower():
        return "sent from the judge's own address"
    auto = str(message.get("Auto-Submitted", "no")).strip().lower()
    if auto and not auto.startswith("no"):
        return f"Auto-Submitted: {auto}"
    if message.get_content_type() == "multipart/report" or sender.partition("@")[0] in _MACHINES:
        return "a delivery report (bounce)"
    if str(message.get("Return-Path", "")).strip() == "<>":
        return "a delivery report (empty return path)"
    precedence = str(message.get("Precedence", "")).strip().lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    if any(message.get(h) for h in ("X-Autoreply", "X-Autorespond", "List-Id", "List-Unsubscribe")):
        return "an automatic reply or list mail"
    return None


def texts(message: EmailMessage, limit: int = 64) -> list[tuple[str, str]]:
    """``(text, name)`` of every attachment and text part, the body first; undecodable parts are passed over."""
    found: list[tuple[str, str]] = []
    for index, part in enumerate(message.walk()):
        if part.is_multipart() or len(found) >= limit:
            continue
        name = part.get_filename() or ("the mail's body" if not found else f"part {index} of the mail")
        try:
            payload = part.get_payload(decode=True) or b""
        except Exception:  # noqa: BLE001 - a damaged part is passed over; the rest may hold the orders
            continue
        charset = part.get_content_charset() or "utf-8"
        try:
            text = payload.decode(charset, errors="replace")
        except LookupError:
            text = payload.decode("utf-8", errors="replace")
        found.append((text, name))
    return found


def plain_words(message: EmailMessage) -> str:
    """The subject and the first text part, lower-cased, for the one-word commands (status, extend)."""
    body = next((t for t, _ in texts(message, 1)), "")
    return (str(message.get("Subject", "")) + "\n" + body[:4000]).lower()


def compose(
    *, sender: str, to: str, subject: str, body: str, message_id: str, now: float, kind: str = "auto-generated",
    attachments: list[tuple[str, str]] = (), in_reply_to: str | None = None, game: str | None = None,
) -> bytes:
    """One mail, as bytes for the outbox.  ``kind`` is the RFC 3834 value: auto-generated, or auto-replied for answers."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = message_id
    message["Date"] = format_datetime(datetime.fromtimestamp(now, timezone.utc))
    message["Auto-Submitted"] = kind
    message["X-Auto-Response-Suppress"] = "All"
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to
        message["References"] = in_reply_to
    if game:
        message["X-Pbem-Game"] = game
    message.set_content(body)
    for name, text in attachments:
        message.add_attachment(text.encode("utf-8"), maintype="application", subtype="octet-stream", filename=name)
    return message.as_bytes(policy=email.policy.SMTP)


def message_id(kind: str, *parts: object, domain: str) -> str:
    """A Message-ID fixed by what the mail is (``turn``, game, seq, side…): queued twice, it is one mail."""
    tail = hashlib.sha256("\0".join(map(str, parts)).encode()).hexdigest()[:32]
    return f"<pbem-{kind}-{tail}@{domain}>"
