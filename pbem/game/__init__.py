"""A game played by e-mail: what every game mode shares — the step, the views, the replay, verify and status.

What only one mode uses lives in that mode's package (:mod:`pbem.game.modes`:
``referee/``, ``two_player/``, ``blind/``); a module here serves them all.
This layer joins the rules engine (which knows nothing of keys) to the
protocol (which knows nothing of hexes): it turns a game position into the
JSON the protocol seals and signs, and back.
"""
