"""The judge: the referee's side of many games, run unattended by e-mail (``pbem judge``).

A room of its own: it reads mail, stores it, and calls the game layer
(:mod:`pbem.game.step`, :mod:`pbem.game.status`, :mod:`pbem.game.modes.referee.reveal`)
exactly as ``pbem new``, ``adjudicate``, ``status`` and ``reveal`` do.  It
adds no rules and no cryptography; docs/judge.md says what it does.
"""
