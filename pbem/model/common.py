"""Small types shared by every model: hex ids, sides, unit kinds, editions."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

HexId = Annotated[str, Field(pattern=r"^[0-9]{4}$", description="Hex id CCRR: column then row, both from 01.")]
Side = Literal["US", "JP"]
Kind = Literal["infantry", "cavalry", "engineer", "recon", "armor", "artillery", "airassault"]
Edition = Literal["dg-2009", "spi-1975"]
Phase = Literal["movement", "combat"]
CrtLine = Literal["clear", "river", "broken", "rough"]

SIDES: tuple[Side, Side] = ("US", "JP")
OFFMAP = "offmap"
ELIMINATED = "eliminated"
EXITED = "exited"
"""A unit that left the map by an exit hex (Leyte 16.13); it may come back as a reinforcement."""
NOT_ON_MAP = frozenset({OFFMAP, ELIMINATED, EXITED})


def enemy_of(side: Side) -> Side:
    """The other side."""
    return "JP" if side == "US" else "US"
