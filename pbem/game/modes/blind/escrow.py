"""The escrow of a game with hidden units and no referee: what the audit needs, sealed to a third party (issue 24).

A Japanese player who quits can withhold his per-game secret, and with it
the audit.  With ``pbem new … --escrow HOLDER.pub`` the genesis names a third
party (signed: both players see who holds the escrow) and commits the hash
of the secret; then **every** Japanese file carries an **escrow part**
sealed to the holder (HPKE, :mod:`pbem.protocol.sealing`) holding the
secret and the Japanese orders that file commits.  If the Japanese player
vanishes, the holder runs ``pbem blind recover GAMEDIR --key HOLDER.key``:
each part is opened and checked, and the secret and every committed order
are written, signed by the holder, as ``blind-secret-escrow.pbem`` — from
which ``pbem audit`` runs to the end as after ``publish-secret``.

What the American player learns from a part: nothing but its length, and
that is fixed per game from public data (:func:`floor_bucket`, the sealed
parts' size of the refereed mode, issue 19 item 5), growing only as a
sealed part of a turn file does, never below the previous part's.  What he
checks at once (:func:`public_findings`): a part in every Japanese file, of
that length.  What only the holder can check, at recovery
(:func:`open_parts`): that each part opens as *that* file's (the HPKE
``info`` binds the game and the file number, so a part copied from another
file does not open), holds the secret whose hash the genesis committed, and
the orders of exactly the step that file commits, matching the commitment.
Any failure is a finding against the Japanese player naming the file and
the step (docs/PROTOCOL.md, *After the game: the secret, the audit, the
escrow*).

Exact construction::

    secret hash = "sha256:" || hex(SHA-256("pbem-v1/blind-secret\\0" || S))
    plaintext   = canonical({"game", "n", "secret": b64(S), "seq": <step committed, or null>, "orders": <or null>})
    part        = HPKE seal of zlib(plaintext) padded to the bucket (sealing.py),
                  info = "pbem-v1/blind-escrow\\0" || canonical({"game", "n"})
"""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path
from typing import Any

from pbem.errors import BadInput, VerificationFailed
from pbem.game.modes.blind import run as br, schema as blind_schema
from pbem.game.sizes import sealed_bucket
from pbem.protocol import blindfile, sealing
from pbem.protocol.canonical import DIGEST_PREFIX, b64d, b64e, canonical_bytes, parse_canonical
from pbem.protocol.files import read_text
from pbem.protocol.keys import PrivateIdentity, PublicIdentity

PART = "escrow_part"
"""The field of every Japanese file of an escrowed game that holds its escrow part (base64)."""
KIND = "blind-escrow"
RECOVERED_NAME = "blind-secret-escrow.pbem"
AT_RECOVERY = "at recovery"
LARGEST_BUCKET = 1024 * 1024
"""No escrow part grows past this (an order of every unit of the largest scenario is far smaller)."""
_SECRET_INFO = b"pbem-v1/blind-secret\x00"


def secret_hash(secret: bytes) -> str:
    """What the genesis of an escrowed game commits: the holder checks the secret he recovers against it."""
    return DIGEST_PREFIX + hashlib.sha256(_SECRET_INFO + secret).hexdigest()


def genesis_fields(holder: PublicIdentity, secret: bytes) -> dict:
    return {"escrow": {"holder": holder.line(), "secret": secret_hash(secret)}}


def holder_of(genesis: blindfile.Message) -> PublicIdentity | None:
    """The escrow holder the genesis names (signed by the Japanese player), or None in a game without escrow."""
    escrow = genesis.body.get("escrow")
    if escrow is None:
        return None
    return PublicIdentity.from_line(escrow.get("holder", ""), source=genesis.source, field="escrow.holder")


def refuse_holder(holder: PublicIdentity, us: PublicIdentity, jp: PublicIdentity) -> None:
    """A holder who is one of the players defeats the escrow: the American player would read every marker."""
    for side, player in (("US", us), ("JP", jp)):
        if holder.same_keys(player):
            raise BadInput(f"--escrow names the {side} player ({player.describe()}): the escrow holder opens every "
                           "marker, so he must be a third party", hint="give a third party's .pub (pbem keygen NAME)")


def floor_bucket(scenario) -> int:
    """The smallest bucket of a part in this scenario's games: the refereed mode's sealed size (public data)."""
    return sealed_bucket(scenario, hidden=True, previous=None)


