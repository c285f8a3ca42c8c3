"""Small types shared by every model: hex ids, sides, unit kinds, editions."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

HexId = Annotated[str, Field(pattern=r"^[0-9]{4}$", description="Hex id CCRR: column then row, both from 01.")]
Side = Literal["US", "JP"]
Kind = Literal["infantry", "cavalry", "engineer", "recon", "armor", "artillery", "airassault", "dummy", "hidden"]
"""``dummy`` and ``hidden`` exist only under the hidden-units option (docs/hidden-units.md): a Japanese dummy
counter (Legion 19B.6), and the marker the American view shows for a hidden Japanese unit (19B.2).
A scenario lists neither."""
Edition = Literal["dg-2009", "spi-1975"]
Phase = Literal["movement", "combat"]
CrtLine = Literal["clear", "river", "broken", "rough"]

SIDES: tuple[Side, Side] = ("US", "JP")
OFFMAP = "offmap"
ELIMINATED = "eliminated"
EXITED = "exited"
"""A unit that left the map by an exit hex (Leyte 16.13); it may come back as a reinforcement."""
NOT_ON_MAP = frozenset({OFFMAP, ELIMINATED, EXITED})
HIDDEN_UNITS = "hidden-units"
"""The game option of limited intelligence (docs/hidden-units.md)."""
FOG_IPH = "fog-iph"
"""Hidden units as Invasion Pearl Harbor plays them (6.8; docs/hidden-units.md)."""
FOG_FORMOSA = "fog-formosa"
"""Hidden units as Operation Causeway: Formosa 1944 plays them (11.0-11.2; docs/hidden-units.md)."""
FOG_OPTIONS = (HIDDEN_UNITS, FOG_IPH, FOG_FORMOSA)
"""The ways of hiding Japanese units: one game plays at most one of them."""
OPTIONS = FOG_OPTIONS


def fog_option(options) -> str | None:
    """The game's way of hiding units among ``options`` (the first, should a caller not have refused two), or None."""
    return next((o for o in options or () if o in FOG_OPTIONS), None)


def enemy_of(side: Side) -> Side:
    """The other side."""
    return "JP" if side == "US" else "US"
