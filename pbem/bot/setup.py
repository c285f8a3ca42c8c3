"""The bot's Japanese secret set-up under the hidden-units option (docs/hidden-units.md).

The greedy policy keeps the scenario's historical set-up and spreads its
dummies on the allowed hexes nearest the American landing; the random one
shuffles the set-up units among the set-up hexes and scatters the dummies.
Either way the engine's own check has the last word: a shuffle it refuses
falls back to the scenario's set-up.
"""

from __future__ import annotations

import random
from typing import Any

from pbem.engine import hexes
from pbem.engine.deployment import check_deployment, dummies_of, dummy_places, setup_hexes
from pbem.model.orders import Deployment, Orders
from pbem.model.state import GameState


def setup_orders(state: GameState, board, policy: str, seed: int) -> dict[str, Any]:
    """A valid ``deployment`` for the Japanese side."""
    rng = random.Random(f"setup:{seed}:{policy}")
    listed = setup_hexes(state)
    assignment = dict(listed)
    if policy == "random":
        units, places = list(listed), list(listed.values())
        rng.shuffle(places)
        assignment = dict(zip(units, places))
    allowed = len(dummies_of(state))
    candidates = dummy_places(board, state)
    if policy == "random":
        dummies = rng.sample(candidates, min(allowed, len(candidates)))
    else:
        beaches = sorted(board.beaches) or sorted(listed.values())
        candidates.sort(key=lambda h: (min(hexes.distance(h, b) for b in beaches), h))
        dummies = []
        for h in candidates:  # spread out: never two dummies side by side
            if len(dummies) < allowed and all(hexes.distance(h, d) > 1 for d in dummies):
                dummies.append(h)
    orders = Orders(deployment=Deployment(units=assignment, dummies=sorted(dummies)))
    if check_deployment(board, state, orders):
        orders = Orders(deployment=Deployment(units=dict(listed), dummies=sorted(dummies)))
    return {"deployment": orders.deployment.model_dump(mode="json")}
