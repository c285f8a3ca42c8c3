"""Acting on one stored message: orders, 'status', 'extend', or a reply saying what the judge could not do.

Each message is handled in one transaction with every reply it causes and
its new state, so it is acted on once.  Orders are authenticated by their
signature, never by the From: header, and their game is read from the file.
Mail a machine wrote is archived and never answered (RFC 3834).
"""

from __future__ import annotations

import sqlite3

from pbem.errors import PbemError
from pbem.loading.turns import load_turn
from pbem.loading.folder import orders_name, turn_name
from pbem.judge import letters
from pbem.judge.clock import duration, spoken, stamp
from pbem.judge.games import Judge, address_of, folder_of, game_row, status_lines
from pbem.judge.store import Transaction

HELP = """How to play with this judge:
- answer a turn file by mailing your orders file (pbem submit writes it) to this address, attached or pasted whole;
- mail the word 'status' for where each of your games stands;
- mail the word 'extend' (while your move is awaited) for more time before your deadline.
The judge reads the game and the turn from the file itself and trusts only its signature."""


def store(db: sqlite3.Connection, source: str, raw: bytes, now: float) -> None:
    """Commit one raw message before anything is done with it (a second copy under the same source key is ignored)."""
    import hashlib

    try:
        message = letters.parse(raw)
        dedupe, sender = letters.dedupe_key(message, raw), letters.sender_of(message)
    except Exception:  # noqa: BLE001 - mail broken beyond parsing is still stored, and archived when handled
        dedupe, sender = hashlib.sha256(raw).hexdigest(), ""
    db.execute("INSERT OR IGNORE INTO messages (source, dedupe, sender, received, raw) VALUES (?, ?, ?, ?, ?)",
               (source, dedupe, sender, now, raw))


def handle(judge: Judge, row: sqlite3.Row) -> str:
    """Act on one stored message; returns the state it ends in."""
    db, settings = judge.db, judge.settings
    message = letters.parse(row["raw"])
    sender = row["sender"]
    with Transaction(db):
        state, note = _act(judge, row, message, sender)
        db.execute("UPDATE messages SET state = ?, note = ? WHERE id = ?", (state, note, row["id"]))
    return state


def _act(judge: Judge, row: sqlite3.Row, message, sender: str) -> tuple[str, str | None]:
    db, settings = judge.db, judge.settings
    why = letters.machine_written(message, sender, settings.address)
    if why:
        return "archived", why
    earlier = db.execute("SELECT 1 FROM messages WHERE dedupe = ? AND id < ? LIMIT 1", (row["dedupe"], row["id"])).fetchone()
    if earlier:
        return "duplicate", "the same mail was received before"
    limit = int(settings.limits.get("per_sender_per_hour", 30))
    recent = db.execute("SELECT COUNT(*) FROM messages WHERE sender = ? AND received > ? AND id < ? AND state NOT IN ('duplicate')",
                        (sender, row["received"] - 3600, row["id"])).fetchone()[0]
    if recent >= limit:
        if recent == limit:  # told once an hour, then silence
            _reply(judge, row, message, sender, "too many mails",
                   f"The judge takes at most {limit} mails an hour from one address; this one and the next ones this hour are "
                   "archived unread. Send your orders again later if they were among them.")
        return "archived", f"over the limit of {limit} mails an hour"
    if len(row["raw"]) > int(settings.limits.get("max_message_bytes", 2_000_000)):
        _reply(judge, row, message, sender, "mail too large",
               f"This mail is {len(row['raw'])} bytes; the judge reads mails up to {settings.limits.get('max_message_bytes')} bytes. "
               "Send the orders file alone.")
        return "refused", "too large"
    parts = letters.texts(message)
    orders = [(t, n) for t, n in parts if "BEGIN PBEM ORDERS" in t]
    if orders:
        return _orders(judge, row, message, sender, orders)
    words = letters.plain_words(message)
    if "status" in words:
        _status(judge, row, message, sender)
        return "answered", "status"
    if "extend" in words:
        return _extend(judge, row, message, sender)
    draft = next((n for t, n in parts if _is_draft(t)), None)
    if draft is not None:
        _reply(judge, row, message, sender, "unsigned draft, not orders", _draft_help(judge, sender, draft))
        return "refused", "an unsigned orders draft"
    turn_block = any("BEGIN PBEM TURN" in t for t, _ in parts)
    _reply(judge, row, message, sender, "no orders found",
           ("This mail carries a turn file, not orders. " if turn_block else "The judge found no orders file in this mail. ") + "\n\n" + HELP)
    return "refused", "no orders"


