"""A unit as printed on its counter: side, kind and strengths (2.31, 2.32)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from pbem.model.common import Kind, Side


class Unit(BaseModel):
    """One playing piece.  Its location is game state, kept elsewhere.

    Non-artillery units have ``attack``; artillery has ``barrage``, ``fpf``
    and ``range`` instead (3.0).  ``entry`` marks a reinforcement's arrival:
    on a beach hex (12.21) or a map-edge hex (12.23).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    id: str = Field(min_length=1)
    side: Side
    kind: Kind
    attack: int = Field(default=0, ge=0)
    defense: int = Field(ge=0)
    move: int = Field(ge=0)
    barrage: int = Field(default=0, ge=0)
    fpf: int = Field(default=0, ge=0)
    range: int = Field(default=0, ge=0)
    entry: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9-]{1,16}$",
        description="How a reinforcement arrives: 'beach' (any beach hex, 12.21), 'edge' (any map-edge entry hex, 12.23) or the name of one of the map's areas ('N', 'Or', '0100', ...).",
    )
    name: str | None = Field(default=None, description="Historical designation, for display only.")

    @property
    def is_artillery(self) -> bool:
        return self.kind == "artillery"

    @property
    def is_dummy(self) -> bool:
        """A Japanese dummy counter (hidden units only, Legion 19B.6): it never fights and is worth nothing."""
        return self.kind == "dummy"

    @property
    def combat_value(self) -> int:
        """Victory-point value (Leyte 15.11, I16): the sum of its strengths."""
        if self.is_artillery:
            return self.barrage + self.fpf + self.defense
        return self.attack + self.defense
