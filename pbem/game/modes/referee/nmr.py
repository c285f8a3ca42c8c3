"""No moves received: the referee plays the bot's orders for the missing side, and anyone can recompute them.

The protocol's side is :mod:`pbem.protocol.nmr` (the signed NMR record and
its derived salt).  Here: :func:`adjudicate_nmr` builds the turn file that
answers a turn file with the bot's orders, for the referee (``pbem
adjudicate TURN --nmr SIDE``) and the judge (``--nmr bot``); :func:`nmr_orders`
is the one computation of those orders, from the missing side's own view of
the turn file answered, that the referee, the player's ``verify`` and the
keyless ``audit`` all make.  The bot is called through its public entry
(:func:`pbem.bot.bot_orders`, as ``pbem bot`` does) with the policy the
record names and the seed its salt gives, so under hidden units the
American bot works on the American view and the Japanese bot on the
Japanese one — its secret set-up too, drawn from that seed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.errors import BadInput, VerificationFailed
from pbem.game.codec import state_from_json
from pbem.loading.folder import turn_name
from pbem.game.replay import nmr_orders, nmr_source, orders_of_record
from pbem.game.step import Adjudicated, record_step
from pbem.loading.turns import scenario_of
from pbem.game.sizes import sealed_bucket
from pbem.game.views import reading_view
from pbem.protocol.dice import DiceStream, new_seed
from pbem.protocol.keys import PrivateIdentity
from pbem.protocol.nmr import NmrRecord, build_record, is_nmr
from pbem.protocol.turnfile import TurnFile, build_turn, commit_view, open_referee_state
from pbem.systems import system_of, system_of_state


def side_view(turn: TurnFile, referee: PrivateIdentity, side: str) -> dict[str, Any]:
    """``side``'s view of ``turn`` as the referee rebuilds it from his sealed state, checked against the signed view commitment."""
    return side_view_opening(turn, referee, side)[1]


def side_view_opening(turn: TurnFile, referee: PrivateIdentity, side: str) -> tuple[bytes, dict[str, Any]]:
    """``(nonce, view)`` of ``side``'s view of ``turn``, rebuilt by the referee and checked against its commitment."""
    secret = open_referee_state(turn, referee)
    loaded = scenario_of(turn)
    with reading_view(turn.source, "the full state sealed in this turn file"):
        state = state_from_json(secret.state["state"])
        before = None
        last = secret.state["last"]
        if turn.seq > 0 and system_of_state(state).hides(state):  # the American view shows the Japanese moves as seen from before them
            previous = Path(turn.source).parent / turn_name(turn.seq - 1)
            if previous.is_file():
                from pbem.protocol.turnfile import read_turn

                before = state_from_json(open_referee_state(read_turn(previous, turn.identities["referee"]), referee).state["state"])
        step = record_step(state, game=turn.game, seq=turn.seq, scenario_ref={"id": turn.scenario_id, "hash": turn.scenario_hash},
                           ruleset=turn.ruleset, over=bool(turn.public.get("over")), last=last, loaded=loaded, before=before)
    view = step.views[side]
    if commit_view(secret.view_nonces[side], view) != turn.view_commitments[side]:
        raise VerificationFailed(f"the {side} view rebuilt from the sealed state is not the view sealed to {side}",
                                 file=turn.source, field=f"view_commitments.{side}",
                                 hint="keep every turn file of the game in one folder (the one before this is needed under hidden units)")
    return secret.view_nonces[side], view


def adjudicate_nmr(turn: TurnFile, referee: PrivateIdentity, side: str, policy: str = "greedy") -> tuple[Adjudicated, NmrRecord]:
    """The turn file after ``turn`` when ``side``'s orders did not come: the bot's orders on ``side``'s view, the derived salt."""
    from pbem.game.step import play

    secret = open_referee_state(turn, referee)
    with reading_view(turn.source, "the full state sealed in this turn file"):
        state = state_from_json(secret.state["state"])
    loaded = scenario_of(turn)
    if system_of(loaded).game_over(loaded, state):
        raise BadInput("the game is over; no more orders are adjudicated", file=turn.source)
    awaited = state.to_act()
    if side != awaited:
        raise BadInput(f"--nmr {side}: but turn file {turn.seq} awaits {awaited}'s orders, not {side}'s",
                       file=turn.source, hint=f"an NMR is played for the side awaited: --nmr {awaited}")
    record = build_record(referee, turn, side, policy)
    nonce, view = side_view_opening(turn, referee, side)
    orders = nmr_orders(view, loaded, policy, record.salt, nonce, record.format)
    dice = DiceStream(secret.next_seed, record.salt)
    scenario_ref = {"id": turn.scenario_id, "hash": turn.scenario_hash}
    step = play(loaded, turn.ruleset, state, orders, dice, game=turn.game, seq=turn.seq + 1, scenario_ref=scenario_ref,
                source=nmr_source(turn.seq, side))
    following = build_turn(
        referee, game=turn.game, seq=turn.seq + 1, scenario=scenario_ref, ruleset=turn.ruleset, identities=turn.identities,
        public=step.public, views=step.views, referee_state=step.referee_state, next_seed=new_seed(), prev=turn,
        orders=record.envelope, dice_used=dice, superseded=[],
        min_bucket=sealed_bucket(loaded.scenario, hidden=system_of_state(state).hides(state), previous=turn),
    )
    return Adjudicated(following, None, step), record


def nmr_side(turn: TurnFile) -> str | None:
    """The side whose orders ``turn`` played by NMR, or None when it adjudicated a player's own orders (or is the genesis)."""
    return turn.orders_header["body"]["side"] if turn.seq > 0 and is_nmr(turn.orders_header) else None


def nmr_document(turn: TurnFile, answered: TurnFile, side: str, player: PrivateIdentity) -> Any | None:
    """The missing side's own check of an NMR played for him: the bot's orders on the view sealed to him (None if it will not open)."""
    from pbem.errors import PbemError
    from pbem.protocol.turnfile import open_view_opening

    try:
        nonce, view = open_view_opening(answered, side, player)
        return orders_of_record(turn.orders_header, view, scenario_of(turn), nonce)
    except PbemError:
        return None
