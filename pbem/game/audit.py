"""The post-game audit: replay every adjudication and confirm every turn file.

With the referee's key (released after the game) the auditor opens each
sealed full state and each orders file, runs the one engine again with the
revealed dice, and checks that the next turn file's full state, public
record, rolls and view digests are exactly what the replay gives.  With a
player's key it also opens that side's sealed views and compares them.  The
referee's honesty about everything sealed becomes checkable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pbem.errors import PbemError
from pbem.game.codec import state_from_json
from pbem.game.referee import genesis_step, play
from pbem.game.scenario_ref import scenario_of
from pbem.protocol.armour import dearmour
from pbem.protocol.canonical import canonical_bytes, parse_canonical
from pbem.protocol.chain import Finding, verify_chain
from pbem.protocol.dice import DiceStream
from pbem.protocol.keys import PrivateIdentity
from pbem.protocol.ordersfile import OrdersBody, open_orders_for_turn
from pbem.protocol.turnfile import TurnFile, open_referee_state, open_view

ORDERS_BEGIN = b"-----BEGIN PBEM ORDERS-----"


@dataclass
class AuditReport:
    findings: list[Finding] = field(default_factory=list)
    replayed: int = 0
    views_checked: int = 0

    @property
    def ok(self) -> bool:
        return not self.findings


def _same(a, b) -> bool:
    return canonical_bytes(a) == canonical_bytes(b)


def _orders_files(folder: Path, turns: dict[int, TurnFile], referee: PrivateIdentity, report: AuditReport) -> dict[str, OrdersBody]:
    found: dict[str, OrdersBody] = {}
    for path in sorted(folder.iterdir()):
        if not path.is_file() or ORDERS_BEGIN not in path.read_bytes():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            _, _, payload = dearmour(text, "ORDERS", str(path))
            seq = parse_canonical(payload, source=str(path))["answers"]["seq"]
            if seq not in turns:
                report.findings.append(Finding(str(path), f"answers turn file {seq}, which is not in the game"))
                continue
            body = open_orders_for_turn(text, turns[seq], referee, source=str(path))
        except (PbemError, KeyError, TypeError) as exc:
            problem = exc.render() if isinstance(exc, PbemError) else "not an orders file pbem can read"
            report.findings.append(Finding(str(path), f"orders file does not open: {problem}"))
            continue
        found[body.digest] = body
    return found


def audit_game(folder: Path, referee: PrivateIdentity, players: dict[str, PrivateIdentity]) -> AuditReport:
    report = AuditReport()
    chain = verify_chain(folder, referee=referee.public)
    if not chain.ok:
        report.findings.extend(chain.findings)
        return report
    turns = {t.seq: t for t in chain.turns}
    genesis = turns[0]
    loaded = scenario_of(genesis)
    orders = _orders_files(folder, turns, referee, report)
    scenario_ref = {"id": genesis.scenario_id, "hash": genesis.scenario_hash}

    opening_step = genesis_step(loaded, genesis.public["scenario_document"], game=genesis.game, scenario_ref=scenario_ref, ruleset=genesis.ruleset,
                                overrides=genesis.public.get("overrides"))
    _compare(report, genesis, opening_step, referee, players)

    for seq in sorted(turns)[1:]:
        previous, current = turns[seq - 1], turns[seq]
        body = orders.get(current.orders)
        if body is None:
            report.findings.append(Finding(current.source, f"the orders it adjudicated ({current.orders}) are not in {folder}", seq))
            continue
        before = open_referee_state(previous, referee)
        dice = DiceStream(before.next_seed, body.salt)
        step = play(loaded, current.ruleset, state_from_json(before.state["state"]), body.orders, dice,
                    game=current.game, seq=seq, scenario_ref=scenario_ref, source=body.source)
        report.replayed += 1
        if list(current.dice.rolls) != dice.rolls:
            report.findings.append(Finding(current.source, "the rolls recorded are not the rolls the replay makes", seq))
        _compare(report, current, step, referee, players)
    return report


def _compare(report: AuditReport, turn: TurnFile, step, referee: PrivateIdentity, players: dict[str, PrivateIdentity]) -> None:
    sealed = open_referee_state(turn, referee).state
    if not _same(sealed, step.referee_state):
        report.findings.append(Finding(turn.source, "the sealed full state is not what the replay gives", turn.seq))
    if not _same(turn.public, step.public):
        report.findings.append(Finding(turn.source, "the public record is not what the replay gives", turn.seq))
    for side, key in players.items():
        if not _same(open_view(turn, side, key), step.views[side]):
            report.findings.append(Finding(turn.source, f"the sealed {side} view is not what the replay gives", turn.seq))
        else:
            report.views_checked += 1
