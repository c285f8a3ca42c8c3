"""Where a game stands and what to do next, read from a game folder.

``pbem status`` answers the question a player on a slow mail client asks
first: whose move is it, is what I hold sound, and which file goes to whom.
It reads the turn files (checking them as ``verify`` does, receipts included) and, when
given the holder's identity, says what that party should do, with the
exact command; given his key, it checks no less than ``pbem view`` and
``verify --replay-mine`` would.  It never writes anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.game.checks import verify_game
from pbem.game.folder import orders_name, orders_revisions, turn_name
from pbem.game.player import role_named
from pbem.protocol.keys import PrivateIdentity, PublicIdentity
from pbem.protocol.turnfile import REFEREE, TurnFile


@dataclass
class Status:
    """The answer, for people (``lines``) and for scripts (``as_dict``)."""

    folder: str
    verified: bool
    problem: str | None
    latest: TurnFile | None
    role: str | None
    action: str
    command: str | None = None
    send: dict[str, Any] | None = None
    title: str | None = None
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        turn = self.latest
        public = turn.public if turn is not None and isinstance(turn.public, dict) else {}
        return {
            "folder": self.folder,
            "game": turn.game if turn else None,
            "scenario": turn.scenario_id if turn else None,
            "title": self.title,
            "edition": (turn.ruleset or {}).get("edition") if turn else None,
            "referee": turn.identities[REFEREE].fingerprint if turn and not turn.two_player else None,
            "mode": turn.mode if turn else None,
            "adjudicator": (turn.dice.committed_by if turn.two_player else REFEREE) if turn else None,
            "latest_file": turn_name(turn.seq) if turn else None,
            "seq": turn.seq if turn else None,
            "game_turn": public.get("turn"),
            "awaiting": public.get("awaiting"),
            "setup": bool(public.get("setup")),
            "over": bool(public.get("over")),
            "victory": public.get("victory"),
            "verified": self.verified,
            "problem": self.problem,
            "role": self.role,
            "next": {"action": self.action, "command": self.command, "send": self.send},
            "notes": self.notes,
        }

    def lines(self) -> list[str]:
        info = self.as_dict()
        if self.latest is None:
            return [f"{self.folder}: no game here ({self.problem})", f"Next: {self.action}"]
        parties = "two players, no referee" if self.latest.two_player else f"referee {info['referee']}"
        out = [
            f"Game {info['game']} — {info['title'] or info['scenario']} ({info['edition']}), {parties}",
            f"Latest turn file: {info['latest_file']} (" + ("verifies" if self.verified else f"DOES NOT VERIFY: {self.problem}") + ")",
        ]
        if info["over"]:
            victory = info["victory"] or {}
            level = f": {victory.get('level')} (US {victory['points']['US']}, JP {victory['points']['JP']})" if victory.get("points") else ""
            out.append(f"The game is over{level}.")
        else:
            doing = "the Japanese secret set-up is awaited (docs/hidden-units.md)" if info["setup"] else f"{info['awaiting']} to move"
            out.append(f"Game-Turn {info['game_turn']}: {doing}.")
        if self.role:
            out.append(f"You are {self.role}.")
        out.append(f"Next: {self.action}")
        if self.command:
            out.append(f"  {self.command}")
        if self.send:
            also = f" and {self.send['with']}" if self.send.get("with") else ""
            out.append(f"Send {self.send['file']}{also} to {self.send['to']}.")
            out.append(f"  Subject: {self.send['subject']}")
        out += self.notes
        return out


def mail_subject(turn: TurnFile, what: str) -> str:
    """A subject line that names the game, the turn file and what the mail carries."""
    return f"[pbem {turn.game[:8]}] {turn.scenario_id}: {what}"


def mail_text(turn: TurnFile, what: str, attached: Path, next_step: str) -> list[str]:
    """A subject and body a player or the referee can paste into a mail: game, turn, file, its digest and what to do."""
    import hashlib

    digest = hashlib.sha256(attached.read_bytes()).hexdigest()
    return [
        f"Subject: {mail_subject(turn, what)}",
        "",
        f"Game {turn.game} ({turn.scenario_id}): {what}.",
        f"Attached: {attached.name} (sha256 {digest}).",
        next_step,
        "Check it with: pbem verify <your game folder>",
    ]


def game_status(folder: Path, holder: PublicIdentity | None = None, key_hint: str = "KEY",
                opened: PrivateIdentity | None = None) -> Status:
    """``opened``: the holder's key, opened: then everything ``verify --replay-mine`` checks (his views against the
    public record, as ``pbem view`` does, and his own player-turns) is checked too."""
    report = verify_game(folder, {folder}, replay_with=opened)
    turns = sorted(report.turns, key=lambda t: t.seq)
    problem = report.findings[0].render() if report.findings else None
    if not turns:
        if report.findings and "no turn files found" not in problem:
            return Status(str(folder), False, problem, None, None, "ask the sender for a fresh copy of the damaged file, sent as an attachment")
        return Status(str(folder), False, problem, None, None,
                      "put the turn files you received (turn-0000.pbem first) in this folder, or start a game with 'pbem new'")
    latest = turns[-1]
    role = role_named(latest, holder) if holder is not None else None
    genesis = turns[0] if turns[0].seq == 0 and isinstance(turns[0].public, dict) else None
    status = Status(str(folder), not report.findings, problem, latest, role, "", title=genesis.public.get("title") if genesis else None)
    if opened is not None:  # say what the key let it check
        status.notes += [n for n in report.notes if n.startswith(("checked your", "replayed", "re-judged"))]
    public = latest.public if isinstance(latest.public, dict) else {}
    if report.findings:
        status.action = ("do not play on: show your opponent what pbem verify lists (it names the player who wrote each bad file)"
                         if latest.two_player else
                         "do not play on: ask the referee for the files again and compare them (pbem verify lists what is wrong)")
        status.command = f"pbem verify {folder}"
        return status
    if public.get("over"):
        status.action = "the game is over; check the whole game and its dice"
        status.command = f"pbem verify {folder} && pbem dice {folder}"
        return status
    awaiting = public.get("awaiting")
    turn_path = folder / turn_name(latest.seq)
    received = orders_revisions(folder, latest.seq, awaiting)
    orders_file = received[-1] if received else folder / orders_name(latest.seq, awaiting)
    if latest.two_player:
        _two_player_next(status, folder, turn_path, orders_file, key_hint)
        return status
    if role is None:
        status.action = f"waiting for {awaiting}'s orders answering {turn_name(latest.seq)}; give --key to be told what you should do"
    elif role == REFEREE:
        if orders_file.exists():
            status.action = f"adjudicate {awaiting}'s orders, then send the new turn file to both players"
            status.command = f"pbem adjudicate {turn_path} {' '.join(map(str, received))} --key {key_hint}"
            status.send = {"file": turn_name(latest.seq + 1), "to": "both players",
                           "subject": mail_subject(latest, f"turn file {latest.seq + 1}")}
        else:
            status.action = f"wait for {awaiting}'s orders ({orders_name(latest.seq, awaiting)}) and put them in {folder}"
    elif role == awaiting:
        if orders_file.exists():
            status.action = "your orders for this turn are written; send them to the referee (or replace them before he adjudicates)"
            status.send = {"file": orders_file.name, "to": "the referee",
                           "subject": mail_subject(latest, f"{awaiting} orders answering turn file {latest.seq}")}
        else:
            status.action = ("write your secret set-up, check it, and submit it" if public.get("setup")
                             else "write your orders, check them, and submit them")
            status.command = orders_command(turn_path, key_hint)
            status.send = {"file": orders_file.name, "to": "the referee",
                           "subject": mail_subject(latest, f"{awaiting} orders answering turn file {latest.seq}")}
    else:
        status.action = f"nothing to do: {awaiting} is to move; wait for turn file {latest.seq + 1} from the referee"
        status.command = f"pbem view {turn_path} --key {key_hint}"
    return status


def _two_player_next(status: Status, folder: Path, turn_path: Path, orders_file: Path, key_hint: str) -> None:
    """What to do next in a two-player game: the mover writes orders for his opponent; the opponent adjudicates them."""
    from pbem.game.twoplayer import awaited

    latest, role = status.latest, status.role
    assert latest is not None
    awaiting, judge = latest.public["awaiting"], latest.dice.committed_by
    status.notes.append(awaited(latest, folder))
    orders_subject = mail_subject(latest, f"{awaiting} orders answering turn file {latest.seq}")
    with_turn = f", with {turn_path.name}, which you wrote" if role == latest.writer and latest.seq > 0 else ""
    if role is None:
        status.action = f"{awaited(latest, folder)}; give --key to be told what you should do"
    elif role == awaiting:
        if orders_file.exists():
            status.action = (f"your orders for this turn are written; send them to {judge}{with_turn}: he adjudicates them "
                             "(replace them before he does if you change your mind)")
        else:
            status.action = f"write your orders, check them, submit them and send them to {judge}{with_turn}: he adjudicates them"
            status.command = orders_command(turn_path, key_hint)
        status.send = {"file": orders_file.name, "to": f"the {judge} player", "subject": orders_subject}
        if with_turn:
            status.send["with"] = turn_path.name
    elif orders_file.exists():
        received = " ".join(map(str, orders_revisions(folder, latest.seq, awaiting)))
        status.action = f"adjudicate {awaiting}'s orders with the seed you committed, then send the new turn file to {awaiting}"
        status.command = f"pbem adjudicate {turn_path} {received} --key {key_hint}"
        status.send = {"file": turn_name(latest.seq + 1), "to": f"the {awaiting} player",
                       "subject": mail_subject(latest, f"turn file {latest.seq + 1}")}
    else:
        status.action = f"wait for {awaiting}'s orders ({orders_file.name}) and put them in {folder}; you adjudicate them"
        status.command = f"pbem view {turn_path} --key {key_hint}"


def orders_command(turn_path: Path, key_hint: str) -> str:
    """The commands that write, check and submit the holder's orders answering ``turn_path``."""
    return (
        f"pbem orders template {turn_path} --key {key_hint} > orders.json && "
        f"pbem validate orders.json --turn {turn_path} --key {key_hint} && "
        f"pbem submit orders.json --turn {turn_path} --key {key_hint}"
    )
