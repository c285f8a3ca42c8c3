"""The escrow of a game with hidden units and no referee: checked by the American player at once, opened only by the
holder and the American player together (issue 36; the first escrow, sealed to the holder alone, was issue 24's).

With ``pbem new … --escrow HOLDER.pub`` the genesis names a third party and
**deals the Japanese per-game secret** between the holder and the American
player with Schoenmakers' publicly verifiable secret sharing
(:mod:`pbem.protocol.pvss`; CRYPTO '99, §3), two of two:

    s random;  S = s·G                      (G the Ed25519 base point)
    secret    = HKDF-SHA256(ikm = S, salt = none, length = 32,
                            info = "pbem-v1/blind-escrow-secret\0" || canonical({game}))
    dealing   = PVSS of s to y_1 = the holder's Ed25519 identity key, y_2 = the American player's,
                threshold 2, context "pbem-v1/blind-escrow-pvss\0" || canonical({game})

The genesis carries the dealing (commitments ``C_0, C_1``, encrypted shares
``Y_1, Y_2``, each with its Chaum–Pedersen proof) and ``escrow.secret``, the
hash of ``secret`` every salt of the game derives from.  The American
player checks the dealing **at once** (:func:`public_findings`, run by his
``pbem blind next`` before anything else): a dealing that does not verify
— garbage, a share for another key, a threshold of one — is a finding
against the Japanese player naming the file, and he does not play on.

**Every** Japanese file ``n`` (the genesis included) carries the orders it
commits, encrypted under a key only the secret derives, so that opening the
secret opens the whole game:

    key_n = HKDF-SHA256(ikm = secret, info = "pbem-v1/blind-escrow-orders\0" || canonical({game, n}), length 32)
    part  = nonce(12, random) || ChaCha20-Poly1305(key_n, nonce, pad(zlib(canonical({game, n, seq, orders}))),
                                                   aad = canonical({game, n, seq}))

padded to a length fixed per game from public data (:func:`floor_bucket`),
as issue 24's parts were (the cryptography is :mod:`.dealing`'s, which the
game played in one process uses too).  Of a part the American player checks
at once its length and that its nonce is no earlier part's (a part copied
from another file); what it holds only the opened secret shows, and
garbage is then a finding naming the file (no proof of verifiable
encryption is built).

**Opening** (``pbem blind recover GAMEDIR --key KEY``, by the holder or the
American player): each opens his own share, ``S_i = x_i^-1·Y_i``, with the
proof ``DLEQ(G, y_i, S_i, Y_i)``, signed, as ``blind-share-holder.pbem`` or
``blind-share-US.pbem``.  With both, anyone combines ``S``, derives the
secret, checks it against ``escrow.secret`` and decrypts every part
(:func:`read_recovered`); ``pbem audit`` then runs as after
``publish-secret``, to the end or to the stall.

What each learns (docs/PROTOCOL.md, *The escrow*): the holder alone, from
the dealing and his share, nothing of ``S`` (one point of a degree-1
polynomial; the rest hidden under DDH, Schoenmakers §4); the American
player alone the same, during the game; the two together everything, once
both have opened their shares.  A part that does not decrypt, or decrypts
to other orders than the file commits, is a finding against the Japanese
player that anyone can check once the secret is open.

The key pairs are the identities' own Ed25519 keys: a PVSS public key is
``x·G`` with ``G`` the Ed25519 base point, which an Ed25519 public key is
(RFC 8032 §5.1.5), so no new key is distributed.
"""

from __future__ import annotations

from pathlib import Path

from pbem.errors import BadInput, VerificationFailed
from pbem.game.modes.blind import run as br, schema as blind_schema
from pbem.game.modes.blind.dealing import (AMERICAN, HOLDER, LARGEST_BUCKET, NONCE_LENGTH, TAG_LENGTH, THRESHOLD,
                                           _dealing_json, _part_key, deal, dealing_from, identity_point,
                                           identity_scalar, open_part, part_aad, pvss_context, seal_part,
                                           secret_from_shares, secret_hash, secret_of)
from pbem.game.sizes import sealed_bucket
from pbem.protocol import blindfile, pvss
from pbem.protocol.canonical import b64d, b64e, parse_canonical
from pbem.protocol.files import read_text
from pbem.protocol.keys import PrivateIdentity, PublicIdentity

