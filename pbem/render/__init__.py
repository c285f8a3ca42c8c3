"""Drawing a side's view: a hex map in the terminal, as SVG, as an offline page; odds of planned attacks.

Everything here is a pure function of what a player already holds — the view
sealed to his side (:mod:`pbem.game.views`) and the scenario's board — so a
map never shows more than the view holds.  :mod:`.scene` picks out what is to
be drawn, :mod:`.layout` places hexes on a screen, and :mod:`.terminal`,
:mod:`.svg` and :mod:`.html` draw the same scene three ways; :mod:`.odds`
weighs planned attacks with the engine's own combat code.
"""
