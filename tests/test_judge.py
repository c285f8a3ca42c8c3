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
from tests.games import pbem, shortened_scenario
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
    # Leyte's hidden units, to Game-Turn 4: long enough for the kills to fall in the game, half the work of eight
    game = start_game(home, players, str(shortened_scenario(tmp_path, "leyte-assault", 4)), "--option", "hidden-units")
    env = dict(os.environ, PBEM_JUDGE_IMAP_PASSWORD="secret")
    log = open(tmp_path / "judge.log", "ab")

    def launch():
        return subprocess.Popen([*PBEM, "judge", "run", str(home), "--every", "0.2s"], stdout=log, stderr=log, env=env)

    # Each judge process lives a random while (0.4 to 1.6 s: starting, polling, adjudicating or sending) and is then
    # killed, ten times; the loop goes on until the game is over and the tenth kill is done, however fast the machine.
    rng = random.Random(23)
    lifetimes = [rng.uniform(0.4, 1.6) for _ in range(10)]
    judge, started, kills, in_game = launch(), time.monotonic(), 0, 0
    try:
        deadline = time.monotonic() + 150
        while not all(p.reveal for p in players.values()) or kills < len(lifetimes):
            assert time.monotonic() < deadline, f"the game did not end; see {tmp_path / 'judge.log'}"
            for player in players.values():
                player.collect()
                player.move()
            if kills < len(lifetimes) and time.monotonic() - started >= lifetimes[kills]:
                judge.send_signal(signal.SIGKILL)
                judge.wait()
                kills += 1
                in_game += not all(p.reveal for p in players.values())
                judge, started = launch(), time.monotonic()
            time.sleep(0.05)
    finally:
        judge.send_signal(signal.SIGKILL)
        judge.wait()
        log.close()
    assert kills == 10
    print(f"{in_game} of the kills came before the game was over")
    for player in players.values():
        folder = player.game
        turns = sorted(folder.glob("turn-*.pbem"))
        assert json.loads(pbem("view", turns[-1], "--key", player.key, "--json"))["over"]
        assert "verified" in pbem("verify", folder)  # signatures, chain, every roll, and the player's receipts
        pbem("audit", folder, "--reveal", player.reveal)
        # Every orders file a player sent was adjudicated once: one turn file per orders sent, plus genesis.
        sent = sum(len(p.sent) for p in players.values())
        assert len(turns) == sent + 1
    db = __import__("sqlite3").connect(home / "judge.sqlite")
    assert db.execute("SELECT COUNT(*) FROM orders WHERE state = 'adjudicated'").fetchone()[0] == sent
    assert db.execute("SELECT COUNT(*) FROM outbox WHERE sent IS NULL").fetchone()[0] == 0
    listed = json.loads(pbem("judge", "list", home, "--json"))
    assert listed["games"][0]["game"] == game and listed["games"][0]["over"]


def _poll(home: Path) -> str:
    return pbem("judge", "poll", home)


def _skirmish_started(tmp_path: Path, servers: MailServers) -> tuple[Path, dict, str]:
    """A Maildir judge with a test-skirmish game started and polled once, both players holding the genesis file:
    the judge's home, the players, and the side whose orders it awaits."""
    home, players, _ = make_judge(tmp_path, servers, inbound="maildir")
    start_game(home, players, "test-skirmish")
    _poll(home)
    for p in players.values():
        p.collect()
    return home, players, json.loads(pbem("judge", "list", home, "--json"))["games"][0]["awaiting"]


def _subjects(player: Player) -> list[str]:
    return [str(m["Subject"]) for m in player.collect()]


