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
from pbem.game.roles import role_named
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
    steps: list[str] = field(default_factory=list)
    """The commands to run one after the other, each checked before the next (never chained, never overwriting a file)."""
    draft: str | None = None
    """The orders file (in the current folder) the steps write and read."""
    unreadable: list[str] = field(default_factory=list)
    """Files named like turn files that hold none (a mail client's replacement, an empty file)."""

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
            "next": {"action": self.action, "command": self.command, "steps": self.steps, "draft": self.draft, "send": self.send},
            "unreadable": self.unreadable,
            "notes": self.notes,
        }

    def lines(self) -> list[str]:
        info = self.as_dict()
        if self.latest is None:
            return [f"{self.folder}: no game here ({self.problem})", f"Next: {self.action}", *self.notes]
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
        out += self.notes
        if self.command:
            out.append(f"  {self.command}")
        for n, step in enumerate(self.steps, 1):
            out.append(f"  {n}. {step}")
        if self.send:
            also = f" and {self.send['with']}" if self.send.get("with") else ""
            out.append(f"Send {self.send['file']}{also} to {self.send['to']}.")
            out.append(f"  Subject: {self.send['subject']}")
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


def submission_mail(turn: TurnFile, side: str, path: Path, revision: int) -> tuple[str, list[str]]:
    """Whom a player's signed orders go to, and the mail to paste: shared by ``pbem submit`` and ``pbem play``."""
    from pbem.protocol.ordersfile import adjudicator_of

    judge = adjudicator_of(turn, side)
    to = "the referee" if judge == "referee" else f"the {judge} player, who adjudicates them"
    what = f"{side} orders answering turn file {turn.seq} (revision {revision})"
    command = (f"Referee: pbem adjudicate turn-{turn.seq:04d}.pbem {path.name} --key REF.key" if judge == "referee"
               else f"{judge}: pbem adjudicate turn-{turn.seq:04d}.pbem {path.name} --key {judge}.key")
    return to, mail_text(turn, what, path, command)


def game_status(folder: Path, holder: PublicIdentity | None = None, key_hint: str = "KEY",
                opened: PrivateIdentity | None = None) -> Status:
    """Where the game in ``folder`` stands; a folder holding no turn files but one game folder below is read there.

    ``opened``: the holder's key, opened: then everything ``verify --replay-mine`` checks (his views against the
    public record, as ``pbem view`` does, and his own player-turns) is checked too."""
    from pbem.game.folder import turn_files

    if not turn_files(folder):
        below = sorted(sub for sub in folder.iterdir() if sub.is_dir() and turn_files(sub)) if folder.is_dir() else []
        if len(below) == 1:
            found = _status_of(below[0], holder, key_hint, opened)
            found.notes.insert(0, f"(no turn files in {folder}; the game is in {below[0]}: give that folder next time)")
            return found
        if below:
            found = _status_of(folder, holder, key_hint, opened)
            found.notes.append("Games in the folders below: " + ", ".join(map(str, below)) + " — give one of them")
            return found
    return _status_of(folder, holder, key_hint, opened)


def _status_of(folder: Path, holder: PublicIdentity | None, key_hint: str, opened: PrivateIdentity | None) -> Status:
    report = verify_game(folder, {folder}, replay_with=opened, receipts_required=False, remember=folder)
    unreadable = _unreadable(folder, {Path(t.source).name for t in report.turns})
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
    if unreadable:
        status.verified = False
        status.unreadable = unreadable
        status.problem = f"{len(unreadable)} file(s) cannot be read as turn files: {'; '.join(unreadable)}"
        sender = "your opponent" if latest.two_player else "the referee"
        status.action = (f"ask {sender} for a fresh copy of {', '.join(u.split(' (')[0] for u in unreadable)}, sent as an attachment "
                         "(a mail client may have replaced or emptied it); do not answer an earlier turn file meanwhile")
        status.command = f"pbem verify {folder}"
        return status
    if report.findings:
        status.action = ("do not play on: show your opponent what pbem verify lists (it names the player who wrote each bad file)"
                         if latest.two_player else
                         "do not play on: ask the referee for the files again and compare them (pbem verify lists what is wrong)")
        status.command = f"pbem verify {folder}"
        return status
    if public.get("over"):
        _game_over(status, folder, key_hint)
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
        else:
            status.action = ("write your secret set-up, check it, and submit it" if public.get("setup")
                             else "write your orders, check them, and submit them")
            _orders_steps(status, turn_path, key_hint, setup=bool(public.get("setup")))
        status.send = {"file": orders_file.name, "to": "the referee", "subject": orders_subject(latest, awaiting, orders_file)}
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
    with_turn = f", with {turn_path.name}, which you wrote" if role == latest.writer and latest.seq > 0 else ""
    if role is None:
        status.action = f"{awaited(latest, folder)}; give --key to be told what you should do"
    elif role == awaiting:
        if orders_file.exists():
            status.action = (f"your orders for this turn are written; send them to {judge}{with_turn}: he adjudicates them "
                             "(replace them before he does if you change your mind)")
        else:
            status.action = f"write your orders, check them, submit them and send them to {judge}{with_turn}: he adjudicates them"
            _orders_steps(status, turn_path, key_hint)
        status.send = {"file": orders_file.name, "to": f"the {judge} player", "subject": orders_subject(latest, awaiting, orders_file)}
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


