"""``pbem blind recover``: the escrow holder, or the American player, opens his share of the Japanese secret.

The escrow is :mod:`pbem.game.modes.blind.escrow`'s: the genesis deals the
per-game secret between the holder (share 1) and the American player
(share 2), both needed.  Each runs ``pbem blind recover GAMEDIR --key
HIS.key`` once the Japanese player has stalled (:mod:`.stall`: the file he owes an answer to has waited the
game's stall period, 14 days unless ``pbem new --stall-days`` chose another) or withheld his secret at the end: it
checks that the key is one of the two the genesis names and writes his
share, decrypted with his key and proven (``blind-share-holder.pbem`` or
``blind-share-US.pbem``).  With both in the folder, anyone reads the secret
and every Japanese order from the files (``pbem audit``), and a part that
fails is a finding against the Japanese player (exit 1).
"""

from __future__ import annotations

from pathlib import Path

from pbem.errors import BadInput, VerificationFailed
from pbem.game.modes.blind import escrow as blind_escrow, files as blind_files
from pbem.game.modes.blind.run import Finding
from pbem.game.modes.blind.stall import left_unanswered, stall, stall_days
from pbem.protocol import blindfile
from pbem.protocol.files import write_new
from pbem.protocol.keys import PrivateIdentity


def recover(folder: Path, identity: PrivateIdentity) -> tuple[Path, list[Finding], bool, bool]:
    """The share file written, the findings of the parts once both shares are in, whether the game was over, and
    whether the secret is now open."""
    held = blind_files.load(folder)
    holder = blind_escrow.holder_of(held.messages[0])
    if holder is None:
        raise BadInput("this game has no escrow: its genesis names no escrow holder", file=str(folder),
                       hint="only the Japanese player can publish its secret (pbem blind publish-secret)")
    index = blind_escrow.index_of(held, identity.public)
    if index is None:
        raise BadInput(f"--key is {identity.public.describe()}, but the escrow of this game is held by "
                       f"{holder.describe()} and the American player ({held.identities['US'].describe()})",
                       file=str(folder), hint="give the escrow holder's own key, or the American player's")
    if held.secret_published:
        raise BadInput("the secret is published already" + (f" (opened by {held.secret_recovered_by})"
                                                            if held.secret_recovered_by else " by the Japanese player"),
                       file=str(folder), hint=f"nothing to recover: pbem audit {folder}")
    if (problem := blind_escrow.dealing_problem(held)) is not None:
        raise VerificationFailed(f"the Japanese player's escrow does not verify ({problem}): there is no share to open",
                                 file=str(folder / blindfile.file_name(0)), field="escrow.pvss",
                                 hint="a finding against the Japanese player: pbem verify names it")
    if held.next_writer == "US" and not held.over:
        raise BadInput("the American player owes the next file: the Japanese player has not stalled", file=str(folder),
                       hint="a share is opened only when the Japanese player stalls or withholds his secret: "
                            "pbem status says who is awaited")
    if not held.over and stall(held) is None:  # both shares open every marker: not while the game may go on
        waiting = left_unanswered(held)
        raise BadInput(f"the Japanese player has been awaited only since {waiting.since.date().isoformat()}: a game "
                       f"is stalled after {stall_days(held)} days without an answer (its genesis pins it)", file=str(folder),
                       hint="a share is opened only when the Japanese player stalls or withholds his secret; "
                            "pbem status says when the game stalls")
    text = blindfile.write(identity, blind_escrow.share_body(held, identity, index))
    target = write_new(folder / blind_escrow.SHARE_NAMES[index], text)
    held = blind_files.load(folder)
    found = [f for f in held.problems if f.when == blind_escrow.AT_RECOVERY]
    return target, found, held.over, held.secret_published
