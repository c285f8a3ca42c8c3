"""Two-player games: no referee; the player who does not move adjudicates, with a seed he committed earlier.

The protocol is in :mod:`pbem.protocol.twoplayer`; this module is the game's
side of it.  The genesis file is written by the player who does *not* move
first: it commits the seed that rolls the first orders, which he
adjudicates.  After that, whoever adjudicates a player-turn writes the turn
file; when he moves next, it carries on the seed his opponent committed in
the orders just carried out, so that his own orders are rolled with a seed
he never knew.  Everything — the position, the orders, the dice — is in the
turn files, so each player (and anyone else) replays every player-turn from
them alone: ``pbem verify`` does.

Hidden units (limited intelligence) cannot be played this way: the player
who adjudicates would see the enemy's hidden set-up.  :func:`refuse_hidden`
says so at ``pbem new``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.errors import BadInput
from pbem.protocol.fog_options import fog_option
from pbem.protocol.chain import Finding
from pbem.protocol.derive import turn_seed
from pbem.protocol.dice import DiceStream, commit
from pbem.protocol.keys import PrivateIdentity, PublicIdentity
from pbem.protocol.ordersfile import OrdersBody
from pbem.protocol.turnfile import SIDES, TurnFile
from pbem.protocol.twoplayer import build_two_player_turn, opponent

def refuse_hidden(options: list[str] | None) -> None:
    """BadInput when the game options call for hidden units, which a two-player game cannot keep hidden."""
    if fog_option(options) is not None:
        raise BadInput("hidden units need a referee: in a two-player game the player who adjudicates sees the whole "
                       "position, the enemy's hidden units too",
                       hint="play with a referee (pbem new … --referee REF.pub), or without a fog option (hidden-units, fog-iph, fog-formosa)")


def start_two_player_game(
    scenario_name: str,
    me: PrivateIdentity,
    us: PublicIdentity,
    jp: PublicIdentity,
    edition: str | None = None,
    ground_support: list[dict] | None = None,
    options: list[str] | None = None,
) -> TurnFile:
    """The genesis file of a game without a referee, signed by ``me`` (the player who does not move first)."""
    from pbem.game.step import open_game

    identities = {"US": us, "JP": jp}
    side = next((s for s in SIDES if me.public.same_keys(identities[s])), None)
    if side is None:
        raise BadInput(f"--key is {me.public.describe()}, which is neither the US nor the JP identity given",
                       hint="in a two-player game one of the two players starts it with his own key")
    refuse_hidden(options)
    new = open_game(scenario_name, identities, edition, ground_support, options)
    first = new.step.public["awaiting"]
    if first == side:
        raise BadInput(
            f"{side} moves first in this scenario, so the {opponent(side)} player starts a two-player game: "
            f"the genesis file commits the seed that rolls {side}'s first orders, and the mover must not hold it",
            hint=f"ask the {opponent(side)} player to run 'pbem new … --no-referee --key {opponent(side).lower()}.key'",
        )
    return build_two_player_turn(
        me, side=side, game=new.game, seq=0, scenario=new.scenario_ref, ruleset=new.ruleset, identities=identities,
        public=new.step.public, state=new.step.referee_state,
        next_commitment=commit(turn_seed(me, game=new.game, seq=0, prev=None)), committed_by=side,
    )


def following_turn(turn: TurnFile, adjudicator: PrivateIdentity, step, body: OrdersBody, dice: DiceStream,
                   superseded: list[dict]) -> TurnFile:
    """The turn file after ``turn``, signed by the adjudicator; the next seed is his opponent's when he moves next."""
    writer = opponent(body.side)
    if step.public.get("awaiting") == writer:
        next_commitment, committed_by = body.header.next_commitment, body.side
    else:  # the same side moves again (rejected orders), or the game is over
        next_commitment = commit(turn_seed(adjudicator, game=turn.game, seq=turn.seq + 1, prev=turn.digest))
        committed_by = writer
    return build_two_player_turn(
        adjudicator, side=writer, game=turn.game, seq=turn.seq + 1, scenario={"id": turn.scenario_id, "hash": turn.scenario_hash},
        ruleset=turn.ruleset, identities=turn.identities, public=step.public, state=step.referee_state,
        next_commitment=next_commitment, committed_by=committed_by, prev=turn, orders=body.envelope,
        opened=(body.nonce, body.orders), dice_used=dice, superseded=superseded,
    )


