"""The event: every game found, read, verified and (for ``pbem audit``) audited, with totals and the dice.

Exit status: 2 when anything given cannot be read (a damaged turn file, a
reveal file that does not parse, a path with no game), else 1 when any game
does not hold (failed, or not audited), else 0.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pbem.event.blind_games import audit_blind_game, is_blind_game, read_blind_game
from pbem.event.dice import DiceReport, dice_report
from pbem.event.discover import discover
from pbem.event.games import FAILED, HOLDS, NOT_AUDITED, STALLED, UNREADABLE, VERIFIED, GameResult, audit, read_game
from pbem.protocol.chain import Finding


@dataclass
class Event:
    command: str
    """``audit`` or ``dice``."""
    games: list[GameResult] = field(default_factory=list)
    unreadable: list[Finding] = field(default_factory=list)
    """Inputs that belong to no game read: a path with no game, a reveal file that does not parse."""
    notes: list[str] = field(default_factory=list)
    dice: DiceReport | None = None

    @property
    def exit_status(self) -> int:
        if self.unreadable or any(g.verdict == UNREADABLE for g in self.games):
            return 2
        return 0 if all(g.holds for g in self.games) else 1

    @property
    def not_holding(self) -> list[GameResult]:
        return [g for g in self.games if not g.holds]

    def totals(self) -> dict:
        verdicts = Counter(g.verdict for g in self.games)
        return {
            "games": len(self.games),
            "audited": sum(verdicts[v] for v in (HOLDS, FAILED)) if self.command == "audit" else None,
            "holds": verdicts[HOLDS] if self.command == "audit" else verdicts[VERIFIED],
            "failed": verdicts[FAILED],
            "not_audited": verdicts[NOT_AUDITED],
            "stalled": verdicts[STALLED],
            "unreadable": verdicts[UNREADABLE] + len(self.unreadable),
            "adjudications_replayed": sum(g.replayed for g in self.games),
            "views_checked": sum(g.views_checked for g in self.games),
            "rolls": sum(len(g.rolls) for g in self.games),
            "findings": sum(len(g.findings) for g in self.games) + len(self.unreadable),
        }

    def findings_by_referee(self) -> dict[str, int]:
        """How many findings each signer's files drew: the referee's, or in a two-player game the writer's."""
        counted = Counter()
        for g in self.games:
            for f in g.findings:
                counted[g.finding_signer(f)] += 1
        return dict(sorted(counted.items()))


def _same_game_notes(games: list[GameResult]) -> list[str]:
    folders: dict[str, list[str]] = {}
    for g in games:
        if g.game:
            folders.setdefault(g.game, []).append(str(g.folder))
    return [f"game {game} is in {len(where)} folders ({', '.join(where)}): it is counted once per folder"
            for game, where in folders.items() if len(where) > 1]


#: What the worker processes inherit when they are forked: the command and the reveals by game id (never pickled).
_SHARED: dict = {}


def _examine(folder: Path) -> GameResult:
    """One game read, verified and (for ``audit``) audited; its turn files dropped, so that little goes back to the parent."""
    if is_blind_game(folder):  # hidden units with no referee: its own files, checks and audit (issue 24)
        result = read_blind_game(folder)
        if _SHARED["command"] == "audit":
            audit_blind_game(result)
    else:
        result = read_game(folder)
        if _SHARED["command"] == "audit":
            audit(result, _SHARED["reveals"].get(result.game or "", []))
    result.turns, result.held = [], None
    return result


def _examine_all(folders: list[Path], jobs: int) -> list[GameResult]:
    """Every game, in the order given; side by side in ``jobs`` forked processes when there are enough games to gain."""
    if jobs > 1 and len(folders) >= 2 * jobs and "fork" in multiprocessing.get_all_start_methods():
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            return pool.map(_examine, folders, chunksize=max(1, len(folders) // (4 * jobs)))
    return [_examine(folder) for folder in folders]


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def run_event(paths: list[Path], reveals: list[Path] | None, command: str, jobs: int = 1) -> Event:
    """``command`` is ``audit`` (reveals matched and every game audited) or ``dice`` (chains verified, rolls pooled).

    ``jobs``: how many processes examine games side by side (each game is independent of the others)."""
    from pbem.collector import resume_collector

    resume_collector()  # game after game in this process: their cycles are freed as they go
    found = discover(paths, reveals if command == "audit" else None)
    event = Event(command, unreadable=found.unreadable)
    _SHARED.update(command=command, reveals=found.reveals)
    try:
        event.games = _examine_all(found.games, jobs)
    finally:
        _SHARED.clear()
    if command == "audit":
        known = {g.game for g in event.games}
        for game_id, revealed in found.reveals.items():
            if game_id not in known:
                event.notes += [f"{r.source}: reveals game {game_id}, which is not among the games given" for r in revealed]
    event.notes += _same_game_notes(event.games)
    event.dice = dice_report([r for g in event.games for r in g.rolls])
    return event
