"""The bot's one entry point: a side's view in, that side's valid orders out."""

from __future__ import annotations

import random
from typing import Any

from pbem.bot.greedy import Greedy
from pbem.bot.orders import settle
from pbem.bot.scatter import random_plan
from pbem.bot.sight import see
from pbem.loading.datafiles import LoadedScenario

POLICIES = ("greedy", "random", "lookahead")


def bot_orders(view: dict[str, Any], loaded: LoadedScenario, policy: str = "greedy", seed: int | None = 0,
               think: float | None = None) -> dict[str, Any]:
    """Orders for the side whose sealed ``view`` this is, checked by the engine.

    The same view, policy and seed always give the same orders: the greedy
    policy draws nothing at random, and the random one draws from a
    generator seeded from ``seed``, the turn file's number and the side;
    the look-ahead one tries as many candidate turns as ``think`` seconds
    allow at a fixed rate (:mod:`.lookahead`), never by the clock.
    The Japanese secret set-up (hidden units) is drawn at random by either
    policy; with ``seed`` None from the operating system's randomness, for
    the printed set-up is public (docs/hidden-units.md).
    """
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}")
    state = view["state"]
    if (state.get("hidden") or {}).get("deployed") is False:
        from pbem.bot.setup import setup_orders
        from pbem.game.views import state_of_view

        return setup_orders(state_of_view(view), loaded.board, policy, seed)
    seed = 0 if seed is None else seed
    sight = see(view, loaded)
    if policy == "lookahead":
        from pbem.bot.lookahead import DEFAULT_THINK, lookahead_orders

        return lookahead_orders(view, sight, loaded, seed, DEFAULT_THINK if think is None else think, bot_orders)
    if policy == "greedy":
        plan = Greedy(sight).decide()
    else:
        plan = random_plan(sight, random.Random(f"{seed}:{sight.seq}:{sight.side}"))
    return settle(plan)
