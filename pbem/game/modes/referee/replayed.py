"""What ``pbem status --key`` replayed before: a player's own record, kept beside his turn files.

``status`` with the player's key checks what ``verify --replay-mine`` checks
(issue 19 item 8), which means replaying each of his own player-turns with
the engine.  The replay's outcome is fixed by its inputs — the turn file
(whose signed ``prev`` chain pins every file before it, the scenario and the
ruleset), the orders document kept in his receipt (or, for no moves
received, the bot's orders recomputed from his view), his key and pbem's
version — so a replay that found nothing wrong need not be repeated at every
``status``: it is remembered as a *mark*, an HMAC of those inputs under a
key derived from the player's private signing key.  So is each of his
views found whole (built into the engine's models, as ``verify
--replay-mine`` builds them), so that a later ``status`` reads a remembered
view as ``pbem view`` does, without loading the models.

Why a remembered mark cannot be abused:

* a changed turn file, receipt or pbem version gives another mark, which is
  not in the record, so that player-turn is replayed again;
* only marks of replays that found nothing are written, so a bad file is
  reported at every run;
* the record is keyed to the player's private key: the referee, the
  opponent or a mail attachment cannot write a mark his key accepts (and
  the marks say nothing about his files without it);
* an unreadable or foreign record is ignored and written anew; a record
  that cannot be written costs only speed.

``verify --replay-mine`` always replays everything, so a player who wants
every check made again has it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path

from pbem import __version__
from pbem.protocol.canonical import canonical_bytes
from pbem.protocol.keys import PrivateIdentity
from pbem.protocol.turnfile import TurnFile

FORMAT = "pbem-replayed-1"
_KEY_DOMAIN = b"pbem-v1/replayed-key\0"
_MARK_DOMAIN = b"pbem-v1/replayed\0"


def record_path(folder: Path, side: str) -> Path:
    """Where ``side``'s record is kept in ``folder``: a hidden file, named apart from turn files and receipts."""
    return folder / f".pbem-replayed-{side}.json"


class Replayed:
    """The marks of ``side``'s player-turns replayed before in ``folder`` with ``player``'s key."""

    def __init__(self, folder: Path, side: str, player: PrivateIdentity) -> None:
        self.path = record_path(folder, side)
        self.side = side
        self._key = hashlib.sha256(_KEY_DOMAIN + player.signing_key.private_bytes_raw()).digest()
        self.marks = self._read()
        self._new: set[str] = set()

    def _read(self) -> set[str]:
        try:
            record = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            return set()
        marks = record.get("marks") if isinstance(record, dict) and record.get("format") == FORMAT else None
        return {m for m in marks if isinstance(m, str)} if isinstance(marks, list) else set()

    def mark(self, turn: TurnFile, document) -> str:
        """The mark of replaying ``turn`` with ``document`` (None: no moves received, the bot's orders)."""
        orders = b"nmr" if document is None else hashlib.sha256(canonical_bytes(document)).digest()  # the only raw field: last
        message = b"\0".join([_MARK_DOMAIN, __version__.encode(), self.side.encode(), turn.digest.encode(), orders])
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()

    def view_mark(self, turn: TurnFile) -> str:
        """The mark of ``side``'s view in ``turn`` found whole: built into the engine's models without a fault."""
        message = b"\0".join([_MARK_DOMAIN, __version__.encode(), self.side.encode(), turn.digest.encode(), b"view"])
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()

    def __contains__(self, mark: str) -> bool:
        return mark in self.marks

    def add(self, mark: str) -> None:
        """Remember a replay that found nothing wrong."""
        if mark not in self.marks:
            self._new.add(mark)

    def save(self) -> None:
        """Write the record (temporary file and rename) if a mark was added; a failure to write is not an error."""
        if not self._new:
            return
        from pbem.errors import PbemError
        from pbem.protocol.files import write_replacing

        record = {"format": FORMAT, "marks": sorted(self.marks | self._new)}
        try:
            write_replacing(self.path, json.dumps(record, indent=0) + "\n", mode=0o600)
        except (OSError, PbemError):
            return
        self.marks |= self._new
        self._new = set()
