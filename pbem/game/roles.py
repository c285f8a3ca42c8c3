"""Whose key or identity this is in a game: ``US``, ``JP`` or the referee.

Kept apart from :mod:`pbem.game.player` so that the verifier, the reveal
and the two-player adjudicator can ask it without importing the player's
side of the game (no import circle).
"""

from __future__ import annotations

from pbem.errors import BadInput
from pbem.protocol.keys import PrivateIdentity, PublicIdentity
from pbem.protocol.turnfile import TurnFile

_PARTIES = {2: "two players", 3: "three parties"}  # the identities a game's header names


def role_named(turn: TurnFile, public: PublicIdentity) -> str | None:
    """``"US"``, ``"JP"`` or ``"referee"``: whose identity this is in ``turn``'s game, or None for a stranger."""
    return next((role for role, identity in turn.identities.items() if public.same_keys(identity)), None)


def role_of(turn: TurnFile, identity: PrivateIdentity) -> str:
    """``"US"``, ``"JP"`` or ``"referee"``: whose key this is in ``turn``'s game."""
    role = role_named(turn, identity.public)
    if role is not None:
        return role
    raise BadInput(
        f"the key {identity.public.describe()} is not one of this game's " + _PARTIES.get(len(turn.identities), "parties"),
        file=turn.source,
        hint="use your own key file for this game (the one whose .pub you gave the referee)",
    )
