"""What to tell a party to do next: mail subjects and texts, the orders draft's name, the write-check-submit steps.

Shared by :mod:`pbem.game.status` and the game modes (:mod:`pbem.game.modes`),
which advise each party in their own way with these pieces; it sits below
both so that neither imports the other.
"""

from __future__ import annotations

from pathlib import Path

from pbem.protocol.turnfile import TurnFile


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


def orders_subject(turn: TurnFile, side: str, orders_file: Path) -> str:
    """The subject ``submit`` writes for these orders: the revision is in it (``orders-0003-US-r2.pbem`` is revision 2)."""
    from pbem.loading.folder import revision_of

    return mail_subject(turn, f"{side} orders answering turn file {turn.seq} (revision {revision_of(orders_file)})")


def draft_name(turn: TurnFile, side: str, setup: bool = False) -> str:
    """The orders file the steps write in the current folder: named after the turn file answered, never an existing one."""
    stem = f"{'setup' if setup else 'orders'}-{turn.seq:04d}-{side}"
    return f"{stem}.json"


def orders_steps(status, turn_path: Path, key_hint: str, *, setup: bool = False) -> None:
    """Write, check, submit: one command a step, so that nothing is signed that was not read (issue 20); into
    ``status`` (a :class:`pbem.game.status.Status`, which sits above this module).

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
