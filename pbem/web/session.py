"""One player's sitting at the page: his turn file, his key, his orders file, and the orders as they stand.

The key is opened in the terminal before the page exists; the page never
sees the passphrase.  Saving never overwrites a file this sitting did not
load or write without the player saying so; submitting is
:func:`pbem.game.receipts.submit_orders`, exactly as ``pbem submit``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.errors import BadInput, PbemError
from pbem.protocol.keys import PrivateIdentity
from pbem.protocol.turnfile import TurnFile

EMPTY: dict[str, Any] = {"moves": [], "attacks": []}


def default_orders_path(turn_path: Path, seq: int, side: str) -> Path:
    """Beside the turn file: ``orders-NNNN-SIDE.json`` (the signed file ``pbem submit`` writes is ``.pbem``)."""
    return turn_path.parent / f"orders-{seq:04d}-{side}.json"


def orders_text(document: Any) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


class NeedsConsent(Exception):
    """The action would replace something: the page asks the player, then calls again with consent."""

    def __init__(self, question: str) -> None:
        super().__init__(question)
        self.question = question


@dataclass
class Sitting:
    turn_path: Path
    turn: TurnFile
    identity: PrivateIdentity
    side: str
    planner: Any
    """The rules system's planner for the page (:meth:`pbem.systems.base.RulesSystem.planner`): the clicking one, or
    orders written as JSON (``clicks`` false)."""
    orders_path: Path
    document: dict[str, Any] = field(default_factory=lambda: dict(EMPTY))
    loaded_from: str | None = None
    """The text of the orders file as this sitting last read or wrote it: overwriting that needs no question."""
    load_note: str | None = None

    @classmethod
    def open(cls, turn_path: Path, identity: PrivateIdentity, orders_path: Path | None) -> "Sitting":
        """The player's view of ``turn_path`` (his turn to give orders, else BadInput), with his orders file loaded if it exists."""
        from pbem.loading.turns import open_turn
        from pbem.game.player import side_to_move
        from pbem.systems import system_of

        game = open_turn(turn_path)
        turn = game.turn
        side, view = side_to_move(turn, identity)
        path = orders_path or default_orders_path(turn_path, turn.seq, side)
        planner = system_of(game.scenario).planner(view, game.scenario, str(path))
        sitting = cls(turn_path, turn, identity, side, planner, path)
        if not planner.clicks:  # orders written as JSON start from the phase's template
            sitting.document = dict(planner.blank)
        if path.exists():
            sitting.load()
        return sitting

    # -- the orders file ------------------------------------------------------------
    def load(self) -> dict[str, Any]:
        """Read the orders file back into the page (BadInput naming the file when it is not JSON)."""
        from pbem.loading.jsonfile import read_json

        document = read_json(self.orders_path)
        if not isinstance(document, dict):
            raise BadInput("is not an orders object", file=str(self.orders_path), hint="an orders file is a JSON object with 'moves' and 'attacks'")
        self.document = document
        self.loaded_from = self.orders_path.read_text(encoding="utf-8")
        return document

    def save(self, document: dict[str, Any], overwrite: bool = False) -> Path:
        """Write ``document`` to the orders file (temp name + rename); NeedsConsent to replace a file not ours."""
        from pbem.protocol.files import write_new, write_replacing

        self.document = document
        text = orders_text(document)
        path = self.orders_path
        if path.exists():
            current = path.read_text(encoding="utf-8", errors="replace")
            if current != self.loaded_from and not overwrite:
                raise NeedsConsent(f"{path} exists and is not the file this page loaded or saved: replace it?")
            write_replacing(path, text)
        else:
            write_new(path, text)
        self.loaded_from = text
        return path

    # -- signing ----------------------------------------------------------------------
    def submit(self, document: dict[str, Any], replace: bool = False) -> dict[str, Any]:
        """Sign and seal as ``pbem submit`` does; the file written, the revision and the mail to send."""
        from pbem.game.receipts import submit_orders
        from pbem.game.status import submission_mail

        self.document = document
        found = self.planner.problems(document)
        if found:
            raise BadInput(f"the orders have {len(found)} problem(s); nothing was signed", file=str(self.orders_path),
                           hint="fix every problem in the list, then submit again")
        try:
            done = submit_orders(self.turn, self.identity, self.side, document, replace=replace)
        except BadInput as exc:
            if not replace and "already sent revision" in exc.message:
                raise NeedsConsent(exc.render() + " Send these orders as a new revision?") from exc
            raise
        to, mail = submission_mail(self.turn, self.side, done.path, done.revision)
        return {"path": str(done.path), "revision": done.revision, "status": done.status, "to": addressee(to), "mail": mail}


def addressee(to: str) -> str:
    """Whom the signed orders go to, in the words of both kinds of referee game: a person's, or one ``pbem judge`` runs."""
    if to == "the referee":
        return "the referee (in a game the judge runs: the judge, by a reply to its turn-file mail with this file attached)"
    return to


def failure(exc: PbemError) -> str:
    return exc.render()