def _is_draft(text: str) -> bool:
    """The JSON a player writes (or ``pbem play`` saves) before ``pbem submit`` signs it: moves, attacks or a set-up."""
    import json

    stripped = text.strip()
    if not stripped.startswith("{") or len(stripped) > 1_000_000:
        return False
    try:
        document = json.loads(stripped)
    except ValueError:
        return False
    return isinstance(document, dict) and bool({"moves", "attacks", "deployment"} & set(document))


def _draft_help(judge: Judge, sender: str, name: str) -> str:
    """What a player who mailed his JSON draft must run: pbem submit, then mail the .pbem file it writes."""
    playing = [g for g in _games_of(judge, sender) if not g["over"] and g["seq"] >= 0]
    side = next((s for g in playing for s in ("US", "JP") if address_of(g, s) == sender and g["awaiting"] == s), None)
    game = next((g for g in playing if side and g["awaiting"] == side), None)
    seq = game["seq"] if game is not None else None
    turn = turn_name(seq) if seq is not None else "turn-NNNN.pbem"
    signed = orders_name(seq, side) if seq is not None and side else "orders-NNNN-SIDE.pbem"
    draft = name if name.lower().endswith(".json") else "YOUR-ORDERS.json"
    return (f"What you sent ({name}) is your orders draft (the JSON file you edit or pbem play saves): it carries no signature, so the judge "
            "cannot accept it, and it was not read further.\n\n"
            f"Sign it in your game folder:\n\n    pbem submit {draft} --turn {turn} --key YOUR.key\n\n"
            f"then mail the file pbem submit writes ({signed}) to this address, attached. Nothing else was done with this mail.")


def _reply(judge: Judge, row: sqlite3.Row, message, to: str, what: str, body: str, game: str | None = None) -> None:
    subject = str(message.get("Subject", "") or "")[:120]
    judge.mail("reply", judge.mid("reply", row["dedupe"], what), to,
               f"Re: {subject} [pbem judge: {what}]" if subject else f"[pbem judge] {what}", body,
               game=game, in_reply_to=str(message.get("Message-ID", "")).strip() or None, auto="auto-replied")


