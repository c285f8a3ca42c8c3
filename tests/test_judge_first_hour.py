"""The judge as two new users meet it in their first hour (issue 38): set-up mistakes, a draft mailed for orders, a
cut-off file, reminders with a short deadline, the size and words of a turn mail.

The commands run as a user runs them (a subprocess, no terminal); the mail tests use the real servers of
tests/mailservers.py (Dovecot's Maildirs, aiosmtpd).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PBEM = [sys.executable, "-m", "pbem"]


def _run(*args, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*PBEM, *map(str, args)], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          env=dict(os.environ, **(env or {})))


def _keys(base: Path, protected: bool = False) -> None:
    for name in ("ref", "us", "jp"):
        if protected and name == "ref":
            done = _run("keygen", name, "--dir", base, "--passphrase-env", "NEW_PASS", env={"NEW_PASS": "a long judge passphrase"})
        else:
            done = _run("keygen", name, "--dir", base, "--no-passphrase")
        assert done.returncode == 0, done.stderr


def _maildir(path: Path) -> Path:
    for part in ("cur", "new", "tmp"):
        (path / part).mkdir(parents=True, exist_ok=True)
    return path


def _init(base: Path, maildir: Path, *extra) -> subprocess.CompletedProcess:
    return _run("judge", "init", base / "home", "--address", "judge@pbem.test", "--key", base / "ref.key", "--maildir", maildir,
                "--smtp", "127.0.0.1:2525", "--tls", "none", *extra)


def test_judge_new_with_a_protected_key_and_no_passphrase_names_the_judges_variable(tmp_path):
    _keys(tmp_path, protected=True)
    assert _init(tmp_path, _maildir(tmp_path / "Maildir")).returncode == 0
    env = {k: "" for k in ()}
    clean = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    done = subprocess.run([*PBEM, "judge", "new", str(tmp_path / "home"), "test-skirmish", "--us", str(tmp_path / "us.pub"),
                           "--us-mail", "us@pbem.test", "--jp", str(tmp_path / "jp.pub"), "--jp-mail", "jp@pbem.test"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, env=clean | env)
    assert done.returncode == 2, done.stderr
    assert "PBEM_JUDGE_PASSPHRASE" in done.stderr and "--passphrase-env" not in done.stderr, done.stderr
    assert "ref.key" in done.stderr and "Traceback" not in done.stderr
    # with the variable docs/judge.md names, the same command works
    done = subprocess.run([*PBEM, "judge", "new", str(tmp_path / "home"), "test-skirmish", "--us", str(tmp_path / "us.pub"),
                           "--us-mail", "us@pbem.test", "--jp", str(tmp_path / "jp.pub"), "--jp-mail", "jp@pbem.test"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          env=clean | {"PBEM_JUDGE_PASSPHRASE": "a long judge passphrase"})
    assert done.returncode == 0, done.stderr


def test_init_refuses_a_folder_that_is_not_a_maildir_and_offers_to_make_it(tmp_path):
    _keys(tmp_path)
    plain = tmp_path / "mail"
    plain.mkdir()
    done = _init(tmp_path, plain)
    assert done.returncode == 2, done.stderr
    assert "is not a Maildir" in done.stderr and "cur/" in done.stderr and "--make-maildir" in done.stderr, done.stderr
    assert "--maildir" in done.stderr and str(plain) in done.stderr
    assert not (tmp_path / "home").exists()
    missing = _init(tmp_path, tmp_path / "nowhere")
    assert missing.returncode == 2 and "does not exist" in missing.stderr, missing.stderr
    made = _init(tmp_path, plain, "--make-maildir")
    assert made.returncode == 0, made.stderr
    assert all((plain / part).is_dir() for part in ("cur", "new", "tmp"))
    assert "made the Maildir" in made.stdout


def test_poll_says_what_is_wrong_with_a_maildir_gone_bad(tmp_path):
    _keys(tmp_path)
    box = _maildir(tmp_path / "Maildir")
    assert _init(tmp_path, box).returncode == 0
    (box / "cur").rmdir()
    done = _run("judge", "poll", tmp_path / "home")
    said = done.stdout + done.stderr
    assert done.returncode == 2, (done.returncode, said)  # bad input, not an internal error (exit 3)
    assert "is not a Maildir" in said and "cur/" in said and "[inbound] path" in said, said
    assert "Traceback" not in said and "FileNotFoundError" not in said
