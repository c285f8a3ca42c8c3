"""Bot against bot in one process, through the game layer's own step but without keys or files.

For what must be fast: the many-position validity test and the speed
benchmark.  Each player-turn is the referee's :func:`~pbem.game.step.play`
— the same step ``adjudicate`` and the audit run — fed a seeded die, and
each side's bot reads only the view that step seals to it.  Games through
the real files and keys are :mod:`pbem.bot.demo`'s job.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from pbem.bot.play import bot_orders
from pbem.loading.datafiles import LoadedScenario
from pbem.engine.dice import DiceSource
from pbem.game.step import Step, genesis_step, play


class SeededDice:
    """A die from a seeded generator (never a game's dice: those are committed, pbem.protocol.dice)."""

    def __init__(self, seed: str) -> None:
        self.rng = random.Random(seed)

    def roll(self, purpose: str) -> int:
        return self.rng.randint(1, 6)


@dataclass
class SelfPlay:
    """A game played out: every step, and the orders each side gave."""

    steps: list[Step] = field(default_factory=list)
    orders: list[dict] = field(default_factory=list)

    @property
    def final(self) -> Step:
        return self.steps[-1]

    @property
    def player_turns(self) -> int:
        return len(self.steps) - 1


def play_out(
    loaded: LoadedScenario,
    policies: dict[str, str],
    *,
    seed: int = 0,
    edition: str | None = None,
    document: dict | None = None,
    on_orders: Callable[[Step, dict], None] | None = None,
    options: list[str] | None = None,
    dice: DiceSource | None = None,
    think: float | None = None,
) -> SelfPlay:
    """Play ``loaded`` to its end, each side by its policy; ``on_orders`` sees each view's step and the orders given.

    ``dice`` replaces the seeded die (a test keeps the purpose of every roll with it)."""
    ruleset = loaded.scenario.ruleset.model_dump(mode="json")
    if edition:
        ruleset["edition"] = edition
    ref = {"id": loaded.scenario.id, "hash": "selfplay"}
    step = genesis_step(loaded, document or {}, game="selfplay", scenario_ref=ref, ruleset=ruleset, options=options)
    game = SelfPlay([step])
    dice = dice or SeededDice(f"dice:{seed}")
    seq = 0
    while not step.over:
        side = step.state.to_act()
        orders = bot_orders(step.views[side], loaded, policies[side], seed, think)
        if on_orders:
            on_orders(step, orders)
        seq += 1
        step = play(loaded, ruleset, step.state, orders, dice, game="selfplay", seq=seq, scenario_ref=ref, source="bot")
        if not step.last["valid"]:
            raise AssertionError(f"the engine rejected the bot's orders: {step.last['problems']}")
        game.steps.append(step)
        game.orders.append(orders)
    return game


def idle_units(game: SelfPlay) -> list[str]:
    """Units (dummies aside) that stood on the map at some point and neither moved nor fought in the whole game.

    A unit counts as fighting when an order names it as attacker, defender
    or barrage, or the referee's events show it in a combat; reinforcements
    that never entered are not counted (they may have had no way in)."""
    from pbem.engine import hexes

    on_map: set[str] = set()
    active: set[str] = set()
    for step in game.steps:
        state = step.state
        for u in state.units:
            if u.is_dummy or u.kind == "hidden":
                continue
            if hexes.is_hex_id(state.locations.get(u.id, "")):
                on_map.add(u.id)
    for before, after in zip(game.steps, game.steps[1:]):
        b, a = before.state.locations, after.state.locations
        active |= {u for u in b if u in a and b[u] != a[u] and hexes.is_hex_id(b[u])}
    for orders in game.orders:
        for m in orders.get("moves", []):
            if m.get("path") or m.get("exit"):
                active.add(m["unit"])
        for attack in orders.get("attacks", []):
            active.update(attack.get("attackers", []), attack.get("defenders", []), attack.get("barrage", []))
    names = {u.id for u in game.final.state.units}
    return sorted(u for u in on_map - active if u in names)
