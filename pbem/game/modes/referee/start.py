"""The genesis file of a refereed game: the referee opens the game and commits the first seed."""

from __future__ import annotations

from pbem.game.step import open_game
from pbem.protocol.dice import new_seed
from pbem.protocol.keys import PrivateIdentity, PublicIdentity
from pbem.protocol.turnfile import REFEREE, TurnFile, build_turn


def start_game(
    scenario_name: str,
    referee: PrivateIdentity,
    us: PublicIdentity,
    jp: PublicIdentity,
    edition: str | None = None,
    ground_support: list[dict] | None = None,
    options: list[str] | None = None,
) -> TurnFile:
    """The genesis turn file: game id, scenario and its hash, rules, identities, first commitment.

    ``ground_support`` replaces the scenario's Ground Support track (its
    values are assumed, 3.0); the genesis file records it beside the
    unchanged scenario document.  ``options`` are game options (``hidden-units``,
    docs/hidden-units.md), recorded in the genesis file's public part.
    """
    new = open_game(scenario_name, {"US": us, "JP": jp, REFEREE: referee.public}, edition, ground_support, options)
    return build_turn(
        referee, game=new.game, seq=0, scenario=new.scenario_ref, ruleset=new.ruleset,
        identities={"US": us, "JP": jp, REFEREE: referee.public},
        public=new.step.public, views=new.step.views, referee_state=new.step.referee_state, next_seed=new_seed(),
        min_bucket=new.sealed_size,
    )
