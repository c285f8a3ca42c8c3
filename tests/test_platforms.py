"""pbem on Windows and macOS as on Linux (issue 28), held without a Windows machine.

* A whole game — keygen with a passphrase, new, validate, submit, adjudicate,
  view, show --svg/--html, verify, reveal, audit, and the demo — runs in a
  Python whose POSIX-only parts are deleted before pbem is imported
  (``tests/posixless.py``), as they are missing on Windows; every path is
  built with ``pathlib`` and the paths pbem prints are the platform's own.
* Output on a console with a legacy code page (cp1252, cp437) degrades to
  plain stand-ins and never crashes; to a file it is UTF-8.
* ``pbem demo``'s closing hints name pbem as the player started it.

The scan of the source for POSIX-only calls is ``tests/test_portable_calls.py``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pbem.cli.invocation import program, quote
from pbem.cli.streams import stand_in
from tests.games import cheaper_key

ROOT = Path(__file__).resolve().parent.parent
LAUNCHER = ROOT / "tests" / "posixless.py"
PASSPHRASE = "correct horse battery"


def posixless(cwd: Path, *args, expect: int = 0) -> str:
    """``pbem ARGS`` in a Python stripped of its POSIX-only parts; its stdout."""
    env = {**os.environ, "PBEM_PASSPHRASE": PASSPHRASE, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(LAUNCHER), *map(str, args)], cwd=cwd, env=env, capture_output=True, text=True, encoding="utf-8")
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    assert done.returncode == expect, f"pbem {' '.join(map(str, args))} -> {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_launcher_really_removes_what_windows_lacks():
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); import posixless; posixless.strip(); import os\n"
             "missing = [n for n in ('fchmod', 'fchown', 'getuid', 'geteuid') if not hasattr(os, n)]\n"
             "try:\n    import fcntl\nexcept ImportError:\n    missing.append('fcntl')\n"
             "try:\n    import termios\nexcept ImportError:\n    missing.append('termios')\n"
             "import signal; missing += [n for n in ('SIGHUP', 'SIGKILL', 'alarm') if not hasattr(signal, n)]\nprint(' '.join(missing))")
    done = subprocess.run([sys.executable, "-c", probe, str(LAUNCHER.parent)], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["fchmod", "fchown", "getuid", "geteuid", "fcntl", "termios", "SIGHUP", "SIGKILL", "alarm"]


def test_a_whole_game_without_posix_only_python(tmp_path):
    keys = tmp_path / "keys"
    game = tmp_path / "game"
    out = posixless(tmp_path, "keygen", "ref", "--dir", keys)
    assert f"wrote {keys / 'ref.key'}" in out  # the path as the platform writes it
    assert "protected by your user profile's permissions" in out  # no mode bits to set: pbem says so
    for name in ("us", "jp"):
        posixless(tmp_path, "keygen", name, "--dir", keys)
    assert json.loads((keys / "us.key").read_text(encoding="utf-8"))  # a real key file, protected by the passphrase
    assert "scrypt" in (keys / "us.key").read_text(encoding="utf-8")
    for name in ("ref", "us", "jp"):  # the same passphrase at a test's scrypt cost: every command still opens it with it
        cheaper_key(keys / f"{name}.key", PASSPHRASE)
    out = posixless(tmp_path, "new", "test-skirmish", "--us", keys / "us.pub", "--jp", keys / "jp.pub",
                    "--referee", keys / "ref.pub", "--key", keys / "ref.key", "--out", game)
    assert f"wrote {game / 'turn-0000.pbem'}" in out
    for seq, side in ((0, "us"), (1, "jp")):
        turn, orders = game / f"turn-{seq:04d}.pbem", tmp_path / f"{side}.json"
        posixless(tmp_path, "bot", turn, "--key", keys / f"{side}.key", "-o", orders)
        posixless(tmp_path, "validate", orders, "--turn", turn, "--key", keys / f"{side}.key")
        posixless(tmp_path, "submit", orders, "--turn", turn, "--key", keys / f"{side}.key")
        sent = game / f"orders-{seq:04d}-{side.upper()}.pbem"
        assert sent.is_file()
        posixless(tmp_path, "adjudicate", turn, sent, "--key", keys / "ref.key")
    last = game / "turn-0002.pbem"
    assert "Game-Turn 2 of 4" in posixless(tmp_path, "view", last, "--key", keys / "us.key")
    out = posixless(tmp_path, "show", last, "--key", keys / "jp.key", "--svg", tmp_path / "map.svg", "--html", tmp_path / "map.html")
    assert f"wrote {tmp_path / 'map.svg'}" in out
    assert (tmp_path / "map.svg").read_text(encoding="utf-8").startswith("<svg")
    assert "<html" in (tmp_path / "map.html").read_text(encoding="utf-8")
    assert "verified 3 turn file(s)" in posixless(tmp_path, "verify", game)
    posixless(tmp_path, "reveal", game, "--key", keys / "ref.key", "-o", tmp_path / "reveal.pbem")
    assert "audited 2 adjudication(s)" in posixless(tmp_path, "audit", game, "--reveal", tmp_path / "reveal.pbem")
    (game / "turn-0001.pbem").write_text((game / "turn-0001.pbem").read_text(encoding="utf-8").replace("A", "B", 1), encoding="utf-8")
    posixless(tmp_path, "verify", game, expect=2)  # and a changed character is still caught there (damaged in transit)


def test_the_demo_without_posix_only_python(tmp_path):
    out = posixless(tmp_path, "demo", "--scenario", "test-skirmish", "--dir", "the demo")
    assert "verified:" in out and "audited with no key" in out
    folder = Path("the demo")
    assert f"view {quote(folder / 'game' / 'turn-0008.pbem')} --key {quote(folder / 'us.key')}" in out


# -- the console's encoding ----------------------------------------------------------

def on_console(cwd: Path, encoding: str, *args) -> tuple[int, bytes]:
    """``pbem ARGS`` writing to a terminal (a pseudo-terminal) whose code page is ``encoding``: exit status and bytes shown."""
    pty = pytest.importorskip("pty")  # the test machine's way to fake a console; pbem itself needs none
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONIOENCODING": encoding, "PBEM_PASSPHRASE": PASSPHRASE, "COLUMNS": "120", "TERM": "xterm-256color"}
    process = subprocess.Popen([sys.executable, "-m", "pbem", *map(str, args)], cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
    os.close(slave)
    chunks: list[bytes] = []

    def drain():
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain)
    reader.start()
    status = process.wait(timeout=120)
    reader.join(timeout=30)
    os.close(master)
    return status, b"".join(chunks)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("console")
    posixless(base, "demo", "--scenario", "test-skirmish", "--dir", "d")
    return base


@pytest.mark.parametrize("encoding", ["cp1252", "cp437"])
@pytest.mark.parametrize("command", ["view", "show", "show-plain", "demo"])
def test_a_legacy_console_gets_plain_stand_ins_and_never_a_crash(played, encoding, command):
    turn, key = Path("d") / "game" / "turn-0003.pbem", Path("d") / "us.key"
    args = {"view": ["view", turn, "--key", key], "show": ["show", turn, "--key", key],
            "show-plain": ["show", turn, "--key", key, "--plain"],
            "demo": ["demo", "--scenario", "test-skirmish", "--dir", f"demo-{encoding}"]}[command]
    status, shown = on_console(played, encoding, *args)
    assert not re.search(rb"[\xc2-\xf4][\x80-\xbf]", shown), "UTF-8 bytes on a legacy console show as garbage"
    text = shown.decode(encoding)
    assert status == 0, text[-2000:]
    assert "Traceback" not in text and "internal error" not in text
    assert "\u2192" not in text and "\u2501" not in text  # → and ━ are not in these code pages
    if command == "view":
        assert " -> " in text  # "moved 0605 → 0604" degrades to "moved 0605 -> 0604"
    if command == "demo":
        assert "verified:" in text


def test_a_utf8_console_gets_the_glyphs(played):
    status, shown = on_console(played, "utf-8", "view", Path("d") / "game" / "turn-0003.pbem", "--key", Path("d") / "us.key")
    assert status == 0 and "\u2192" in shown.decode("utf-8")


def test_output_to_a_file_is_utf8_under_a_legacy_locale(played):
    env = {**os.environ, "PYTHONIOENCODING": "cp437", "PBEM_PASSPHRASE": PASSPHRASE}
    done = subprocess.run([sys.executable, "-m", "pbem", "view", Path("d") / "game" / "turn-0003.pbem", "--key", Path("d") / "us.key"],
                          cwd=played, env=env, capture_output=True)
    assert done.returncode == 0 and "\u2192" in done.stdout.decode("utf-8")


@pytest.mark.parametrize(("char", "shown"), [("\u2192", "->"), ("\u2501", "="), ("\u00e9", "e"), ("\u0160", "S"), ("\u6d77", "?"), ("\udcff", "\\udcff")])
def test_stand_ins(char, shown):
    assert stand_in(char) == shown


# -- how pbem is named in the hints it prints ------------------------------------------

@pytest.mark.parametrize(("argv0", "named"), [
    (".venv/bin/pbem", ".venv/bin/pbem"),
    (".venv\\Scripts\\pbem.exe", None),  # as typed, quoted for this platform's shell
    ("C:\\Games\\venv\\Scripts\\PBEM.EXE", None),
    ("/usr/lib/python3/dist-packages/pytest.py", "pbem"),
])
def test_pbem_is_named_as_the_player_started_it(argv0, named):
    assert program(argv0) == (named or quote(argv0))


def test_python_dash_m_pbem_is_named_with_its_python(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    python = tmp_path / ".venv" / "bin" / "python"
    assert program(str(ROOT / "pbem" / "__main__.py"), str(python)) == f"{quote(Path('.venv') / 'bin' / 'python')} -m pbem"


# -- files as Windows editors save them ------------------------------------------------

@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16"], ids=["notepad-utf8-bom", "powershell5-redirect"])
def test_orders_saved_with_a_byte_order_mark_are_still_the_orders(played, encoding):
    """PowerShell 5's ``pbem orders template … > orders.json`` writes UTF-16; old Notepad writes UTF-8 with a BOM."""
    turn, key = Path("d") / "game" / "turn-0003.pbem", Path("d") / "jp.key"
    orders = {"moves": [{"unit": "jp-nowhere", "path": ["0101"]}], "attacks": []}
    (played / f"orders-{encoding}.json").write_text(json.dumps(orders), encoding=encoding)
    done = subprocess.run([sys.executable, "-m", "pbem", "validate", f"orders-{encoding}.json", "--turn", turn, "--key", key],
                          cwd=played, env={**os.environ, "PBEM_PASSPHRASE": PASSPHRASE}, capture_output=True, text=True, encoding="utf-8")
    assert done.returncode == 2 and "jp-nowhere" in done.stdout + done.stderr  # read as JSON: the unknown unit is what is wrong
    assert "not UTF-8" not in done.stderr and "not valid JSON" not in done.stderr
