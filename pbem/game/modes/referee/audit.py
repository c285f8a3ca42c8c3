"""The audit: replay every adjudication and confirm every turn file, with no key at all.

Input: the game folder's turn files and one or more reveal files
(:mod:`pbem.game.modes.referee.reveal`).  Every opening in a reveal is checked against the
commitment the signed turn file carries (full state, each view, the orders
behind the published header); then, where the states and orders are
revealed, each adjudication is replayed with the one engine and the revealed
dice, and the next turn file's public record, rolls, full state and both
view commitments must be exactly what the replay gives.  A player's own
reveal alone proves what his views said; each is also compared with the
public record of its turn file.

The referee may audit his own game with his key: that builds his reveal in
memory (each sealed part opened once) and runs the same checks.

The audit cannot be cut short (issue 19, item 3): each reveal file must be
signed by the party it names; a referee's reveal must hold every turn
file's full state, view openings and orders, and a player's only his own
side's; and an adjudication nobody's reveal lets the audit replay is a
finding, never a pass.
"""

from __future__ import annotations

from pathlib import Path

from pbem.errors import PbemError
from pbem.protocol import signing
from pbem.game.record_checks import view_problems
from pbem.game.replay import AuditReport, replay_openings
from pbem.game.modes.referee.reveal import Reveal, referee_reveal
from pbem.protocol.chain import Finding, verify_chain
from pbem.protocol.keys import PrivateIdentity
from pbem.protocol.nmr import is_nmr
from pbem.protocol.canonical import digest
from pbem.protocol.ordersfile import OLD_FORMAT as OLD_ORDERS_FORMAT, check_orders_commitment
from pbem.protocol.turnfile import REFEREE, TurnFile, check_state_commitment, check_view_commitment


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
    states, orders, earlier = {}, {}, {}
    for reveal in reveals:
        if reveal.game != turns[0].game:
            report.findings.append(Finding(reveal.source, f"reveals game {reveal.game}, not this game {turns[0].game}"))
            continue
        if not _signed_by_its_author(report, reveal, turns[0]):
            continue
        _complete_or_own(report, reveal, turns)
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
                if opening.superseded:
                    earlier[seq] = opening.superseded
    if report.findings:
        return report
    replay_openings(report, turns, states, orders)
    _replay_superseded(report, turns, states, earlier)
    for seq in report.not_replayed:
        report.findings.append(Finding(turns[seq].source, "not replayed: no reveal given holds its full state, view openings "
                                       "and orders (and those of the turn file before it); an audit passes only when every "
                                       "adjudication is replayed: give the referee's reveal", seq))
    return report


def _signed_by_its_author(report: AuditReport, reveal: Reveal, genesis: TurnFile) -> bool:
    """A reveal file must be signed by the party its ``by`` names: else a referee could pass a reveal that leaves
    things out off as a player's, who reveals only his own openings."""
    if reveal.envelope is None:
        return True  # built in memory from the party's own key (the referee's audit of his own game)
    identity = genesis.identities.get(reveal.by)
    if identity is None:
        report.findings.append(Finding(reveal.source, f"says it is by {reveal.by!r}, which is none of this game's parties"))
        return False
    try:
        signing.verify(reveal.envelope, identity, "reveal", source=reveal.source, role=reveal.by, body_bytes=reveal.signed_body)
    except PbemError as exc:
        report.findings.append(Finding(reveal.source, f"{exc.message}: a reveal by the {reveal.by} must be signed by the {reveal.by}"))
        return False
    return True


def _complete_or_own(report: AuditReport, reveal: Reveal, turns: dict[int, TurnFile]) -> None:
    """The referee's reveal holds every opening; a player's holds only his own side's."""
    def fail(seq: int, problem: str) -> None:
        report.findings.append(Finding(turns[seq].source if seq in turns else reveal.source, f"{problem} ({reveal.source})", seq))

    if reveal.by == REFEREE:
        for seq, turn in sorted(turns.items()):
            opening = reveal.turns.get(seq)
            if opening is None:
                fail(seq, f"the referee's reveal lacks turn file {seq} entirely")
                continue
            if opening.state is None:
                fail(seq, "the referee's reveal lacks its full state")
            if opening.view_nonces is None:
                fail(seq, "the referee's reveal lacks its view openings")
            if seq > 0 and opening.orders is None and not is_nmr(turn.orders_header):  # an NMR's orders are recomputed
                fail(seq, "the referee's reveal lacks the orders it adjudicated")
            for envelope in turn.superseded if seq > 0 else []:  # every revision listed is replayed (issue 37)
                if envelope["body"].get("format") != OLD_ORDERS_FORMAT and digest(envelope) not in opening.superseded:
                    fail(seq, f"the referee's reveal lacks {envelope['body'].get('side')} revision "
                              f"{envelope['body'].get('revision')}, which the turn file lists as superseded")
        return
    for seq, opening in sorted(reveal.turns.items()):
        other = [side for side in opening.views if side != reveal.by]
        theirs = (opening.orders is not None or bool(opening.superseded)) and seq in turns \
            and turns[seq].orders_header is not None and turns[seq].orders_header["body"]["side"] != reveal.by
        if other or opening.state is not None or opening.view_nonces is not None or theirs:
            what = f"the {other[0]} view" if other else "the opponent's orders" if theirs else "the referee's openings"
            fail(seq, f"a {reveal.by} player's reveal carries only his own side's openings, but this one holds {what}")


