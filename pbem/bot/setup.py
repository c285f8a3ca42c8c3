"""The bot's Japanese secret set-up under the hidden-units option (docs/hidden-units.md, issue 21).

The scenario's printed set-up is public (``pbem scenario show``), so the bot
never plays it: it draws its deployment from randomness of its own — the
operating system's, or a seed for tests — within the set-up zone
(:class:`pbem.engine.deployment.SetupZone`).

The draw is made so that a marker tells nothing of what stands under it:

1. the hexes first, as a set: one near each printed set-up hex and one near
   a printed hex drawn at random for each dummy (greedy: hexes that hide,
   within two hexes; random: any hex of the zone);
2. then which of those hexes hold dummies: drawn uniformly among the hexes
   that hide, so every marker is a dummy with the same chance;
3. then which unit stands where: armor on a hex armor may take (5.25), every
   other unit uniformly on the rest.

Nothing in step 1 depends on which piece will stand in a hex, so neither a
hex's place, its terrain nor its nearness to a printed hex says whether it
holds a dummy or which unit (beyond armor keeping to its terrain); the
observer of ``tests/setup_observer.py`` measures it.
"""

from __future__ import annotations

import random
from typing import Any

from pbem.engine import hexes
from pbem.engine.board import Board
from pbem.engine.deployment import SetupZone, check_deployment, dummies_of, setup_hexes
from pbem.engine.dummies import clear
from pbem.model.orders import Deployment, Orders
from pbem.model.state import GameState

NEAR = 2
"""How far from its printed hex the greedy bot sets a piece up, when the zone allows."""
TRIES = 50


def setup_orders(state: GameState, board: Board, policy: str, seed: int | None) -> dict[str, Any]:
    """A valid ``deployment`` for the Japanese side, drawn from ``seed`` (None: the operating system's randomness)."""
    rng: random.Random = random.SystemRandom() if seed is None else random.Random(f"setup:{seed}:{policy}")
    deployment = draw_deployment(board, state, rng, plausible=policy != "random")
    problems = check_deployment(board, state, Orders(deployment=deployment))
    if problems:  # a bug in the draw, never a reason to fall back to the public printed set-up
        raise AssertionError("the bot drew a set-up the engine refuses: " + "; ".join(p.message for p in problems))
    return {"deployment": deployment.model_dump(mode="json")}


def draw_deployment(board: Board, state: GameState, rng: random.Random, *, plausible: bool = True) -> Deployment:
    """Every listed set-up unit and every dummy the scenario allows, placed at random within the set-up zone."""
    zone = SetupZone.of(board, state)
    listed = setup_hexes(state)
    units = state.unit_index()
    armor = sorted(u for u in listed if units[u].kind == "armor")
    others = sorted(u for u in listed if u not in armor)
    hiding = zone.places(dummy=True)  # where a dummy may stand: where any unit but armor may too, and it hides
    anywhere = zone.places()
    armor_ok = set(zone.places(armor=True))
    wanted = len(dummies_of(state))
    hexes_, dummies = [], []
    for attempt in range(TRIES):
        wanted_now = min(wanted, len(hiding))
        hexes_ = _hexes(rng, sorted(listed.values()), len(listed) + wanted_now, hiding if plausible else anywhere, anywhere)
        hidden_hexes = [h for h in hexes_ if not clear(board, h)]
        # Enough hexes for armor whichever hexes the dummies take: the test is on the hexes alone.
        if len(hidden_hexes) >= wanted_now and (len(set(hexes_) & armor_ok) >= wanted_now + len(armor) or attempt == TRIES - 1):
            dummies = rng.sample(sorted(hidden_hexes), wanted_now)
            break
    real = sorted(set(hexes_) - set(dummies))
    assignment: dict[str, str] = {}
    for unit in armor:
        choices = sorted(h for h in real if h in armor_ok) or sorted(armor_ok - set(hexes_) - set(assignment.values()))
        assignment[unit] = rng.choice(choices)
        if assignment[unit] in real:
            real.remove(assignment[unit])
    rng.shuffle(real)
    assignment |= dict(zip(others, real))
    return Deployment(units=dict(sorted(assignment.items())), dummies=sorted(dummies))


def _hexes(rng: random.Random, printed: list[str], count: int, preferred: list[str], fallback: list[str]) -> list[str]:
    """``count`` different hexes: one near each printed hex in turn, then near printed hexes drawn at random."""
    taken: set[str] = set()
    anchors = list(printed)
    rng.shuffle(anchors)
    anchors += [rng.choice(printed) for _ in range(count - len(printed))]
    for anchor in anchors[:count]:
        for pool, reach in ((preferred, NEAR), (preferred, None), (fallback, None)):
            near = hexes.within(anchor, reach) if reach is not None else None
            free = [h for h in pool if h not in taken and (near is None or h in near)]
            if free:
                if reach is None:  # the nearest free hexes, when none is near enough
                    nearest = min(hexes.distance(h, anchor) for h in free)
                    free = [h for h in free if hexes.distance(h, anchor) == nearest]
                taken.add(rng.choice(free))
                break
    return sorted(taken)
