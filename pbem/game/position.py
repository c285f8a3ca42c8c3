"""The position both views must show, committed in the public record of every turn file (issue 19, item 7).

Without this, a referee could tell one player a lie about the other's
player-turn (a unit moved elsewhere, a unit left out) and the lying view
would pass every check that player runs until his next orders were judged
on the true position.  So the public record carries ``position``: the
digest of the position as the views show it, without what each side keeps
to itself (its standing defense, its forfeit choice, the American
intelligence priorities).

* Without hidden units both views show the same position: each is checked
  against that one digest (``pbem view``, ``verify --replay-mine``,
  ``status --key``), so a lie in either view fails its holder's checks at
  once.
* With hidden units the digest is the American view's position.  It reveals
  nothing the American player does not see, and nothing the Japanese player
  cannot work out: he holds the whole position and derives the American
  view from it (:func:`pbem.game.fog.american_state`), so his checks catch a
  lie told to the American player, and the American player's checks catch a
  public record that disagrees with his view.  A lie told to the Japanese
  player about hidden matters is left to the audit (docs/PROTOCOL.md).
"""

from __future__ import annotations

from typing import Any

from pbem.protocol.canonical import digest


#: What a side keeps to itself (each view shows only its own): its standing defense and its forfeit choice (I26).
OWN_CHOICES = ("standing", "forfeit")


def shown_position(state_json: dict[str, Any]) -> dict[str, Any]:
    """A view's position without what one side keeps to itself: its standing defense, its forfeit choice (I26,
    spi-1975; written only once one is made, so a game without one digests as before) and the American
    intelligence priorities."""
    shown = {k: v for k, v in state_json.items() if k not in OWN_CHOICES}
    hidden = shown.get("hidden")
    if isinstance(hidden, dict):
        shown["hidden"] = {k: v for k, v in hidden.items() if k != "priority"}
    return shown


def position_digest(state) -> str:
    """The digest the public record commits to for ``state`` (the whole position, as the referee holds it)."""
    from pbem.game.codec import state_to_json

    from pbem.systems import system_of_state

    return digest(shown_position(state_to_json(system_of_state(state).committed_position(state))))


