"""The game options that hide units, one per game, as a genesis file records them (docs/hidden-units.md): names
only, so any command may ask which one a game plays without loading pydantic (tests/test_command_imports.py)."""

from __future__ import annotations

HIDDEN_UNITS = "hidden-units"
"""Legion 19B's limited intelligence, adapted."""
FOG_IPH = "fog-iph"
"""Hidden units as Invasion Pearl Harbor plays them (6.8)."""
FOG_FORMOSA = "fog-formosa"
"""Hidden units as Operation Causeway: Formosa 1944 plays them (11.0-11.2)."""
FOG_OPTIONS = (HIDDEN_UNITS, FOG_IPH, FOG_FORMOSA)


def fog_option(options) -> str | None:
    """The game's way of hiding units among ``options`` (the first, should a caller not have refused two), or None."""
    return next((o for o in options or () if o in FOG_OPTIONS), None)
