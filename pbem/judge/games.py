"""The judge's games: start one, adjudicate the orders it holds, and mail each new turn file once.

A game's folder (``HOME/games/<game id>/``) is the truth: the turn files in
it, written once and never replaced.  :func:`reconcile` brings the database
up to the folder — every turn file found beyond the one the database knows
is queued for mailing (by a Message-ID fixed by game, turn and side) — so a
crash between writing a turn file and recording it loses nothing and
sends nothing twice.  Everything here calls the game layer as ``pbem new``,
``adjudicate``, ``status`` and ``reveal`` do.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from pbem.errors import PbemError
from pbem.loading.folder import keep_orders, orders_name, turn_name
from pbem.loading.turns import load_turn
from pbem.game.status import game_status, mail_subject
from pbem.judge import letters
from pbem.judge.clock import spoken, stamp
from pbem.judge.home import GAMES, Settings
from pbem.judge.store import Transaction, queue
from pbem.protocol.files import make_folder, write_new
from pbem.protocol.keys import PrivateIdentity
from pbem.protocol.nmr import is_nmr
from pbem.protocol.turnfile import TurnFile

REVEAL = "reveal.pbem"


@dataclass
class Judge:
    """What one poll works with."""

    home: Path
    settings: Settings
    db: sqlite3.Connection
    key: PrivateIdentity
    now: float
    errors: list[str] = field(default_factory=list)  # what the pass could not do in one game, for its report

    def mid(self, kind: str, *parts: object) -> str:
        return letters.message_id(kind, *parts, domain=self.settings.domain)

    def mail(self, kind: str, mid: str, to: str, subject: str, body: str, *, game: str | None = None,
             attachments: list[tuple[str, str]] = (), in_reply_to: str | None = None, auto: str = "auto-generated") -> bool:
        raw = letters.compose(sender=self.settings.address, to=to, subject=subject, body=body, message_id=mid, now=self.now,
                              kind=auto, attachments=attachments, in_reply_to=in_reply_to, game=game)
        return queue(self.db, mid, to, raw, self.now, kind, game)


def game_row(judge: Judge, game: str) -> sqlite3.Row | None:
    return judge.db.execute("SELECT * FROM games WHERE id = ?", (game,)).fetchone()


def address_of(row: sqlite3.Row, side: str) -> str:
    return row["us_mail"] if side == "US" else row["jp_mail"]


def new_game(judge: Judge, genesis: TurnFile, us_mail: str, jp_mail: str, *, deadline: float, grace: float, nmr: str) -> Path:
    """Put the genesis file (as ``pbem new`` made it) in its folder, record the game, and queue its mails."""
    folder = make_folder(judge.home / GAMES / genesis.game, what="game folder")
    write_new(folder / turn_name(0), genesis.text, mode=0o600)
    with Transaction(judge.db):
        judge.db.execute(
            "INSERT INTO games (id, folder, scenario, us_mail, jp_mail, seq, awaiting, since, deadline, deadline_s, grace_s, nmr, created)"
            " VALUES (?, ?, ?, ?, ?, -1, NULL, ?, NULL, ?, ?, ?, ?)",
            (genesis.game, str(folder.relative_to(judge.home)), genesis.scenario_id, us_mail.lower(), jp_mail.lower(), judge.now,
             deadline, grace, nmr, judge.now))
    reconcile(judge, game_row(judge, genesis.game))
    return folder


def folder_of(judge: Judge, row: sqlite3.Row) -> Path:
    return judge.home / row["folder"]


def reconcile(judge: Judge, row: sqlite3.Row) -> int:
    """Record and queue for mailing every turn file in the game's folder the database does not know yet; returns how many."""
    folder, seq, done = folder_of(judge, row), row["seq"], 0
    while (folder / turn_name(seq + 1)).exists():
        turn = load_turn(folder / turn_name(seq + 1))
        seq += 1
        over = bool(turn.public.get("over"))
        deadline = None if over else judge.now + row["deadline_s"]
        with Transaction(judge.db):
            for side in ("US", "JP"):
                subject, body = turn_letter(judge, row, turn, folder, side, deadline)
                judge.mail("turn", judge.mid("turn", turn.game, turn.seq, side), address_of(row, side), subject, body,
                           game=turn.game, attachments=[(turn_name(turn.seq), turn.text)])
            judge.db.execute("UPDATE games SET seq = ?, awaiting = ?, over = ?, since = ?, deadline = ?, extensions = 0 WHERE id = ?",
                             (seq, None if over else turn.public.get("awaiting"), int(over), judge.now, deadline, row["id"]))
            judge.db.execute("UPDATE orders SET state = 'adjudicated' WHERE game = ? AND seq < ? AND state = 'new'", (row["id"], seq))
        done += 1
    row = game_row(judge, row["id"])
    if row["over"]:
        publish_reveal(judge, row)
    return done


