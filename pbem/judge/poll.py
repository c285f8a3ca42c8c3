"""One pass of the judge: bring the games up to their folders, read the new mail, act, apply deadlines, send.

The order makes a crash at any moment harmless: mail is stored raw before
it is removed from the server; each stored mail is acted on in one
transaction; a turn file is written before it is recorded, and recorded
(with its mails queued under fixed Message-IDs) before anything is sent;
the outbox marks a mail sent only after the server took it.
"""

from __future__ import annotations

import smtplib
from dataclasses import dataclass, field
from pathlib import Path

from pbem.errors import BadInput, PbemError
from pbem.judge import clock
from pbem.judge.deadlines import apply_deadlines
from pbem.judge.games import Judge, adjudicate_held, reconcile
from pbem.judge.home import DATABASE, ENVIRONMENT, Lock, Settings, check_home, read_settings
from pbem.judge.inbox import handle, store
from pbem.judge.store import connect
from pbem.judge.transport import Sender, fetch


@dataclass
class PollReport:
    fetched: int = 0
    handled: dict[str, int] = field(default_factory=dict)
    adjudicated: int = 0
    notices: int = 0
    sent: int = 0
    unsent: int = 0
    errors: list[str] = field(default_factory=list)
    bad_settings: bool = False  # an error the judge's settings cause (not a server down): 'pbem judge poll' exits 2

    def line(self) -> str:
        handled = ", ".join(f"{n} {s}" for s, n in sorted(self.handled.items())) or "none"
        return (f"fetched {self.fetched}; handled: {handled}; adjudicated {self.adjudicated}; notices {self.notices}; "
                f"sent {self.sent}" + (f"; {self.unsent} left in the outbox" if self.unsent else "")
                + "".join(f"\n  error: {e}" for e in self.errors))


def open_judge_key(settings: Settings):
    """The referee's key, its passphrase from PBEM_JUDGE_PASSPHRASE (or PBEM_PASSPHRASE_<KEYNAME>, as for every key)."""
    import os

    from pbem.protocol.passphrase import open_key

    from pbem.errors import BadInput
    from pbem.protocol.passphrase import key_env

    env = ENVIRONMENT["passphrase"] if os.environ.get(ENVIRONMENT["passphrase"]) is not None else None
    try:
        return open_key(Path(settings.key), env)
    except BadInput as exc:
        if "no terminal is attached" not in exc.message:
            raise
        # the judge takes no --passphrase-env: name the variables it reads (docs/judge.md, "Secrets")
        raise BadInput(exc.message, file=settings.key,
                       hint=f"export {ENVIRONMENT['passphrase']}=... (or {key_env(Path(settings.key).name)}) before running "
                            "pbem judge, or run it from a terminal to be asked") from None


def open_judge(home: Path, key=None) -> Judge:
    check_home(home)
    settings = read_settings(home)
    return Judge(home, settings, connect(home / DATABASE), key if key is not None else open_judge_key(settings), clock.now())


def poll(home: Path, key=None) -> PollReport:
    """One pass over the home (see the module doc)."""
    with Lock(home):
        judge = open_judge(home, key)
        try:
            return _pass(judge)
        finally:
            judge.db.close()


def _pass(judge: Judge) -> PollReport:
    report = PollReport()
    db = judge.db
    # Games still playing, and finished games whose reveal mail a crash may have kept from the outbox.
    for row in db.execute("SELECT * FROM games WHERE over = 0 OR seq < 0 OR id NOT IN (SELECT game FROM outbox WHERE kind = 'reveal')").fetchall():
        reconcile(judge, row)
    try:
        report.fetched = fetch(judge.settings, lambda source, raw: store(db, source, raw, judge.now),
                               int(judge.settings.limits.get("per_poll", 1000)))
    except BadInput as exc:  # the server is down, or the Maildir is wrong: the rest of the pass still runs
        report.errors.append(exc.render())
        report.bad_settings = exc.field == "[inbound] path"
    for row in db.execute("SELECT * FROM messages WHERE state = 'new' ORDER BY id").fetchall():
        try:
            state = handle(judge, row)
        except Exception as exc:  # noqa: BLE001 - one mail that breaks the judge must not stall every other game
            note = exc.render() if isinstance(exc, PbemError) else f"internal error ({type(exc).__name__}: {exc})"
            db.execute("UPDATE messages SET state = 'failed', note = ? WHERE id = ?", (note, row["id"]))
            if not isinstance(exc, PbemError):
                report.errors.append(f"message {row['id']} from {row['sender'] or '?'}: {note}")
            state = "failed"
        report.handled[state] = report.handled.get(state, 0) + 1
    waiting = db.execute("SELECT DISTINCT g.* FROM games g JOIN orders o ON o.game = g.id AND o.seq = g.seq AND o.side = g.awaiting"
                         " WHERE o.state = 'new' AND g.over = 0").fetchall()
    for row in waiting:
        try:
            if adjudicate_held(judge, row) == "adjudicated":
                report.adjudicated += 1
        except Exception as exc:  # noqa: BLE001 - a game that cannot be adjudicated must not stall the others
            report.errors.append(f"game {row['id']}: " + (exc.render() if isinstance(exc, PbemError) else f"internal error ({type(exc).__name__}: {exc})"))
    report.notices = apply_deadlines(judge)
    report.errors += judge.errors
    send_outbox(judge, report)
    return report


def send_outbox(judge: Judge, report: PollReport) -> None:
    """Send every unsent mail, marking each sent once the server took it (a crash in between resends that Message-ID only)."""
    sender = Sender(judge.settings)
    try:
        for row in judge.db.execute("SELECT message_id, recipient, raw FROM outbox WHERE sent IS NULL ORDER BY created, rowid").fetchall():
            try:
                sender.send(row["recipient"], row["raw"])
            except smtplib.SMTPRecipientsRefused:
                judge.db.execute("UPDATE outbox SET sent = -1 WHERE message_id = ?", (row["message_id"],))  # never deliverable
                continue
            except BadInput as exc:
                report.errors.append(exc.render())
                break
            judge.db.execute("UPDATE outbox SET sent = ? WHERE message_id = ?", (judge.now, row["message_id"]))
            report.sent += 1
    finally:
        sender.close()
    report.unsent = judge.db.execute("SELECT COUNT(*) FROM outbox WHERE sent IS NULL").fetchone()[0]