def test_reminder_once_per_deadline_extension_and_hold(tmp_path, servers, monkeypatch):
    """Deadlines by the judge's clock (PBEM_JUDGE_NOW): one reminder per deadline however often it polls, an extension
    by mail within the game's limit, and the NMR hold notice to both players once."""
    clock = tmp_path / "now"
    clock.write_text("1000000")
    monkeypatch.setenv("PBEM_JUDGE_NOW", f"@{clock}")
    home, players, _ = make_judge(tmp_path, servers, inbound="maildir")
    start_game(home, players, "test-skirmish", "--deadline", "10h", "--grace", "2h")
    _poll(home)
    us, jp = players["US"], players["JP"]
    for p in (us, jp):
        assert any("turn file 0" in s for s in _subjects(p))
    awaited = us if json.loads(pbem("judge", "list", home, "--json"))["games"][0]["awaiting"] == "US" else jp
    other = jp if awaited is us else us
    clock.write_text(str(1000000 + 9 * 3600))  # within 24h and 2h of the deadline: only the latest due reminder
    for _ in range(3):
        _poll(home)
    subjects = _subjects(awaited)
    assert len([s for s in subjects if "due by" in s]) == 1, subjects
    assert "1970-01-12 23:46 UTC" in subjects[0]  # the absolute time: 1000000 + 10h
    assert not [s for s in _subjects(other) if "due by" in s]
    awaited.send("please", "extend")  # an extension of 24h (the default), within the limit of 2
    _poll(home)
    assert any("extension" in s for s in _subjects(awaited))
    assert any("deadline extended" in s for s in _subjects(other))
    clock.write_text(str(1000000 + 36 * 3600 + 1))  # past deadline (34h) and grace (2h)
    for _ in range(3):
        _poll(home)
    for p in (us, jp):
        assert len([s for s in _subjects(p) if "the game waits" in s]) == 1
    assert json.loads(pbem("judge", "list", home, "--json"))["games"][0]["turn_file"] == 0


def test_refusals_say_why_and_rule_problems_go_to_their_writer_only(tmp_path, servers):
    home, players, side = _skirmish_started(tmp_path, servers)
    mover, enemy = players[side], players["JP" if side == "US" else "US"]
    turn = mover.game / "turn-0000.pbem"
    # Orders breaking a rule: a unit that does not exist moves.
    bad = tmp_path / "bad.json"
    pbem("bot", turn, "--key", mover.key, "-o", bad)
    document = json.loads(bad.read_text())
    document["moves"] = [{"unit": "no-such-unit", "path": ["0101"]}]
    # 'pbem submit' refuses such orders; a hostile or careless client need not, so they are signed here directly.
    from pbem.loading.turns import load_turn
    from pbem.game.receipts import submit_orders
    from pbem.protocol.keys import read_private

    submit_orders(load_turn(turn), read_private(mover.key, None), side, document)
    sent = mover.game / f"orders-0000-{side}.pbem"
    mover.send("orders", "attached", [(sent.name, sent.read_text())])
    # Damaged orders (one character changed inside the armour) and orders pasted in the body by a stranger's address.
    text = sent.read_text()
    lines = text.splitlines()
    middle = len(lines) // 2
    lines[middle] = ("A" if lines[middle][0] != "A" else "B") + lines[middle][1:]
    mover.send("damaged", "attached", [("orders.pbem", "\n".join(lines) + "\n")])
    mover.send("just words", "hello judge")
    mover.send("status please", "status")
    _poll(home)
    replies = mover.collect()
    subjects = [str(m["Subject"]) for m in replies]
    problems = [m for m in replies if "rule problems" in str(m["Subject"])]
    assert len(problems) == 1 and "no-such-unit" in problems[0].get_body().get_content()
    assert any("orders refused" in s for s in subjects)
    refused = next(m for m in replies if "orders refused" in str(m["Subject"])).get_body().get_content()
    assert "damaged" in refused or "checksum" in refused or "orders.pbem" in refused
    assert any("no orders found" in s for s in subjects)
    status = next(m for m in replies if "[pbem judge: status]" in str(m["Subject"])).get_body().get_content()
    assert "Game " in status and f"you play {side}" in status
    assert all(str(m["Auto-Submitted"]).startswith("auto-") for m in replies)
    assert enemy.collect() == []  # the enemy learns nothing of the rejected orders
    assert not list((home / "games").glob("*/turn-0001.pbem"))
    # A corrected revision is adjudicated, and both players get turn file 1.
    good = tmp_path / "good.json"
    pbem("bot", turn, "--key", mover.key, "-o", good)
    pbem("submit", good, "--turn", turn, "--key", mover.key, "--replace")
    r2 = mover.game / f"orders-0000-{side}-r2.pbem"
    mover.send("orders again", r2.read_text())  # pasted in the body this time
    _poll(home)
    for p in players.values():
        assert any("turn file 1" in s for s in _subjects(p))
        assert (p.game / "turn-0001.pbem").exists()
    pbem("verify", mover.game)