def orders_subject(turn: TurnFile, side: str, orders_file: Path) -> str:
    """The subject ``submit`` writes for these orders: the revision is in it (``orders-0003-US-r2.pbem`` is revision 2)."""
    from pbem.game.folder import revision_of

    return mail_subject(turn, f"{side} orders answering turn file {turn.seq} (revision {revision_of(orders_file)})")


def draft_name(turn: TurnFile, side: str, setup: bool = False) -> str:
    """The orders file the steps write in the current folder: named after the turn file answered, never an existing one."""
    stem = f"{'setup' if setup else 'orders'}-{turn.seq:04d}-{side}"
    return f"{stem}.json"


def _orders_steps(status: Status, turn_path: Path, key_hint: str, *, setup: bool = False) -> None:
    """Write, check, submit: one command a step, so that nothing is signed that was not read (issue 20).

    A skeleton from ``pbem orders template`` moves nobody: submitted as it is,
    it is a player-turn in which nothing happens.  So the template only
    shows the format; the orders are written by hand or by the bot, into a
    file named after the turn that ``pbem bot -o`` refuses to overwrite.
    """
    latest = status.latest
    assert latest is not None
    side = latest.public["awaiting"]
    draft = draft_name(latest, side, setup)
    status.draft = draft
    check = f"pbem validate {draft} --turn {turn_path} --key {key_hint}"
    send = f"pbem submit {draft} --turn {turn_path} --key {key_hint}"
    if Path(draft).exists():
        status.notes.append(f"You have a draft: {draft} (in this folder). Check it, then sign and seal it:")
        status.steps = [check, send]
        return
    if setup:
        status.notes.append(
            "The scenario's printed set-up (which 'pbem orders template' shows) is public: the enemy knows it. "
            f"Change it, or let the bot choose a secret one in {draft} (first step) and edit it if you like."
        )
        write = [f"pbem bot {turn_path} --key {key_hint} -o {draft}"]
    else:
        status.notes.append(
            f"Write your orders in {draft}: by hand (see the format with 'pbem orders template {turn_path} --key {key_hint}', "
            "which only prints a skeleton: as it is, nobody moves), or have the bot write them (first step) and edit them."
        )
        write = [f"pbem bot {turn_path} --key {key_hint} -o {draft}"]
    status.steps = [*write, check, send]


def _game_over(status: Status, folder: Path, key_hint: str) -> None:
    """After the last player-turn: check everything; the referee publishes the reveal file, the players audit with it."""
    latest, role = status.latest, status.role
    assert latest is not None
    checks = [f"pbem verify {folder}", f"pbem dice {folder}"]
    if latest.two_player:
        status.action = "the game is over; check the whole game and its dice (every player-turn is replayed from the files)"
        status.steps = checks
        return
    reveal = next(iter(sorted(folder.glob("reveal*.pbem")) + sorted(folder.parent.glob("reveal*.pbem"))), None)
    if role == REFEREE:
        out = folder / "reveal.pbem"
        status.action = "the game is over: publish the openings of everything sealed, so that each player can audit every adjudication"
        status.steps = [f"pbem verify {folder}", f"pbem reveal {folder} --key {key_hint} -o {out}"] if reveal is None else [f"pbem verify {folder}"]
        status.send = {"file": (reveal or out).name, "to": "both players", "subject": mail_subject(latest, "reveal file: audit the game")}
        return
    if reveal is None:
        status.action = ("the game is over; check the whole game and its dice, then ask the referee for his reveal file "
                         "(pbem reveal) and audit every adjudication with it")
        status.notes.append(f"Put the referee's reveal file in {folder} when it comes; the last step reads it there.")
        status.steps = [*checks, f"pbem audit {folder} --reveal {folder / 'reveal.pbem'}"]
    else:
        status.action = "the game is over; check the whole game and its dice, and audit every adjudication with the referee's reveal file"
        status.steps = [*checks, f"pbem audit {folder} --reveal {reveal}"]


def _unreadable(folder: Path, read: set[str] = frozenset()) -> list[str]:
    """Files named like turn files that hold none, each with why (``verify`` refuses the folder for them, exit 2);
    ``read``: the names of those verify read as turn files, not read again."""
    from pbem.game.folder import not_a_turn_file, turn_files

    return [f"{path.name} ({why})" for path in turn_files(folder) if path.name not in read and (why := not_a_turn_file(path))]
