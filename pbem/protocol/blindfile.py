"""The files of a game with hidden units and no referee: one signed message per file, alternating JP and US.

Each file is an armoured block of kind ``BLIND`` (headers ``Game`` and
``Number``) whose payload is the canonical JSON of a signed envelope
(:mod:`pbem.protocol.signing`, context ``"blind"``) made with its writer's
key.  Its body::

    {"format": "pbem-blind-1", "mode": "hidden-no-referee", "game": "<hex>", "n": 0, "from": "JP"|"US",
     "prev": null | "sha256:<hex of the previous file's payload>", ...what the message carries}

File ``n`` is the Japanese player's when ``n`` is even (``blind-NNNN-JP.pbem``:
the genesis, then the publication of step ``n/2``), the American player's
when it is odd (``blind-NNNN-US.pbem``: his acknowledgement of the root
just published, with his next orders or his revealed seed).  The Japanese
player's secret, published at the end, is ``blind-secret-JP.pbem``.  What a
message holds is the game layer's (:mod:`pbem.game.modes.blind.files`); here is
only the envelope, the names and the chain.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timezone
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.errors import BadInput
from pbem.protocol import signing
from pbem.protocol.armour import armour, dearmour
from pbem.protocol.canonical import DIGEST_PREFIX, canonical_bytes, parse_canonical
from pbem.protocol.keys import PrivateIdentity, PublicIdentity

KIND = "BLIND"
CONTEXT = "blind"
FORMAT = "pbem-blind-1"
MODE = "hidden-no-referee"
SECRET_NAME = "blind-secret-JP.pbem"
SECRET_N = -1  # the number the secret's file carries: it follows no particular file
NUMBERED = _NAME = re.compile(r"blind-(\d{4})-(US|JP)\.pbem")


def writer_of(n: int) -> str:
    """Who writes file ``n``: the Japanese player the even ones (genesis, publications), the American the odd ones."""
    return "JP" if n % 2 == 0 else "US"


def file_name(n: int) -> str:
    return f"blind-{n:04d}-{writer_of(n)}.pbem"


def is_blind_folder(folder: Path) -> bool:
    """A folder holding such a game: its genesis file is there."""
    return folder.is_dir() and (folder / file_name(0)).exists()


def is_blind_path(path: Path) -> bool:
    """A blind game's folder, one of its message files or its published secret: what view, show and dice are given."""
    if path.is_dir():  # its genesis, or any of its numbered files (load names the one missing)
        return is_blind_folder(path) or any(_NAME.fullmatch(p.name) for p in path.iterdir())
    return bool(_NAME.fullmatch(path.name)) or path.name == SECRET_NAME


def numbered_files(folder: Path) -> list[Path]:
    """The message files of the folder, in order; a gap is BadInput naming the missing file."""
    found = sorted((int(m.group(1)), p) for p in folder.iterdir() if (m := _NAME.fullmatch(p.name)))
    for (n, first), (other, second) in zip(found, found[1:]):
        if n == other:  # a file saved under the other writer's name too: which one is the game's cannot be guessed
            raise BadInput(f"two files numbered {n}: {first.name} and {second.name}", file=str(folder),
                           hint=f"file {n} is the {writer_of(n)} player's, {file_name(n)}: keep the one he sent, remove the other")
    for expected, (n, path) in enumerate(found):
        if n != expected:
            raise BadInput(f"{file_name(expected)} is missing, but {path.name} is here", file=str(folder),
                           hint=f"put every file of the game in the folder; ask whoever wrote {file_name(expected)} for it")
    return [p for _, p in found]


@dataclass(frozen=True)
class Message:
    """One message as read: its body (signature not yet checked against a known key), envelope and digest."""

    body: dict
    envelope: dict
    digest: str
    source: str

    @property
    def n(self) -> int:
        return self.body["n"]


def write(identity: PrivateIdentity, body: dict) -> str:
    """The armoured text of ``body`` signed by ``identity``."""
    body = {"format": FORMAT, "mode": MODE, "sent": sent_now(), **body}
    envelope = signing.sign(identity, body, CONTEXT)
    return armour(KIND, canonical_bytes(envelope), {"Game": body["game"], "Number": str(body["n"])})


def sent_now() -> str:
    """The date a message is signed with (UTC, to the second): a stall is dated from the file left unanswered."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def read(text: str, source: str) -> Message:
    """A message's envelope and body, with its header checked against the signed content (signature: :func:`check`)."""
    _, headers, payload = dearmour(text, KIND, source)
    envelope = parse_canonical(payload, source=source)
    body = envelope.get("body") if isinstance(envelope, dict) else None
    if not isinstance(body, dict) or body.get("format") != FORMAT or not isinstance(body.get("n"), int):
        raise BadInput(f"not a {FORMAT} message", file=source, hint="ask its writer to send it again, attached whole")
    if headers.get("Number") != str(body["n"]) or headers.get("Game") != body.get("game"):
        raise BadInput("the armour headers do not match the signed content", file=source, field="Number",
                       hint="the file was altered; ask its writer to send it again")
    return Message(body, envelope, DIGEST_PREFIX + hashlib.sha256(payload).hexdigest(), source)


def check(message: Message, identity: PublicIdentity, role: str) -> dict:
    """The body, if ``role``'s ``identity`` signed it (VerificationFailed naming the file otherwise)."""
    return signing.verify(message.envelope, identity, CONTEXT, source=message.source, role=role)


def body_field(message: Message, key: str, kind: type | tuple[type, ...] = object) -> Any:
    """A field of a message's body, BadInput naming the file and the field when it is missing or of the wrong type."""
    value = message.body.get(key)
    if value is None or not isinstance(value, kind):
        raise BadInput(f"the message has no valid '{key}'", file=message.source, field=key,
                       hint="the file was made by another program or altered; ask its writer for it again")
    return value
