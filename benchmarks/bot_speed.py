"""Benchmark: the engine with the greedy bot, Leyte-sized player-turns per second, in process on one core.

Not a test: it prints figures.  Run with ``.venv/bin/python benchmarks/bot_speed.py [GAMES]``.

The position is ``positions.py``'s synthetic game of Leyte's size (a 29x32
map, 110 units, a front of 15 contacts, eight Game-Turns), played to its end
greedy bot against greedy bot by :func:`pbem.bot.selfplay.play_out`: each
player-turn is the bot reading its side's view and writing orders (checked
by the engine) and the referee's step adjudicating them and building both
views.  No keys or files: that is the demo's cost, measured by ``soak.py``.
The bot's share and the engine's are timed apart, in CPU time of this one
process (what one core gives it, whatever else the machine is doing) and
in wall-clock time.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from positions import leyte_sized_scenario  # noqa: E402

from pbem.bot import play as bot_play  # noqa: E402
from pbem.bot.selfplay import play_out  # noqa: E402
from pbem.loading.datafiles import scenario_from  # noqa: E402


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    document = leyte_sized_scenario()
    loaded = scenario_from(document, Path("bench-leyte-size.json"))
    bot_time = 0.0
    original = bot_play.bot_orders

    def timed_orders(*args, **kwargs):
        nonlocal bot_time
        start = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            bot_time += time.process_time() - start

    import pbem.bot.selfplay as selfplay

    selfplay.bot_orders = timed_orders
    play_out(loaded, {"US": "greedy", "JP": "greedy"}, seed=games)  # warm up: the board's move graph is built once
    bot_time = 0.0
    turns, start, wall = 0, time.process_time(), time.perf_counter()
    for seed in range(games):
        turns += play_out(loaded, {"US": "greedy", "JP": "greedy"}, seed=seed).player_turns
    total, wall = time.process_time() - start, time.perf_counter() - wall
    print(f"{games} games, {turns} Leyte-sized player-turns in {total:.2f} s of CPU: {turns / total:.0f} player-turns/s "
          f"(bot {bot_time / turns * 1000:.1f} ms, engine and views {(total - bot_time) / turns * 1000:.1f} ms per player-turn); "
          f"{turns / wall:.0f} player-turns/s by the wall clock")


if __name__ == "__main__":
    main()