PART = "escrow_part"
"""The field of every Japanese file of an escrowed game that holds its escrow part (base64)."""
AT_RECOVERY = "at recovery"
SHARE_N = -2
SHARE_NAMES = {HOLDER: "blind-share-holder.pbem", AMERICAN: "blind-share-US.pbem"}
SHARE_FROM = {HOLDER: "escrow", AMERICAN: "US"}


def dealing_of(genesis: blindfile.Message) -> pvss.Dealing:
    """The genesis's dealing, decoded (PvssError when a field is not base64 of a group element or a proof)."""
    return dealing_from(genesis.body["escrow"]["pvss"])


def participants(held) -> list[bytes]:
    return [identity_point(holder_of(held.messages[0])), identity_point(held.identities["US"])]


def holder_of(genesis: blindfile.Message) -> PublicIdentity | None:
    """The escrow holder the genesis names (signed by the Japanese player), or None in a game without escrow."""
    escrow = genesis.body.get("escrow")
    if escrow is None:
        return None
    return PublicIdentity.from_line(escrow.get("holder", ""), source=genesis.source, field="escrow.holder")


def refuse_earlier_escrow(genesis: blindfile.Message) -> None:
    """A game started with issue 24's escrow (its genesis names a holder and the secret's hash, but deals no PVSS
    shares; every part the secret and the orders sealed to the holder alone) is not read: its escrow cannot be
    checked as every game's is now, and the holder alone could open it.  BadInput naming the genesis, the field, why
    and what to do — never a schema error that calls the file altered."""
    escrow = genesis.body.get("escrow") if isinstance(genesis.body, dict) else None
    if isinstance(escrow, dict) and "pvss" not in escrow and "holder" in escrow:
        raise BadInput("this game was started with the earlier escrow (before issue 36: the Japanese secret and orders "
                       "sealed to the escrow holder alone, which the American player could not check and the holder "
                       "could open alone); this pbem reads only the escrow shared between the holder and the American "
                       "player, so it does not verify, audit or play this game",
                       file=genesis.source, field="escrow",
                       hint="finish and audit it with the pbem that started it (a version from before the shared "
                            "escrow), or start the game again with pbem new --escrow HOLDER.pub")


def refuse_holder(holder: PublicIdentity, us: PublicIdentity, jp: PublicIdentity) -> None:
    """A holder who is one of the players defeats the escrow: he would hold both shares, or the secret's dealer."""
    for side, player in (("US", us), ("JP", jp)):
        if holder.same_keys(player):
            raise BadInput(f"--escrow names the {side} player ({player.describe()}): the escrow holder holds one of "
                           "the two shares that open every marker, so he must be a third party",
                           hint="give a third party's .pub (pbem keygen NAME)")


def floor_bucket(scenario) -> int:
    """The smallest bucket of a part in this scenario's games: the refereed mode's sealed size (public data)."""
    return sealed_bucket(scenario, hidden=True, previous=None)


def _jp_messages(held) -> list[blindfile.Message]:
    return [m for m in held.messages if m.n % 2 == 0]


def _bucket_of(part: bytes) -> int:
    return len(part) - NONCE_LENGTH - TAG_LENGTH


def part_length(bucket: int) -> int:
    return bucket + NONCE_LENGTH + TAG_LENGTH


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
    if holder_of(held.messages[0]) is None:
        return
    seq = (body.get("commit") or {}).get("seq")
    body[PART] = b64e(seal_part(secret, game=held.game, n=body["n"], seq=seq,
                                orders=orders_kept.get(seq) if seq else None, bucket=next_bucket(held)))


# ---------------------------------------------------------------------------------------------- at once, by anyone


def _step_of(message: blindfile.Message) -> int:
    """The step a Japanese file's findings name: the one whose orders it commits, else the one it publishes."""
    commit = message.body.get("commit")
    return commit["seq"] if isinstance(commit, dict) and isinstance(commit.get("seq"), int) else message.n // 2


def dealing_problem(held) -> str | None:
    """Why the genesis's PVSS dealing does not verify against the holder's and the American player's keys, or None."""
    try:
        pvss.verify_dealing(dealing_of(held.messages[0]), participants(held), THRESHOLD,
                            pvss_context(held.game))
    except pvss.PvssError as exc:
        return str(exc)
    return None


