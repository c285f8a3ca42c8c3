"""The ways of hiding Japanese units, one module each: Legion 19B, Invasion Pearl Harbor 6.8, Formosa 11.0-11.2.

:func:`of` picks the variant a position plays (``GameState.hidden.variant``);
a position without hidden units is answered by the 19B adapter, which
refuses the other variants' orders fields as before.
"""

from __future__ import annotations

from pbem.engine.fog_variants.base import FogVariant
from pbem.engine.fog_variants.formosa import FORMOSA
from pbem.engine.fog_variants.iph import IPH
from pbem.engine.fog_variants.legion_19b import LEGION_19B
from pbem.model.state import GameState

VARIANTS: dict[str, FogVariant] = {v.option: v for v in (LEGION_19B, IPH, FORMOSA)}


def of(state: GameState) -> FogVariant:
    """The variant ``state`` plays (19B when it hides nothing: its checks of orders are the old ones)."""
    if state.hidden is None:
        return LEGION_19B
    return VARIANTS[state.hidden.variant]


__all__ = ["FogVariant", "VARIANTS", "of"]
