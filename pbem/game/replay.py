"""Replaying adjudications from known positions and orders, and comparing them with the signed turn files.

Shared by the referee mode's audit (the positions and orders opened by a reveal file,
:mod:`pbem.game.modes.referee.audit`) and the two-player replay (everything in clear in the
turn files, :mod:`pbem.game.modes.two_player.turns`): one engine step (:func:`pbem.game.step.play`)
and the same comparisons.  The orders a turn file played are the player's, or, for a no-moves-received
turn, the bot's on the missing side's view, which anyone can recompute (:func:`orders_of_record`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pbem.errors import PbemError
from pbem.game.codec import state_from_json
from pbem.game.step import genesis_step, play
from pbem.loading.folder import orders_name
from pbem.loading.turns import scenario_of
from pbem.protocol.canonical import canonical_bytes
from pbem.protocol.chain import Finding
from pbem.protocol.dice import DiceStream
from pbem.protocol.nmr import FORMAT as NMR_FORMAT, is_nmr, record_bot_seed
from pbem.protocol.turnfile import SIDES, TurnFile, check_state_commitment, commit_view

if TYPE_CHECKING:
    from pbem.loading.datafiles import LoadedScenario


@dataclass
class AuditReport:
    findings: list[Finding] = field(default_factory=list)
    replayed: int = 0
    views_checked: int = 0
    not_replayed: list[int] = field(default_factory=list)
    superseded_replayed: int = 0  # referee mode: earlier revisions replayed from their reveal (issue 37)

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
    views = {0: opening.views}  # each replayed turn's views, which _compare checks against the signed commitments
    for seq in sorted(turns)[1:]:
        current = turns[seq]
        if seq not in orders and seq - 1 in views and is_nmr(current.orders_header):
            nonces = states[seq - 1][1] if seq - 1 in states else None
            recomputed = _nmr_orders(report, current, views[seq - 1], loaded, nonces)
            if recomputed is not None:
                orders[seq] = recomputed
        if seq - 1 not in states or seq not in orders:
            report.not_replayed.append(seq)
            continue
        dice = DiceStream(current.dice.revealed_seed, current.dice.salt)
        try:
            step = play(loaded, current.ruleset, state_from_json(states[seq - 1][0]["state"]), orders[seq], dice,
                        game=current.game, seq=seq, scenario_ref=scenario_ref, source=source_of(current))
        except PbemError as exc:
            report.findings.append(Finding(current.source, f"cannot replay: {exc.render()}", seq))
            continue
        report.replayed += 1
        views[seq] = step.views
        if list(current.dice.rolls) != dice.rolls:
            report.findings.append(Finding(current.source, "the rolls recorded are not the rolls the replay makes", seq))
        _compare(report, current, step, states.get(seq))


def _nmr_orders(report: AuditReport, turn: TurnFile, views: dict, loaded, view_nonces: dict | None):
    """An NMR's orders, recomputed: the bot's on the missing side's view of the turn file answered, its seed keyed by
    that view's nonce (issue 37; pbem.protocol.nmr, pbem.game.modes.referee.nmr)."""
    side = turn.orders_header["body"]["side"]
    try:
        return orders_of_record(turn.orders_header, views[side], loaded, (view_nonces or {}).get(side))
    except (PbemError, KeyError, ValueError) as exc:
        report.findings.append(Finding(turn.source, f"cannot recompute the NMR orders of {side}: {exc}", turn.seq))
        return None


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


def nmr_orders(view: dict[str, Any], loaded: LoadedScenario, policy: str, salt: bytes, view_nonce: bytes | None,
               body_format: str = NMR_FORMAT) -> Any:
    """The orders an NMR plays: the bot's, with ``policy``, on the missing side's ``view``, seeded from ``salt`` and
    the nonce of that view (``pbem.protocol.nmr.record_bot_seed``: nobody else can compute it before the reveal)."""
    from pbem.systems import system_of

    return system_of(loaded).bot_orders(view, loaded, policy, record_bot_seed(body_format, salt, view_nonce))


def orders_of_record(header: dict, view: dict[str, Any], loaded: LoadedScenario, view_nonce: bytes | None) -> Any:
    """:func:`nmr_orders` for the NMR record a turn file publishes (read by ``verify`` already); ``view_nonce``: the
    nonce of ``view`` as sealed in the turn file answered."""
    from pbem.protocol.canonical import b64d

    body = header["body"]
    return nmr_orders(view, loaded, body["policy"], b64d(body["salt"]), view_nonce, body["format"])


def nmr_source(seq: int, side: str) -> str:
    """How an NMR's orders are named in the records (in place of an orders file's name)."""
    return f"nmr-{seq:04d}-{side} (the bot's orders: no moves received)"


def source_of(turn: TurnFile) -> str:
    """The name under which the orders ``turn`` adjudicated were played: their orders file's, or the NMR's."""
    header = turn.orders_header["body"]
    if is_nmr(turn.orders_header):
        return nmr_source(turn.seq - 1, header["side"])
    return orders_name(turn.seq - 1, header["side"], header["revision"])
