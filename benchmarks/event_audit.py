"""Benchmark: ``pbem audit`` of a whole event — by default 100 Leyte games — as an organiser runs it.

Not a test: it prints figures.  Run with ``.venv/bin/python benchmarks/event_audit.py``
(``--games 100``, ``--distinct 5``, ``--scenario leyte-assault``, ``--rounds 3``, ``--target 30``, ``--jobs N``).

``--distinct`` games are played bot against bot through the real files
with a referee (:mod:`tests.event_games`, as ``pbem demo`` plays them), each
with the referee's reveal file in its folder; they are copied into folders
of their own until the event holds ``--games`` games (playing a hundred
Leyte games would take minutes and time nothing the audit does: each copy
is read, verified, replayed and confirmed in full, as a distinct game is,
and the report notes the repeated game ids).  The whole event is then
audited ``--rounds`` times by ``python -m pbem audit EVENT --json`` in a
fresh process, as a user runs it; the median wall-clock and CPU times are
printed against ``--target`` seconds ("well under a minute": 30 s).  The
test suite runs it on a tiny budget (``tests/test_event_benchmark.py``).
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.event_games import play_game  # noqa: E402


def build_event(base: Path, scenario: str, games: int, distinct: int) -> tuple[Path, float]:
    """``base/event`` with ``games`` game folders (``distinct`` of them played, the rest copies); the seconds spent playing."""
    played, started = [], time.perf_counter()
    for seed in range(min(distinct, games)):
        played.append(play_game(base / "played" / f"game-{seed}", scenario, seed=seed))
    spent = time.perf_counter() - started
    event = base / "event"
    for n in range(games):
        shutil.copytree(played[n % len(played)], event / f"g{n:03d}")
    return event, spent


def audit_once(event: Path, jobs: int | None = None) -> tuple[float, float, dict]:
    """Wall-clock and CPU seconds of one ``pbem audit EVENT --json`` in a fresh process, and its report."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    command = [sys.executable, "-m", "pbem", "audit", str(event), "--json"] + ([] if jobs is None else ["--jobs", str(jobs)])
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"pbem audit exited {done.returncode}: {done.stderr or done.stdout[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--distinct", type=int, default=5)
    parser.add_argument("--scenario", default="leyte-assault")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=None, help="pbem audit --jobs (default: pbem's own, one process per CPU)")
    parser.add_argument("--target", type=float, default=30.0, help="seconds the audit of the event should stay under")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pbem-event-") as temp:
        event, spent = build_event(Path(temp), args.scenario, args.games, args.distinct)
        print(f"event: {args.games} {args.scenario} game(s) ({args.distinct} played in {spent:.1f} s, the rest copies)")
        walls, cpus = [], []
        for _ in range(args.rounds):
            wall, cpu, report = audit_once(event, args.jobs)
            walls.append(wall)
            cpus.append(cpu)
        totals = report["totals"]
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        print(f"pbem audit: {totals['games']} game(s), {totals['holds']} hold, {totals['adjudications_replayed']} adjudication(s) "
              f"replayed, {totals['views_checked']} sealed view(s) confirmed, {totals['rolls']} roll(s)")
        print(f"wall clock: median {wall:.2f} s of {args.rounds} round(s) ({', '.join(f'{w:.2f}' for w in walls)}); "
              f"CPU {cpu:.2f} s; {1000 * wall / args.games:.0f} ms per game")
        print(f"target: under {args.target:.0f} s for the event: {'met' if wall < args.target else 'MISSED'}")
        return 0 if totals["holds"] == args.games else 1


if __name__ == "__main__":
    sys.exit(main())
