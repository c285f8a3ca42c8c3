"""The event audit: every game of a tournament at once, for the organiser.

This room only gathers: it finds the game folders and reveal files
(:mod:`.discover`), calls the game layer's own audit, replay and chain
checks on each game (:mod:`.games`), pools the verified rolls into samples
and tests them (:mod:`.dice`, :mod:`.stats`), and writes the report as
lines, JSON or one offline page (:mod:`.report`, :mod:`.page`).  It judges
nothing the per-game ``pbem audit`` and ``pbem dice`` do not judge.
"""
