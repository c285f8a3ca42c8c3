"""The judge's database (SQLite): games, every message received (raw), orders held, and the outbox.

Everything the judge must not lose or do twice is a row here, written in
one transaction with the decision it records:

- ``messages``: every mail, stored raw *before* it is acted on, with the key it
  came under (so a mail fetched twice is stored once) and its dedupe key
  (Message-ID and a digest of its content: a mail delivered twice is acted on once);
- ``orders``: verified orders awaiting adjudication, by orders digest;
- ``outbox``: every mail to send, with a deterministic Message-ID, inserted
  before it is sent and marked sent after: a crash resends at most the same
  Message-ID, never a new mail;
- ``games``: where each game stands (a cache of its folder, which is the truth).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    folder TEXT NOT NULL,
    scenario TEXT NOT NULL,
    us_mail TEXT NOT NULL,
    jp_mail TEXT NOT NULL,
    seq INTEGER NOT NULL,
    awaiting TEXT,
    over INTEGER NOT NULL DEFAULT 0,
    since REAL NOT NULL,
    deadline REAL,
    deadline_s REAL NOT NULL,
    grace_s REAL NOT NULL,
    nmr TEXT NOT NULL,
    extensions INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS games_us ON games(us_mail);
CREATE INDEX IF NOT EXISTS games_jp ON games(jp_mail);
CREATE INDEX IF NOT EXISTS games_deadline ON games(over, deadline);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL UNIQUE,
    dedupe TEXT NOT NULL,
    sender TEXT NOT NULL,
    received REAL NOT NULL,
    raw BLOB NOT NULL,
    state TEXT NOT NULL DEFAULT 'new',
    note TEXT
);
CREATE INDEX IF NOT EXISTS messages_state ON messages(state);
CREATE INDEX IF NOT EXISTS messages_sender ON messages(sender, received);
CREATE INDEX IF NOT EXISTS messages_dedupe ON messages(dedupe);
CREATE TABLE IF NOT EXISTS orders (
    digest TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    seq INTEGER NOT NULL,
    side TEXT NOT NULL,
    revision INTEGER NOT NULL,
    text TEXT NOT NULL,
    sender TEXT NOT NULL,
    message INTEGER,
    state TEXT NOT NULL DEFAULT 'new'
);
CREATE INDEX IF NOT EXISTS orders_game ON orders(game, seq, side, state);
CREATE TABLE IF NOT EXISTS outbox (
    message_id TEXT PRIMARY KEY,
    recipient TEXT NOT NULL,
    raw BLOB NOT NULL,
    created REAL NOT NULL,
    sent REAL,
    game TEXT,
    kind TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS outbox_unsent ON outbox(sent);
"""


def connect(path: Path) -> sqlite3.Connection:
    """The database at ``path`` (made if new), in WAL mode with full sync: a commit survives kill -9 and power loss."""
    db = sqlite3.connect(str(path), isolation_level=None, timeout=30)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.executescript(SCHEMA)
    return db


class Transaction:
    """``with Transaction(db):`` — BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any error."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind, value, tb) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


def queue(db: sqlite3.Connection, message_id: str, recipient: str, raw: bytes, now: float, kind: str, game: str | None = None) -> bool:
    """Put a mail in the outbox once: a second call with the same Message-ID does nothing (returns False)."""
    cursor = db.execute("INSERT OR IGNORE INTO outbox (message_id, recipient, raw, created, game, kind) VALUES (?, ?, ?, ?, ?, ?)",
                        (message_id, recipient, raw, now, game, kind))
    return cursor.rowcount == 1
