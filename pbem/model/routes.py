"""Routes a player may choose after combat: retreats (7.7) and advances (7.9).

Shared by an attack's own choices (orders) and the defender's standing
choices (defense), so it sits below both.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from pbem.model.common import HexId


class Advance(BaseModel):
    """Advance after combat (7.9): how deep along a Path of Retreat to go.

    ``to`` = 1 is the defeated unit's former hex.  ``follow`` names whose path
    (default: the first listed enemy that left one).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    unit: str
    to: int = Field(ge=1)
    follow: str | None = None


class Route(BaseModel):
    """A chosen retreat route (7.7): the hexes entered, in order."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    unit: str
    path: list[HexId]
