"""The game's mode: the one place that says who holds which secret, who adjudicates, what verify and audit check.

:func:`mode_of` picks the implementation from the game's public header (the
``mode`` a turn file names, pinned by the genesis file); the rest of the
game layer, the CLI and the event reports ask it (:class:`GameMode`) instead
of testing which mode they are in.
"""

from __future__ import annotations

import importlib

from pbem.game.modes.base import GameMode
from pbem.protocol.blindfile import MODE as _BLIND
from pbem.protocol.turnfile import REFEREE as _REFEREE, TWO_PLAYER as _TWO_PLAYER, TurnFile

#: Each mode's name -> the module holding its implementation, imported when a game of that mode is met: a command on
#: a referee's game does not load the other two modes and the protocol modules only they use (issue 26).
_MODULES = {_REFEREE: "pbem.game.modes.referee", _TWO_PLAYER: "pbem.game.modes.two_player", _BLIND: "pbem.game.modes.blind"}


def _mode(name: str) -> GameMode:
    mode = importlib.import_module(_MODULES[name]).MODE
    assert mode.name == name, (mode.name, name)
    return mode


def mode_of(game: TurnFile | str) -> GameMode:
    """The mode a turn file's header names (every file of a game names its genesis file's), or the mode called ``game``."""
    name = game if isinstance(game, str) else game.mode
    if name not in _MODULES:
        raise ValueError(f"no game mode is called {name!r}; pbem plays {', '.join(_MODULES)}")
    return _mode(name)


def __getattr__(attribute: str):
    """``MODES`` and the three ``*_MODE`` constants, each mode imported on first use."""
    if attribute == "MODES":
        return {name: _mode(name) for name in _MODULES}
    names = {"REFEREE_MODE": _REFEREE, "TWO_PLAYER_MODE": _TWO_PLAYER, "BLIND_MODE": _BLIND}
    if attribute in names:
        return _mode(names[attribute])
    raise AttributeError(f"module {__name__!r} has no attribute {attribute!r}")


def mode_to_start(*, referee: bool, options: list[str] | None) -> GameMode:
    """The mode ``pbem new`` starts a game in: with a referee, or without one (``--no-referee``); the genesis file pins it.

    A game without a referee is two-player mode, or with the hidden-units option (``options``) the mode of hidden
    units with no referee."""
    from pbem.protocol.fog_options import fog_option

    if referee:
        return _mode(_REFEREE)
    return _mode(_BLIND if fog_option(options) is not None else _TWO_PLAYER)


__all__ = ["BLIND_MODE", "GameMode", "MODES", "mode_of", "mode_to_start"]
