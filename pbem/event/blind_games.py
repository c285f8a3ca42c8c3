"""A game with hidden units and no referee in an event (issue 24): read, checked and audited by the blind mode's
own functions (:mod:`pbem.game.modes.blind.files`), so that a tournament audit never passes over one in silence.

Its verdicts are the event's: ``verified`` when every file checks out as its
players checked it (``pbem dice`` then pools its rolls), ``holds`` when the
Japanese player's published secret replays every step, ``failed`` when a
finding names a cheater (a withheld secret at the end is one: a forfeit),
``not audited`` while the game is still being played, ``unreadable`` when a
file does not read as one.
"""

from __future__ import annotations

from pathlib import Path

from pbem.errors import BadInput, PbemError
from pbem.event.games import FAILED, HOLDS, NOT_AUDITED, STALLED, UNREADABLE, VERIFIED, GameResult
from pbem.protocol import blindfile
from pbem.protocol.chain import Finding
from pbem.protocol.modes import mode_of_path

MODE = blindfile.MODE


def is_blind_game(folder: Path) -> bool:
    """The blind mode's own files (:func:`pbem.protocol.modes.mode_of_path`), not turn files."""
    mode = mode_of_path(folder)
    return mode is not None and mode.name == MODE


def _finding(held, found) -> Finding:
    """The blind mode's finding (cheater, step, when) as the event's (file, problem, seq)."""
    name = blindfile.file_name(2 * found.seq) if found.seq >= 0 else blindfile.file_name(0)
    return Finding(str(held.folder / name), f"{found.cheater} player {found.what} (caught {found.when})", found.seq)


def _signer(held, side: str) -> str:
    identity = held.identities[side]
    return f"{identity.name} (fingerprint {identity.fingerprint}), {side} player"


def read_blind_game(folder: Path) -> GameResult:
    """The folder's files read and checked as each player checks what he receives (``pbem verify``)."""
    from pbem.game.modes.blind import files as blind_files
    from pbem.game.modes.blind.run import AT_ONCE

    result = GameResult(folder, mode=MODE)
    try:
        held = blind_files.load(folder)
    except BadInput as exc:
        result.verdict, result.reason = UNREADABLE, exc.message
        result.findings.append(Finding(exc.file or str(folder), exc.render()))
        return result
    except PbemError as exc:  # a signature, the chain, a file of another game: the files do not verify
        result.verdict, result.reason = FAILED, "the game files do not verify"
        result.findings.append(Finding(exc.file or str(folder), exc.render()))
        return result
    result.game = held.game
    result.parties = f"{_signer(held, 'US')} and {_signer(held, 'JP')}, no referee, hidden units"
    found = blind_files.findings(held)
    result.held = held  # for the audit, in the same process; dropped before the result goes back
    result.signers = {f.seq: _signer(held, f.cheater) for f in found}
    at_once = [f for f in found if f.when == AT_ONCE]
    if at_once:
        result.verdict, result.reason = FAILED, "the game files do not verify"
        result.findings += [_finding(held, f) for f in at_once]
        return result
    jp = _signer(held, "JP")
    for pub in held.record.publications:  # every roll is in a Japanese file, recomputed by the checks above
        result.rolls += [{"seq": pub.seq, "n": r["n"], "purpose": r["purpose"], "value": r["value"], "by": jp} for r in pub.rolls]
    return result


def audit_blind_game(result: GameResult) -> None:
    """With the Japanese player's published secret, every step replayed with full information."""
    from pbem.game.modes.blind import files as blind_files

    held = result.held
    if result.verdict != VERIFIED or held is None:
        return
    if not held.secret_published and not held.over:  # the single-game audit's verdict, in the same words
        from pbem.game.modes.blind.stall import NOT_OVER, stall

        stalled = stall(held)
        result.verdict, result.reason = (STALLED, stalled.words) if stalled else (NOT_AUDITED, NOT_OVER)
        return
    from pbem.game.modes.blind.stall import audited_to_the_stall, stopped_at, stopped_lines

    found = blind_files.audit_findings(held)
    result.details = [line.strip() for line in stopped_lines(held)]  # the single-game audit's lines, the same words
    result.signers = {f.seq: _signer(held, f.cheater) for f in found}
    result.findings += [_finding(held, f) for f in found]
    result.replayed = 0 if found else len(held.record.publications)
    result.verdict = FAILED if found else HOLDS
    result.reason = f"{len(found)} finding(s)" if found else ""
    stopped = stopped_at(held)
    if stopped is not None and not found:  # opened at a stall, nothing found: the stall's verdict, never a pass
        result.verdict, result.reason = STALLED, stopped.words
        result.details.insert(0, audited_to_the_stall(result.replayed))
