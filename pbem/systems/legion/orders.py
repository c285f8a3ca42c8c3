"""A Legion player-turn's orders, and the other side's standing choices (I1).

Orders are written for the phase the position stands at and the phases
after it in the same player-turn (4): Reserve markers (Initial Phase,
6B.3), moves with any Overrun Attacks (Movement Phase, 6A, 6B), attacks by
Fire or Assault Combat (Combat Phase, 9), exploitation moves (Exploitation
Phase, 6C).  An attack names its target hex (9B: all units in a hex are
attacked together), so it reads the same whether the target is hidden
(19B) or not.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from pbem.model.common import HexId
from pbem.model.routes import Route

_FROZEN = ConfigDict(frozen=True, extra="forbid", defer_build=True)
NOTE_LIMIT = 2000


class LegionMove(BaseModel):
    """One unit, or one stack moving together, along ``path`` (hexes entered, start excluded).

    ``overruns`` lists the enemy-occupied hexes of ``path`` the units
    Overrun (6B.2); a move must name every enemy-occupied hex it enters.
    """

    model_config = _FROZEN

    units: list[str] = Field(min_length=1)
    path: list[HexId] = Field(min_length=1)
    overruns: list[HexId] = Field(default_factory=list)
    losses: list[str] = Field(default_factory=list, description="The order the moving units take Combat Losses should a failed Overrun's Assault Combat give them some (9D.3).")
    retreats: list[Route] = Field(default_factory=list, description="Their own retreat routes, should that Assault Combat make them retreat (9F.1).")


class LegionAttack(BaseModel):
    """One attack on the enemy units of ``target`` (9A, 9B).

    ``attackers`` are adjacent units (and units in ``target`` itself, 9I);
    ``support`` artillery adding its B/S Strength to an Assault (11A.1);
    ``banzai`` turns a Japanese Assault into a Banzai attack (19A);
    ``advance`` the attackers that enter the vacated hex (9F.3); ``losses``
    the order the attackers take Combat Losses (9D.3; left out, the policy);
    ``retreats`` their own routes should a result make them retreat (9F.1).
    """

    model_config = _FROZEN

    type: Literal["fire", "assault"]
    target: HexId
    attackers: list[str] = Field(min_length=1)
    support: list[str] = Field(default_factory=list)
    banzai: bool = False
    advance: list[str] = Field(default_factory=list)
    losses: list[str] = Field(default_factory=list)
    retreats: list[Route] = Field(default_factory=list)


class SupportChoice(BaseModel):
    """Defensive Support (11A.2): ``artillery`` adds its B/S Strength to the units in ``hex`` if they are assaulted."""

    model_config = _FROZEN

    artillery: str
    hex: HexId


class ReturnFire(BaseModel):
    """9A.1: attacked by Fire Combat in ``hex``, the defenders return fire into ``into`` (an attacking hex)."""

    model_config = _FROZEN

    hex: HexId
    into: HexId


class LegionDefense(BaseModel):
    """The non-phasing side's standing choices for the enemy's next player-turn (I1).

    A field left out (``None``) leaves that whole choice to the policy of
    docs/legion.md; present, even empty, it is the whole choice; an entry
    that breaks a rule at its moment is dropped (the policy decides instead).
    """

    model_config = _FROZEN

    losses: list[str] | None = Field(default=None, description="The order own units take Combat Losses (9D.3), mandatory losses first (9H).")
    retreats: list[Route] | None = None
    support: list[SupportChoice] | None = None
    return_fire: list[ReturnFire] | None = None
    rbc: list[str] | None = Field(default=None, description="Units that attempt to Retreat Before Combat when their hex is attacked (9J).")


class LegionOrders(BaseModel):
    """The phasing player's orders for the rest of his player-turn."""

    model_config = _FROZEN

    reserves: list[str] = Field(default_factory=list, description="Units put under a Reserve marker in the Initial Phase (6B.3).")
    moves: list[LegionMove] = Field(default_factory=list)
    attacks: list[LegionAttack] = Field(default_factory=list)
    exploitation: list[LegionMove] = Field(default_factory=list)
    defense: LegionDefense | None = Field(default=None, description="Standing choices for the enemy's next player-turn.")
    note: str | None = Field(default=None, max_length=NOTE_LIMIT)
