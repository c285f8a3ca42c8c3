"""Two-player turn files: no referee; the player who does not move adjudicates, and both see everything.

A game without hidden units needs no third party to keep secrets: the full
state is public to both players.  What still needs care is the dice.  The
rule is one sentence: **the orders of a player-turn are adjudicated by the
player who does not move, with a seed he committed before the mover's salt
existed.**  Where that commitment is depends on who wrote the turn file the
orders answer:

* the writer is the adjudicator (the genesis file, written by the player who
  does not move first; or a turn file after which the same side moves again,
  as after rejected orders): he commits a seed of his own in the turn file
  (:func:`pbem.protocol.derive.turn_seed`);
* the writer moves next (the usual alternation): the adjudicator is the
  player whose orders that turn file carried out, and every orders header of
  a two-player game carries its signer's commitment to his seed for the
  opponent's next orders (:func:`pbem.protocol.derive.orders_seed`); the
  turn file repeats it.

The mover's salt is derived from his own key and the digest of the turn file
he answers (:mod:`pbem.protocol.derive`), so nobody knows it before his
orders arrive; the seed was fixed before that; the dice are the usual
``DiceStream(seed, salt)`` (:mod:`pbem.protocol.dice`).

Body of a two-player turn file (envelope context ``turn``, signed by the
side named ``writer``)::

    {"format": "pbem-turn-2", "mode": "two-player", "writer": "US" | "JP",
     "game", "seq", "prev", "orders", "superseded", "scenario", "ruleset",   # as in referee mode
     "identities": {"US": "pbem-id-1 …", "JP": "pbem-id-1 …"},
     "public": …,
     "dice": {"revealed_seed", "salt", "rolls", "next_commitment",
              "next_committed_by": "US" | "JP"},        # whose seed next_commitment is
     "state": <the full state, opaque, in clear>,
     "opened": null | {"nonce": <b64>, "orders": <the orders adjudicated>}}

Nothing is sealed; the orders file travels sealed to the opponent (who
adjudicates it) and the next turn file publishes the orders opened, with the
nonce that opens the signed header's commitment.  So anyone holding the
turn files replays every player-turn.

What a reader checks here (the chain checks of :mod:`pbem.protocol.chain`
hold as in referee mode, with the writer's key in place of the referee's):

* a file is signed by the side it names as writer;
* a file that adjudicates orders is written by the other side (the mover
  never adjudicates his own orders);
* ``next_committed_by`` is the writer himself, or the side whose orders the
  file carried out, with that side's signed ``next_commitment`` repeated;
* the next file is written by the side named in ``next_committed_by``: the
  seed it reveals is his;
* the orders published opened are the ones the mover signed.
"""

from __future__ import annotations

from typing import Any

from pbem.protocol.canonical import b64e
from pbem.protocol.dice import DiceStream
from pbem.protocol.keys import PrivateIdentity, PublicIdentity
from pbem.protocol.turnfile import SIDES, TWO_PLAYER, TurnFile, check_arguments, common_body, signed_turn


def opponent(side: str) -> str:
    return next(other for other in SIDES if other != side)


def build_two_player_turn(
    writer: PrivateIdentity,
    *,
    side: str,
    game: str,
    seq: int,
    scenario: dict,
    ruleset: dict,
    identities: dict[str, PublicIdentity],
    public: Any,
    state: Any,
    next_commitment: str,
    committed_by: str,
    prev: TurnFile | None = None,
    orders: dict | None = None,
    opened: tuple[bytes, Any] | None = None,
    dice_used: DiceStream | None = None,
    superseded: list[dict] | None = None,
) -> TurnFile:
    """Sign, as ``side``, the turn file after ``prev`` (or the genesis file): the state and the orders in clear.

    ``next_commitment`` is the writer's own (``committed_by == side``) or the
    one the adjudicated orders' header carries (``committed_by`` the other
    side).  Inconsistent arguments are programming errors (:class:`ValueError`).
    """
    if set(identities) != set(SIDES) or side not in SIDES or committed_by not in SIDES:
        raise ValueError(f"a two-player turn file names exactly {SIDES}")
    if not writer.public.same_keys(identities[side]):
        raise ValueError(f"the signing key is not the {side} identity of this game")
    check_arguments(game=game, seq=seq, identities=identities, prev=prev, orders=orders, dice_used=dice_used)
    if (opened is None) != (orders is None):
        raise ValueError("the orders adjudicated are published opened")
    body = common_body(game=game, seq=seq, scenario=scenario, ruleset=ruleset, identities=identities, public=public,
                       prev=prev, orders=orders, superseded=superseded, dice_used=dice_used, next_commitment=next_commitment)
    body["dice"]["next_committed_by"] = committed_by
    body |= {"mode": TWO_PLAYER, "writer": side, "state": state,
             "opened": None if opened is None else {"nonce": b64e(opened[0]), "orders": opened[1]}}
    return signed_turn(writer, body, [])


def turn_problems(turn: TurnFile, header) -> list[str]:
    """What one two-player turn file must hold by itself (``header``: its orders header, read, or None for the genesis)."""
    problems = []
    committed_by = turn.dice.committed_by
    if header is None:
        if committed_by != turn.writer:
            problems.append(f"the first seed is committed by {committed_by}, but {turn.writer} wrote the genesis file: "
                            "only the writer commits in it")
        return problems
    if turn.writer == header.side:
        problems.append(f"{turn.writer} adjudicated his own orders: in a two-player game the {header.side} orders are "
                        f"adjudicated by {opponent(header.side)}, with {opponent(header.side)}'s committed seed")
    if header.next_commitment is None:
        problems.append(f"the {header.side} orders it adjudicates carry no seed commitment, which two-player orders do")
    if turn.opened is None or not header.opened_by(*turn.opened):
        problems.append(f"the orders it publishes are not the ones {header.side} signed (written by {turn.writer})")
    if committed_by != turn.writer:
        if committed_by != header.side:
            problems.append(f"says the next seed is {committed_by}'s, but {committed_by}'s orders are not the ones it adjudicates")
        elif turn.dice.next_commitment != header.next_commitment:
            problems.append(f"{turn.writer} replaced the seed commitment {header.side} signed in his orders "
                            f"({header.next_commitment}) with {turn.dice.next_commitment}")
    return problems


def link_problem(turn: TurnFile, previous: TurnFile) -> str | None:
    """The file after ``previous`` must be written by the side whose seed ``previous`` committed to."""
    if turn.writer != previous.dice.committed_by:
        return (f"{turn.writer} wrote it, but the seed it must reveal was committed by {previous.dice.committed_by} "
                f"in seq {previous.seq} ({previous.source}): only {previous.dice.committed_by} adjudicates these orders")
    return None