def _signer(party: str) -> str:
    """Who signed a statement, as a finding names him: ``"the referee"`` or ``"US"``."""
    return "the referee" if party == REFEREE else party


def _check_opening(report: AuditReport, reveal: Reveal, turn: TurnFile, opening) -> None:
    """Each opening against the commitment it opens.  Issue 37 item 5: a finding says which signed statements disagree
    and whose each is.  A commitment opens only to what was sealed under it, so an opening that does not match is the
    reveal's false statement (the finding names the reveal file and its signer), while a view that opens and disagrees
    with the public record is two statements of the turn file's signer (the finding names the turn file)."""
    revealer = _signer(reveal.by)

    def fail(problem: str) -> None:
        report.findings.append(Finding(turn.source, f"{problem} (revealed in {reveal.source}, signed by {revealer})", turn.seq))

    def false_reveal(what: str, committed_by: str) -> None:
        report.findings.append(Finding(
            reveal.source,
            f"{what} of turn file {turn.seq} as this reveal (signed by {revealer}) opens it does not match the commitment "
            f"signed by {committed_by} in {turn.source}: the two signed statements disagree, and a commitment opens only "
            f"to what was sealed under it, so the reveal is the false statement (or was damaged); {committed_by}'s file "
            "stands", turn.seq))

    # Every opening was read from canonical JSON (a reveal file, or the sealed parts opened).
    if opening.state is not None and not check_state_commitment(*opening.state, turn.state_commitment, parsed=True):
        false_reveal("the full state", turn.writer_name)
    for side, (nonce, view) in opening.views.items():
        if not check_view_commitment(nonce, view, turn.view_commitments[side], parsed=True):
            false_reveal(f"the {side} view", turn.writer_name)
            continue
        report.views_checked += 1
        for problem in view_problems(view, turn.public):
            fail(f"the {side} view signed by {turn.writer_name} (its commitment in this file) disagrees with the public "
                 f"record signed by {turn.writer_name} in the same file: {problem}")
    if opening.orders is not None:
        if turn.orders_header is None:
            fail("reveals orders for the genesis turn file")
        elif is_nmr(turn.orders_header):
            fail("reveals orders for an NMR turn, whose orders are the bot's: the audit recomputes them from the view")
        elif not check_orders_commitment(*opening.orders, turn.orders_header["body"]["orders"]):
            false_reveal("the orders it adjudicated", _signer(turn.orders_header["body"].get("side", "?")))
    listed = {digest(envelope): envelope for envelope in turn.superseded}
    for name, (nonce, orders) in sorted(opening.superseded.items()):
        envelope = listed.get(name)
        if envelope is None:
            fail(f"reveals orders {name} as superseded, which the turn file does not list")
        elif not check_orders_commitment(nonce, orders, envelope["body"]["orders"]):
            false_reveal(f"{envelope['body']['side']} revision {envelope['body']['revision']} (superseded)",
                         _signer(envelope["body"]["side"]))


def _replay_superseded(report: AuditReport, turns: dict[int, TurnFile], states: dict, earlier: dict) -> None:
    """Replay every earlier revision a turn file lists (issue 37): from the same position, with the same seed and the
    salt its own signed header carries — per player-turn, the adjudicated revision's, so the same dice."""
    from pbem.game.codec import state_from_json
    from pbem.game.step import play
    from pbem.loading.folder import orders_name
    from pbem.loading.turns import scenario_of
    from pbem.protocol.canonical import b64d
    from pbem.protocol.dice import DiceStream

    for seq, revisions in sorted(earlier.items()):
        turn = turns[seq]
        if seq - 1 not in states:
            continue  # the adjudication itself was not replayed: a finding already
        listed = {digest(envelope): envelope for envelope in turn.superseded}
        loaded = scenario_of(turn)
        for name, (_nonce, orders) in sorted(revisions.items()):
            body = listed[name]["body"]
            dice = DiceStream(turn.dice.revealed_seed, b64d(body["salt"]))
            try:
                play(loaded, turn.ruleset, state_from_json(states[seq - 1][0]["state"]), orders, dice, game=turn.game, seq=seq,
                     scenario_ref={"id": turn.scenario_id, "hash": turn.scenario_hash},
                     source=orders_name(seq - 1, body["side"], body["revision"]))
            except PbemError as exc:
                report.findings.append(Finding(turn.source, f"cannot replay superseded {body['side']} revision {body['revision']}: "
                                                            f"{exc.render()}", seq))
                continue
            report.superseded_replayed += 1
            shared = min(len(dice.rolls), len(turn.dice.rolls))
            if dice.salt == turn.dice.salt and [r["value"] for r in dice.rolls[:shared]] != [r["value"] for r in turn.dice.rolls[:shared]]:
                report.findings.append(Finding(turn.source, f"superseded {body['side']} revision {body['revision']} replays "
                                                            "with other dice than the revision adjudicated", seq))


