"""The game position: whose turn, which phase, GSP left, where every unit is."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from pbem.model.common import ELIMINATED, OFFMAP, Phase, Side
from pbem.model.units import Unit


class Position(BaseModel):
    """Turn, phasing side, phase and Ground Support Points left (9.1).

    ``movement`` means the whole player-turn (movement, then combat);
    ``combat`` the combat phase alone.  A side missing from ``gsp`` has none.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    turn: int = Field(ge=1)
    phasing: Side
    phase: Phase
    gsp: dict[Side, int] = Field(default_factory=dict)

    def gsp_of(self, side: Side) -> int:
        return self.gsp.get(side, 0)


class GameState(BaseModel):
    """Everything the rules engine needs to know about a position.

    ``locations`` maps each unit id to a hex id, ``"offmap"`` (a
    reinforcement not yet brought in) or ``"eliminated"``.  ``no_fpf`` lists
    artillery that suffered an adverse combat result in the previous combat
    phase and so may not give FPF (8.41).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    position: Position
    units: tuple[Unit, ...]
    locations: dict[str, str]
    no_fpf: frozenset[str] = frozenset()

    def unit(self, unit_id: str) -> Unit:
        return self.unit_index()[unit_id]

    def unit_index(self) -> dict[str, Unit]:
        return {u.id: u for u in self.units}

    def on_map(self, unit_id: str) -> bool:
        return self.locations.get(unit_id, ELIMINATED) not in (OFFMAP, ELIMINATED)
