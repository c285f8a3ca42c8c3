"""A player's receipt for the orders he sent, and the check it makes possible.

``pbem submit`` keeps, beside the orders file, the digest of the signed
orders and the salt they carry.  When the next turn file arrives, the receipt
shows whether the referee adjudicated exactly those orders with exactly that
salt — the salt being what keeps the referee from choosing the dice.
"""

from __future__ import annotations

import json
from pathlib import Path

from pbem.protocol.canonical import b64d
from pbem.protocol.chain import Finding
from pbem.protocol.files import write_new
from pbem.protocol.ordersfile import OrdersFile, adjudication_problem
from pbem.protocol.turnfile import TurnFile

SUFFIX = ".receipt"


def write_receipt(orders_path: Path, turn: TurnFile, side: str, built: OrdersFile) -> Path:
    receipt = orders_path.with_name(orders_path.name + SUFFIX)
    record = {"game": turn.game, "answers": turn.seq, "side": side, "orders": built.digest, "salt": built.envelope["body"]["salt"]}
    write_new(receipt, json.dumps(record, indent=2) + "\n")
    return receipt


def receipt_findings(folders: set[Path], turns: list[TurnFile]) -> list[Finding]:
    """Every receipt in ``folders`` whose orders the following turn file did not adjudicate as sent."""
    by_seq = {t.seq: t for t in turns}
    findings = []
    for folder in sorted(folders):
        for receipt in sorted(folder.glob(f"*{SUFFIX}")):
            try:
                data = json.loads(receipt.read_text(encoding="utf-8"))
                following = by_seq.get(data["answers"] + 1)
                if following is None or following.game != data["game"]:
                    continue
                problem = adjudication_problem(following, data["orders"], b64d(data["salt"]))
            except (ValueError, KeyError, TypeError):
                findings.append(Finding(str(receipt), "unreadable receipt"))
                continue
            if problem:
                findings.append(Finding(following.source, f"{problem} (your receipt {receipt.name})", following.seq))
    return findings