def public_findings(held) -> list[br.Finding]:
    """What the American player checks at once of the escrow: the dealing of the secret (Schoenmakers' proofs), and a
    part in every Japanese file, base64 of the public length, its nonce never one of an earlier part's.  What a part
    holds he cannot check without the secret (that would take a proof of verifiable encryption): its associated data
    binds it to the game, the file and the step it commits, so garbage, or a part of another file or step, is a
    finding against the Japanese player, naming the file, when the game is opened (:func:`open_parts`)."""
    holder = holder_of(held.messages[0])
    if holder is None:
        return []
    found, size = [], floor_bucket(held.loaded.scenario)
    genesis = Path(held.messages[0].source).name
    if holder.same_keys(held.identities["JP"]) or holder.same_keys(held.identities["US"]):
        found.append(br.Finding("JP", 0, br.AT_ONCE, f"named a player as the escrow holder in {genesis}: the escrow "
                                "is worthless (it must be a third party)"))
    elif (problem := dealing_problem(held)) is not None:
        found.append(br.Finding("JP", 0, br.AT_ONCE,
                                f"sent an escrow in {genesis} that does not verify ({problem}): the holder and the "
                                "American player could not open the game if he stalls; do not play on"))
    nonces: dict[bytes, str] = {}
    for message in _jp_messages(held):
        name = Path(message.source).name
        text = message.body.get(PART)
        if text is None:
            found.append(br.Finding("JP", _step_of(message), br.AT_ONCE,
                                    f"sent {name} without its escrow part, though his genesis names an escrow holder: "
                                    "if he quits, the step cannot be audited"))
            continue
        try:
            part = b64d(text, source=message.source, field=PART)
        except BadInput:
            part = b""
        bucket = _bucket_of(part)
        if bucket < size or bucket > LARGEST_BUCKET or bucket & (bucket - 1):
            found.append(br.Finding("JP", _step_of(message), br.AT_ONCE,
                                    f"sent an escrow part in {name} of another length than due "
                                    f"({part_length(size)} bytes, or a larger bucket when it grows)"))
            continue
        size = bucket
        nonce = part[:NONCE_LENGTH]  # drawn at random for each part: one seen twice is a part pasted from another file
        if nonce in nonces:
            found.append(br.Finding("JP", _step_of(message), br.AT_ONCE,
                                    f"sent an escrow part in {name} with the nonce of the part in {nonces[nonce]}: a "
                                    "part copied from another file, which cannot hold this file's orders"))
        nonces.setdefault(nonce, name)
    return found


def withheld_note(held) -> str:
    """What the withheld-secret finding adds in an escrowed game: who can close it."""
    holder = holder_of(held.messages[0])
    return "" if holder is None else (f"; the escrow holder, {holder.describe()}, and the American player can open it "
                                      f"together: each runs pbem blind recover GAMEDIR --key HIS.key")


# ---------------------------------------------------------------------------------------------- opening


def open_parts(held, secret: bytes) -> tuple[dict[int, dict], list[br.Finding]]:
    """Every part decrypted with the opened secret and checked: the Japanese orders by step, and the findings (each
    naming the Japanese player, the step and the file) — anyone holding the secret can check them again."""
    orders, found = {}, []
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
            plain = open_part(secret, held.game, message.n, b64d(text, source=message.source, field=PART),
                              commit["seq"] if commit else None)
        except BadInput:
            plain = None
        if plain is None:
            bad("put an escrow part that does not decrypt as this file's with the opened secret (its associated "
                "data binds the game, the file and the step it commits): garbage, or a part of another file, step or "
                "game (replayed)")
            continue
        try:
            doc = parse_canonical(plain, source=f"{name} (escrow part)", what="escrow part")
            blind_schema.check_escrow_part(doc, f"{name} (escrow part)", held.record.own_orders)
        except BadInput as exc:
            bad(f"encrypted an escrow part that opens but is malformed — {exc.field or 'content'}: {exc.message}")
            continue
        if doc["game"] != held.game or doc["n"] != message.n:
            bad(f"encrypted the escrow part of file {doc['n']} of game {doc['game']} into this file")
            continue
        due = commit["seq"] if commit else None
        if doc["seq"] != due:
            bad(f"escrowed the orders of {'step ' + str(doc['seq']) if doc['seq'] else 'no step'} where the file "
                f"commits {'the orders of step ' + str(due) if due else 'none'} (a part of another step)")
            continue
        if due is not None:
            _, nonce = br.orders_salt_nonce(secret, game=held.game, seq=due)
            if br.orders_commitment(nonce, doc["orders"]) != commit["orders"]:
                bad(f"escrowed orders for step {due} that are not the ones the file commits")
                continue
            orders[due] = doc["orders"]
    return orders, found


