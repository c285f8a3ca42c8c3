"""One player-turn's orders: moves, then attacks (cases.md, Orders).

The same model reads the ``orders`` block of a conformance case and a
player's orders file, so that one parser and one validator serve both.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from pbem.model.common import HexId

#: The longest note an orders file may carry (characters): a letter, not a book.
NOTE_LIMIT = 2000


class Move(BaseModel):
    """Move one unit along ``path`` (hexes entered, start excluded).

    A reinforcement names the hex it is placed in as ``enter`` (12.2) and
    then its path.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    unit: str
    enter: HexId | None = None
    path: list[HexId]
    exit: bool = Field(default=False, description="Leave the map from the last hex of the path (an exit hex the scenario names, Leyte 16.13).")


class Advance(BaseModel):
    """Advance after combat (7.9): how deep along a Path of Retreat to go.

    ``to`` = 1 is the defeated unit's former hex.  ``follow`` names whose path
    (default: the first listed enemy that left one).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    unit: str
    to: int = Field(ge=1)
    follow: str | None = None


class Route(BaseModel):
    """A chosen retreat route (7.7): the hexes entered, in order."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    unit: str
    path: list[HexId]


class Attack(BaseModel):
    """One combat: who attacks whom with what (7.0, 8.0, 9.0, 10.0).

    ``attackers`` are units adjacent to the defenders (adjacent artillery
    fires its barrage, 8.31); ``barrage`` non-adjacent artillery; ``gsp`` the
    Ground Support Points added.  ``banzai`` is for Japanese attacks only;
    ``banzai_losses`` the order the Japanese player gives units up
    (spi-1975 edition only, I14).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    attackers: list[str] = Field(default_factory=list)
    barrage: list[str] = Field(default_factory=list)
    gsp: int = Field(default=0, ge=0)
    defenders: list[str] = Field(min_length=1)
    banzai: bool = False
    banzai_losses: list[str] = Field(default_factory=list)
    advance: list[Advance] = Field(default_factory=list)
    retreats: list[Route] = Field(default_factory=list)


class Orders(BaseModel):
    """The phasing player's orders for one player-turn."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    moves: list[Move] = Field(default_factory=list)
    attacks: list[Attack] = Field(default_factory=list)
    note: str | None = Field(
        default=None,
        max_length=NOTE_LIMIT,
        description="Free text to the opponent: signed with the orders and shown in both sides' views of the next turn file. The rules engine never reads it.",
    )
