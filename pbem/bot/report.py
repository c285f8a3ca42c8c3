"""The end of a game in words: who won, and on what.

:func:`final_report` gives the victory report the referee's final turn file
carries (15.1-15.4 and the scenario's own terms, asked of its rules system: :mod:`pbem.systems`),
with the winner read from the level of victory.  The demo, the bot-strength
benchmark and the soak test all read the result from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.loading.datafiles import LoadedScenario
from pbem.game.narrate import victory_lines
from pbem.model.state import GameState
from pbem.systems import system_of

BASIS = "victory points and the level of victory (15.1-15.4, and the scenario's terms)"


@dataclass(frozen=True)
class FinalReport:
    """Each side's score, the winner (None for a draw), and lines to print."""

    score: dict[str, int]
    winner: str | None
    basis: str
    level: str = ""
    lines: list[str] = field(default_factory=list)


def final_report(loaded: LoadedScenario, state: GameState) -> FinalReport:
    """The result of a finished game: the victory report, and the side its level favours."""
    report = system_of(loaded).victory(loaded, state, final=True)
    level = report["level"]
    winner = "US" if level.startswith("U.S.") else "JP" if level.startswith("Japanese") else None
    verdict = f"{level}: {'the United States' if winner == 'US' else 'Japan' if winner == 'JP' else 'nobody'} wins" if winner else "a draw"
    lines = victory_lines(report) + [f"Result: {verdict}, {report['points']['US']} to {report['points']['JP']}"]
    return FinalReport(report["points"], winner, BASIS, level, lines)
