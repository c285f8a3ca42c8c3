"""A game played by e-mail through the command line, in process: three folders (referee, US, JP) that
exchange only files.  Each side's orders come from a callable, so scripted and bot games share the loop."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Callable

from tests.games import pbem

WriteOrders = Callable[[str, Path, Path, Path, dict], None]
"""``(side, turn file in the side's folder, the side's key, orders file to write, the side's view)``."""


def play_by_mail(base: Path, scenario: str, write_orders: WriteOrders, *, new_args: tuple = (), limit: int = 80) -> dict:
    """Play ``scenario`` to its end; returns the folders, both final views, the last public record, the number of
    adjudications and the side awaited at each."""
    folders = {name: base / name for name in ("ref", "US", "JP")}
    for name, folder in folders.items():
        folder.mkdir()
        pbem("keygen", name.lower(), "--dir", folder, "--no-passphrase")
        (folder / "game").mkdir(exist_ok=True)
    for side in ("US", "JP"):
        shutil.copy(folders[side] / f"{side.lower()}.pub", folders["ref"])
    ref = folders["ref"]
    game = ref / "game"
    said = pbem("new", scenario, "--us", ref / "us.pub", "--jp", ref / "jp.pub", "--referee", ref / "ref.pub", "--key", ref / "ref.key",
                "--out", game, *new_args)
    seq, awaited = 0, []
    while True:
        turn = game / f"turn-{seq:04d}.pbem"
        for side in ("US", "JP"):
            shutil.copy(turn, folders[side] / "game" / turn.name)
        public = json.loads(pbem("view", turn, "--key", ref / "ref.key", "--json"))
        if public["over"]:
            break
        side = public["awaiting"]
        awaited.append(side)
        mine = folders[side] / "game" / turn.name
        key = folders[side] / f"{side.lower()}.key"
        orders = folders[side] / f"orders-{seq}.json"
        write_orders(side, mine, key, orders, json.loads(pbem("view", mine, "--key", key, "--json")))
        pbem("validate", orders, "--turn", mine, "--key", key)
        pbem("submit", orders, "--turn", mine, "--key", key)
        sent = folders[side] / "game" / f"orders-{seq:04d}-{side}.pbem"
        shutil.copy(sent, game / sent.name)
        pbem("adjudicate", turn, game / sent.name, "--key", ref / "ref.key")
        seq += 1
        assert seq <= limit
    final = {side: json.loads(pbem("view", folders[side] / "game" / turn.name, "--key", folders[side] / f"{side.lower()}.key", "--json"))
             for side in ("US", "JP")}
    return {"folders": folders, "final": final, "public": public, "last": seq, "awaited": awaited, "said": said}


def verify_reveal_audit(folders: dict[str, Path], adjudications: int) -> None:
    """Every party's folder verifies; the referee publishes his reveal; each player's folder is audited from it with
    no key, every adjudication replayed."""
    for folder in folders.values():
        assert "verified" in pbem("verify", folder / "game")
    reveal = folders["ref"] / "reveal.pbem"
    pbem("reveal", folders["ref"] / "game", "--key", folders["ref"] / "ref.key", "-o", reveal)
    for side in ("US", "JP"):
        audited = pbem("audit", folders[side] / "game", "--reveal", reveal)
        assert audited.startswith(f"audited {adjudications} adjudication(s)"), audited