def index_of(held, identity: PublicIdentity) -> int | None:
    """Which share is this identity's: 1 the holder's, 2 the American player's, None for anyone else."""
    if identity.same_keys(holder_of(held.messages[0])):
        return HOLDER
    if identity.same_keys(held.identities["US"]):
        return AMERICAN
    return None


def share_body(held, identity: PrivateIdentity, index: int) -> dict:
    """The body of ``blind-share-…``: his share decrypted with his key, and its proof (Schoenmakers §3.2)."""
    opened, proof = pvss.decrypt_share(identity_scalar(identity), index, dealing_of(held.messages[0]),
                                       pvss_context(held.game))
    return {"game": held.game, "n": SHARE_N, "from": SHARE_FROM[index], "prev": held.messages[-1].digest,
            "index": index, "share": b64e(opened), "proof": b64e(proof.to_bytes())}


def _who(index: int, held) -> str:
    return (f"the escrow holder ({holder_of(held.messages[0]).describe()})" if index == HOLDER
            else f"the American player ({held.identities['US'].describe()})")


def read_shares(folder: Path, held) -> dict[int, bytes]:
    """The opened shares in the folder, each signed by its participant and proven against the genesis's dealing
    (VerificationFailed naming the file and the participant otherwise)."""
    opened = {}
    for index, name in SHARE_NAMES.items():
        path = folder / name
        if not path.exists():
            continue
        message = blindfile.read(read_text(path, what="opened escrow share"), str(path))
        blind_schema.check_body(message.body, message.source)
        signer = holder_of(held.messages[0]) if index == HOLDER else held.identities["US"]
        redo = f"{_who(index, held)} wrote it wrong: ask him to run pbem blind recover again"
        body = blindfile.check(message, signer, "escrow holder" if index == HOLDER else "US")
        if body["game"] != held.game:
            raise VerificationFailed("is an opened share of another game", file=str(path), field="game",
                                     hint="put only this game's files in the folder")
        if body["index"] != index:
            raise VerificationFailed(f"holds share {body['index']}, not share {index}", file=str(path), field="index",
                                     hint=redo)
        try:
            opened[index] = pvss.verify_share(index, b64d(body["share"], source=str(path), field="share"),
                                              pvss.Proof.from_bytes(b64d(body["proof"], source=str(path), field="proof")),
                                              participants(held)[index - 1], dealing_of(held.messages[0]),
                                              pvss_context(held.game))
        except pvss.PvssError as exc:
            raise VerificationFailed(f"holds a share that is not {_who(index, held)}'s decrypted with his key: {exc}",
                                     file=str(path), field="share", hint=redo) from None
    return opened


def read_recovered(folder: Path, held) -> tuple[bytes, dict[int, dict], str] | None:
    """The secret, the Japanese orders and who opened them, once both shares are in the folder; None before.  What the
    parts fail is added to ``held.problems``, naming the Japanese player (anyone can check it again)."""
    if holder_of(held.messages[0]) is None or not any((folder / name).exists() for name in SHARE_NAMES.values()):
        return None
    if dealing_problem(held) is not None:  # public_findings names the Japanese player: there is no share to read
        return None
    opened = read_shares(folder, held)
    if len(opened) < THRESHOLD:
        return None
    secret = secret_from_shares(opened, held.messages[0].body["escrow"], held.game)
    if secret is None:
        held.problems.append(br.Finding("JP", 0, AT_RECOVERY, "dealt another secret in the escrow of "
                                        f"{Path(held.messages[0].source).name} than the one he committed"))
        return None
    orders, found = open_parts(held, secret)
    held.problems.extend(found)
    return secret, orders, f"{holder_of(held.messages[0]).describe()} and the American player"