def turn_letter(judge: Judge, row: sqlite3.Row, turn: TurnFile, folder: Path, side: str, deadline: float | None) -> tuple[str, str]:
    """The mail carrying a turn file to one player: what happened, what he must do and by when, the file itself."""
    public = turn.public
    lines = [f"Game {turn.game} ({public.get('title') or turn.scenario_id}): turn file {turn.seq}."]
    last = public.get("last")
    if turn.seq == 0:
        lines.append("The game begins." + (" The Japanese player first sends his secret set-up (docs/hidden-units.md)."
                                           if public.get("setup") else ""))
    if turn.seq > 0 and is_nmr(turn.orders_header):
        lines.append(f"No orders came from {last['side']} by the deadline and grace: the bot's orders were played for {last['side']} "
                     "(NMR). pbem verify checks the NMR record; pbem audit recomputes the bot's orders after the game.")
    elif last:
        lines.append(f"{last['side']} orders carried out: {len(last.get('combats', []))} combat(s)." if last.get("valid")
                     else f"{last['side']} orders were not applied (rule problems, told to their writer).")
    if turn.seq > 0:
        lines += happened_lines(judge, turn, folder, side)
    awaiting = public.get("awaiting")
    if public.get("over"):
        what = "game over"
        lines.append("The game is over: pbem view shows the victory report. The judge sends the reveal file next, for pbem audit.")
    else:
        what = "your move" if awaiting == side else f"{awaiting} to move"
        if awaiting == side and deadline is not None:
            lines.append(f"Your orders are due by {stamp(deadline)} (then {spoken(row['grace_s'])} of grace; "
                         f"after that: {nmr_words(row['nmr'])}).")
    lines += ["", *status_lines(folder, turn, side), "",
              f"Answer by mail to {judge.settings.address}: attach your orders file (or paste it whole in the body).",
              "Mail the word 'status' for the status of your games" + (", 'extend' for more time." if not public.get("over") else "."),
              "", f"The turn file is attached as {turn_name(turn.seq)} ({len(turn.text.encode()) // 1024 + 1} KB): save it in your "
                  "game folder, beside the earlier ones."]
    return f"{mail_subject(turn, f'turn file {turn.seq}')} ({what})", "\n".join(lines)


def happened_lines(judge: Judge, turn: TurnFile, folder: Path, side: str) -> list[str]:
    """What the last player-turn did, as ``side``'s own view of ``turn`` tells it (``pbem view``): every move in his
    sight and every combat with its odds, die and result; under hidden units the American reads only what his view
    shows.  Built by the same function that seals each view, from the referee state; empty if it cannot be read."""
    from pbem.game.codec import state_from_json
    from pbem.game.views import build_view
    from pbem.loading.turns import scenario_of
    from pbem.systems import system_of
    from pbem.protocol.turnfile import open_referee_state

    try:
        held = open_referee_state(turn, judge.key).state
        last = held.get("last")
        if not last:
            return []
        state = state_from_json(held["state"])
        before = None
        if state.hidden is not None and side == "US":
            before = state_from_json(open_referee_state(load_turn(folder / turn_name(turn.seq - 1)), judge.key).state["state"])
        view = build_view(side, state, game=turn.game, seq=turn.seq, scenario={}, ruleset={}, over=bool(turn.public.get("over")),
                          last=last, board=scenario_of(turn).board, before=before)
    except (PbemError, OSError, KeyError, ValueError):
        return []  # the file itself is attached: pbem view tells the same
    return system_of(scenario_of(turn)).tell_last(view["last"])  # told in the words of the game's rules system


def nmr_words(policy: str) -> str:
    return "the game waits for you, and your opponent is told" if policy == "hold" else "the bot's orders are played for you (NMR)"


def status_lines(folder: Path, turn: TurnFile, side: str) -> list[str]:
    """``pbem status`` as the player of ``side`` would see it in his own folder (paths written as <your game folder>)."""
    try:
        lines = game_status(folder, turn.identities[side], f"{side.lower()}.key").lines()
    except PbemError as exc:  # the judge's own folder: should never happen, and must not stop the mail
        return [f"(status unavailable: {exc.render()})"]
    return [line.replace(str(folder), "<your game folder>").replace("the referee", "the judge") for line in lines]


