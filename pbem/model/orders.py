"""One player-turn's orders: moves, then attacks (cases.md, Orders).

The same model reads the ``orders`` block of a conformance case and a
player's orders file, so that one parser and one validator serve both.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from pbem.model.common import HexId
from pbem.model.defense import Defense
from pbem.model.routes import Advance, Route

__all__ = ["Advance", "Attack", "Defense", "Deployment", "Intelligence", "Move", "Orders", "Route"]

#: The longest note an orders file may carry (characters): a letter, not a book.
NOTE_LIMIT = 2000


class Move(BaseModel):
    """Move one unit along ``path`` (hexes entered, start excluded).

    A reinforcement names the hex it is placed in as ``enter`` (12.2) and
    then its path.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    unit: str
    enter: HexId | None = None
    path: list[HexId]
    exit: bool = Field(default=False, description="Leave the map from the last hex of the path (an exit hex the scenario names, Leyte 16.13).")


class Attack(BaseModel):
    """One combat: who attacks whom with what (7.0, 8.0, 9.0, 10.0).

    ``attackers`` are units adjacent to the defenders (adjacent artillery
    fires its barrage, 8.31); ``barrage`` non-adjacent artillery; ``gsp`` the
    Ground Support Points added.  ``banzai`` is for Japanese attacks only;
    ``banzai_losses`` the order the Japanese player gives units up
    (spi-1975 edition only, I14).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    attackers: list[str] = Field(default_factory=list)
    barrage: list[str] = Field(default_factory=list)
    gsp: int = Field(default=0, ge=0)
    defenders: list[str] = Field(min_length=1)
    banzai: bool = False
    banzai_losses: list[str] = Field(default_factory=list)
    advance: list[Advance] = Field(default_factory=list)
    retreats: list[Route] = Field(default_factory=list)


class Deployment(BaseModel):
    """The Japanese secret set-up (docs/hidden-units.md, adapted from Legion 19B.2 and 19B.6).

    ``units`` assigns every listed set-up unit to one of the scenario's
    set-up hexes, in any order; ``dummies`` places dummy counters on land
    hexes within the scenario's limits.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    units: dict[str, HexId] = Field(default_factory=dict)
    dummies: list[HexId] = Field(default_factory=list)


class Intelligence(BaseModel):
    """The American player's intelligence (Legion 19B.7, adapted): a roll this player-turn, and his standing choice."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    roll: bool = Field(default=False, description="Spend one Ground Support Point in this Movement Phase for a 1d6 intelligence roll.")
    priority: list[HexId] | None = Field(
        default=None,
        description="Hexes whose hidden units to expose first, most wanted first; kept until replaced. Left out: the last list stands.",
    )


class Orders(BaseModel):
    """The phasing player's orders for one player-turn."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    moves: list[Move] = Field(default_factory=list)
    attacks: list[Attack] = Field(default_factory=list)
    note: str | None = Field(
        default=None,
        max_length=NOTE_LIMIT,
        description="Free text to the opponent: signed with the orders and shown in both sides' views of the next turn file. The rules engine never reads it.",
    )
    defense: Defense | None = Field(
        default=None,
        description="Standing choices for the enemy's next player-turn (spi-1975; dg-2009 leaves them to the system, I1): FPF, retreat routes, advances. A key left out is decided by the policy (docs/policies.md).",
    )
    forfeit: str | None = Field(
        default=None,
        description=(
            "spi-1975 only (I26): the enemy unit to remove should a scenario rule make the enemy forfeit one at the end of a "
            "Game-Turn (Leyte 16.13 item 4: a U.S. 3-2-5 of the Japanese player's choice). Kept until replaced; "
            "left out, or no longer eligible then, the policy chooses (docs/policies.md)."
        ),
    )
    deployment: Deployment | None = Field(
        default=None, description="Hidden-units games only: the Japanese secret set-up, sent before the first player-turn instead of moves and attacks."
    )
    intelligence: Intelligence | None = Field(
        default=None, description="Hidden-units games only, American orders: an intelligence roll and the standing priority of hexes (19B.7)."
    )
    reveal: list[str] | None = Field(
        default=None,
        description="fog-formosa games only, Japanese orders: concealed units revealed as the player-turn begins (Formosa 11.1, 11.2); a deception unit revealed is removed for good.",
    )
