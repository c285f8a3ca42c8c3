"""Adjudicating the orders answering a turn file, in any mode: check them, roll the committed dice, build the next file.

It sits above the referee's single step (:func:`pbem.game.step.play`),
the game's mode (:mod:`pbem.game.modes`: who holds the state and the seed,
how the next file is built) and the verifier (:mod:`pbem.game.checks`): an
adjudicator who plays on from files someone else wrote does so only from a
game that verifies, and the verifier replays with ``play``, so this is the
one module that needs all three.
"""

from __future__ import annotations

from pathlib import Path

from pbem.errors import BadInput, VerificationFailed
from pbem.game.codec import state_from_json
from pbem.loading.folder import orders_name
from pbem.game.modes import mode_of
from pbem.game.step import Adjudicated, play
from pbem.loading.turns import scenario_of
from pbem.game.views import reading_view
from pbem.protocol.dice import DiceStream
from pbem.protocol.keys import PrivateIdentity
from pbem.protocol.ordersfile import open_orders_for_turn
from pbem.protocol.turnfile import TurnFile
from pbem.systems import system_of, system_of_state


def adjudicate_orders(
    turn: TurnFile, orders_text: str, orders_source: str, referee: PrivateIdentity, *, earlier: list[tuple[str, str]] = ()
) -> Adjudicated:
    """Verify the orders answering ``turn``, roll the committed dice, and build the next turn file.

    ``earlier`` holds ``(text, source)`` of the other revisions of these orders
    the referee received: the next turn file lists their signed headers, so
    the player sees which of his revisions arrived, and a referee who took an
    earlier revision than one he lists is caught by ``verify``.
    """
    mode = mode_of(turn)
    held, seed = mode.held(turn, referee)
    if mode.verifies_before_adjudicating:
        _refuse_unless_verified(turn)
    with reading_view(turn.source, "the full state sealed in this turn file"):
        state = state_from_json(held["state"])
    loaded = scenario_of(turn)
    if system_of(loaded).game_over(loaded, state):
        raise BadInput("the game is over; no more orders are adjudicated", file=turn.source)
    phasing = state.to_act()  # the Japanese secret set-up comes before the first player-turn (19B.2)
    body = open_orders_for_turn(orders_text, turn, referee, expected_side=phasing, source=orders_source)
    superseded = {}
    for text, source in earlier:
        other = open_orders_for_turn(text, turn, referee, expected_side=phasing, source=source)
        if other.digest == body.digest or other.digest in superseded:
            continue  # the same orders sent twice
        if other.revision >= body.revision:
            same = other.revision == body.revision
            raise BadInput(
                f"is revision {other.revision} of the {phasing} orders, "
                + (f"the same number as {orders_source} but different orders" if same else f"later than {orders_source} (revision {body.revision})"),
                file=source,
                hint="the player signed two different orders with one number; ask him for a new revision" if same
                else "adjudicate the latest revision received",
            )
        superseded[other.digest] = other
    dice = DiceStream(seed, body.salt)
    scenario_ref = {"id": turn.scenario_id, "hash": turn.scenario_hash}
    # The orders are named by what they are, not by where the referee keeps them: no local path enters a signed record.
    step = play(loaded, turn.ruleset, state, body.orders, dice, game=turn.game, seq=turn.seq + 1, scenario_ref=scenario_ref,
                source=orders_name(turn.seq, body.side, body.revision))
    earlier_headers = [o.envelope for o in sorted(superseded.values(), key=lambda o: o.revision)]
    following = mode.following(turn, referee, step, body, dice, earlier_headers, loaded=loaded, hidden=system_of_state(state).hides(state))
    return Adjudicated(following, body, step)


def adjudicate_received(turn: TurnFile, received: list[tuple[str, str]], referee: PrivateIdentity) -> Adjudicated:
    """:func:`adjudicate_orders` for every orders file received for ``turn`` (``(text, source)``): the
    latest revision is adjudicated, the others listed as superseded."""
    from pbem.protocol.ordersfile import outer_labels

    ranked = sorted(received, key=lambda item: outer_labels(*item)[0]["revision"])
    text, source = ranked[-1]
    return adjudicate_orders(turn, text, source, referee, earlier=ranked[:-1])


def _refuse_unless_verified(turn: TurnFile) -> None:
    """The adjudicator plays on from a file his opponent may have written: every player-turn before must replay."""
    from pbem.game.checks import verify_game
    from pbem.loading.folder import folder_of

    folder = folder_of(turn.source)
    check = verify_game(folder if Path(turn.source).is_file() else [turn.text], {folder})
    if check.findings:
        raise VerificationFailed(
            f"the game does not verify, so nobody may adjudicate on from it: {check.findings[0].render()}",
            file=turn.source, hint="run 'pbem verify' on your game folder and show the result to your opponent",
        )
