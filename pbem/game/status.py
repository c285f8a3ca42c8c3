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

from pbem.game.advice import draft_name, mail_subject, mail_text, orders_subject  # noqa: F401 (judge, cli and web import them from here)
from pbem.game.checks import verify_game
from pbem.loading.folder import orders_name, orders_revisions, turn_name
from pbem.game.modes import mode_of
from pbem.game.roles import role_named
from pbem.protocol.keys import PrivateIdentity, PublicIdentity
from pbem.protocol.turnfile import REFEREE, TurnFile


def rules_named(ruleset: object) -> object:
    """How the game's rules are named for people, by its rules system (an SPI game's edition, a Legion game's system):
    a field one system has is never printed as None for another's game.  A system this pbem does not play: its name."""
    from pbem.errors import BadInput
    from pbem.systems import name_in, system_named

    try:
        return system_named(name_in(ruleset)).rules_named(ruleset if isinstance(ruleset, dict) else {})
    except BadInput:
        return name_in(ruleset)


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
            "referee": turn.identities[REFEREE].fingerprint if turn and REFEREE in turn.identities else None,
            "mode": turn.mode if turn else None,
            "adjudicator": mode_of(turn).seed_holder(turn) if turn else None,
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
        parties = f"referee {info['referee']}" if info["referee"] else "two players, no referee"
        out = [
            f"Game {info['game']} — {info['title'] or info['scenario']} ({rules_named(self.latest.ruleset)}), {parties}",
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


def submission_mail(turn: TurnFile, side: str, path: Path, revision: int) -> tuple[str, list[str]]:
    """Whom a player's signed orders go to, and the mail to paste: shared by ``pbem submit`` and ``pbem play``."""
    judge = mode_of(turn).adjudicator(turn, side)
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
    from pbem.loading.folder import turn_files

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
    from pbem.game.nmr_turns import nmr_lines, nmr_turns

    # the turns the bot played for a late player (NMR): a player looking back on his game sees which were not his orders
    status.notes += nmr_lines(nmr_turns(turns), how="its NMR record verifies", mine=role if role in ("US", "JP") else None)
    public = latest.public if isinstance(latest.public, dict) else {}
    if unreadable:
        status.verified = False
        status.unreadable = unreadable
        status.problem = f"{len(unreadable)} file(s) cannot be read as turn files: {'; '.join(unreadable)}"
        sender = mode_of(latest).sender(latest)
        status.action = (f"ask {sender} for a fresh copy of {', '.join(u.split(' (')[0] for u in unreadable)}, sent as an attachment "
                         "(a mail client may have replaced or emptied it); do not answer an earlier turn file meanwhile")
        status.command = f"pbem verify {folder}"
        return status
    if report.findings:
        status.action = mode_of(latest).do_not_play_on()
        status.command = f"pbem verify {folder}"
        return status
    if public.get("over"):
        mode_of(latest).advise_over(status, folder, key_hint)
        return status
    awaiting = public.get("awaiting")
    turn_path = folder / turn_name(latest.seq)
    received = orders_revisions(folder, latest.seq, awaiting)
    orders_file = received[-1] if received else folder / orders_name(latest.seq, awaiting)
    mode_of(latest).advise(status, folder, turn_path, orders_file, received, key_hint)
    return status


def _unreadable(folder: Path, read: set[str] = frozenset()) -> list[str]:
    """Files named like turn files that hold none, each with why (``verify`` refuses the folder for them, exit 2);
    ``read``: the names of those verify read as turn files, not read again."""
    from pbem.loading.folder import not_a_turn_file, turn_files

    return [f"{path.name} ({why})" for path in turn_files(folder) if path.name not in read and (why := not_a_turn_file(path))]
