"""A Legion counter as printed: type, size, contingent and ratings (3A.2-3A.9, 9E, 9J).

Its state in a game (where it stands, its Hit markers, Disruption) is kept
in :mod:`pbem.systems.legion.state`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from pbem.model.common import Side
from pbem.systems.legion.charts import Size

_FROZEN = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Reverse(BaseModel):
    """The Combat Ineffective side of a U.S. counter (9E): printed in white."""

    model_config = _FROZEN

    attack: int = Field(ge=0)
    defense: int = Field(ge=1)
    move: int = Field(ge=0)


class Counter(BaseModel):
    """One Legion playing piece.

    ``type`` names a line of the Unit Counter Information Chart (its class
    and abilities); ``size`` gives its Stacking Points (3A.4).  ``bs`` and
    ``range`` are an artillery unit's B/S Strength and Range (3A.6, 11);
    ``ci`` and ``reverse`` a U.S. unit's CI Number and reverse side (9E);
    ``rbc`` marks a unit the Exclusive Rules let Retreat Before Combat (9J).
    """

    model_config = _FROZEN

    id: str = Field(min_length=1, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$")
    side: Side
    type: str = Field(min_length=1)
    size: Size
    contingent: str = Field(default="", description="3A.9: IJA, IJN, USMC, Army, Navy.")
    attack: int = Field(default=0, ge=0)
    defense: int = Field(ge=0)
    move: int = Field(ge=0)
    bs: int = Field(default=0, ge=0)
    range: int = Field(default=0, ge=0)
    aa: int = Field(default=0, ge=0)
    ci: int | None = Field(default=None, ge=0)
    reverse: Reverse | None = None
    rbc: bool = False
    name: str | None = None

    @property
    def is_dummy(self) -> bool:
        """A Japanese Dummy counter (19B.6)."""
        return self.type == "dummy"
