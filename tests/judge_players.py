"""Scripted players for the judge's tests: each reads only his own mailbox (IMAP), keeps the turn files he
receives in his own folder, writes orders with ``pbem bot``, submits them and mails them to the judge by SMTP."""

from __future__ import annotations

import email
import email.policy
import json
import smtplib
from email.message import EmailMessage
from pathlib import Path

from tests.games import pbem
from tests.mailservers import MailServers

JUDGE = "judge@pbem.test"


class Player:
    def __init__(self, servers: MailServers, side: str, base: Path) -> None:
        self.servers, self.side = servers, side
        self.user = side.lower()
        self.address = f"{self.user}@pbem.test"
        self.dir = base / side
        self.game = self.dir / "game"
        self.game.mkdir(parents=True, exist_ok=True)
        pbem("keygen", self.user, "--dir", self.dir, "--no-passphrase")
        self.key, self.pub = self.dir / f"{self.user}.key", self.dir / f"{self.user}.pub"
        self.seen: set[str] = set()
        self.duplicates = 0
        self.mails: list[EmailMessage] = []
        self.sent: dict[int, Path] = {}
        self.reveal: Path | None = None

    def collect(self) -> list[EmailMessage]:
        """Read new mail; keep each turn file (a second copy must be the same file) and the reveal file."""
        new = []
        for raw in self.servers.read_all(self.user):
            message = email.message_from_bytes(raw, policy=email.policy.default)
            mid = str(message["Message-ID"])
            if mid in self.seen:
                continue
            self.seen.add(mid)
            new.append(message)
            self.mails.append(message)
            for part in message.iter_attachments():
                name = part.get_filename()
                data = part.get_payload(decode=True)
                target = self.game / name if name.startswith("turn-") else self.dir / name
                if target.exists():
                    assert target.read_bytes() == data, f"{self.side} received a second, different {name}"
                    self.duplicates += 1
                else:
                    target.write_bytes(data)
                if name == "reveal.pbem":
                    self.reveal = target
        return new

    def latest(self) -> tuple[int, dict] | None:
        turns = sorted(self.game.glob("turn-*.pbem"))
        if not turns:
            return None
        seq = int(turns[-1].stem.split("-")[1])
        if seq != len(turns) - 1:
            return None  # a gap: wait for the missing file
        return seq, json.loads(pbem("view", turns[-1], "--key", self.key, "--json"))

    def move(self) -> bool:
        """Write, submit and mail orders when the latest turn file awaits this side; True when it did."""
        found = self.latest()
        if found is None:
            return False
        seq, view = found
        if view["over"] or view["awaiting"] != self.side or seq in self.sent:
            return False
        turn = self.game / f"turn-{seq:04d}.pbem"
        orders = self.dir / f"orders-{seq}.json"
        pbem("bot", turn, "--key", self.key, "-o", orders)
        pbem("submit", orders, "--turn", turn, "--key", self.key)
        sent = self.game / f"orders-{seq:04d}-{self.side}.pbem"
        self.send(f"orders for turn file {seq}", "My orders are attached.", [(sent.name, sent.read_text())])
        self.sent[seq] = sent
        return True

    def send(self, subject: str, body: str, attachments=(), headers: dict | None = None, sender: str | None = None) -> None:
        message = EmailMessage()
        message["From"] = sender or self.address
        message["To"] = JUDGE
        message["Subject"] = subject
        message["Message-ID"] = email.utils.make_msgid(domain="pbem.test")
        for k, v in (headers or {}).items():
            message[k] = v
        message.set_content(body)
        for name, text in attachments:
            message.add_attachment(text.encode(), maintype="application", subtype="octet-stream", filename=name)
        with smtplib.SMTP("127.0.0.1", self.servers.smtp_port) as client:
            client.send_message(message)
