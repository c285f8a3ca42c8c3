"""The Legion Island War rules system (``legion-2010``): the Series Standard Rules v1.0 of *Saipan / Tinian* (2010).

A room of its own (issue 39; docs/legion.md): the five things a rules
system gives the game — the opening position (:mod:`.opening`), the
problems of a side's orders with their rule cases and a player-turn or
phase adjudicated on committed dice (:mod:`.adjudicator`), what each side
sees under limited intelligence (:mod:`.views`), victory from a scenario's
Victory Table (:mod:`.victory`) — as pure, deterministic functions, the
charts of the player-aid cards as data (:mod:`.charts`, ``data/``), and
reading files in one module (:mod:`.files`).
"""

SYSTEM = "legion-2010"
