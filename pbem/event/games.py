"""One game of the event: read and verified, then audited, each by the game layer's own functions.

Verdicts: ``holds`` (every adjudication replayed and every turn file
confirmed), ``failed`` (a finding), ``not audited`` (a referee's game with
no reveal, or with openings missing so that some adjudication was not
replayed: never counted as passed), ``unreadable`` (a turn file that does
not read as one — ask for a fresh copy).  For ``pbem dice`` a game is
``verified`` when its chain holds: its rolls then count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pbem.errors import PbemError
from pbem.game.modes.referee.audit import audit_game
from pbem.game.dice_report import summarise
from pbem.loading.folder import check_turn_sources
from pbem.game.modes.referee.reveal import Reveal
from pbem.game.modes import mode_of
from pbem.protocol.chain import Finding, verify_chain
from pbem.protocol.turnfile import REFEREE, TurnFile

HOLDS, FAILED, NOT_AUDITED, UNREADABLE, VERIFIED = "holds", "failed", "not audited", "unreadable", "verified"
STALLED = "stalled"
"""A game whose awaited player has not answered for the stall time (issue 36): never a pass, never audited."""


@dataclass
class GameResult:
    folder: Path
    verdict: str = VERIFIED
    game: str | None = None
    mode: str | None = None
    referee: str | None = None
    """The referee's fingerprint (None in a two-player game)."""
    parties: str = ""
    findings: list[Finding] = field(default_factory=list)
    reason: str = ""
    """Why a game is not audited or unreadable, in a few words."""
    replayed: int = 0
    views_checked: int = 0
    not_replayed: list[int] = field(default_factory=list)
    reveals: list[str] = field(default_factory=list)
    rolls: list[dict] = field(default_factory=list)
    """Every verified roll: ``seq``, ``n``, ``purpose``, ``value`` and ``by`` (who signed the file that rolled it)."""
    signers: dict[int, str] = field(default_factory=dict)
    turns: list[TurnFile] = field(default_factory=list)
    held: object = None
    """A game without a referee under hidden units: its files as read (:mod:`pbem.event.blind_games`)."""
    details: list[str] = field(default_factory=list)
    """What the audit adds to the verdict, line by line: where a stalled player stopped and the dice he knew (issue 36)."""

    @property
    def holds(self) -> bool:
        return self.verdict in (HOLDS, VERIFIED)

    def finding_signer(self, finding: Finding) -> str:
        """Who signed the file a finding is about: the referee, or in a two-player game the player who wrote it."""
        return self.signers.get(finding.seq) or self.referee or "unknown signer"


def _signer(turn: TurnFile) -> str:
    identity = turn.identities[turn.writer]
    return f"{identity.name} (fingerprint {identity.fingerprint})" + ("" if turn.writer == REFEREE else f", {turn.writer} player")


def read_game(folder: Path) -> GameResult:
    """The game's turn files read and its chain verified (what ``pbem dice`` and ``pbem verify`` check first)."""
    result = GameResult(folder)
    try:
        check_turn_sources([folder])
    except PbemError as exc:
        result.verdict, result.reason = UNREADABLE, exc.message
        result.findings.append(Finding(exc.file or str(folder), exc.render()))
        return result
    chain = verify_chain(folder)
    genesis = next((t for t in chain.turns if t.seq == 0), None)
    if genesis is not None:
        result.game = genesis.game
        mode = mode_of(genesis)
        result.mode = mode.name
        result.referee = _signer(genesis) if mode.referee(genesis) is not None else None
        result.parties = result.referee or mode.parties(genesis)
    result.signers = {t.seq: _signer(t) for t in chain.turns}
    result.turns = chain.turns
    if not chain.ok:
        result.verdict, result.reason = FAILED, "the turn files do not verify"
        result.findings += chain.findings
        return result
    for roll in summarise(chain.turns).rolls:
        result.rolls.append(roll | {"by": result.signers[roll["seq"]]})
    return result


def audit(result: GameResult, reveals: list[Reveal]) -> None:
    """Audit a game whose chain verified: a two-player game from its files alone, a referee's from its reveals."""
    if result.verdict != VERIFIED:
        return
    from_files = mode_of(result.mode).audit_from_files(result.turns)
    if from_files is not None:
        findings, result.replayed = from_files
        result.findings += findings
        result.verdict = FAILED if findings else HOLDS
        result.reason = "an adjudication does not replay" if findings else ""
        return
    if not reveals:
        result.verdict = NOT_AUDITED
        result.reason = f"no reveal file for game {result.game}: give the referee's reveal file (pbem reveal) with --reveal, or put it in the game folder"
        return
    result.reveals = [r.source for r in reveals]
    report = audit_game(result.folder, reveals)
    result.findings += report.findings
    result.replayed, result.views_checked, result.not_replayed = report.replayed, report.views_checked, report.not_replayed
    if report.findings:
        result.verdict, result.reason = FAILED, f"{len(report.findings)} finding(s)"
    elif report.not_replayed:
        result.verdict = NOT_AUDITED
        result.reason = (f"turn file(s) {', '.join(map(str, report.not_replayed))} not replayed: their openings are not "
                         "revealed (the referee's reveal holds every one)")
    else:
        result.verdict = HOLDS
