"""Reveal files: the openings of a game's sealed parts, so that anyone can audit it without a key.

No party ever hands over a key.  At the end of a game (or whenever the
players agree) the referee runs ``pbem reveal GAMEDIR --key REF.key -o
FILE``; a player may do the same with his own key to publish only his own
views (to prove a lying view to a third party) and his own orders.  Every
item is checked against a commitment the turn files already carry, so a
reveal file needs no signature: a forged opening simply fails to match.

Format: the armoured block ``REVEAL`` (header ``Game``) whose payload is the
canonical JSON of::

    {"format": "pbem-reveal-1", "game": "<id>", "by": "referee" | "US" | "JP",
     "turns": [{"seq": 0,
                "state": null | {"nonce": <b64>, "state": <full state>},   # state_commitment
                "view_nonces": null | {"US": <b64>, "JP": <b64>},          # view_commitments, views rebuilt by replay
                "views": {SIDE: {"nonce": <b64>, "view": <view>}, …},      # view_commitments, views as sent
                "orders": null | {"nonce": <b64>, "orders": <orders>},     # the published header's commitment
                "superseded": [{"digest": <orders digest>, "nonce": <b64>, "orders": <orders>}, …]},  # optional
               …]}

``superseded`` (issue 37) opens each earlier revision the turn file lists as
superseded, named by its orders digest: the audit checks each against its
signed header and replays it too, with the same seed and (per player-turn)
the same salt.  It is written only when there is something to open, so a
reveal of a game without revisions reads as before.

The referee's reveal holds the state, the view nonces and the orders of
every turn file (the last turn file's next seed is never needed); the views
themselves follow from the replay, which is how the audit checks them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.errors import BadInput, PbemError
from pbem.protocol import fields
from pbem.protocol.armour import armour, dearmour
from pbem.protocol.canonical import b64e, canonical_bytes, digest, parse_canonical
from pbem.protocol.chain import verify_chain
from pbem.protocol.derive import orders_salt_and_nonce
from pbem.protocol.files import read_text, too_large
from pbem.protocol.keys import PrivateIdentity
from pbem.protocol.nmr import is_nmr
from pbem.protocol.ordersfile import OLD_FORMAT as OLD_ORDERS_FORMAT, open_orders_for_turn, outer_labels
from pbem.protocol.turnfile import REFEREE, SIDES, TurnFile, open_referee_state, open_view_opening

FORMAT = "pbem-reveal-2"
OLD_FORMATS = ("pbem-reveal-1",)
SIGN_CONTEXT = "reveal"
KIND = "REVEAL"
ORDERS_BEGIN = b"-----BEGIN PBEM ORDERS-----"
TURN_KEYS = frozenset({"seq", "state", "view_nonces", "views", "orders"})


@dataclass
class Opening:
    """What one reveal says of one turn file (bytes decoded)."""

    state: tuple[bytes, Any] | None = None
    view_nonces: dict[str, bytes] | None = None
    views: dict[str, tuple[bytes, Any]] = field(default_factory=dict)
    orders: tuple[bytes, Any] | None = None
    superseded: dict[str, tuple[bytes, Any]] = field(default_factory=dict)  # orders digest -> (nonce, orders)


@dataclass
class Reveal:
    source: str
    game: str
    by: str
    turns: dict[int, Opening]
    envelope: dict | None = None
    """The signed envelope as read from a file (None for a reveal built in memory with the party's own key)."""
    signer: PrivateIdentity | None = field(default=None, repr=False, compare=False)
    """The key it was built with (in memory only, never written): :func:`reveal_text` signs with it by default."""
    signed_body: bytes | None = field(default=None, repr=False, compare=False)
    """The signed body's canonical bytes as read from the file, which its signature is checked over (issue 26:
    a referee's reveal of a long game is a megabyte, not written out again)."""


def verified_turns(folder: Path) -> dict[int, TurnFile]:
    chain = verify_chain(folder)
    chain.raise_if_bad()
    return {t.seq: t for t in chain.turns}


def referee_reveal(folder: Path, referee: PrivateIdentity) -> Reveal:
    """Every opening of the game in ``folder``, each sealed part opened once with the referee's key."""
    turns = verified_turns(folder)
    orders = kept_orders(folder, turns, referee)
    openings: dict[int, Opening] = {}
    for seq, turn in sorted(turns.items()):
        secret = open_referee_state(turn, referee)
        opening = Opening(state=(secret.nonce, secret.state), view_nonces=secret.view_nonces)
        if seq > 0 and not is_nmr(turn.orders_header):  # an NMR's orders are the bot's: the audit recomputes them
            body = orders.get(turn.orders)
            if body is None:
                raise BadInput(f"the orders it adjudicated ({turn.orders}) are not among the orders files in {folder}",
                               file=turn.source, hint="put every orders file you adjudicated in the game folder")
            opening.orders = (body.nonce, body.orders)
            for envelope in turn.superseded:  # every earlier revision listed, so the audit replays it too (issue 37)
                earlier = orders.get(digest(envelope))
                if earlier is not None:
                    opening.superseded[earlier.digest] = (earlier.nonce, earlier.orders)
                elif envelope.get("body", {}).get("format") != OLD_ORDERS_FORMAT:
                    raise BadInput(f"revision {envelope['body'].get('revision')} it lists as superseded ({digest(envelope)}) is not "
                                   f"among the orders files in {folder}", file=turn.source,
                                   hint="put every orders file you received in the game folder: the audit replays every revision")
        openings[seq] = opening
    return Reveal("(the referee's own reveal)", turns[0].game, REFEREE, openings, signer=referee)


def kept_orders(folder: Path, turns: dict[int, TurnFile], referee: PrivateIdentity) -> dict:
    """The orders files in ``folder`` that open, by orders digest."""
    found = {}
    for path in sorted(folder.iterdir()):
        if not path.is_file() or path.name.startswith(".") or too_large(path, "orders file") or ORDERS_BEGIN not in path.read_bytes():
            continue  # not an orders file (one too large to be one is never opened)
        text = read_text(path, what="orders file")
        try:
            outer, _ = outer_labels(text, str(path))
            turn = turns.get(outer["answers"]["seq"])
            if turn is None:
                continue
            body = open_orders_for_turn(text, turn, referee, source=str(path))
        except PbemError:
            continue  # orders never adjudicated, or not this game's: the turn files say which ones count
        found[body.digest] = body
    return found


def player_reveal(folder: Path, player: PrivateIdentity) -> Reveal:
    """A player's own views and adjudicated orders (from his receipts), opened with his key."""
    from pbem.game.roles import role_of
    from pbem.game.receipts import SUFFIX, read_receipt

    turns = verified_turns(folder)
    side = role_of(turns[max(turns)], player)
    if side == REFEREE:
        return referee_reveal(folder, player)
    documents = {}
    for path in folder.glob(f"*{SUFFIX}"):
        for item in (read_receipt(path) or {}).get("revisions", []):
            documents[item["orders"]] = item["document"]
    openings: dict[int, Opening] = {}
    for seq, turn in sorted(turns.items()):
        opening = Opening(views={side: open_view_opening(turn, side, player)})
        # Only his own orders: the opponent's receipts (in a folder shared with him) hold orders whose nonce
        # this key cannot derive, and revealing them would accuse the opponent falsely.
        if seq > 0 and turn.orders_header["body"]["side"] == side and turn.orders in documents:
            header = turn.orders_header["body"]
            _, nonce = orders_salt_and_nonce(player, game=turn.game, turn_digest=header["answers"]["turn"],
                                             side=side, revision=header["revision"])
            opening.orders = (nonce, documents[turn.orders])
        openings[seq] = opening
    return Reveal(f"(the {side} player's own reveal)", turns[0].game, side, openings, signer=player)


def reveal_text(reveal: Reveal, signer: PrivateIdentity | None = None) -> str:
    """The reveal file, signed by ``signer`` (the party ``reveal.by`` names; by default the key the reveal was
    built with)."""
    from pbem.protocol import signing

    signer = signer or reveal.signer
    if signer is None:
        raise ValueError("a reveal file is signed by the party it names: give its key")

    turns = []
    for seq, o in sorted(reveal.turns.items()):
        item = {
            "seq": seq,
            "state": None if o.state is None else {"nonce": b64e(o.state[0]), "state": o.state[1]},
            "view_nonces": None if o.view_nonces is None else {s: b64e(n) for s, n in o.view_nonces.items()},
            "views": {s: {"nonce": b64e(n), "view": v} for s, (n, v) in o.views.items()},
            "orders": None if o.orders is None else {"nonce": b64e(o.orders[0]), "orders": o.orders[1]},
        }
        if o.superseded:
            item["superseded"] = [{"digest": d, "nonce": b64e(n), "orders": orders} for d, (n, orders) in sorted(o.superseded.items())]
        turns.append(item)
    record = {"format": FORMAT, "game": reveal.game, "by": reveal.by, "turns": turns}
    return armour(KIND, canonical_bytes(signing.sign(signer, record, SIGN_CONTEXT)), {"Game": reveal.game, "By": reveal.by})


def read_reveal(path: str | os.PathLike[str]) -> Reveal:
    """A reveal file, its shape checked (its content is checked by the audit, against the turn files)."""
    source = str(path)
    text = read_text(path, what="reveal file")
    _, headers, payload = dearmour(text, KIND, source)
    where = fields.Where(source)
    document = parse_canonical(payload, source=source, what="the reveal file")
    if isinstance(document, dict) and document.get("format") in OLD_FORMATS:
        raise BadInput(f"is an unsigned reveal ({document['format']}) made by an older pbem; nobody can tell who wrote it",
                       file=source, hint="ask its author to run 'pbem reveal' again with this pbem")
    envelope = fields.obj(document, where, {"body", "signer", "sig"})
    record = fields.obj(envelope["body"], where.at("body"), {"format", "game", "by", "turns"})
    if record["format"] != FORMAT:
        raise where.at("format").fail(f"reveal format {record['format']!r} is not {FORMAT!r}")
    game = fields.string(record["game"], where.at("game"))
    by = fields.string(record["by"], where.at("by"))
    if headers.get("Game", game) != game or headers.get("By", by) != by:
        raise BadInput("the readable header does not match the content", file=source, hint="the header was edited")
    openings: dict[int, Opening] = {}
    for index, item in enumerate(fields.array(record["turns"], where.at("turns"))):
        at = where.at("turns").at(index)
        item = fields.obj(item, at, TURN_KEYS | {"superseded"} if isinstance(item, dict) and "superseded" in item else TURN_KEYS)
        seq = fields.integer(item["seq"], at.at("seq"), minimum=0)
        opening = Opening()
        if item["state"] is not None:
            state = fields.obj(item["state"], at.at("state"), {"nonce", "state"})
            opening.state = (fields.b64(state["nonce"], at.at("state.nonce"), length=32), state["state"])
        if item["view_nonces"] is not None:
            nonces = fields.obj(item["view_nonces"], at.at("view_nonces"), set(SIDES))
            opening.view_nonces = {s: fields.b64(nonces[s], at.at(f"view_nonces.{s}"), length=32) for s in SIDES}
        for side, view in fields.obj(item["views"], at.at("views")).items():
            if side not in SIDES:
                raise at.at("views").fail(f"unknown side {side!r}")
            view = fields.obj(view, at.at(f"views.{side}"), {"nonce", "view"})
            opening.views[side] = (fields.b64(view["nonce"], at.at(f"views.{side}.nonce"), length=32), view["view"])
        if item["orders"] is not None:
            orders = fields.obj(item["orders"], at.at("orders"), {"nonce", "orders"})
            opening.orders = (fields.b64(orders["nonce"], at.at("orders.nonce"), length=32), orders["orders"])
        for number, earlier in enumerate(fields.array(item.get("superseded", []), at.at("superseded"))):
            where_earlier = at.at("superseded").at(number)
            earlier = fields.obj(earlier, where_earlier, {"digest", "nonce", "orders"})
            name = fields.digest_value(earlier["digest"], where_earlier.at("digest"))
            if name in opening.superseded:
                raise where_earlier.at("digest").fail(f"revision {name} is revealed twice")
            opening.superseded[name] = (fields.b64(earlier["nonce"], where_earlier.at("nonce"), length=32), earlier["orders"])
        if seq in openings:
            raise at.at("seq").fail(f"turn file {seq} is revealed twice")
        openings[seq] = opening
    from pbem.protocol import signing

    return Reveal(source, game, by, openings, envelope, signed_body=signing.body_bytes(payload, envelope))