def test_bounces_auto_replies_and_own_mail_are_never_answered(tmp_path, servers):
    home, players, _ = make_judge(tmp_path, servers, inbound="maildir")
    start_game(home, players, "test-skirmish")
    _poll(home)
    us = players["US"]
    us.collect()
    us.send("Undelivered Mail Returned to Sender", "bounce", sender="MAILER-DAEMON@pbem.test")
    report = (b"From: mail-system@elsewhere.test\r\nTo: judge@pbem.test\r\nSubject: Delivery Status Notification (Failure)\r\n"
              b"Message-ID: <dsn-1@elsewhere.test>\r\nMIME-Version: 1.0\r\n"
              b"Content-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n"
              b"--b\r\nContent-Type: text/plain\r\n\r\nYour message could not be delivered.\r\n"
              b"--b\r\nContent-Type: message/delivery-status\r\n\r\nFinal-Recipient: rfc822; us@pbem.test\r\nAction: failed\r\n"
              b"Status: 5.1.1\r\n\r\n--b--\r\n")
    import smtplib

    with smtplib.SMTP("127.0.0.1", servers.smtp_port) as client:
        client.sendmail("", ["judge@pbem.test"], report)
    us.send("Out of office", "I am away", headers={"Auto-Submitted": "auto-replied"})
    us.send("Re: turn file", "loop?", sender=JUDGE)  # a loop attempt: mail from the judge's own address
    us.send("Vacation", "away", headers={"Precedence": "bulk"})
    before = servers.delivered
    _poll(home)
    _poll(home)
    assert servers.delivered == before  # nothing was sent to anyone
    assert us.collect() == []


def test_junk_flood_is_capped_and_does_not_stall_the_game(tmp_path, servers):
    home, players, _ = make_judge(tmp_path, servers, inbound="maildir")
    settings = (home / "judge.toml").read_text().replace("per_sender_per_hour = 30", "per_sender_per_hour = 5")
    (home / "judge.toml").write_text(settings)
    start_game(home, players, "test-skirmish")
    _poll(home)
    for p in players.values():
        p.collect()
    for i in range(40):
        players["US"].send(f"junk {i}", "x" * 200, sender="spammer@pbem.test")
    side = json.loads(pbem("judge", "list", home, "--json"))["games"][0]["awaiting"]
    players[side].move()
    _poll(home)
    db = __import__("sqlite3").connect(home / "judge.sqlite")
    replies = db.execute("SELECT COUNT(*) FROM outbox WHERE recipient = 'spammer@pbem.test'").fetchone()[0]
    assert replies == 6  # five answers, then one word that the limit is reached, then silence
    for p in players.values():
        assert any("turn file 1" in s for s in _subjects(p))


def test_poll_benchmark_runs_on_a_tiny_budget():
    """benchmarks/judge_poll.py in CI: two sizes of home, two orders mails each (the figures are the benchmark's)."""
    done = subprocess.run([sys.executable, "benchmarks/judge_poll.py", "--held", "2,4", "--incoming", "2"],
                          cwd=Path(__file__).resolve().parent.parent, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines() if line.strip()[:1].isdigit()]
    assert [r[0] for r in rows] == ["2", "4"]


def test_a_mail_broken_beyond_reading_is_stored_and_stalls_nothing(tmp_path):
    """No server needed: raw bytes no mail parser makes sense of go into the Maildir beside real orders."""
    import mailbox

    from pbem.judge.home import Settings, settings_text
    from pbem.judge.poll import poll
    from pbem.judge.store import connect

    home, inbox = tmp_path / "home", tmp_path / "Maildir"
    home.mkdir(mode=0o700)
    box = mailbox.Maildir(str(inbox), create=True)
    pbem("keygen", "ref", "--dir", tmp_path, "--no-passphrase")
    settings = Settings(address="judge@pbem.test", key=str(tmp_path / "ref.key"), inbound={"kind": "maildir", "path": str(inbox)},
                        smtp={"host": "127.0.0.1", "port": 9, "tls": "none"})
    (home / "judge.toml").write_text(settings_text(settings))
    connect(home / "judge.sqlite").close()
    box.add(b"\xff\xfe\x00garbage with no headers at all\r\n\r\n\x00\x01")
    box.add(b"From: =?bogus?Q?\xff?= <\r\nSubject: \xff\r\n\r\nstatus")
    report = poll(home)
    assert report.fetched == 2 and sum(report.handled.values()) == 2
    db = connect(home / "judge.sqlite")
    assert db.execute("SELECT COUNT(*) FROM messages WHERE state = 'new'").fetchone()[0] == 0
    assert list(inbox.glob("*/*")) == []  # taken from the Maildir once stored


