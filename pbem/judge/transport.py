"""Mail in and out, with Python's own imaplib, mailbox and smtplib (no protocol code of pbem's own).

Inbound, a mail is handed to ``store`` (which commits it raw to the
database) and only then removed from the server or the Maildir: a crash in
between fetches it again, and the database stores it once (by its source key).
"""

from __future__ import annotations

import imaplib
import mailbox
import os
import smtplib
import ssl
from pathlib import Path
from typing import Callable

from pbem.errors import BadInput
from pbem.judge.home import ENVIRONMENT, Settings, maildir_problem

Store = Callable[[str, bytes], None]
"""``store(source_key, raw)``: commit one raw message; returns once it is safe."""


def _host_port(section: dict, what: str) -> tuple[str, int]:
    try:
        return str(section["host"]), int(section["port"])
    except (KeyError, ValueError, TypeError):
        raise BadInput(f"the {what} server needs host and port", field=what, hint="docs/judge.md: [inbound] and [smtp]") from None


def _password(kind: str, user: str | None) -> str | None:
    if not user:
        return None
    value = os.environ.get(ENVIRONMENT[kind])
    if value is None:
        raise BadInput(f"the {kind.upper()} user {user} needs a password in {ENVIRONMENT[kind]}",
                       hint=f"export {ENVIRONMENT[kind]}=... before starting the judge (never in judge.toml)")
    return value


def fetch(settings: Settings, store: Store, limit: int = 500) -> int:
    """Store up to ``limit`` new messages from the configured inbound; returns how many were taken."""
    inbound = settings.inbound
    if inbound["kind"] == "maildir":
        return _fetch_maildir(Path(inbound["path"]), store, limit)
    return _fetch_imap(inbound, store, limit)


def _fetch_maildir(path: Path, store: Store, limit: int) -> int:
    wrong = maildir_problem(path)
    if wrong:
        raise BadInput(wrong, file=str(path), field="[inbound] path",
                       hint="point [inbound] path in judge.toml at the Maildir your mail server delivers the judge's mail to "
                            "(docs/judge.md, 'Setting up with Dovecot')")
    box = mailbox.Maildir(str(path), factory=None, create=False)
    taken = 0
    for key in sorted(box.keys())[:limit]:
        try:
            raw = box.get_bytes(key)
        except (KeyError, FileNotFoundError):
            continue  # moved by another reader meanwhile
        store(f"maildir:{key}", raw)
        box.discard(key)
        taken += 1
    return taken


def _imap(inbound: dict) -> imaplib.IMAP4:
    host, port = _host_port(inbound, "inbound")
    tls = inbound.get("tls", "starttls")
    try:
        if tls == "ssl":
            client = imaplib.IMAP4_SSL(host, port, ssl_context=ssl.create_default_context(), timeout=60)
        else:
            client = imaplib.IMAP4(host, port, timeout=60)
            if tls == "starttls":
                client.starttls(ssl.create_default_context())
        client.login(inbound.get("user") or "", _password("imap", inbound.get("user")) or "")
    except (OSError, imaplib.IMAP4.error) as exc:
        raise BadInput(f"cannot reach the IMAP server {host}:{port}: {exc}", hint="check [inbound] in judge.toml and PBEM_JUDGE_IMAP_PASSWORD") from None
    return client


def _fetch_imap(inbound: dict, store: Store, limit: int) -> int:
    client = _imap(inbound)
    try:
        folder = inbound.get("folder", "INBOX")
        typ, _ = client.select(folder)
        if typ != "OK":
            raise BadInput(f"the IMAP folder {folder} cannot be opened", hint="check [inbound] folder")
        validity = (client.response("UIDVALIDITY")[1] or [b"0"])[0].decode()
        typ, data = client.uid("SEARCH", None, "UNDELETED")
        uids = [u.decode() for u in (data[0] or b"").split()][:limit]
        for uid in uids:
            typ, parts = client.uid("FETCH", uid, "(BODY.PEEK[])")
            raw = next((p[1] for p in parts if isinstance(p, tuple)), None)
            if typ != "OK" or raw is None:
                continue
            store(f"imap:{validity}:{uid}", raw)
            client.uid("STORE", uid, "+FLAGS.SILENT", "(\\Deleted)")
        if uids:
            client.expunge()
        return len(uids)
    except (OSError, imaplib.IMAP4.error) as exc:
        raise BadInput(f"the IMAP server failed: {exc}", hint="the judge tries again at its next poll") from None
    finally:
        try:
            client.logout()
        except (OSError, imaplib.IMAP4.error):
            pass


class Sender:
    """One SMTP connection for a poll's outbox, opened at the first mail."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.client: smtplib.SMTP | None = None

    def _open(self) -> smtplib.SMTP:
        section = self.settings.smtp
        host, port = _host_port(section, "smtp")
        tls = section.get("tls", "starttls")
        try:
            if tls == "ssl":
                client = smtplib.SMTP_SSL(host, port, context=ssl.create_default_context(), timeout=60)
            else:
                client = smtplib.SMTP(host, port, timeout=60)
                if tls == "starttls":
                    client.starttls(context=ssl.create_default_context())
            user = section.get("user")
            if user:
                client.login(user, _password("smtp", user))
        except (OSError, smtplib.SMTPException) as exc:
            raise BadInput(f"cannot reach the SMTP server {host}:{port}: {exc}", hint="check [smtp] in judge.toml and PBEM_JUDGE_SMTP_PASSWORD") from None
        return client

    def send(self, recipient: str, raw: bytes) -> None:
        if self.client is None:
            self.client = self._open()
        try:
            self.client.sendmail(self.settings.address, [recipient], raw)
        except smtplib.SMTPRecipientsRefused:
            raise
        except (OSError, smtplib.SMTPException) as exc:
            self.close()
            raise BadInput(f"the SMTP server refused a mail to {recipient}: {exc}", hint="it stays in the outbox and is tried again") from None

    def close(self) -> None:
        if self.client is not None:
            try:
                self.client.quit()
            except (OSError, smtplib.SMTPException):
                pass
            self.client = None
