"""Deadlines: reminders before them, and the no-moves-received (NMR) policy after the grace period
(``hold`` here; ``bot`` in :mod:`pbem.judge.nmr`).

Every notice has a Message-ID fixed by game, turn file, deadline and which
notice it is, so however often the judge polls (or restarts) each is sent
once.  The time comes from :mod:`pbem.judge.clock`, never from the engine.
"""

from __future__ import annotations

from pbem.judge.clock import spoken, stamp
from pbem.judge.games import Judge, address_of
from pbem.judge.nmr import play_nmr


def apply_deadlines(judge: Judge) -> int:
    """Queue the reminders and NMR notices now due; returns how many were queued."""
    queued = 0
    offsets = judge.settings.reminder_offsets()
    rows = judge.db.execute("SELECT * FROM games WHERE over = 0 AND deadline IS NOT NULL AND awaiting IS NOT NULL").fetchall()
    for row in rows:
        deadline, grace, now = row["deadline"], row["grace_s"], judge.now
        # A reminder whose time falls before the turn file was mailed (row["since"]) would come with it or before
        # it (a deadline shorter than the reminder's offset): it is never sent.
        due = [i for i, offset in enumerate(offsets) if row["since"] < deadline - offset <= now < deadline]
        late = row["awaiting"]
        subject = f"[pbem {row['id'][:8]}] {row['scenario']}"
        if due:
            i = due[-1]  # after a pause only the latest reminder due is sent
            queued += judge.mail("reminder", judge.mid("reminder", row["id"], row["seq"], deadline, i), address_of(row, late),
                                 f"{subject}: your orders are due by {stamp(deadline)}",
                                 f"Game {row['id']}: your orders answering turn file {row['seq']} are due by {stamp(deadline)}, "
                                 f"then {spoken(grace)} of grace (until {stamp(deadline + grace)}).\n"
                                 f"Mail 'extend' for more time, or 'status' for the position of your games.", game=row["id"])
        if now >= deadline + grace and row["nmr"] == "hold":
            queued += _hold(judge, row, subject)
        elif now >= deadline + grace and row["nmr"] == "bot":
            queued += play_nmr(judge, row)
    return queued


def _hold(judge: Judge, row, subject: str) -> int:
    """NMR ``hold``: the game waits; both players are told once, and the late one is reminded every grace period."""
    deadline, grace, late = row["deadline"], row["grace_s"], row["awaiting"]
    queued = 0
    for side in ("US", "JP"):
        queued += judge.mail("nmr", judge.mid("nmr-hold", row["id"], row["seq"], deadline, side), address_of(row, side),
                             f"{subject}: no orders from {late}; the game waits",
                             f"Game {row['id']}: {late}'s orders answering turn file {row['seq']} were due by {stamp(deadline)} "
                             f"(grace until {stamp(deadline + grace)}) and have not arrived. The game waits for them "
                             "(NMR policy: hold)." + (" Send them as soon as you can." if side == late else ""), game=row["id"])
    every = max(grace, 3600.0)
    k = int((judge.now - deadline - grace) // every)
    if k >= 1:
        queued += judge.mail("reminder", judge.mid("hold-reminder", row["id"], row["seq"], deadline, k), address_of(row, late),
                             f"{subject}: the game still waits for your orders",
                             f"Game {row['id']}: the game still waits for your orders answering turn file {row['seq']} "
                             f"(due {stamp(deadline)}).", game=row["id"])
    return queued
