"""Soak: many bot games, counting failures and player-turns per second.

Not a test: it prints figures.  Run with
``.venv/bin/python benchmarks/soak.py [--games 1000] [--scenario test-skirmish ...] [--mode protocol|engine]``.

``protocol`` (the default) plays each game as ``pbem demo`` does — three
identities, signed and sealed turn and orders files on disk, verify and
audit at the end — so a failure is any exception, any finding of verify or
audit, or a game that does not end.  ``engine`` plays in process through
the referee's step without keys or files (:mod:`pbem.bot.selfplay`).
Games cycle through every pairing of the two policies, both editions and
the scenarios given, with a different seed each.
"""

from __future__ import annotations

import argparse
import itertools
import tempfile
import time
import traceback
from pathlib import Path

from pbem.bot.demo import run_demo
from pbem.bot.selfplay import play_out
from pbem.loading.datafiles import load_scenario

POLICIES = [("greedy", "greedy"), ("random", "random"), ("greedy", "random"), ("random", "greedy")]
EDITIONS = ["dg-2009", "spi-1975"]


def one_game(mode: str, scenario: str, us: str, jp: str, edition: str, seed: int, work: Path) -> tuple[int, str | None]:
    """Player-turns played, and what went wrong (None when nothing did)."""
    if mode == "engine":
        game = play_out(load_scenario(scenario), {"US": us, "JP": jp}, seed=seed, edition=edition)
        return game.player_turns, None if game.final.over else "the game did not end"
    result = run_demo(scenario, work / f"game-{seed}", seed=seed, edition=edition, policies={"US": us, "JP": jp})
    if result.verify_findings:
        return result.player_turns, f"verify: {result.verify_findings[0].render()}"
    if not result.audit.ok:
        return result.player_turns, f"audit: {result.audit.findings[0].render()}"
    return result.player_turns, None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--scenario", action="append", help="a scenario id (repeatable); default test-skirmish")
    parser.add_argument("--mode", choices=("protocol", "engine"), default="protocol")
    args = parser.parse_args()
    scenarios = args.scenario or ["test-skirmish"]
    plan = itertools.islice(itertools.cycle(itertools.product(scenarios, POLICIES, EDITIONS)), args.games)
    failures: list[str] = []
    turns = 0
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for seed, (scenario, (us, jp), edition) in enumerate(plan):
            label = f"game {seed}: {scenario} {us}/{jp} {edition}"
            try:
                played, problem = one_game(args.mode, scenario, us, jp, edition, seed, Path(tmp))
            except Exception:  # noqa: BLE001 - a soak counts every failure and goes on
                played, problem = 0, traceback.format_exc(limit=3)
            turns += played
            if problem:
                failures.append(f"{label}: {problem}")
            if (seed + 1) % 50 == 0:
                print(f"  {seed + 1} games, {len(failures)} failure(s), {time.perf_counter() - start:.0f} s", flush=True)
    elapsed = time.perf_counter() - start
    print(f"{args.games} games ({args.mode}), {len(failures)} failure(s), {turns} player-turns in {elapsed:.1f} s: "
          f"{turns / elapsed:.1f} player-turns/s")
    for f in failures[:20]:
        print(f"FAILED {f}")


if __name__ == "__main__":
    main()
