"""``pbem play``: a local page where a player builds his orders by clicking on his own view.

A room of its own: it translates clicks into questions to the game layer
(:mod:`pbem.game.planning`, :mod:`pbem.game.player`, :mod:`pbem.game.receipts`)
and answers into HTML; it holds no rule.  Served by Starlette and uvicorn on
127.0.0.1 only, behind a random token in the address.
"""