def test_a_crash_between_writing_a_turn_file_and_recording_it_mails_it_once(tmp_path, servers, monkeypatch):
    """The moment kill -9 can hit at random, hit on purpose: the turn file is on disk, the database has not heard of it."""
    import pbem.judge.games as games

    home, players, side = _skirmish_started(tmp_path, servers)
    players[side].move()

    class Killed(Exception):
        pass

    def killed(*_):
        raise Killed

    monkeypatch.setattr(games, "reconcile", killed)
    from pbem.judge.poll import poll

    report = poll(home)
    assert report.adjudicated == 0 and "Killed" in " ".join(report.errors)
    written = list((home / "games").glob("*/turn-0001.pbem"))
    assert len(written) == 1
    first = written[0].read_bytes()
    monkeypatch.undo()
    monkeypatch.setenv("PBEM_JUDGE_IMAP_PASSWORD", "secret")
    _poll(home)
    _poll(home)
    assert written[0].read_bytes() == first  # never replaced
    for p in players.values():
        p.collect()
        assert len([m for m in p.mails if "turn file 1" in str(m["Subject"])]) == 1  # one mail, under one Message-ID
        assert p.duplicates == 0 and (p.game / "turn-0001.pbem").read_bytes() == first


def test_nmr_bot_plays_for_the_player_who_never_answers_and_the_audit_recomputes_it(tmp_path, servers, monkeypatch):
    """--nmr bot: JP never answers.  At each deadline plus grace (the judge's clock, PBEM_JUDGE_NOW) the judge plays the
    bot's orders for JP, mails the turn file to both, and the game goes on to its end; each player's folder, built only
    from the mail he received, verifies (JP replays every NMR from his own views at once) and passes the keyless audit."""
    clock = tmp_path / "now"
    now = 1000000
    clock.write_text(str(now))
    monkeypatch.setenv("PBEM_JUDGE_NOW", f"@{clock}")
    home, players, _ = make_judge(tmp_path, servers, inbound="maildir")
    start_game(home, players, "test-skirmish", "--deadline", "10h", "--grace", "2h", "--nmr", "bot")
    us, jp = players["US"], players["JP"]
    nmr_letters = 0
    for _ in range(40):
        _poll(home)
        for p in (us, jp):
            nmr_letters += sum("No orders came from JP" in m.get_body(("plain",)).get_content() for m in p.collect())
        if us.reveal and jp.reveal:
            break
        if not us.move():  # JP is awaited: let the deadline and the grace pass
            now += 12 * 3600 + 1
            clock.write_text(str(now))
    assert us.reveal and jp.reveal, "the game did not end"
    turns = sorted(jp.game.glob("turn-*.pbem"))
    from pbem.loading.turns import load_turn

    played = [load_turn(t) for t in turns[1:]]
    nmr = [t for t in played if t.orders_header["body"].get("format") == "pbem-nmr-2"]
    assert nmr and all(t.orders_header["body"]["side"] == "JP" for t in nmr)
    assert len(played) == len(nmr) + len(us.sent)  # every player-turn was US's orders or JP's NMR
    assert nmr_letters == 2 * len(nmr)  # both players told of each NMR, once
    for p in (us, jp):
        assert "verified" in pbem("verify", p.game, "--replay-mine", "--key", p.key)
        assert "audited" in pbem("audit", p.game, "--reveal", p.reveal)
    assert f"replayed {len(nmr)} of your own" in pbem("verify", jp.game, "--replay-mine", "--key", jp.key)