def adjudicate_held(judge: Judge, row: sqlite3.Row) -> str | None:
    """Adjudicate the awaited side's orders held for the current turn, if any new ones arrived: the new turn file
    is written and mailed, or the writer alone is told the rule problems.  Returns what happened."""
    from pbem.game.adjudication import adjudicate_received

    if row["over"] or row["awaiting"] is None:
        return None
    held = judge.db.execute("SELECT * FROM orders WHERE game = ? AND seq = ? AND side = ? AND state IN ('new', 'rejected') ORDER BY revision",
                            (row["id"], row["seq"], row["awaiting"])).fetchall()
    fresh = [o for o in held if o["state"] == "new"]
    if not fresh:
        return None
    folder = folder_of(judge, row)
    turn = load_turn(folder / turn_name(row["seq"]))
    received = [(o["text"], orders_name(o["seq"], o["side"], o["revision"])) for o in held]
    writer = address_of(row, row["awaiting"])
    try:
        done = adjudicate_received(turn, received, judge.key)
    except PbemError as exc:
        with Transaction(judge.db):
            judge.mail("refused", judge.mid("refused", *(o["digest"] for o in fresh)), writer,
                       f"{mail_subject(turn, f'orders answering turn file {turn.seq} refused')}",
                       f"Your orders for game {turn.game}, turn file {turn.seq}, cannot be adjudicated:\n\n  {exc.render()}\n\n"
                       "If the file arrived damaged, send the same file again. If the reason names a fault of pbem, "
                       "your orders are not at fault: do not change them to get past it (every revision of a player-turn "
                       "rolls the same dice, issue 37, so it cannot help) and tell the judge's operator.",
                       game=turn.game)
            judge.db.executemany("UPDATE orders SET state = 'refused' WHERE digest = ?", [(o["digest"],) for o in fresh])
        return "refused"
    last = done.step.last
    if not last["valid"]:
        problems = "\n".join(f"  rule {p['rule']:<6} {p.get('unit') or '-':<12} {p['message']}" for p in last["problems"])
        with Transaction(judge.db):
            judge.mail("problems", judge.mid("problems", done.orders.digest), writer,
                       mail_subject(turn, f"{row['awaiting']} orders answering turn file {turn.seq}: rule problems"),
                       f"Your orders (revision {done.orders.revision}) for game {turn.game}, turn file {turn.seq}, break the rules, "
                       f"so nothing was adjudicated and your opponent was told nothing:\n\n{problems}\n\n"
                       "Correct them, check them with pbem validate, and send a new revision:\n"
                       f"  pbem submit orders.json --turn <your game folder>/{turn_name(turn.seq)} --key YOUR.key --replace\n"
                       + (f"Your deadline stands: {stamp(row['deadline'])}.\n" if row["deadline"] else ""),
                       game=turn.game)
            judge.db.executemany("UPDATE orders SET state = 'rejected' WHERE digest = ?", [(o["digest"],) for o in fresh])
        return "rejected"
    # Orders first, then the turn file (as 'pbem adjudicate' does); reconcile mails it.
    for o in held:
        keep_orders(folder, o["seq"], o["side"], Path(orders_name(o["seq"], o["side"], o["revision"])), o["text"], o["revision"])
    target = folder / turn_name(turn.seq + 1)
    if not target.exists():
        write_new(target, done.turn.text, mode=0o600)
    reconcile(judge, row)
    return "adjudicated"


def publish_reveal(judge: Judge, row: sqlite3.Row) -> None:
    """After the last Game-Turn: the referee's reveal file, written once and mailed to both players, so each can audit with no key."""
    from pbem.game.modes.referee.reveal import referee_reveal, reveal_text

    folder = folder_of(judge, row)
    path = folder / REVEAL
    if not path.exists():
        write_new(path, reveal_text(referee_reveal(folder, judge.key)), mode=0o600)
    text = path.read_text(encoding="utf-8")
    with Transaction(judge.db):
        for side in ("US", "JP"):
            judge.mail("reveal", judge.mid("reveal", row["id"], side), address_of(row, side),
                       f"[pbem {row['id'][:8]}] {row['scenario']}: the reveal file (game over)",
                       f"Game {row['id']} is over. The reveal file opens everything that was sealed, so you can check every "
                       "adjudication with no key:\n\n  pbem audit <your game folder> --reveal reveal.pbem\n\n"
                       f"It is attached as {REVEAL} ({len(text.encode()) // 1024 + 1} KB): save it beside your game folder.",
                       game=row["id"], attachments=[(REVEAL, text)])
