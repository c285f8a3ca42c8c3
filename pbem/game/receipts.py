"""A player's receipt of every revision of his orders, and the checks it makes possible.

Changing one's mind after ``submit`` is the commonest thing in a game by
mail, so it is a step of its own: ``submit --replace`` makes the next
**revision** (numbered inside the signed orders; the latest the referee
received wins).  ``submit`` again with the same orders makes no new revision:
it is a resend, with the same signed header and so the same dice, which is
what keeps a referee from re-rolling by claiming a file arrived damaged.

The receipt ``orders-NNNN-SIDE.receipt`` (JSON, in the game folder) lists
every revision sent for one turn file::

    {"format": "pbem-receipt-2", "game": …, "answers": {"seq": 3, "turn": "sha256:…"}, "side": "US",
     "revisions": [{"revision": 1, "orders": "<orders digest>", "salt": "<b64>",
                    "file": "orders-0003-US.pbem", "document": <the orders as written>}, …]}

The orders file and its receipt are written together: the orders file
first, under a new name, then the receipt renamed into place; if that fails
the orders file is removed.  When the next turn file arrives, ``verify``
finds which revision it adjudicated (the turn file publishes the signed
header) and says so; orders that are none of the player's revisions, or a
second signed orders with a revision number he already used, are findings.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.errors import BadInput
from pbem.loading.folder import folder_of, orders_name, receipt_name
from pbem.protocol.canonical import b64e, canonical_bytes
from pbem.protocol.chain import Finding
from pbem.protocol.files import write_new, write_replacing
from pbem.protocol.keys import PrivateIdentity
from pbem.protocol.ordersfile import MAX_REVISION, OrdersFile, build_orders_for_turn
from pbem.protocol.turnfile import TurnFile

FORMAT = "pbem-receipt-2"
SUFFIX = ".receipt"


@dataclass(frozen=True)
class Submitted:
    """What ``submit`` did: ``"new"`` (revision 1), ``"replaced"`` (a later revision) or ``"resent"`` (nothing new)."""

    path: Path
    receipt: Path
    revision: int
    status: str
    built: OrdersFile


def read_receipt(path: Path) -> dict | None:
    """The receipt at ``path``, or None when there is none yet."""
    if not path.exists():
        return None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        shaped = (
            record.get("format") == FORMAT
            and isinstance(record.get("revisions"), list)
            and all({"revision", "orders", "salt", "file", "document"} <= set(item) for item in record["revisions"])
        )
        if not shaped:
            raise ValueError
        return record
    except (ValueError, KeyError, TypeError, AttributeError, OSError):
        raise BadInput("is not a receipt pbem can read", file=str(path),
                       hint="it was edited or made by another pbem version; move it away only if you know what you sent") from None


def _same(a: Any, b: Any) -> bool:
    return canonical_bytes(a) == canonical_bytes(b)


def submit_orders(
    turn: TurnFile, player: PrivateIdentity, side: str, document: Any, *, replace: bool = False, out: Path | None = None
) -> Submitted:
    """Sign ``document`` as ``side``'s orders answering ``turn`` and keep the receipt beside the turn file.

    Without ``replace``: the first revision, or a resend of the latest one
    when ``document`` is the same (nothing new is signed; the file is
    written again only if it is gone or ``out`` asks for a copy).  Different
    orders need ``replace``, which makes the next revision.
    """
    folder = folder_of(turn.source)
    receipt_path = folder / receipt_name(turn.seq, side)
    record = read_receipt(receipt_path)
    if record is not None and (record["game"], record["side"]) != (turn.game, side):
        raise BadInput(f"belongs to another game than {turn.source}", file=str(receipt_path), hint="keep each game in its own folder")
    if record is not None and record["answers"]["turn"] != turn.digest:
        raise BadInput(
            f"you already answered another turn file numbered {turn.seq} ({record['answers']['turn']}), not {turn.source} "
            f"({turn.digest}): {turn.written_by} sent two different turn files with one number",
            file=str(receipt_path), hint="run 'pbem verify' on both turn files and show the result to your opponent",
        )
    revisions = record["revisions"] if record else []
    latest = revisions[-1] if revisions else None
    if latest is not None and _same(latest["document"], document):
        if replace:
            raise BadInput(f"these orders are your revision {latest['revision']} already; there is nothing to replace",
                           file=latest["file"], hint=f"send {latest['file']} again if the referee asks for it")
        built = build_orders_for_turn(player, turn, side, document, revision=latest["revision"])
        path = out or folder / latest["file"]
        if out is not None or not path.exists():
            write_new(path, built.text)
        return Submitted(path, receipt_path, latest["revision"], "resent", built)
    if latest is not None and not replace:
        raise BadInput(
            f"you already sent revision {latest['revision']} of your orders for turn file {turn.seq} ({latest['file']}), "
            "and these orders differ",
            file=str(receipt_path),
            hint=f"to change your orders run 'pbem submit --replace', which makes revision {latest['revision'] + 1}",
        )
    if latest is None and replace:
        raise BadInput(f"there are no orders of yours for turn file {turn.seq} to replace", file=str(receipt_path),
                       hint="submit without --replace")
    revision = latest["revision"] + 1 if latest else 1
    if revision > MAX_REVISION:
        raise BadInput(f"{MAX_REVISION} revisions is the most one turn can have", file=str(receipt_path))
    built = build_orders_for_turn(player, turn, side, document, revision=revision)
    path = out or folder / orders_name(turn.seq, side, revision)
    entry = {"revision": revision, "orders": built.digest, "salt": b64e(built.salt), "file": path.name, "document": document}
    new_record = {"format": FORMAT, "game": turn.game, "answers": {"seq": turn.seq, "turn": turn.digest}, "side": side,
                  "revisions": [*revisions, entry]}
    write_new(path, built.text)
    try:
        write_replacing(receipt_path, json.dumps(new_record, indent=2, ensure_ascii=False) + "\n")
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    return Submitted(path, receipt_path, revision, "replaced" if latest else "new", built)


@dataclass
class ReceiptCheck:
    findings: list[Finding]
    notes: list[str]


def check_receipts(folders: set[Path], turns: list[TurnFile]) -> ReceiptCheck:
    """Each receipt in ``folders`` against the turn file that followed the one it answers."""
    by_prev = {t.prev: t for t in turns if t.prev is not None}
    by_seq = {t.seq: t for t in turns}
    check = ReceiptCheck([], [])
    for folder in sorted(folders):
        for path in sorted(folder.glob(f"*{SUFFIX}")):
            try:
                record = read_receipt(path)
            except BadInput as exc:
                check.findings.append(Finding(str(path), exc.message))
                continue
            assert record is not None
            seq, answered = record["answers"]["seq"], record["answers"]["turn"]
            if by_seq.get(seq) is None or by_seq[seq].game != record["game"]:
                continue
            if by_seq[seq].digest != answered:
                check.findings.append(Finding(str(path), f"your orders answered turn file {seq} {answered}, but the game's "
                                                         f"turn file {seq} is {by_seq[seq].digest}: two histories", seq))
                continue
            following = by_prev.get(answered)
            if following is None:
                continue
            problem, note = _adjudicated(following, record, path.name)
            if problem:
                check.findings.append(Finding(following.source, problem, following.seq))
            if note:
                check.notes.append(note)
    return check


def _adjudicated(following: TurnFile, record: dict, receipt: str) -> tuple[str | None, str | None]:
    """(problem, note) for the turn file adjudicating the turn a receipt answered."""
    header = following.orders_header["body"]
    from pbem.protocol.nmr import is_nmr

    if is_nmr(following.orders_header) and header.get("side") == record["side"]:
        # The referee played the bot's orders for you: by his account yours came after the deadline (his word, docs/judge.md).
        return None, (f"{following.source}: no orders from you reached the referee by the deadline by his account, so he played "
                      f"the bot's orders for you (NMR); your receipt {receipt} shows you sent some — if you sent them in time, ask him why")
    mine = {item["orders"]: item for item in record["revisions"]}
    numbers = [item["revision"] for item in record["revisions"]]
    if header["side"] != record["side"]:
        return f"adjudicated {header['side']} orders for a turn you, {record['side']}, answered (your receipt {receipt})", None
    item = mine.get(following.orders)
    if item is None:
        same_number = [i for i in record["revisions"] if i["revision"] == header["revision"]]
        if same_number:
            return (f"second signed orders with revision {header['revision']}: turn {following.seq} adjudicated "
                    f"{following.orders}, but your revision {header['revision']} is {same_number[0]['orders']} "
                    f"({same_number[0]['file']}; receipt {receipt})"), None
        return (f"turn {following.seq} adjudicated orders {following.orders} (revision {header['revision']}), "
                f"none of yours (revisions {', '.join(map(str, numbers))} in {receipt})"), None
    later = [n for n in numbers if n > item["revision"]]
    listed = sorted(envelope["body"]["revision"] for envelope in following.superseded)
    note = f"{following.source}: adjudicated your revision {item['revision']} ({item['file']})"
    judge = following.writer_name
    if listed:
        note += f"; {judge} lists revision(s) {', '.join(map(str, listed))} as received and superseded"
    if later:
        note += (f"; your later revision {max(later)} did not reach {judge} by his account — if you sent it "
                 "well before he adjudicated, ask him why (docs/PROTOCOL.md, Salts, revisions and receipts)")
    return None, note
