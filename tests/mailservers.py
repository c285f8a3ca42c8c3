"""Real mail servers for the judge's tests: Debian's Dovecot (IMAP, Maildir storage) run unprivileged on
127.0.0.1 from a temporary configuration, and aiosmtpd delivering every mail into that Dovecot's Maildirs.

Without Dovecot the tests skip — except under CI (``CI`` set), where they fail: .ci/run installs it.
"""

from __future__ import annotations

import imaplib
import mailbox
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

DOVECOT = shutil.which("dovecot") or ("/usr/sbin/dovecot" if Path("/usr/sbin/dovecot").exists() else None)
PASSWORD = "secret"


def require_dovecot() -> str:
    if DOVECOT is None:
        if os.environ.get("CI"):
            pytest.fail("dovecot is not installed; .ci/run installs dovecot-imapd")
        pytest.skip("dovecot is not installed (apt-get install dovecot-imapd)")
    return DOVECOT


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _mail_owner() -> tuple[int, int, str, str]:
    """Who Dovecot's mail processes run as: ourselves, or (as root, which Dovecot refuses for mail) its own user."""
    if os.geteuid() != 0:
        import grp
        import pwd

        return os.getuid(), os.getgid(), pwd.getpwuid(os.getuid()).pw_name, grp.getgrgid(os.getgid()).gr_name
    import grp
    import pwd

    user = pwd.getpwnam("dovecot")
    return user.pw_uid, user.pw_gid, "dovecot", grp.getgrgid(user.pw_gid).gr_name


def _running(pid: int) -> bool:
    """Whether process ``pid`` still runs.  Dovecot's master has left us (it forks into the background): once it has
    exited it is a zombie until init reaps it, which some inits do only every second or two, and a zombie still
    answers kill(pid, 0).  So a zombie counts as stopped: waiting for the reaping cost each judge test 1-2 s."""
    if Path("/proc/self/stat").exists():
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
                return stat.read().rpartition(")")[2].split()[0] != "Z"
        except FileNotFoundError:
            return False
    try:  # no /proc: ask the process itself
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


class MailServers:
    """Dovecot on ``imap_port`` and an SMTP server on ``smtp_port`` delivering into ``maildir(user)``."""

    def __init__(self, users: list[str]) -> None:
        import tempfile

        # Not under pytest's private tmp folder: Dovecot's mail processes (another user, when the tests run as root) must reach it.
        self.base = Path(tempfile.mkdtemp(prefix="pbem-mail-"))
        os.chmod(self.base, 0o755)
        self.users = users
        self.imap_port = free_port()
        self.smtp_port = free_port()
        self.uid, self.gid, self.user, self.group = _mail_owner()
        self.controller = None
        self.delivered = 0

    def maildir(self, user: str) -> Path:
        return self.base / "mail" / user / "Maildir"

    def start(self) -> "MailServers":
        dovecot = require_dovecot()
        root = self.base
        for sub in ("run", "state", "mail"):
            (root / sub).mkdir(parents=True, exist_ok=True)
        (root / "passwd").write_text("".join(f"{u}:{{PLAIN}}{PASSWORD}\n" for u in self.users))
        for user in self.users:
            self.maildir(user).parent.mkdir(parents=True, exist_ok=True)
            mailbox.Maildir(str(self.maildir(user)), create=True)
        self._own(root / "mail")
        login = "dovenull" if os.geteuid() == 0 else self.user
        (root / "dovecot.conf").write_text(f"""
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
instance_name = pbem-test-{self.imap_port}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
default_internal_user = {self.user}
default_internal_group = {self.group}
default_login_user = {login}
first_valid_uid = 1
mail_location = maildir:{root}/mail/%u/Maildir
mail_fsync = never
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={self.uid} gid={self.gid} home={root}/mail/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.imap_port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
service stats {{
  chroot =
}}
""")
        # Dovecot forks into the background: its output goes to a file, never to a pipe it would keep open.
        with open(root / "start.log", "wb") as log:
            subprocess.run([dovecot, "-c", str(root / "dovecot.conf")], check=True, stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        self._wait(self.imap_port)
        self._start_smtp()
        return self

    def _own(self, path: Path) -> None:
        if os.geteuid() != 0:
            return
        for folder, dirs, files in os.walk(path):
            os.chown(folder, self.uid, self.gid)
            for name in files:
                os.chown(os.path.join(folder, name), self.uid, self.gid)

    def deliver(self, user: str, raw: bytes) -> None:
        box = mailbox.Maildir(str(self.maildir(user)), create=True)
        key = box.add(raw)
        if os.geteuid() == 0:
            os.chown(os.path.join(box._path, box._lookup(key)), self.uid, self.gid)
        self.delivered += 1

    def _start_smtp(self) -> None:
        from aiosmtpd.controller import Controller

        servers = self

        class Deliver:
            async def handle_RCPT(self, server, session, envelope, address, options):
                if address.partition("@")[0].lower() not in servers.users:
                    return "550 no such user here"
                envelope.rcpt_tos.append(address)
                return "250 OK"

            async def handle_DATA(self, server, session, envelope):
                for rcpt in envelope.rcpt_tos:
                    servers.deliver(rcpt.partition("@")[0].lower(), envelope.original_content or envelope.content)
                return "250 Message accepted for delivery"

        self.controller = Controller(Deliver(), hostname="127.0.0.1", port=self.smtp_port)
        self.controller.start()

    @staticmethod
    def _wait(port: int) -> None:
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"nothing listens on 127.0.0.1:{port}")

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
        pid_file = self.base / "run" / "master.pid"
        if pid_file.exists():
            pid = int(pid_file.read_text().split()[0])
            try:
                os.kill(pid, 15)
            except ProcessLookupError:
                pass
            for _ in range(100):
                if not _running(pid):
                    break
                time.sleep(0.05)
        shutil.rmtree(self.base, ignore_errors=True)

    def imap(self, user: str) -> imaplib.IMAP4:
        client = imaplib.IMAP4("127.0.0.1", self.imap_port)
        client.login(user, PASSWORD)
        return client

    def read_all(self, user: str) -> list[bytes]:
        """Every mail in ``user``'s INBOX, read by IMAP (left there)."""
        client = self.imap(user)
        try:
            client.select("INBOX")
            _, data = client.uid("SEARCH", None, "ALL")
            found = []
            for uid in (data[0] or b"").split():
                _, parts = client.uid("FETCH", uid, "(BODY.PEEK[])")
                found += [p[1] for p in parts if isinstance(p, tuple)]
            return found
        finally:
            client.logout()