def part_info(game: str, n: int) -> bytes:
    return sealing.seal_info(KIND, {"game": game, "n": n})


def seal_part(holder: PublicIdentity, *, game: str, n: int, secret: bytes, seq: int | None, orders: Any,
              bucket: int) -> bytes:
    """The escrow part of file ``n``: the secret and the orders of step ``seq`` it commits, at least ``bucket`` long."""
    plaintext = canonical_bytes({"game": game, "n": n, "secret": b64e(secret), "seq": seq, "orders": orders})
    return sealing.seal_compressed(sealing.compress(plaintext), holder, part_info(game, n), min_bucket=bucket)


def _jp_messages(held) -> list[blindfile.Message]:
    return [m for m in held.messages if m.n % 2 == 0]


def _bucket_of(part: bytes) -> int:
    return len(part) - sealing.ENC_LENGTH - sealing.TAG_LENGTH


def next_bucket(held) -> int:
    """The bucket of the next Japanese file's part: the floor, or the previous part's if it grew."""
    size = floor_bucket(held.loaded.scenario)
    for message in _jp_messages(held):
        try:
            size = max(size, _bucket_of(b64d(message.body.get(PART))))
        except BadInput:
            pass
    return size


def attach(held, body: dict, secret: bytes, orders_kept: dict[int, dict]) -> None:
    """Put the escrow part into the Japanese player's next file ``body``, when the game has an escrow."""
    holder = holder_of(held.messages[0])
    if holder is None:
        return
    seq = (body.get("commit") or {}).get("seq")
    body[PART] = b64e(seal_part(holder, game=held.game, n=body["n"], secret=secret, seq=seq,
                                orders=orders_kept.get(seq) if seq else None, bucket=next_bucket(held)))


# ---------------------------------------------------------------------------------------------- at once, by anyone


def _step_of(message: blindfile.Message) -> int:
    """The step a Japanese file's findings name: the one whose orders it commits, else the one it publishes."""
    commit = message.body.get("commit")
    return commit["seq"] if isinstance(commit, dict) and isinstance(commit.get("seq"), int) else message.n // 2


def public_findings(held) -> list[br.Finding]:
    """What the American player checks at once of the escrow: a part in every Japanese file, of the public length."""
    holder = holder_of(held.messages[0])
    if holder is None:
        return []
    found, size = [], floor_bucket(held.loaded.scenario)
    if holder.same_keys(held.identities["JP"]):  # an escrow to himself closes nothing
        found.append(br.Finding("JP", 0, br.AT_ONCE, "named himself as the escrow holder: the escrow is worthless"))
    for message in _jp_messages(held):
        name = Path(message.source).name
        text = message.body.get(PART)
        if text is None:
            found.append(br.Finding("JP", _step_of(message), br.AT_ONCE,
                                    f"sent {name} without its escrow part, though his genesis names an escrow holder: "
                                    "if he quits, the step cannot be audited"))
            continue
        try:
            bucket = _bucket_of(b64d(text, source=message.source, field=PART))
        except BadInput:
            bucket = -1
        if bucket < size or bucket > LARGEST_BUCKET or bucket & (bucket - 1):
            found.append(br.Finding("JP", _step_of(message), br.AT_ONCE,
                                    f"sent an escrow part in {name} of another length than due "
                                    f"({sealing.sealed_length(size)} bytes, or a larger bucket when it grows)"))
            continue
        size = bucket
    return found


def withheld_note(held) -> str:
    """What the withheld-secret finding adds in an escrowed game: who can close it."""
    holder = holder_of(held.messages[0])
    return "" if holder is None else (f"; the escrow holder, {holder.describe()}, can recover it: "
                                      f"pbem blind recover GAMEDIR --key HOLDER.key")


# ---------------------------------------------------------------------------------------------- by the holder


