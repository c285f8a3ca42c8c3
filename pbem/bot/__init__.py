"""A bot that writes a side's orders from that side's own view.

It plays the solitaire opponent of ``pbem bot``, both sides of ``pbem demo``
and the soak tests every change is held to.  It sees only what the referee
sealed to its side (:mod:`.sight`), works out where each unit can go
(:mod:`.reach`), which attacks the rules force and what they are worth
(:mod:`.contact`, :mod:`.odds`), lets a policy choose (:mod:`.greedy`,
:mod:`.scatter`), and hands back only orders the engine's own check accepts
(:mod:`.orders`).
"""

from pbem.bot.play import POLICIES, bot_orders

__all__ = ["POLICIES", "bot_orders"]
