"""A game played by e-mail: the referee's operations and the players' views.

This layer joins the rules engine (which knows nothing of keys) to the
protocol (which knows nothing of hexes): it turns a game position into the
JSON the protocol seals and signs, and back.
"""