def open_parts(held, identity: PrivateIdentity) -> tuple[bytes | None, dict[int, dict], list[br.Finding]]:
    """Every part opened with the holder's key and checked: the secret, the Japanese orders by step, the findings
    (each naming the Japanese player, the step and the file)."""
    committed = held.messages[0].body["escrow"]["secret"]
    secret, orders, found = None, {}, []
    for message in _jp_messages(held):
        name, step = Path(message.source).name, _step_of(message)
        commit = message.body.get("commit") if isinstance(message.body.get("commit"), dict) else None

        def bad(what: str) -> None:
            found.append(br.Finding("JP", step, AT_RECOVERY, f"{what} (the escrow part of {name})"))

        text = message.body.get(PART)
        if text is None:
            bad("sent no escrow part")
            continue
        try:
            sealed = b64d(text, source=message.source, field=PART)
            plain = sealing.open_sealed(sealed, identity, part_info(held.game, message.n), what="the escrow part",
                                        source=message.source, field=PART, limit=LARGEST_BUCKET)
        except BadInput:  # HPKE cannot tell garbage from another file's part: both are his
            bad("put an escrow part that does not open as this file's with the holder's key: garbage, or a part "
                "sealed for another file or game (replayed)")
            continue
        try:
            doc = parse_canonical(plain, source=f"{name} (escrow part)", what="escrow part")
            blind_schema.check_escrow_part(doc, f"{name} (escrow part)")
        except BadInput as exc:
            bad(f"sealed an escrow part that opens but is malformed — {exc.field or 'content'}: {exc.message}")
            continue
        if doc["game"] != held.game or doc["n"] != message.n:
            bad(f"sealed the escrow part of file {doc['n']} of game {doc['game']} into this file")
            continue
        mine = b64d(doc["secret"], source=message.source, field=PART)
        if not hmac.compare_digest(secret_hash(mine).encode(), str(committed).encode()):
            bad("escrowed a secret that is not the one his genesis committed")
            continue
        secret = mine
        due = commit["seq"] if commit else None
        if doc["seq"] != due:
            bad(f"escrowed the orders of {'step ' + str(doc['seq']) if doc['seq'] else 'no step'} where the file "
                f"commits {'the orders of step ' + str(due) if due else 'none'} (a part of another step)")
            continue
        if due is not None:
            _, nonce = br.orders_salt_nonce(mine, game=held.game, seq=due)
            if br.orders_commitment(nonce, doc["orders"]) != commit["orders"]:
                bad(f"escrowed orders for step {due} that are not the ones the file commits")
                continue
            orders[due] = doc["orders"]
    return secret, orders, found


def recovered_body(held, identity: PrivateIdentity, secret: bytes, orders: dict[int, dict]) -> dict:
    """The published-secret material, as ``publish-secret`` writes it, but from the holder and naming him."""
    return {"game": held.game, "n": blindfile.SECRET_N, "from": "escrow", "prev": held.messages[-1].digest,
            "holder": identity.public.line(), "secret": b64e(secret),
            "orders": {str(k): v for k, v in sorted(orders.items())}}


def read_recovered(folder: Path, held) -> tuple[bytes, dict[int, dict], str] | None:
    """The secret, the orders and the holder's name from ``blind-secret-escrow.pbem``, signed by the holder the
    genesis names and holding the secret it committed; None when there is no such file."""
    path = folder / RECOVERED_NAME
    if not path.exists():
        return None
    message = blindfile.read(read_text(path, what="recovered secret file"), str(path))
    blind_schema.check_body(message.body, message.source)
    holder = holder_of(held.messages[0])
    if holder is None:
        raise VerificationFailed("is a secret recovered from an escrow, but this game's genesis names no escrow holder",
                                 file=str(path), field="from", hint="put only this game's files in the folder")
    body = blindfile.check(message, holder, "escrow holder")
    if body["game"] != held.game:
        raise VerificationFailed("is the recovered secret of another game", file=str(path), field="game",
                                 hint="ask the escrow holder for this game's")
    secret = b64d(body["secret"], source=str(path), field="secret")
    redo = f"the escrow holder ({holder.describe()}) wrote it wrong: ask him to run pbem blind recover again"
    if secret_hash(secret) != held.messages[0].body["escrow"]["secret"]:
        raise VerificationFailed("holds a secret that is not the one the genesis committed", file=str(path),
                                 field="secret", hint=redo)
    orders = {int(k): v for k, v in body["orders"].items()}
    for seq, committed in sorted(held.record.jp_commitments.items()):  # his word is checked too: he cannot frame JP
        _, nonce = br.orders_salt_nonce(secret, game=held.game, seq=seq)
        if seq not in orders or br.orders_commitment(nonce, orders[seq]) != committed:
            raise VerificationFailed(f"holds {'no' if seq not in orders else 'other'} orders for step {seq} than the "
                                     "Japanese player committed", file=str(path), field=f"orders.{seq}", hint=redo)
    return secret, orders, holder.describe()
