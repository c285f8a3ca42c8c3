"""Benchmark: one ``pbem judge poll`` handling orders mails across many games, and how it grows with the games held.

Not a test: it prints figures.  Run with ``.venv/bin/python benchmarks/judge_poll.py``
(``--held 100,500`` games held in one home, ``--incoming 100`` orders mails per poll,
``--scenario test-skirmish``).  For each size the home is filled to that many
games, every genesis mail is sent, then ``--incoming`` players' orders (written
by the bot, signed and sealed by ``submit``'s own function) are put in the
judge's Maildir, and one poll is timed: it stores, verifies and adjudicates
each, writes the turn files and mails both players.  Mail goes to a local
aiosmtpd server that throws it away, so the figures are the judge's own.
CI runs it on a tiny budget (tests/test_judge.py).
"""

from __future__ import annotations

import argparse
import mailbox
import os
import shutil
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def sink():
    from aiosmtpd.controller import Controller

    class Discard:
        async def handle_DATA(self, server, session, envelope):
            return "250 OK"

    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(Discard(), hostname="127.0.0.1", port=port)
    controller.start()
    return controller, port


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--held", default="100,500", help="games held in the home, comma-separated sizes (ascending)")
    parser.add_argument("--incoming", type=int, default=100, help="orders mails handled by the timed poll")
    parser.add_argument("--scenario", default="test-skirmish")
    args = parser.parse_args()
    sizes = [int(s) for s in args.held.split(",")]

    from pbem.bot import bot_orders
    from pbem.loading.turns import load_turn, scenario_of
    from pbem.game.player import side_to_move
    from pbem.game.receipts import submit_orders
    from pbem.game.modes.referee.start import start_game
    from pbem.judge.games import new_game
    from pbem.judge.home import Settings, settings_text
    from pbem.judge.poll import open_judge, poll
    from pbem.judge.store import connect
    from pbem.protocol.keys import generate

    base = Path(tempfile.mkdtemp(prefix="pbem-judge-bench-"))
    controller, port = sink()
    try:
        home, inbox = base / "home", base / "Maildir"
        home.mkdir(mode=0o700)
        mailbox.Maildir(str(inbox), create=True)
        referee, us, jp = generate("referee"), generate("us"), generate("jp")
        from pbem.protocol.keys import write_private

        write_private(base / "ref.key", referee, None)
        settings = Settings(address="judge@bench.test", key=str(base / "ref.key"), inbound={"kind": "maildir", "path": str(inbox)},
                            smtp={"host": "127.0.0.1", "port": port, "tls": "none"})
        settings.limits["per_sender_per_hour"] = 10 ** 6
        (home / "judge.toml").write_text(settings_text(settings))
        connect(home / "judge.sqlite").close()
        games: list[str] = []
        print(f"judge poll: {args.incoming} orders mails per poll, scenario {args.scenario}")
        print(f"{'games held':>10}  {'set-up s':>8}  {'poll s':>7}  {'ms/game':>8}  {'idle poll s':>11}")
        for size in sizes:
            began = time.perf_counter()
            judge = open_judge(home, referee)
            while len(games) < size:
                genesis = start_game(args.scenario, referee, us.public, jp.public)
                new_game(judge, genesis, "us@bench.test", "jp@bench.test", deadline=72 * 3600, grace=24 * 3600, nmr="hold")
                games.append(genesis.game)
            judge.db.close()
            poll(home, referee)  # sends every genesis mail: the timed poll handles orders only
            setup = time.perf_counter() - began
            box = mailbox.Maildir(str(inbox), create=False)
            db = connect(home / "judge.sqlite")
            for game in games[-args.incoming:]:
                row = db.execute("SELECT folder, seq FROM games WHERE id = ?", (game,)).fetchone()
                player = base / "players" / f"{game}-{row['seq']}"
                player.mkdir(parents=True)
                shutil.copy(home / row["folder"] / "turn-0000.pbem", player / "turn-0000.pbem")
                for s in range(1, row["seq"] + 1):
                    shutil.copy(home / row["folder"] / f"turn-{s:04d}.pbem", player / f"turn-{s:04d}.pbem")
                turn = load_turn(player / f"turn-{row['seq']:04d}.pbem")
                side, seen = side_to_move(turn, us if turn.public["awaiting"] == "US" else jp)
                done = submit_orders(turn, us if side == "US" else jp, side, bot_orders(seen, scenario_of(turn), "greedy", 0))
                message = EmailMessage()
                message["From"], message["To"], message["Subject"] = f"{side.lower()}@bench.test", "judge@bench.test", "orders"
                message["Message-ID"] = f"<{game}-{row['seq']}@bench.test>"
                message.set_content("orders attached")
                message.add_attachment(done.path.read_bytes(), maintype="application", subtype="octet-stream", filename=done.path.name)
                box.add(message.as_bytes())
            db.close()
            began = time.perf_counter()
            report = poll(home, referee)
            took = time.perf_counter() - began
            began = time.perf_counter()
            poll(home, referee)
            idle = time.perf_counter() - began
            assert report.adjudicated == min(args.incoming, size), report.line()
            print(f"{size:>10}  {setup:>8.1f}  {took:>7.2f}  {1000 * took / report.adjudicated:>8.1f}  {idle:>11.3f}")
    finally:
        controller.stop()
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