def _orders(judge: Judge, row, message, sender: str, found: list[tuple[str, str]]) -> tuple[str, str | None]:
    from pbem.protocol.ordersfile import open_orders_for_turn, outer_labels

    refusals, held = [], 0
    for text, name in found:
        try:
            outer, _ = outer_labels(text, name)
            game, seq, side = outer["game"], outer["answers"]["seq"], outer["side"]
            game_entry = game_row(judge, game)
            if game_entry is None:
                refusals.append(f"{name}: these orders are for game {game}, which this judge does not hold. "
                                "Check you wrote to the right judge, and that the turn file you answered came from it.")
                continue
            if game_entry["over"]:
                refusals.append(f"{name}: game {game} is over; no more orders are adjudicated.")
                continue
            if seq != game_entry["seq"]:
                refusals.append(
                    f"{name}: these {side} orders answer turn file {seq}, but game {game} is at turn file {game_entry['seq']}"
                    + (" (they came too late, or were adjudicated already: see the turn files you received)." if seq < game_entry["seq"]
                       else " — a turn file the judge has not written.")
                    + f" Answer {turn_name(game_entry['seq'])}: pbem status <your game folder> --key YOUR.key says what to do.")
                continue
            turn = load_turn(folder_of(judge, game_entry) / turn_name(seq))
            body = open_orders_for_turn(text, turn, judge.key, expected_side=game_entry["awaiting"], source=name)
        except PbemError as exc:
            if exc.hint and exc.hint.startswith("ask the sender"):
                # the judge answers the file's own sender: he is the one who can send it again
                exc.hint = ("send the same file again from your game folder, attached (not pasted or forwarded): "
                            "the signed .pbem file pbem submit wrote")
            refusals.append(f"{exc.render()}")
            continue
        judge.db.execute("INSERT OR IGNORE INTO orders (digest, game, seq, side, revision, text, sender, message) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                         (body.digest, game, seq, body.side, body.revision, text, address_of(game_entry, body.side), row["id"]))
        held += 1
    if refusals:
        _reply(judge, row, message, sender, "orders refused",
               "The judge could not accept what you sent:\n\n" + "\n\n".join(f"- {r}" for r in refusals)
               + "\n\nIf a file arrived damaged, send the same file again, attached. Nothing else was done with this mail.")
    return ("held" if held else "refused"), (f"{held} orders held" if held else "orders refused")


def _games_of(judge: Judge, sender: str) -> list[sqlite3.Row]:
    return judge.db.execute("SELECT * FROM games WHERE us_mail = ? OR jp_mail = ? ORDER BY created", (sender, sender)).fetchall()


def _status(judge: Judge, row, message, sender: str) -> None:
    games = _games_of(judge, sender)
    if not games:
        _reply(judge, row, message, sender, "status", f"The judge holds no game with {sender} as a player.\n\n" + HELP)
        return
    blocks = []
    for game in games:
        side = "US" if game["us_mail"] == sender else "JP"
        folder = folder_of(judge, game)
        turn = load_turn(folder / turn_name(game["seq"]))
        lines = [f"== Game {game['id']} ({game['scenario']}), you play {side} =="] + status_lines(folder, turn, side)
        if game["deadline"] and not game["over"]:
            lines.append(f"Deadline for {game['awaiting']}'s orders: {stamp(game['deadline'])} (grace {spoken(game['grace_s'])}).")
        blocks.append("\n".join(lines))
    _reply(judge, row, message, sender, "status", "\n\n".join(blocks))


def _extend(judge: Judge, row, message, sender: str) -> tuple[str, str]:
    settings = judge.settings.deadlines
    step = duration(settings.get("extension", "24h"), "deadlines.extension")
    most = int(settings.get("max_extensions", 2))
    told = []
    for game in _games_of(judge, sender):
        if game["over"] or address_of(game, game["awaiting"] or "US") != sender or game["deadline"] is None or game["awaiting"] is None:
            continue
        if game["extensions"] >= most:
            told.append(f"Game {game['id']}: no extension left ({most} per turn); the deadline stays {stamp(game['deadline'])}.")
            continue
        deadline = game["deadline"] + step
        judge.db.execute("UPDATE games SET deadline = ?, extensions = extensions + 1 WHERE id = ?", (deadline, game["id"]))
        told.append(f"Game {game['id']}: your deadline is now {stamp(deadline)} (extension {game['extensions'] + 1} of {most}).")
        other = "JP" if game["awaiting"] == "US" else "US"
        judge.mail("extended", judge.mid("extended", game["id"], game["seq"], game["extensions"] + 1), address_of(game, other),
                   f"[pbem {game['id'][:8]}] {game['scenario']}: deadline extended",
                   f"{game['awaiting']} asked for more time: the deadline for turn file {game['seq']} is now {stamp(deadline)}.",
                   game=game["id"])
    _reply(judge, row, message, sender, "extension",
           "\n".join(told) if told else "None of your games awaits your orders, so there is no deadline to extend.\n\n" + HELP)
    return "answered", "extend"
