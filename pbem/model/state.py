"""The game position: whose turn, which phase, GSP left, where every unit is."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from pbem.model.common import ELIMINATED, NOT_ON_MAP, HexId, Phase, Side
from pbem.model.defense import Defense
from pbem.model.units import Unit


class Position(BaseModel):
    """Turn, phasing side, phase and Ground Support Points left (9.1).

    ``movement`` means the whole player-turn (movement, then combat);
    ``combat`` the combat phase alone.  A side missing from ``gsp`` has none.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    turn: int = Field(ge=1)
    phasing: Side
    phase: Phase
    gsp: dict[Side, int] = Field(default_factory=dict)

    def gsp_of(self, side: Side) -> int:
        return self.gsp.get(side, 0)


class ExitRecord(BaseModel):
    """A unit that left the map: by which hex and in which Game-Turn (Leyte 16.13)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    unit: str
    hex: str
    turn: int


class Award(BaseModel):
    """Victory points won during the game rather than at its end (Leyte 16.13 item 4, 16.34)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    side: Side
    points: int
    what: str
    source: str


class HiddenState(BaseModel):
    """Limited intelligence (the hidden-units option, docs/hidden-units.md).

    ``deployed`` is false until the Japanese secret set-up is carried out;
    ``exposed`` holds the Japanese units the American player may examine now
    (Legion 19B.2-19B.5, 19B.7); ``priority`` is the American player's standing
    choice of hexes for intelligence exposures, most wanted first (19B.7).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    deployed: bool = False
    exposed: frozenset[str] = frozenset()
    priority: tuple[HexId, ...] = ()
    radius: int = 3
    """How far from a printed Japanese set-up hex a unit or dummy may set up (the scenario's assumed set-up zone)."""
    variant: str = "hidden-units"
    """Which way of hiding units the game plays (a fog option: ``hidden-units``, ``fog-iph``, ``fog-formosa``;
    :mod:`pbem.engine.fog_variants`)."""
    static: frozenset[str] = frozenset()
    """fog-formosa: the Japanese units that may not move while concealed (Formosa 11.1; scenario data, assumed)."""
    concealed_move: int | None = None
    """fog-formosa: the one movement factor every concealed unit moves with (Formosa 11.1; scenario data, assumed)."""
    declared: tuple[HexId, ...] = ()
    """fog-iph: hidden stacks the American player has declared an attack on and examined this player-turn (IPH 6.8)."""


class GameState(BaseModel):
    """Everything the rules engine needs to know about a position.

    ``locations`` maps each unit id to a hex id, ``"offmap"`` (a
    reinforcement not yet brought in) or ``"eliminated"``.  ``no_fpf`` lists
    artillery that suffered an adverse combat result in the previous combat
    phase and so may not give FPF (8.41).  ``exits`` records units that left
    the map by an exit hex, ``awards`` victory points won before the end
    (both Leyte, 16.13 and 16.34).  ``standing`` holds the defense a side
    wrote in its orders, kept for the enemy's next player-turn only (I1).
    ``hidden`` is present only under the hidden-units option.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    position: Position
    units: tuple[Unit, ...]
    locations: dict[str, str]
    no_fpf: frozenset[str] = frozenset()
    exits: tuple[ExitRecord, ...] = ()
    awards: tuple[Award, ...] = ()
    standing: dict[Side, Defense] = Field(default_factory=dict)
    forfeit: dict[Side, str] = Field(default_factory=dict)
    """spi-1975 (I26): the enemy unit each side's orders last named for a forfeit (Leyte 16.13 item 4)."""
    hidden: HiddenState | None = None

    def to_act(self) -> Side:
        """The side whose orders are awaited: the Japanese secret set-up comes before the first player-turn."""
        if self.hidden is not None and not self.hidden.deployed:
            return "JP"
        return self.position.phasing

    def unit(self, unit_id: str) -> Unit:
        return self.unit_index()[unit_id]

    def unit_index(self) -> dict[str, Unit]:
        return {u.id: u for u in self.units}

    def on_map(self, unit_id: str) -> bool:
        return self.locations.get(unit_id, ELIMINATED) not in NOT_ON_MAP
