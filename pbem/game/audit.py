"""The audit: replay every adjudication and confirm every turn file, with no key at all.

Input: the game folder's turn files and one or more reveal files
(:mod:`pbem.game.reveal`).  Every opening in a reveal is checked against the
commitment the signed turn file carries (full state, each view, the orders
behind the published header); then, where the states and orders are
revealed, each adjudication is replayed with the one engine and the revealed
dice, and the next turn file's public record, rolls, full state and both
view commitments must be exactly what the replay gives.  A player's own
reveal alone proves what his views said; each is also compared with the
public record of its turn file.

The referee may audit his own game with his key: that builds his reveal in
memory (each sealed part opened once) and runs the same checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pbem.errors import PbemError
from pbem.game.checks import view_problems
from pbem.game.codec import state_from_json
from pbem.game.folder import orders_name
from pbem.game.referee import genesis_step, play
from pbem.game.reveal import Reveal, referee_reveal
from pbem.game.scenario_ref import scenario_of
from pbem.protocol.canonical import canonical_bytes
from pbem.protocol.chain import Finding, verify_chain
from pbem.protocol.dice import DiceStream
from pbem.protocol.keys import PrivateIdentity
from pbem.protocol.ordersfile import check_orders_commitment
from pbem.protocol.turnfile import SIDES, TurnFile, check_state_commitment, check_view_commitment, commit_view


@dataclass
class AuditReport:
    findings: list[Finding] = field(default_factory=list)
    replayed: int = 0
    views_checked: int = 0
    not_replayed: list[int] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings


def _same(a, b) -> bool:
    """Whether a record read from a turn file and the replay's are written out alike.

    Written without re-reading each text to look for non-string keys (``parsed``; issue 26): the question is
    whether the bytes are equal, and the replay's documents come from the engine whose same output the referee
    wrote out (and checked) when he made the file.
    """
    return canonical_bytes(a, parsed=True) == canonical_bytes(b, parsed=True)


def audit_with_key(folder: Path, referee: PrivateIdentity) -> AuditReport:
    """The referee's audit of his own game (his key stays his)."""
    return audit_game(folder, [referee_reveal(folder, referee)])


def audit_game(folder: Path, reveals: list[Reveal]) -> AuditReport:
    report = AuditReport()
    chain = verify_chain(folder)
    if not chain.ok:
        report.findings.extend(chain.findings)
        return report
    turns = {t.seq: t for t in chain.turns}
    states, orders = {}, {}
    for reveal in reveals:
        if reveal.game != turns[0].game:
            report.findings.append(Finding(reveal.source, f"reveals game {reveal.game}, not this game {turns[0].game}"))
            continue
        for seq, opening in sorted(reveal.turns.items()):
            turn = turns.get(seq)
            if turn is None:
                report.findings.append(Finding(reveal.source, f"reveals turn file {seq}, which is not in {folder}", seq))
                continue
            bad = len(report.findings)
            _check_opening(report, reveal, turn, opening)
            if len(report.findings) == bad:
                if opening.state is not None and opening.view_nonces is not None:
                    states[seq] = (opening.state[1], opening.view_nonces, opening.state[0])
                if opening.orders is not None:
                    orders[seq] = opening.orders[1]
    if report.findings:
        return report
    replay_openings(report, turns, states, orders)
    return report


def _check_opening(report: AuditReport, reveal: Reveal, turn: TurnFile, opening) -> None:
    def fail(problem: str) -> None:
        report.findings.append(Finding(turn.source, f"{problem} (revealed in {reveal.source})", turn.seq))

    # Every opening was read from canonical JSON (a reveal file, or the sealed parts opened).
    if opening.state is not None and not check_state_commitment(*opening.state, turn.state_commitment, parsed=True):
        fail("the revealed full state does not match the state commitment")
    for side, (nonce, view) in opening.views.items():
        if not check_view_commitment(nonce, view, turn.view_commitments[side], parsed=True):
            fail(f"the revealed {side} view does not match the {side} view commitment")
            continue
        report.views_checked += 1
        for problem in view_problems(view, turn.public):
            fail(f"the {side} view the referee signed disagrees with the public record: {problem}")
    if opening.orders is not None:
        if turn.orders_header is None:
            fail("reveals orders for the genesis turn file")
        elif not check_orders_commitment(*opening.orders, turn.orders_header["body"]["orders"]):
            fail("the revealed orders are not the ones the player signed")


def replay_openings(report: AuditReport, turns: dict[int, TurnFile], states: dict, orders: dict) -> None:
    """Replay each adjudication whose state before it and orders are known (``states``: ``{seq: (full state,
    view nonces, state nonce)}`` from a reveal, ``(full state, None)`` for a two-player file``, ``orders``: ``{seq: orders}``) and compare with the turn files."""
    genesis = turns[0]
    if 0 not in states:
        report.not_replayed = sorted(turns)
        return
    loaded = scenario_of(genesis)
    scenario_ref = {"id": genesis.scenario_id, "hash": genesis.scenario_hash}
    opening = genesis_step(loaded, genesis.public["scenario_document"], game=genesis.game, scenario_ref=scenario_ref,
                           ruleset=genesis.ruleset, overrides=genesis.public.get("overrides"), options=genesis.public.get("options"))
    _compare(report, genesis, opening, states[0])
    for seq in sorted(turns)[1:]:
        current = turns[seq]
        if seq - 1 not in states or seq not in orders:
            report.not_replayed.append(seq)
            continue
        header = current.orders_header["body"]
        dice = DiceStream(current.dice.revealed_seed, current.dice.salt)
        try:
            step = play(loaded, current.ruleset, state_from_json(states[seq - 1][0]["state"]), orders[seq], dice,
                        game=current.game, seq=seq, scenario_ref=scenario_ref,
                        source=orders_name(seq - 1, header["side"], header["revision"]))
        except PbemError as exc:
            report.findings.append(Finding(current.source, f"cannot replay: {exc.render()}", seq))
            continue
        report.replayed += 1
        if list(current.dice.rolls) != dice.rolls:
            report.findings.append(Finding(current.source, "the rolls recorded are not the rolls the replay makes", seq))
        _compare(report, current, step, states.get(seq))


def _compare(report: AuditReport, turn: TurnFile, step, revealed) -> None:
    if not _same(turn.public, step.public):
        report.findings.append(Finding(turn.source, "the public record is not what the replay gives", turn.seq))
    if revealed is None:
        return
    state, view_nonces = revealed[0], revealed[1]
    if view_nonces is None:  # a two-player file: nothing sealed, the state is in clear and the views follow from it
        if not _same(state, step.referee_state):
            report.findings.append(Finding(turn.source, "the full state is not what the replay gives", turn.seq))
        return
    # The revealed state was checked against the state commitment already: the replay's matches it
    # exactly when it matches the commitment, which spares writing out the revealed state again.
    if not check_state_commitment(revealed[2], step.referee_state, turn.state_commitment, parsed=True):  # as in _same
        report.findings.append(Finding(turn.source, "the sealed full state is not what the replay gives", turn.seq))
    for side in SIDES:
        if commit_view(view_nonces[side], step.views[side], parsed=True) != turn.view_commitments[side]:
            report.findings.append(Finding(turn.source, f"the sealed {side} view is not what the replay gives", turn.seq))
        else:
            report.views_checked += 1
