"""The game's mode: the one place that says who holds which secret, who adjudicates, what verify and audit check.

:func:`mode_of` picks the implementation from the game's public header (the
``mode`` a turn file names, pinned by the genesis file); the rest of the
game layer, the CLI and the event reports ask it (:class:`GameMode`) instead
of testing which mode they are in.
"""

from __future__ import annotations

from pbem.game.modes.base import GameMode
from pbem.game.modes.blind import MODE as BLIND_MODE
from pbem.game.modes.referee import MODE as REFEREE_MODE
from pbem.game.modes.two_player import MODE as TWO_PLAYER_MODE
from pbem.protocol.turnfile import TurnFile

MODES: dict[str, GameMode] = {mode.name: mode for mode in (REFEREE_MODE, TWO_PLAYER_MODE, BLIND_MODE)}


def mode_of(game: TurnFile | str) -> GameMode:
    """The mode a turn file's header names (every file of a game names its genesis file's), or the mode called ``game``."""
    name = game if isinstance(game, str) else game.mode
    try:
        return MODES[name]
    except KeyError:
        raise ValueError(f"no game mode is called {name!r}; pbem plays {', '.join(MODES)}") from None


def mode_to_start(*, referee: bool, options: list[str] | None) -> GameMode:
    """The mode ``pbem new`` starts a game in: with a referee, or without one (``--no-referee``); the genesis file pins it.

    A game without a referee is two-player mode, or with the hidden-units option (``options``) the mode of hidden
    units with no referee."""
    from pbem.model.common import HIDDEN_UNITS

    if referee:
        return REFEREE_MODE
    return BLIND_MODE if HIDDEN_UNITS in (options or ()) else TWO_PLAYER_MODE


__all__ = ["BLIND_MODE", "GameMode", "MODES", "mode_of", "mode_to_start"]
