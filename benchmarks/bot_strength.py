"""Bot strength: greedy against random, on each side, and the greedy bot's win rate.

Not a test: it prints figures.  Run with
``.venv/bin/python benchmarks/bot_strength.py [--scenario leyte-assault] [--games 50]``.

Each game is played in process through the referee's own step with a seeded
die (:mod:`pbem.bot.selfplay`): ``--games`` with greedy as the US and random
as Japan, and as many the other way round.  A game is judged by
:func:`pbem.bot.report.final_report`: the level of victory (15.4) of the
final position; a draw is not a win.
"""

from __future__ import annotations

import argparse
import time

from pbem.bot.report import final_report
from pbem.bot.selfplay import play_out
from pbem.datafiles import load_scenario


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="leyte-assault")
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args()
    loaded = load_scenario(args.scenario)
    start = time.perf_counter()
    for side in ("US", "JP"):
        wins = draws = 0
        for seed in range(args.games):
            policies = {"US": "random", "JP": "random", side: "greedy"}
            report = final_report(loaded, play_out(loaded, policies, seed=seed).final.state)
            wins += report.winner == side
            draws += report.winner is None
        print(f"{args.scenario}: greedy as {side} against random: {wins}/{args.games} won "
              f"({100 * wins / args.games:.0f}%), {draws} drawn, {args.games - wins - draws} lost")
    print(f"basis: {report.basis}; {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
