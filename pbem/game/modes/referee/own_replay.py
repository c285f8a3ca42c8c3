"""``pbem verify --replay-mine`` in a refereed game: a player checks his own player-turns with his key.

Each of his views against the public record of its turn file (as ``pbem view``
does), and each of his own player-turns replayed from his view before it, his
orders as kept in his receipt and the revealed seed, and compared with his
view after it, the public record and the rolls; American orders under hidden
units are judged again on the view they were written on (:func:`rejudge`).
"""

from __future__ import annotations

from pathlib import Path

from pbem.errors import PbemError
from pbem.protocol.fog_options import fog_option
from pbem.game.record_checks import printed_problems, view_problems
from pbem.protocol.canonical import canonical_bytes
from pbem.protocol.chain import Finding
from pbem.protocol.keys import PrivateIdentity
from pbem.protocol.turnfile import TurnFile


def replay_mine(turns: list[TurnFile], folders: set[Path], player: PrivateIdentity, notes: list[str],
                receipts_required: bool = True, remember: Path | None = None) -> list[Finding]:
    """What the holder's key lets him check (see the module docstring): every view of his against the public record
    of its turn file (as ``pbem view`` does), and each of his own player-turns replayed, or, for American orders
    under hidden units, re-judged on his view (:func:`rejudge`).  With ``remember``, a player-turn replayed before
    from the same files with the same key and found right is not replayed again (:mod:`pbem.game.modes.referee.replayed`)."""
    from pbem.game.roles import role_of
    from pbem.game.receipts import SUFFIX, read_receipt
    from pbem.game.views import checked_view
    from pbem.protocol.nmr import is_nmr
    from pbem.protocol.turnfile import open_view

    by_seq = {t.seq: t for t in turns}
    side = role_of(turns[-1], player)
    if side not in ("US", "JP"):
        return []
    genesis = by_seq.get(0)
    rejudged = genesis is not None and fog_option((genesis.public or {}).get("options")) is not None
    if rejudged:  # a side whose view is not the whole position has his orders re-judged on it, not replayed
        from pbem.systems import name_in, system_named

        rejudged = not system_named(name_in(genesis.ruleset), source=genesis.source, field="ruleset.system").sees_everything(side)
    documents = {}
    for folder in folders:
        for path in folder.glob(f"*{SUFFIX}"):
            record = read_receipt(path)
            for item in (record or {}).get("revisions", []):
                documents[item["orders"]] = item["document"]
    findings, replayed, judged, views, marks, covered = [], 0, 0, {}, {}, set()
    if remember is not None:
        from pbem.game.modes.referee.replayed import Replayed

        seen, before = Replayed(remember, side, player), 0
        for seq, turn in by_seq.items():
            if seq and turn.orders_header["body"]["side"] == side and (turn.orders in documents or is_nmr(turn.orders_header)):
                marks[seq] = seen.mark(turn, documents.get(turn.orders))
        covered = {seq for seq, turn in by_seq.items() if seen.view_mark(turn) in seen}  # found whole by an earlier run
    for seq in sorted(by_seq):
        turn = by_seq[seq]
        try:
            views[seq] = checked_view(open_view(turn, side, player), turn.source, deep=seq not in covered)
            if remember is not None and seq not in covered:
                seen.add(seen.view_mark(turn))
        except PbemError as exc:
            findings.append(Finding(turn.source, f"your {side} view: {exc.render()}", seq))
            continue
        for problem in view_problems(views[seq], turn.public):
            findings.append(Finding(turn.source, f"your {side} view disagrees with the signed public record: {problem}", seq))
        from pbem.loading.turns import scenario_document_of

        for problem in printed_problems(views[seq], scenario_document_of(turn)[0].get("units") or []):  # 3.0 (issue 37 item 4)
            findings.append(Finding(turn.source, f"your {side} view {problem.removeprefix('your view ')}", seq))
    for seq in sorted(by_seq):
        turn = by_seq[seq]
        if seq == 0 or turn.orders_header["body"]["side"] != side or seq not in views or seq - 1 not in views:
            continue
        document = documents.get(turn.orders)
        mark = marks.get(seq)
        if mark is not None and mark in seen:
            before += 1
            continue
        found = len(findings)
        from pbem.game.codec import state_from_json  # the engine, loaded only for a player-turn to replay
        from pbem.game.modes.referee.nmr import nmr_document
        from pbem.game.replay import source_of
        from pbem.game.step import play
        from pbem.loading.turns import scenario_of
        from pbem.protocol.dice import DiceStream

        if document is None and is_nmr(turn.orders_header):  # no moves received: the bot's orders, recomputed from your view
            document = nmr_document(turn, by_seq[seq - 1], side, player)
        if document is None:
            if receipts_required:
                findings.append(Finding(turn.source, f"cannot replay: the {side} orders it adjudicated ({turn.orders}) are in none of your receipts", seq))
            else:
                notes.append(f"{turn.source}: not replayed, your receipt of the orders it adjudicated is not in this folder")
            continue
        source = source_of(turn)
        if rejudged:
            try:
                problems = rejudge(turn, views[seq - 1], views[seq], document, source)
            except PbemError as exc:
                problems = [f"cannot re-judge: {exc.render()}"]
            findings += [Finding(turn.source, p, seq) for p in problems]
            judged += 1
            if mark is not None and len(findings) == found:
                seen.add(mark)
            continue
        try:
            dice = DiceStream(turn.dice.revealed_seed, turn.dice.salt)
            step = play(scenario_of(turn), turn.ruleset, state_from_json(views[seq - 1]["state"]), document, dice,
                        game=turn.game, seq=seq, scenario_ref={"id": turn.scenario_id, "hash": turn.scenario_hash}, source=source)
        except PbemError as exc:
            findings.append(Finding(turn.source, f"cannot replay: {exc.render()}", seq))
            continue
        replayed += 1
        if list(turn.dice.rolls) != dice.rolls:
            findings.append(Finding(turn.source, "the rolls recorded are not the rolls your orders and the revealed seed make", seq))
        if canonical_bytes(step.public) != canonical_bytes(turn.public):
            findings.append(Finding(turn.source, "the public record is not what your orders give", seq))
        if canonical_bytes(step.views[side]) != canonical_bytes(views[seq]):
            findings.append(Finding(turn.source, f"your {side} view is not what your orders give", seq))
        if mark is not None and len(findings) == found:
            seen.add(mark)
    if remember is not None:
        seen.save()
        if rejudged:
            judged += before
        else:
            replayed += before
    notes.append(f"checked your {len(views)} {side} view(s) against the public record of their turn files")
    if rejudged:
        notes.append(f"re-judged your orders on your own view in {judged} player-turn(s): every verdict is the one your view gives "
                     "(what your combats met is hidden from you: 'pbem audit GAMEDIR --reveal FILE' replays the results)")
    else:
        notes.append(f"replayed {replayed} of your own player-turn(s) from your views, your receipts and the revealed seeds")
    if remember is not None and before:
        done = "re-judged" if rejudged else "replayed"
        notes.append(f"{done} by an earlier run with your key and unchanged since: {before} of them (remembered in "
                     f"{seen.path.name}; 'pbem verify GAMEDIR --replay-mine --key KEY' checks them all again)")
    return findings


