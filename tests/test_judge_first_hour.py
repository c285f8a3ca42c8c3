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


# -- by mail: real servers ------------------------------------------------------------------------------------------
import json  # noqa: E402

from tests.games import pbem  # noqa: E402
from tests.mailservers import MailServers  # noqa: E402
from tests.test_judge import _poll, _skirmish_started, _subjects, judge_env, make_judge, servers, start_game  # noqa: E402,F401


def test_a_draft_mailed_for_orders_is_named_and_a_cut_off_file_asks_its_own_sender_to_send_it_again(tmp_path, servers):
    home, players, side = _skirmish_started(tmp_path, servers)
    mover = players[side]
    turn = mover.game / "turn-0000.pbem"
    draft = mover.dir / "orders-0000.json"
    pbem("bot", turn, "--key", mover.key, "-o", draft)
    mover.send("my orders", "attached", [(draft.name, draft.read_text())])
    _poll(home)
    replies = mover.collect()
    reply = next(m for m in replies if "unsigned draft" in str(m["Subject"]))
    text = reply.get_body().get_content()
    assert "orders-0000.json" in text and "draft" in text
    assert f"pbem submit orders-0000.json --turn turn-0000.pbem --key YOUR.key" in text, text
    assert f"orders-0000-{side}.pbem" in text
    assert not any("no orders found" in str(m["Subject"]) for m in replies)
    # the signed file, cut off half-way (as a mail client may do with a long paste)
    pbem("submit", draft, "--turn", turn, "--key", mover.key)
    signed = (mover.game / f"orders-0000-{side}.pbem").read_text()
    mover.send("orders", "attached", [("orders.pbem", signed[: len(signed) // 2])])
    _poll(home)
    refused = next(m for m in mover.collect() if "orders refused" in str(m["Subject"])).get_body().get_content()
    assert "ask the sender" not in refused, refused
    assert "send the same file again" in refused and "attached" in refused
    assert not list((home / "games").glob("*/turn-0001.pbem"))


def test_a_short_deadline_sends_no_reminder_before_or_with_the_turn_file_and_one_per_deadline(tmp_path, servers, monkeypatch):
    """Reminders 24h and 2h before an 8-minute deadline would fall before the turn file was sent: none is sent;
    with a 3-hour deadline the 2h one comes once, after the turn file."""
    clock = tmp_path / "now"
    clock.write_text("1000000")
    monkeypatch.setenv("PBEM_JUDGE_NOW", f"@{clock}")
    home, players, _ = make_judge(tmp_path, servers, inbound="maildir")
    start_game(home, players, "test-skirmish", "--deadline", "8m", "--grace", "1h")
    for t in (1000000, 1000000 + 60, 1000000 + 5 * 60, 1000000 + 7 * 60 + 59):
        clock.write_text(str(t))
        _poll(home)
    for p in players.values():
        subjects = _subjects(p)
        assert any("turn file 0" in s for s in subjects)
        assert not [s for s in subjects if "due by" in s], subjects
    # a longer deadline: the 2h reminder, once, when its time comes (not at the turn file)
    home2 = tmp_path / "second"
    home2.mkdir()
    clock.write_text("2000000")
    others = MailServers(["judge", "us", "jp", "other"]).start()
    try:
        _a_three_hour_deadline(home2, others, clock)
    finally:
        others.stop()


def _a_three_hour_deadline(home2: Path, servers, clock: Path) -> None:
    h2, p2, _ = make_judge(home2, servers, inbound="maildir")
    start_game(h2, p2, "test-skirmish", "--deadline", "3h", "--grace", "1h")
    _poll(h2)
    awaited = json.loads(pbem("judge", "list", h2, "--json"))["games"][0]["awaiting"]
    assert not [s for s in _subjects(p2[awaited]) if "due by" in s]
    clock.write_text(str(2000000 + 3600 + 1))  # 2h before the deadline
    for _ in range(3):
        _poll(h2)
    assert len([s for s in _subjects(p2[awaited]) if "due by" in s]) == 1


def _turn_mail(player, seq: int):
    return next(m for m in player.mails if f"turn file {seq} (" in str(m["Subject"]))


def test_a_turn_mail_carries_the_file_once_and_tells_what_happened_as_the_players_own_view(tmp_path, servers):
    """Hidden units, leyte-assault: each turn file travels once (an attachment, not again in the text), and the text
    tells every combat with its odds, die and result and what moved in the reader's sight — the lines ``pbem view``
    prints from his own view, so the American learns nothing more of the hidden Japanese."""
    home, players, _ = make_judge(tmp_path, servers, inbound="maildir")
    start_game(home, players, "leyte-assault", "--option", "hidden-units")
    for _ in range(12):
        _poll(home)
        for p in players.values():
            p.collect()
        if all((p.game / "turn-0003.pbem").exists() for p in players.values()):
            break
        for p in players.values():
            p.move()
    sizes = {}
    for seq in range(4):
        for side, p in players.items():
            mail = _turn_mail(p, seq)
            raw = mail.as_bytes()
            sizes[seq, side] = len(raw)
            turn = p.game / f"turn-{seq:04d}.pbem"
            copies = [part.get_payload(decode=True) for part in mail.iter_attachments()]
            assert copies == [turn.read_bytes()], (seq, side)  # once: the attachment, byte for byte
            assert "BEGIN PBEM TURN" not in mail.get_body(("plain",)).get_content()  # not again in the text
            assert len(raw) < len(turn.read_bytes()) * 1.4 + 8000, (seq, side, len(raw))  # once, in base64: byte for byte
            body = mail.get_body(("plain",)).get_content()
            if seq == 0:
                continue
            view = pbem("view", turn, "--key", p.key)
            told = view.split("Last player-turn", 1)[1].split("\n\n", 1)[0]
            for line in told.splitlines()[1:]:
                assert line.strip() in body, (seq, side, line)
    us2 = _turn_mail(players["US"], 2).get_body(("plain",)).get_content()
    assert "came in at" in us2, us2  # the American's own landings
    # and a combat told with its die: the Japanese set-up is drawn afresh each game, and on some neither side attacks
    # on Game-Turn 1, so the game goes on (a few player-turns at most) until a turn mail tells one
    def told_combat(seq: int) -> bool:
        return any("Combat 1" in (t := _turn_mail(p, seq).get_body(("plain",)).get_content()) and "die " in t
                   for p in players.values())

    seq, polls = 2, 0
    while not told_combat(seq):
        seq += 1
        while not all((p.game / f"turn-{seq:04d}.pbem").exists() for p in players.values()):
            polls += 1
            assert polls < 40 and seq <= 8, "no combat told in the first four Game-Turns"
            _poll(home)
            for p in players.values():
                p.collect()
            if not all((p.game / f"turn-{seq:04d}.pbem").exists() for p in players.values()):
                for p in players.values():
                    p.move()
    assert max(v for (seq, _), v in sizes.items() if seq) < 75_000  # docs/judge.md: about 55 KB a turn
    pbem("verify", players["US"].game)


def test_verify_replay_mine_and_audit_name_the_turn_the_bot_played_for_a_late_player(tmp_path):
    """An NMR turn (the bot's orders for the late player) is named wherever a player looks back on the game."""
    from tests.play_game import new_game

    turn = new_game(tmp_path)
    game = turn.parent
    done = _run("adjudicate", turn, "--nmr", "US", "--key", tmp_path / "ref.key")
    assert done.returncode == 0, done.stderr
    verified = _run("verify", game)
    assert verified.returncode == 0, verified.stdout
    assert "turn-0001.pbem" in verified.stdout and "NMR" in verified.stdout and "US" in verified.stdout, verified.stdout
    as_json = json.loads(_run("verify", game, "--json").stdout)
    assert as_json["nmr"] == [{"file": "turn-0001.pbem", "seq": 1, "side": "US"}]
    mine = _run("verify", game, "--replay-mine", "--key", tmp_path / "us.key")
    assert mine.returncode == 0, mine.stdout + mine.stderr
    assert "turn-0001.pbem" in mine.stdout and "NMR" in mine.stdout and "your" in mine.stdout, mine.stdout
    status = _run("status", game, "--key", tmp_path / "us.key")
    assert "turn-0001.pbem: NMR" in status.stdout and "your (US) orders were the bot's" in status.stdout, status.stdout
    assert _run("reveal", game, "--key", tmp_path / "ref.key", "-o", tmp_path / "reveal.pbem").returncode == 0
    audited = _run("audit", game, "--reveal", tmp_path / "reveal.pbem")
    assert audited.returncode == 0, audited.stdout + audited.stderr
    assert "turn-0001.pbem" in audited.stdout and "NMR" in audited.stdout and "recomputed" in audited.stdout, audited.stdout
