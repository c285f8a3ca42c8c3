"""Bot strength: each policy against the others on each side, with and without hidden units.

Not a test: it prints figures.  Run with
``.venv/bin/python benchmarks/bot_strength.py [--scenario leyte-assault] [--games 50] [--hidden both|on|off]``.

Each game is played in process through the referee's own step with a seeded
die (:mod:`pbem.bot.selfplay`).  For each pairing: ``--policy`` (default
lookahead) against greedy on each side, greedy against random on each side,
and greedy against greedy, it prints wins, mean Victory Point
margin (the side's points minus the enemy's), the level-of-victory
distribution (15.4) with a 95% Wilson interval for each level's share, the
rate of the exit Leyte 16.13 item 4 requires, units idle all game
(:func:`pbem.bot.selfplay.idle_units`) and the bot's time per player-turn.
A game is judged by :func:`pbem.bot.report.final_report`; a draw is not a win.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter

from pbem.bot import play as bot_play
from pbem.bot.report import final_report
from pbem.bot.selfplay import idle_units, play_out
from pbem.datafiles import load_scenario
from pbem.engine.sequence import exit_requirement_met


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% interval of a proportion k/n (Wilson score)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


class Timed:
    """Wraps the bot's entry point to time each side's policy per player-turn."""

    def __init__(self) -> None:
        self.spent: Counter = Counter()
        self.turns: Counter = Counter()
        self.inner = bot_play.bot_orders

    def __call__(self, view, loaded, policy="greedy", seed=0, think=None):
        start = time.process_time()
        try:
            return self.inner(view, loaded, policy, seed, think)
        finally:
            self.spent[policy] += time.process_time() - start
            self.turns[policy] += 1


def idle_by_side(game, side: str) -> int:
    units = game.final.state.unit_index()
    return sum(units[u].side == side for u in idle_units(game))


def run(scenario: str, games: int, hidden: list[bool], policy: str, think: float | None) -> None:
    import pbem.bot.selfplay as selfplay

    loaded = load_scenario(scenario)
    needs = loaded.scenario.exit_requirements
    timer = Timed()
    selfplay.bot_orders = timer
    try:
        for with_hidden in hidden:
            options = ["hidden-units"] if with_hidden else None
            pairings = [(policy, "greedy", "US"), ("greedy", policy, "JP")] if policy != "greedy" else []
            pairings += [("greedy", "random", "US"), ("random", "greedy", "JP"), ("greedy", "greedy", None)]
            for us, jp, side in pairings:
                levels: Counter = Counter()
                wins = exits = 0
                idle = Counter()
                margin = 0.0
                for seed in range(games):
                    game = play_out(loaded, {"US": us, "JP": jp}, seed=seed, options=options, think=think)
                    report = final_report(loaded, game.final.state)
                    levels[report.level] += 1
                    judged = side or "US"
                    wins += report.winner == judged
                    margin += report.score[judged] - report.score["JP" if judged == "US" else "US"]
                    exits += all(exit_requirement_met(n, game.final.state) for n in needs) if needs else 0
                    idle.update({s: idle_by_side(game, s) for s in ("US", "JP")})
                label = f"{scenario} {'hidden' if with_hidden else 'open'}: US {us} v JP {jp}"
                who = side or "US"
                lo, hi = wilson(wins, games)
                print(f"{label}: {who} won {wins}/{games} ({100 * wins / games:.0f}%, 95% {100 * lo:.0f}-{100 * hi:.0f}%), "
                      f"mean VP margin for {who} {margin / games:+.1f}")
                for level, k in sorted(levels.items(), key=lambda kv: -kv[1]):
                    lo, hi = wilson(k, games)
                    print(f"    {level}: {k} ({100 * k / games:.0f}%, 95% {100 * lo:.0f}-{100 * hi:.0f}%)")
                if needs:
                    lo, hi = wilson(exits, games)
                    print(f"    exit 16.13 item 4 made: {exits}/{games} (95% {100 * lo:.0f}-{100 * hi:.0f}%)")
                print(f"    units idle all game: US {idle['US']}, JP {idle['JP']} in {games} games")
    finally:
        selfplay.bot_orders = timer.inner
    for policy in sorted(timer.turns):
        print(f"time per player-turn, {policy}: {1000 * timer.spent[policy] / timer.turns[policy]:.1f} ms CPU "
              f"({timer.turns[policy]} player-turns)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="leyte-assault", help="a scenario id or file; 'leyte' for the three Leyte scenarios")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--hidden", choices=("both", "on", "off"), default="both")
    parser.add_argument("--policy", default="lookahead", help="the policy measured against greedy on each side (greedy: only the baseline pairings)")
    parser.add_argument("--think", type=float, default=None, help="the look-ahead budget a turn (default: the policy's)")
    args = parser.parse_args()
    hidden = {"both": [False, True], "on": [True], "off": [False]}[args.hidden]
    scenarios = ["leyte-assault", "leyte-mountain-barrier", "leyte-final-collapse"] if args.scenario == "leyte" else [args.scenario]
    start = time.perf_counter()
    for scenario in scenarios:
        # test scenarios have no Japanese set-up to hide
        run(scenario, args.games, hidden if load_scenario(scenario).scenario.kind == "historical" else [False], args.policy, args.think)
    print(f"{time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
