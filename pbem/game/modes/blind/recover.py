"""``pbem blind recover``: the escrow holder opens the escrow parts of a game whose Japanese player vanished.

The parts are :mod:`pbem.game.modes.blind.escrow`'s; this module only reads the
folder, checks that the key is the holder's the genesis names, and writes
``blind-secret-escrow.pbem`` — the published-secret material
``publish-secret`` writes, signed by the holder and naming him — from which
``pbem audit`` runs as after ``publish-secret``.  A part that fails is a
finding against the Japanese player (exit 1), and nothing is written.
"""

from __future__ import annotations

from pathlib import Path

from pbem.errors import BadInput
from pbem.game.modes.blind import escrow as blind_escrow, files as blind_files
from pbem.game.modes.blind.run import Finding
from pbem.protocol import blindfile
from pbem.protocol.files import write_new
from pbem.protocol.keys import PrivateIdentity


def recover(folder: Path, identity: PrivateIdentity) -> tuple[Path | None, list[Finding], bool]:
    """The file written (None when a part fails), the findings, and whether the game was over."""
    held = blind_files.load(folder)
    holder = blind_escrow.holder_of(held.messages[0])
    if holder is None:
        raise BadInput("this game has no escrow: its genesis names no escrow holder", file=str(folder),
                       hint="only the Japanese player can publish its secret (pbem blind publish-secret)")
    if not identity.public.same_keys(holder):
        raise BadInput(f"--key is {identity.public.describe()}, but the escrow of this game is held by "
                       f"{holder.describe()}", file=str(folder),
                       hint="give the escrow holder's own key (the .key of the .pub given to pbem new --escrow)")
    target = folder / blind_escrow.RECOVERED_NAME
    if held.secret_published:
        raise BadInput("the secret is published already" + (f" (recovered by {held.secret_recovered_by})"
                                                            if held.secret_recovered_by else " by the Japanese player"),
                       file=str(folder / (blind_escrow.RECOVERED_NAME if held.secret_recovered_by else blindfile.SECRET_NAME)),
                       hint=f"nothing to recover: pbem audit {folder}")
    secret, orders, found = blind_escrow.open_parts(held, identity)
    if found or secret is None:
        return None, found, held.over
    text = blindfile.write(identity, blind_escrow.recovered_body(held, identity, secret, orders))
    return write_new(target, text), [], held.over
