"""Which rules a game or case is played under (I1)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from pbem.model.common import Edition


class Ruleset(BaseModel):
    """Edition of the standard rules and the exclusive rules switched on.

    ``dg-2009`` (the default) lets the system make the non-phasing player's
    decisions and forbids Ground Support attacking alone; ``spi-1975`` is the
    original folio text.  ``exclusive: "leyte"`` turns on Leyte 13.0 and 14.0.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    edition: Edition = "dg-2009"
    exclusive: Literal["leyte"] | None = None

    @property
    def leyte(self) -> bool:
        return self.exclusive == "leyte"

    @property
    def dg(self) -> bool:
        return self.edition == "dg-2009"