def rejudge(turn: TurnFile, before: dict, after: dict, document, source: str) -> list[str]:
    """American orders under hidden units, judged again on the view they were written on
    (:func:`pbem.game.step.verdict`, as the referee must judge them): the verdict, the problems and, for a
    rejection, the unchanged position and the unspent dice must be what the turn file records."""
    from pbem.game.codec import state_from_json
    from pbem.game.limits import capped
    from pbem.game.step import verdict
    from pbem.loading.turns import scenario_of
    from pbem.game.views import reading_view

    with reading_view(turn.source, "your view before these orders"):
        seen = state_from_json(before["state"])
    _, problems = verdict(scenario_of(turn), turn.ruleset, seen, document, source)
    expected = capped([p.as_dict() for p in problems])
    last = after.get("last") or {}
    public_valid = ((turn.public or {}).get("last") or {}).get("valid")
    if not expected and (last.get("valid") is not True or public_valid is not True):
        return ["the referee rejected your orders, but your view finds no problem in them: a rejection nobody can check, "
                "which would let him roll the dice again (docs/PROTOCOL.md); show your opponent this file"]
    if not expected:
        return []
    found = []
    if last.get("valid") is not False or public_valid is not False:
        found.append(f"your view finds {len(expected)} problem(s) in your orders, but the referee carried them out")
    elif canonical_bytes(last.get("problems")) != canonical_bytes(expected):
        found.append("the problems recorded for your rejected orders are not the ones your view finds")
    elif canonical_bytes(after.get("state")) != canonical_bytes(before.get("state")) or turn.dice.rolls:
        found.append("your orders were rejected, but the position changed or dice were rolled")
    return found
