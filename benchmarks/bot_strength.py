"""Bot strength: each policy against the others on each side, with and without hidden units.

Not a test: it prints figures.  Run with
``.venv/bin/python benchmarks/bot_strength.py [--scenario leyte-assault] [--games 50] [--hidden both|on|off]
[--policy-games N] [--mirror] [--first-seed N] [--no-baseline]``.

Each game is played in process through the referee's own step with a seeded
die (:mod:`pbem.bot.selfplay`).  For each pairing: ``--policy`` (default
lookahead) against greedy on each side (under hidden units too, where the
look-ahead plays positions drawn from its side's view,
:mod:`pbem.bot.determinize`), with ``--mirror`` against itself,
greedy against random on each side, and greedy against greedy, it prints
wins, mean Victory Point margin (the side's points minus the enemy's, with
its 95% interval), the level-of-victory
distribution (15.4) with a 95% Wilson interval for each level's share, the
rate of the exit Leyte 16.13 item 4 requires, units idle all game
(:func:`pbem.bot.idleness.idle_report`: how many of them held an objective
the scenario scores, and how many could have reached the fight — the ones
the target counts) and the bot's time per player-turn.
A game is judged by :func:`pbem.bot.report.final_report`; a draw is not a win.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter

from pbem.bot import play as bot_play
from pbem.bot.report import final_report
from pbem.bot.idleness import idle_report
from pbem.bot.selfplay import play_out
from pbem.loading.datafiles import load_scenario
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


def idle_by_side(game, loaded, side: str) -> tuple[int, int, int]:
    """Units of ``side`` idle all game, how many held a scored objective, and how many could have reached the fight
    (:func:`pbem.bot.idleness.idle_report`: the ones issue 21's target counts)."""
    units = game.final.state.unit_index()
    report = idle_report(game, loaded)
    return tuple(sum(units[u].side == side for u in kind) for kind in (report.all, report.holding, report.could_fight))


def mean_interval(values: list[float], z: float = 1.96) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("inf")
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, z * sd / math.sqrt(n)


def run(scenario: str, games: int, hidden: list[bool], policy: str, think: float | None,
        policy_games: int | None = None, mirror: bool = False, first_seed: int = 0, baseline: bool = True) -> None:
    import pbem.bot.selfplay as selfplay

    loaded = load_scenario(scenario)
    needs = loaded.scenario.exit_requirements
    timer = Timed()
    selfplay.bot_orders = timer
    try:
        for with_hidden in hidden:
            options = ["hidden-units"] if with_hidden else None
            measured = policy != "greedy"
            pairings = [(policy, "greedy", "US"), ("greedy", policy, "JP")] if measured else []
            pairings += [(policy, policy, None)] if measured and mirror else []
            pairings += [("greedy", "random", "US"), ("random", "greedy", "JP"), ("greedy", "greedy", None)] if baseline else []
            for us, jp, side in pairings:
                levels: Counter = Counter()
                wins = exits = 0
                idle = Counter()
                margins: list[float] = []
                n = policy_games if policy_games and policy != "greedy" and policy in (us, jp) else games
                for seed in range(first_seed, first_seed + n):
                    game = play_out(loaded, {"US": us, "JP": jp}, seed=seed, options=options, think=think)
                    report = final_report(loaded, game.final.state)
                    levels[report.level] += 1
                    judged = side or "US"
                    wins += report.winner == judged
                    margins.append(report.score[judged] - report.score["JP" if judged == "US" else "US"])
                    exits += all(exit_requirement_met(need, game.final.state) for need in needs) if needs else 0
                    for s in ("US", "JP"):
                        count, holding, could = idle_by_side(game, loaded, s)
                        idle[s] += count
                        idle[s + " holding"] += holding
                        idle[s + " could"] += could
                label = f"{scenario} {'hidden' if with_hidden else 'open'}: US {us} v JP {jp}"
                who = side or "US"
                lo, hi = wilson(wins, n)
                mean, half = mean_interval(margins)
                print(f"{label}: {who} won {wins}/{n} ({100 * wins / n:.0f}%, 95% {100 * lo:.0f}-{100 * hi:.0f}%), "
                      f"mean VP margin for {who} {mean:+.1f} (95% {mean - half:+.1f} to {mean + half:+.1f})")
                for level, k in sorted(levels.items(), key=lambda kv: -kv[1]):
                    lo, hi = wilson(k, n)
                    print(f"    {level}: {k} ({100 * k / n:.0f}%, 95% {100 * lo:.0f}-{100 * hi:.0f}%)")
                if needs:
                    lo, hi = wilson(exits, n)
                    print(f"    exit 16.13 item 4 made: {exits}/{n} (95% {100 * lo:.0f}-{100 * hi:.0f}%)")
                print(f"    units idle all game: US {idle['US']} ({idle['US holding']} holding a scored objective, "
                      f"{idle['US could']} could have reached the fight), JP {idle['JP']} ({idle['JP holding']}, "
                      f"{idle['JP could']}) in {n} games", flush=True)
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
    parser.add_argument("--policy-games", type=int, default=None, help="games of each pairing with --policy (default: --games)")
    parser.add_argument("--mirror", action="store_true", help="also --policy against itself (the scenario's balance between equals)")
    parser.add_argument("--first-seed", type=int, default=0, help="the first game's seed (a run split over processes or machines: "
                        "0 for the first --games, then --games, and so on)")
    parser.add_argument("--no-baseline", action="store_true", help="only the pairings with --policy (not greedy against random "
                        "or itself)")
    args = parser.parse_args()
    hidden = {"both": [False, True], "on": [True], "off": [False]}[args.hidden]
    scenarios = ["leyte-assault", "leyte-mountain-barrier", "leyte-final-collapse"] if args.scenario == "leyte" else [args.scenario]
    start = time.perf_counter()
    for scenario in scenarios:
        # test scenarios have no Japanese set-up to hide
        run(scenario, args.games, hidden if load_scenario(scenario).scenario.kind == "historical" else [False], args.policy, args.think,
            args.policy_games, args.mirror, args.first_seed, not args.no_baseline)
    print(f"{time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
