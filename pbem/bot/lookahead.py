"""The look-ahead policy: candidate turns weighed by the engine's own outcomes and the enemy's greedy reply.

Each candidate is a whole turn the greedy policy writes under other
thresholds (:class:`~pbem.bot.greedy.Knobs`: bolder or warier attacks,
dearer or cheaper Ground Support), or with every unit no attack or exit
needs standing fast where it is.  Each is played through the referee's
own step (:func:`pbem.game.step.play`) six times, with dice arranged so
that every die of the turn shows each face exactly once over the six
plays — so each combat is weighed by its exact odds (1/6 a result) — and
after each play the enemy answers as the greedy policy would, played the
same way.  A candidate's worth is the side's mean distance past the draw
line of 15.4 (U.S. points less twice Japan's: the level of victory goes by
their ratio, not their difference; 15.1-15.4, the final terms included, as
if the game ended there); the
best is played, ties to the earlier candidate (the greedy one first).

Deterministic: the candidates, their order and the dice depend only on the
view and the seed; ``think`` sets how many candidates are tried (two a
second, at least one, at most all), never a clock.

Under hidden units the side's view is not the position the referee plays,
so each play is on a position built from the view alone
(:mod:`.determinize`): the Japanese view as it is; for the American side,
the markers given identities drawn from what the scenario and the view
tell, a draw for each of the six plays (the same six for every candidate),
so that a candidate's worth averages over what the markers might be
(perfect-information Monte Carlo).  The enemy's greedy reply reads its own
view of that position.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from pbem.bot.determinize import plausible_positions
from pbem.bot.greedy import Greedy, Knobs
from pbem.bot.orders import settle
from pbem.bot.sight import Sight
from pbem.loading.datafiles import LoadedScenario
from pbem.engine.scoring import LEVELS, victory_report
from pbem.game.step import play
from pbem.model.state import GameState

DEFAULT_THINK = 3.0
"""Seconds of thought a turn by default: six of the seven candidates."""
CANDIDATES_PER_SECOND = 2
RUNS = 6
"""Plays of each candidate: one per face of every die."""

CANDIDATES = (
    Knobs(),
    Knobs(offensive=0.0, gsp_price=0.2),
    Knobs(stand=True),
    Knobs(offensive=1.5, withdraw=-0.5),
    Knobs(offensive=-0.5, withdraw=-4.0, gsp_price=0.1),
    Knobs(offensive=1.0, withdraw=-3.0),
    Knobs(offensive=0.25, gsp_price=0.0),
)
"""The thresholds tried, in order (assumed: the greedy turn, a bolder one, the greedy turn with every unit on the map
no attack needs standing fast — a defender's turn, which greedy never writes — then a spread around the defaults)."""


class FaceDice:
    """Dice for play ``run`` of six: the n-th die of the turn shows face ``order[n][run]``, each order a permutation."""

    def __init__(self, seed: str, run: int) -> None:
        self.seed, self.run, self.count = seed, run, 0

    def roll(self, purpose: str) -> int:
        faces = list(range(1, 7))
        random.Random(f"{self.seed}:{self.count}").shuffle(faces)
        self.count += 1
        return faces[self.run]


def candidate_count(think: float) -> int:
    return max(1, min(len(CANDIDATES), int(think * CANDIDATES_PER_SECOND)))


DRAW_RATIO = float(next(floor for floor, level in LEVELS if level == "Draw"))
"""15.4 judges a game by the ratio of U.S. to Japanese points, a draw from this ratio up to 2.01 (I27: cut, not rounded):
Japan wins below it, the U.S. from 2.01.  The margin below is a heuristic on the points, not a level."""


def margin(loaded: LoadedScenario, state: GameState, side: str) -> float:
    """How far the side stands past the draw line of 15.4: U.S. points less the draw ratio times Japan's, for the
    U.S.; its negative for Japan.  Not the plain difference: the U.S. at 100 against 60 is ahead by 40 and loses
    (a ratio of 1.67 is a Japanese Marginal Victory), so a plan that widens the difference can still lose."""
    points = victory_report(loaded.board, loaded.scenario, state, final=True).as_dict()["points"]
    balance = points["US"] - DRAW_RATIO * points["JP"]
    return balance if side == "US" else -balance


def lookahead_orders(view: dict[str, Any], sight: Sight, loaded: LoadedScenario, seed: int, think: float,
                     enemy: Callable[[dict[str, Any], LoadedScenario, str, int], dict[str, Any]]) -> dict[str, Any]:
    """The best of the candidate turns, as orders the engine accepts; ``enemy(view, loaded, policy, seed)`` gives
    the enemy's reply (the bot's own entry, passed in by :mod:`.play` so that neither module imports the other)."""
    first = settle(Greedy(sight).decide())
    positions = plausible_positions(sight.state, loaded, seed=seed, seq=sight.seq, draws=RUNS)
    ruleset = dict(view["ruleset"])
    ref = {"id": loaded.scenario.id, "hash": "lookahead"}
    seen: list[str] = []
    best, best_worth = first, None
    for knobs in CANDIDATES[: candidate_count(think)]:
        document = first if knobs == Knobs() else settle(Greedy(sight, knobs).decide())
        key = repr(document)
        if key in seen:
            continue
        seen.append(key)
        worth = 0.0
        for run in range(RUNS):
            dice = FaceDice(f"lookahead:{seed}:{sight.seq}:{sight.side}", run)
            step = play(loaded, ruleset, positions[run], document, dice, game="lookahead", seq=sight.seq + 1, scenario_ref=ref, source="bot")
            if not step.last["valid"]:
                worth = float("-inf")
                break
            if not step.over and step.state.to_act() == sight.enemy:
                reply = enemy(step.views[sight.enemy], loaded, "greedy", seed)
                step = play(loaded, ruleset, step.state, reply, dice, game="lookahead", seq=sight.seq + 2, scenario_ref=ref, source="bot")
            worth += margin(loaded, step.state, sight.side) / RUNS
        if best_worth is None or worth > best_worth + 1e-9:
            best, best_worth = document, worth
    return best
