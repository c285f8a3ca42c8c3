"""Small types shared by every model: hex ids, sides, unit kinds, editions."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from pbem.protocol.fog_options import FOG_FORMOSA, FOG_IPH, FOG_OPTIONS, HIDDEN_UNITS, fog_option  # noqa: F401  (re-exported)

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
OPTIONS = FOG_OPTIONS
"""The game options: the ways of hiding units (docs/hidden-units.md)."""


def enemy_of(side: Side) -> Side:
    """The other side."""
    return "JP" if side == "US" else "US"