def side_view(turn: TurnFile, side: str) -> dict[str, Any]:
    """``side``'s view, built from the public full state exactly as a referee would have sealed it."""
    from pbem.game.codec import state_from_json
    from pbem.game.step import record_step
    from pbem.loading.turns import scenario_of
    from pbem.game.views import reading_view

    with reading_view(turn.source, "the full state of this turn file"):
        public = turn.public
        step = record_step(state_from_json(turn.state["state"]), game=turn.game, seq=turn.seq,
                           scenario_ref={"id": turn.scenario_id, "hash": turn.scenario_hash}, ruleset=turn.ruleset,
                           over=bool(public["over"]), last=turn.state["last"], loaded=scenario_of(turn))
    return step.views[side]


def commitment_problem(turn: TurnFile) -> str | None:
    """The seed for the next orders must be committed by the player who will adjudicate them: the one not to move."""
    public = turn.public if isinstance(turn.public, dict) else {}
    awaiting = public.get("awaiting")
    if public.get("over") or awaiting not in SIDES or turn.dice.committed_by == opponent(awaiting):
        return None
    return (f"{awaiting} is to move, but the seed for his orders is {turn.dice.committed_by}'s own: "
            f"{opponent(awaiting)} adjudicates them and must have committed it (written by {turn.writer})")


def replay_all(turns: list[TurnFile]) -> tuple[list[Finding], int]:
    """Every player-turn replayed from the files alone; findings name the player who wrote the file at fault."""
    from pbem.game.replay import AuditReport, replay_openings

    by_seq = {t.seq: t for t in turns}
    report = AuditReport()
    malformed = {seq: why for seq, t in by_seq.items() if (why := _state_problem(t.state))}
    for seq, why in sorted(malformed.items()):
        report.findings.append(Finding(by_seq[seq].source, f"the full state it carries is malformed ({why})", seq))
    states = {seq: (t.state, None) for seq, t in by_seq.items() if seq not in malformed}
    orders = {seq: t.opened[1] for seq, t in by_seq.items() if t.opened is not None}
    replay_openings(report, by_seq, states, orders)
    findings = [Finding(f.file, f"{f.problem} ({by_seq[f.seq].writer} wrote it)" if f.seq in by_seq else f.problem, f.seq)
                for f in report.findings]
    return findings, report.replayed


def _state_problem(record: Any) -> str | None:
    """Why a signed full state cannot be replayed from (a player's file may come from another program), or None."""
    from pbem.game.codec import state_from_json

    try:
        state_from_json(record["state"])
        record["last"]
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:  # pydantic's ValidationError is a ValueError
        return f"{type(exc).__name__}: {exc}".splitlines()[0][:120]
    return None


def awaited(turn: TurnFile, folder: Path | None) -> str:
    """Who the game waits for, from the latest turn file and the orders files in the holder's folder."""
    from pbem.loading.folder import turn_name

    public = turn.public if isinstance(turn.public, dict) else {}
    if public.get("over"):
        return "the game is over"
    mover, adjudicator = public.get("awaiting"), turn.dice.committed_by
    sent = folder is not None and any(folder.glob(f"orders-{turn.seq:04d}-{mover}*.pbem"))
    if sent:
        return (f"waiting for {adjudicator} to adjudicate {mover}'s orders answering {turn_name(turn.seq)} "
                f"and reveal his seed in {turn_name(turn.seq + 1)}")
    return f"waiting for {mover}'s orders answering {turn_name(turn.seq)} ({adjudicator} adjudicates them)"
